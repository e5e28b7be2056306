import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appCycles, serverCycles } from './layers/allowed.js'
import { cycles, importGraph, specifiers, type Graph } from './layers/graph.js'
import { layerProblems } from './layers/rules.js'

// The import graph of the library, the server and the pages, read from the sources (type imports
// included: a cycle of types still ties the files' layers together).
const repo = resolve(import.meta.dirname, '../..')

const fake = (edges: Record<string, string[]>): Graph =>
  new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]))

describe('the check itself', () => {
  it('reads every import form and finds cycles, printed as the loop, stale allowances and upward imports', () => {
    const source = [
      "import a from './a.js'",
      "import type { B } from '../b'",
      "export { c } from './c.js'",
      "export * from './d'",
      "import './e.css'",
      'import {\n  f,\n  g,\n} from "./fg.js"',
      "const h = await import('./h.js')",
      "import pdf from 'pdf-lib'",
    ].join('\n')
    expect(specifiers(source).sort()).toEqual(['../b', './a.js', './c.js', './d', './e.css', './fg.js', './h.js', 'pdf-lib'])

    const graph = fake({
      'host/server/domain/a.ts': ['host/server/domain/b.ts', 'host/server/api/http.ts'],
      'host/server/domain/b.ts': ['host/server/domain/c.ts'],
      'host/server/domain/c.ts': ['host/server/domain/a.ts'],
      'host/server/api/http.ts': [],
      'src/x.ts': ['src/x.ts'],
    })
    expect(cycles(graph)).toEqual([
      ['host/server/domain/a.ts', 'host/server/domain/b.ts', 'host/server/domain/c.ts'],
      ['src/x.ts'],
    ])
    const allowed = ['host/server/domain/a.ts -> host/server/domain/b.ts', 'host/server/domain/b.ts -> host/server/domain/a.ts']
    expect(layerProblems(graph, allowed)).toEqual([
      'import cycle: host/server/domain/b.ts -> host/server/domain/c.ts -> host/server/domain/a.ts -> host/server/domain/b.ts',
      'import cycle: host/server/domain/c.ts -> host/server/domain/a.ts -> host/server/domain/b.ts -> host/server/domain/c.ts',
      'import cycle: src/x.ts -> src/x.ts',
      'no longer on a cycle, delete it from the allowed list: host/server/domain/b.ts -> host/server/domain/a.ts',
      'layer: host/server/domain/a.ts -> host/server/api/http.ts (domain, auth, people, pdf, db and jobs never import api/, console/ or the pages)',
    ])
  })
})

describe('the layers of the repository', () => {
  it('have no import cycle in src and host/server, no new one in host/app/src, and no lower server folder importing api/, console/ or the pages', () => {
    const graph = importGraph(repo, ['src', 'host/server', 'host/app/src'])
    expect(graph.size).toBeGreaterThan(200)
    // Any problem prints as its own line, each cycle as the path that closes it.
    expect(layerProblems(graph, [...serverCycles, ...appCycles]).join('\n')).toBe('')
  })
})
