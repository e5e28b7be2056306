import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** File -> the files it imports (type-only imports, re-exports and import() included), repo-relative. */
export type Graph = Map<string, Set<string>>

const SOURCE = /\.tsx?$/
const STYLE = /\.css$/

function sourceFiles(dir: string, kind = SOURCE): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name === 'dist') return []
    if (statSync(path).isDirectory()) return sourceFiles(path, kind)
    return kind.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** A relative specifier as the bundler resolves it: `.js` written for `.ts`/`.tsx`, a folder's index. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  const stem = base.replace(/\.(js|jsx|mjs)$/, '')
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}

// `import x from`, `import type`, `export ... from` (a statement without parentheses or `=` up to
// `from`), a bare `import './x'`, and `import('./x')`. Faster than a parser, and these are all the
// forms the code uses.
const STATIC = /^\s*(?:import|export)\b[^'"();=]*?\bfrom\s*['"]([^'"]+)['"]/gm
const BARE = /^\s*import\s*['"]([^'"]+)['"]/gm
const DYNAMIC = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g

export function specifiers(source: string): string[] {
  return [STATIC, BARE, DYNAMIC].flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!))
}

/** The text of every source file under `roots` (folders relative to `repo`), by repo-relative path. */
export function sourceTexts(repo: string, roots: string[]): Map<string, string> {
  return new Map(roots.flatMap((root) => sourceFiles(join(repo, root))).map((file) => [relative(repo, file), readFileSync(file, 'utf8')]))
}

/** The text of every style sheet (.css) under `roots`, by repo-relative path. */
export function styleTexts(repo: string, roots: string[]): Map<string, string> {
  return new Map(roots.flatMap((root) => sourceFiles(join(repo, root), STYLE)).map((file) => [relative(repo, file), readFileSync(file, 'utf8')]))
}

/** The import graph of the files under `roots` (folders relative to `repo`); imports leaving them are dropped. */
export function importGraph(repo: string, roots: string[]): Graph {
  const files = roots.flatMap((root) => sourceFiles(join(repo, root)))
  const known = new Set(files)
  const graph: Graph = new Map()
  for (const file of files) {
    const targets = new Set<string>()
    for (const fileName of specifiers(readFileSync(file, 'utf8'))) {
      if (!fileName.startsWith('.')) continue
      const target = resolveRelative(file, fileName)
      if (target && known.has(target)) targets.add(relative(repo, target))
    }
    graph.set(relative(repo, file), targets)
  }
  return graph
}

/** Tarjan's strongly connected components with more than one file, or one file importing itself. */
export function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort())
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return found
}

/** Imports that lie on a cycle, as "from -> to": the edges inside a strongly connected component. */
export function cyclicEdges(graph: Graph): string[] {
  const edges: string[] = []
  for (const component of cycles(graph)) {
    const members = new Set(component)
    for (const from of component) {
      for (const to of graph.get(from) ?? []) if (members.has(to)) edges.push(`${from} -> ${to}`)
    }
  }
  return edges.sort()
}

/** The shortest way back from `to` to `from`, so an edge on a cycle prints as the whole loop. */
export function loopThrough(graph: Graph, from: string, to: string): string {
  const previous = new Map<string, string>([[to, to]])
  const queue = [to]
  while (queue.length > 0) {
    const node = queue.shift()!
    if (node === from) break
    for (const next of graph.get(node) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, node)
        queue.push(next)
      }
    }
  }
  if (!previous.has(from)) return `${from} -> ${to}`
  const path = [from]
  for (let node = from; node !== to; ) {
    node = previous.get(node)!
    path.push(node)
  }
  return [from, ...path.reverse()].join(' -> ')
}
