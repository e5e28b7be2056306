import { cyclicEdges, loopThrough, type Graph } from './graph.js'

/** Folders of host/server below the doors: they never reach up into the API, the console or the pages. */
const LOWER = /^host\/server\/(domain|auth|people|pdf|db|jobs|workers|webhooks|events|storage|images|mail|tables)\//
const UPPER = /^host\/(server\/(api|console)\/|app\/)/
/** The server, all of it, and the pages: the server never imports the pages (their words included). */
const SERVER = /^host\/server\//
const PAGES = /^host\/app\//
/** What the server and the pages share (languages, the words core): it imports neither. */
const SHARED = /^host\/shared\//
const SIDES = /^host\/(app|server)\//

/**
 * What breaks the layers, one readable line each: an import on a cycle that `allowed` does not list
 * (printed as the whole loop), an allowed import that no longer closes a cycle (so the list only
 * shrinks), a file of the server importing the pages, a shared file importing either side, and a lower folder of the server importing
 * an upper one.
 */
export function layerProblems(graph: Graph, allowed: readonly string[]): string[] {
  const problems: string[] = []
  const onCycle = cyclicEdges(graph)
  const listed = new Set(allowed)
  for (const edge of onCycle) {
    if (listed.has(edge)) continue
    const [from, to] = edge.split(' -> ') as [string, string]
    problems.push(`import cycle: ${loopThrough(graph, from, to)}`)
  }
  const current = new Set(onCycle)
  for (const edge of allowed) if (!current.has(edge)) problems.push(`no longer on a cycle, delete it from the allowed list: ${edge}`)
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (SHARED.test(from) && SIDES.test(to)) problems.push(`layer: ${from} -> ${to} (host/shared imports neither the server nor the pages)`)
      else if (SERVER.test(from) && PAGES.test(to)) problems.push(`layer: ${from} -> ${to} (the server never imports host/app: what both need lives in host/shared)`)
      else if (LOWER.test(from) && UPPER.test(to)) problems.push(`layer: ${from} -> ${to} (the folders below the doors never import api/, console/ or the pages)`)
    }
  }
  return problems
}

/** The doors of the server: the API, the console's API, and the files at its top (pages, landing, health, start, CLI). */
const DOOR = /^host\/server\/(api\/|console\/|[^/]+\.ts$)/
/** A statement sent to the database: `.query(`/`.query<T>(` (not Hono's `c.req.query()`), or `db.exec(`/`tx.exec(`. */
const SQL = /(?<!\breq)\.query\s*(?:<[^()]*?>)?\s*\(|\b(?:db|tx)\.exec\s*\(/

/** Doors that send SQL themselves rather than calling a domain, people, auth, jobs or db operation, one line each. */
export function sqlProblems(sources: ReadonlyMap<string, string>): string[] {
  return [...sources].filter(([file, text]) => DOOR.test(file) && SQL.test(text)).map(([file]) => `SQL in a door (move it into a domain operation): ${file}`)
}

/** A transaction opened: `db.transaction(`, `ctx.db.transaction (`... */
const TRANSACTION = /\.transaction\s*\(/

/** Doors that open a transaction rather than calling the operation that opens its own, one line each. */
export function transactionProblems(sources: ReadonlyMap<string, string>): string[] {
  return [...sources].filter(([file, text]) => DOOR.test(file) && TRANSACTION.test(text)).map(([file]) => `a transaction opened in a door (the operation it calls opens it): ${file}`)
}

/** The longest a function may be, in lines from its first to its last: a longer one is split into parts that name what they do. */
export const MAX_FUNCTION_LINES = 150

/** What a function is called where it is declared: its own name, the variable, property or method it is, else the call it is handed to. */
function functionName(ts: typeof import('typescript'), node: import('typescript').SignatureDeclaration, source: import('typescript').SourceFile): string {
  if (node.name) return node.name.getText(source)
  const parent = node.parent
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText(source)
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(source)}(…)`
  if (ts.isExportAssignment(parent)) return 'default'
  return '(anonymous)'
}

/**
 * Functions (declarations, function expressions, arrow functions, methods, accessors,
 * constructors) over `max` lines, measured with the TypeScript parser, one line each:
 * `path:line name (N lines)`.
 */
export function longFunctions(ts: typeof import('typescript'), sources: ReadonlyMap<string, string>, max = MAX_FUNCTION_LINES): string[] {
  const out: string[] = []
  for (const [file, text] of sources) {
    // A file shorter than the limit holds no function longer than it: no need to parse it.
    if (text.split('\n').length <= max) continue
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
    const visit = (node: import('typescript').Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
        const lines = last - first + 1
        if (lines > max) out.push(`${file}:${first + 1} ${functionName(ts, node, source)} (${lines} lines)`)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return out
}
