/**
 * API v2's route table (host/server/contract/api-v2.ts) against the routes the OpenAPI document
 * lists and the handlers that answer them: every route is in the table, and every handler that
 * answers JSON checks its answer against the table's (`satisfies V2Answer<'…'>`), so tsc holds
 * each answer to its declared shape. No host: the sources and the registry are read.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../host/server/api/openapi.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const table = readFileSync(path.join(ROOT, 'host/server/contract/api-v2.ts'), 'utf8')
const routes = [...table.matchAll(/^ {2}'((?:GET|POST) [^']+)': \{ answer: (.+) \}$/gm)].map((m) => ({ key: m[1]!, answer: m[2]! }))

/** `/envelope/{envelopeId}` (OpenAPI) as `/envelope/:envelopeId` (the table's form). */
const tableForm = (method: string, p: string) => `${method.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`

/** Answered as the JSON text the envelope cache holds, made by the typed mapper of EnvelopeAnswer. */
const STORED_TEXT = new Set(['GET /envelope/:envelopeId'])

describe('the API v2 route table', () => {
  it('lists every route of API v2 the OpenAPI document describes (the deprecated ones apart), and no other', () => {
    expect(routes.length).toBeGreaterThan(40)
    const documented = ROUTES.filter((r) => !r.deprecated).map((r) => tableForm(r.method, r.path))
    expect(routes.map((r) => r.key).sort()).toEqual(documented.sort())
  })

  it('is what every JSON answer is checked against, in the handler that gives it', () => {
    const apiDir = path.join(ROOT, 'host/server/api')
    const sources = readdirSync(apiDir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(path.join(apiDir, f), 'utf8'))
      .join('\n')
    const checked = new Set([...sources.matchAll(/V2Answer<([^>]+)>/g)].flatMap((m) => [...m[1]!.matchAll(/'([^']+)'/g)].map((k) => k[1]!)))
    const unchecked = routes.filter((r) => r.answer !== 'Pdf' && r.answer !== 'Csv' && !STORED_TEXT.has(r.key) && !checked.has(r.key)).map((r) => r.key)
    expect(unchecked, 'handlers answering without `satisfies V2Answer<…>`').toEqual([])
    expect([...checked].filter((k) => !routes.some((r) => r.key === k)), 'checks against routes the table does not hold').toEqual([])
  })
})
