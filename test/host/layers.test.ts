import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appCycles, longFunctionsToSplit, serverCycles } from './layers/allowed.js'
import { cycles, importGraph, sourceTexts, specifiers, styleTexts, type Graph } from './layers/graph.js'
import ts from 'typescript'
import { layerProblems, longFunctions, sqlProblems, transactionProblems } from './layers/rules.js'

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
      'host/server/api/consent.ts': ['host/app/src/i18n/index.ts', 'host/shared/languages.ts'],
      'host/server/pdf/words.ts': ['host/app/src/verify/words.ts'],
      'host/app/src/i18n/index.ts': [],
      'host/shared/i18n.ts': ['host/shared/languages.ts', 'host/server/mail/i18n.ts'],
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
      'layer: host/server/domain/a.ts -> host/server/api/http.ts (the folders below the doors never import api/, console/ or the pages)',
      'layer: host/server/api/consent.ts -> host/app/src/i18n/index.ts (the server never imports host/app: what both need lives in host/shared)',
      'layer: host/server/pdf/words.ts -> host/app/src/verify/words.ts (the server never imports host/app: what both need lives in host/shared)',
      'layer: host/shared/i18n.ts -> host/server/mail/i18n.ts (host/shared imports neither the server nor the pages)',
    ])

    const sources = new Map([
      ['host/server/api/a.ts', "const q = parse(Query, c.req.query())\nconst rows = await ctx.db.query<Row>(\n  'select 1')"],
      ['host/server/console/b.ts', "await tx.exec('vacuum')"],
      ['host/server/pages.ts', "const token = c.req.query('token')"],
      ['host/server/api/c.ts', 'const found = /^x/.exec(path); if (r.query) {}'],
      ['host/server/domain/d.ts', "await db.query('select 1')"],
    ])
    expect(sqlProblems(sources)).toEqual([
      'SQL in a door (move it into a domain operation): host/server/api/a.ts',
      'SQL in a door (move it into a domain operation): host/server/console/b.ts',
    ])

    const opened = new Map([
      ['host/server/api/a.ts', 'const out = await ctx.db.transaction((tx) => createEnvelope(tx, p))'],
      ['host/server/console/b.ts', 'await ctx.db.transaction (async (tx) => {})'],
      ['host/server/cli.ts', 'createTeam: (o) => db.transaction((tx) => createTeam(tx, o)),'],
      ['host/server/api/c.ts', 'const id = await createEnvelope(ctx.db, p, actor, payload, files)'],
      ['host/server/domain/d.ts', 'return db.transaction(async (tx) => work(tx))'],
    ])
    expect(transactionProblems(opened)).toEqual([
      'a transaction opened in a door (the operation it calls opens it): host/server/api/a.ts',
      'a transaction opened in a door (the operation it calls opens it): host/server/console/b.ts',
      'a transaction opened in a door (the operation it calls opens it): host/server/cli.ts',
    ])
  })
  it('measures every kind of function and names each offender by where it is declared', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
    const source = [
      // 150 lines: within the rule.
      `export function declared() {\n${body(148)}\n}`,
      `export const arrow = () => {\n${body(150)}\n}`,
      `const handed = useMemo(() => {\n${body(3)}\n}, [])`,
      `export const wrapped = memo(function Named() {\n${body(151)}\n})`,
      `class Box {\n  method() {\n${body(160)}\n  }\n  short() {}\n}`,
      `const o = { prop: function () {\n${body(150)}\n} }`,
    ].join('\n')
    expect(longFunctions(ts, new Map([['host/app/src/x.tsx', source]]))).toEqual([
      'host/app/src/x.tsx:151 arrow (152 lines)',
      'host/app/src/x.tsx:308 Named (153 lines)',
      'host/app/src/x.tsx:462 method (162 lines)',
      'host/app/src/x.tsx:626 prop (152 lines)',
    ])
  })
})

describe('the layers of the repository', () => {
  it('have no import cycle in src and host/server, no new one in host/app/src, no file of the server importing the pages, none of host/shared importing either, and no folder below the doors of the server importing api/, console/ or the pages', () => {
    const graph = importGraph(repo, ['src', 'host/server', 'host/app/src', 'host/shared'])
    expect(graph.size).toBeGreaterThan(200)
    // Any problem prints as its own line, each cycle as the path that closes it.
    expect(layerProblems(graph, [...serverCycles, ...appCycles]).join('\n')).toBe('')
  })

  it('keep every source file and style sheet of the library, the server and the pages within 500 lines', () => {
    const roots = ['src', 'host/server', 'host/app/src']
    const files = [...sourceTexts(repo, roots), ...styleTexts(repo, roots)]
    expect(files.some(([file]) => file.endsWith('.css'))).toBe(true)
    const long = files.filter(([, text]) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0) > 500).map(([file]) => file)
    expect(long).toEqual([])
  })

  it('have no function over 150 lines in the library, the server and the pages: each offender as path:line name (N lines)', () => {
    const found = longFunctions(ts, sourceTexts(repo, ['src', 'host/server', 'host/app/src']))
    const named = (offender: string) => offender.replace(/:\d+ /, ' ').replace(/ \(\d+ lines\)$/, '')
    const listed = new Set(longFunctionsToSplit)
    const problems = [
      ...found.filter((offender) => !listed.has(named(offender))),
      ...longFunctionsToSplit.filter((entry) => !found.some((offender) => named(offender) === entry)).map((entry) => `no longer over 150 lines, delete it from longFunctionsToSplit: ${entry}`),
    ]
    expect(problems.join('\n')).toBe('')
  })

  it('have no SQL in the doors (API, console, pages, landing, health, start, CLI): they call operations of the lower folders', () => {
    expect(sqlProblems(sourceTexts(repo, ['host/server'])).join('\n')).toBe('')
  })

  it('open no transaction in the doors: each calls an operation that takes the database and opens its own', () => {
    expect(transactionProblems(sourceTexts(repo, ['host/server'])).join('\n')).toBe('')
  })
})
