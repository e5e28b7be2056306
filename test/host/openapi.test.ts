/**
 * API v2 describes itself (OpenAPI 3.1): the document against the served routes and schemas.
 * Database: the embedded one (API rules).
 */
import { z } from 'zod'
import { UpdateBody } from '../../host/server/api/envelope.js'
import { UpdateMany as ItemUpdateMany } from '../../host/server/api/item.js'
import { jsonSchema } from '../../host/server/api/openapi.js'
import { routeShape, servedRoutes } from './routes.js'
import { describe, expect, newTeam, test } from './fixtures.js'
import { api, type Api, type TestHost } from './support.js'

type Json = any

/** Pages of the reference, not API operations. */
const NOT_OPERATIONS = new Set(['GET /docs', 'GET /docs/assets/{}'])

/** `/envelope/{envelopeId}` as `/envelope/{}`, the shape routeShape gives a served route. */
const docShape = (p: string) => p.replace(/\{\w+\}/g, '{}')

/** The documented operations: `METHOD /path` (OpenAPI form) with the operation. */
function operations(doc: Json): { method: string; path: string; op: Json }[] {
  return Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  )
}

/** A tiny JSON Schema (2020-12 subset) check: the keywords zod emits for request schemas. */
function valid(schema: Json, value: unknown, root: Json): boolean {
  if (schema === true || schema === undefined) return true
  if (schema === false) return false
  if (schema.$ref) return valid(resolvePointer(root, schema.$ref), value, root)
  if (schema.anyOf && !schema.anyOf.some((s: Json) => valid(s, value, root))) return false
  if (schema.oneOf && schema.oneOf.filter((s: Json) => valid(s, value, root)).length !== 1) return false
  if (schema.allOf && !schema.allOf.every((s: Json) => valid(s, value, root))) return false
  if ('const' in schema && value !== schema.const) return false
  if (schema.enum && !schema.enum.includes(value)) return false
  if (schema.type) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type]
    const typeOf =
      value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value
    if (!types.some((t) => t === typeOf || (t === 'number' && typeOf === 'integer'))) return false
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return false
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return false
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) return false
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return false
    if (schema.maximum !== undefined && value > schema.maximum) return false
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false
    if (schema.items && !value.every((v) => valid(schema.items, v, root))) return false
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const o = value as Record<string, unknown>
    for (const k of schema.required ?? []) if (!(k in o)) return false
    for (const [k, v] of Object.entries(o)) {
      if (schema.properties && k in schema.properties) {
        if (!valid(schema.properties[k], v, root)) return false
      } else if (schema.additionalProperties !== undefined && !valid(schema.additionalProperties, v, root)) return false
    }
  }
  return true
}

function resolvePointer(root: Json, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`not a local $ref: ${ref}`)
  let at = root
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~')
    if (at === null || typeof at !== 'object' || !(key in at)) throw new Error(`unresolved $ref ${ref}`)
    at = at[key]
  }
  return at
}

/** Every `$ref` anywhere in the document. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out))
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v)
      else refs(v, out)
    }
  }
  return out
}

describe('API v2 describes itself (OpenAPI 3.1)', () => {
  let host: TestHost
  let client: Api
  let anonymous: Api
  let doc: Json

  test.beforeAll(async ({ hosts }) => {
    host = await hosts.on('pglite')
    // A team of its own on the worker's host, enterprise as the default team.
    client = (await newTeam(host, { plan: 'enterprise' })).client
    anonymous = api(host.apiUrl)
    const res = await anonymous.get('/openapi.json')
    expect(res.status).toBe(200)
    doc = res.body
  })

  test('serves the document without a token, under /api/v2-beta too, with CORS', async () => {
    const res = await fetch(`${host.apiUrl}/openapi.json`, { headers: { Origin: 'https://example.com' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('content-type')).toContain('application/json')
    const beta = await fetch(`${host.url}/api/v2-beta/openapi.json`)
    expect(beta.status).toBe(200)
    expect(await beta.json()).toEqual(doc)
    const preflight = await fetch(`${host.apiUrl}/openapi.json`, { method: 'OPTIONS', headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'GET' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    // The rest of the API still needs its token.
    expect((await anonymous.get('/envelope')).status).toBe(401)
    expect((await anonymous.get('/webhook')).status).toBe(401)
  })

  test('is OpenAPI 3.1 in shape: info, servers, paths, components, security; every $ref resolves', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/)
    expect(doc.info.title).toBeTruthy()
    expect(doc.info.version).toBeTruthy()
    expect(doc.servers).toEqual([{ url: '/api/v2' }])
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' })
    expect(doc.security).toEqual([{ apiToken: [] }])
    const all = refs(doc)
    expect(all.length).toBeGreaterThan(50)
    for (const r of new Set(all)) expect(() => resolvePointer(doc, r), r).not.toThrow()
    const ids = new Set<string>()
    for (const { method, path, op } of operations(doc)) {
      const at = `${method} ${path}`
      expect(['GET', 'POST'], at).toContain(method)
      expect(path, at).toMatch(/^\//)
      expect(op.operationId, at).toBeTruthy()
      expect(ids.has(op.operationId), `${at}: duplicate operationId`).toBe(false)
      ids.add(op.operationId)
      expect(op.summary, at).toBeTruthy()
      expect(op.tags?.length, at).toBe(1)
      expect(op.responses['200'], at).toBeDefined()
      // Path parameters: exactly those of the template, required.
      const declared = (op.parameters ?? []).filter((p: Json) => p.in === 'path').map((p: Json) => p.name).sort()
      expect(declared, at).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort())
      for (const p of op.parameters ?? []) if (p.in === 'path') expect(p.required, at).toBe(true)
      // Every error is the {message, code, issues?} shape; protected routes document 401.
      for (const [status, res] of Object.entries(op.responses as Record<string, Json>)) {
        if (status === '200') continue
        const r = res.$ref ? resolvePointer(doc, res.$ref) : res
        expect(r.content['application/json'].schema, `${at} ${status}`).toEqual({ $ref: '#/components/schemas/Error' })
      }
      if (op.security?.length === 0) expect(op.responses['401'], at).toBeUndefined()
      else expect(op.responses['401'], at).toBeDefined()
      if (op.requestBody) expect(op.responses['400'], `${at}: takes input, so can refuse it`).toBeDefined()
    }
    expect(doc.components.schemas.Error.required).toEqual(['message', 'code'])
  })

  test('documents every route the API v2 router serves, and no route it does not serve', () => {
    const served = new Set(
      servedRoutes()
        .filter((r) => r.path.startsWith('/api/v2/'))
        .map((r) => `${r.method} ${routeShape(r.path.slice('/api/v2'.length))}`)
        .filter((r) => !NOT_OPERATIONS.has(r)),
    )
    const documented = new Set(operations(doc).map(({ method, path }) => `${method} ${docShape(path)}`))
    expect(served.size).toBeGreaterThan(80)
    expect([...served].filter((r) => !documented.has(r)), 'served but not documented').toEqual([])
    expect([...documented].filter((r) => !served.has(r)), 'documented but not served').toEqual([])
    // The deprecated routes are marked.
    for (const { path, op } of operations(doc)) expect(!!op.deprecated, path).toBe(/^\/(document|template)(\/|$)/.test(path))
    // The groups the brief names are there.
    for (const p of ['/webhook/create', '/envelope/distribute', '/envelope/use', '/envelope/duplicate', '/envelope/{envelopeId}/audit-log', '/envelope/{envelopeId}/certificate/download', '/template/use']) {
      expect(doc.paths[p], p).toBeDefined()
    }
  })

  test('every documented operation answers on a real host (the route exists; no 5xx)', async () => {
    const failures: string[] = []
    for (const { method, path, op } of operations(doc)) {
      let p = path
      for (const param of op.parameters ?? []) if (param.in === 'path') p = p.replace(`{${param.name}}`, encodeURIComponent(String(param.example)))
      const res = method === 'GET' ? await client.get(p) : await client.post(p, {})
      const body = res.body as Json
      const noRoute = res.status === 404 && body?.code === 'NOT_FOUND' && /^no route for /.test(body?.message ?? '')
      if (noRoute || res.status >= 500) failures.push(`${method} ${p}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`)
      if (op.deprecated) expect(res.headers.get('deprecation'), `${method} ${p}`).toBe('true')
      // An error answer has the documented shape, with a status the operation documents.
      if (res.status >= 400) {
        expect(Object.keys(op.responses), `${method} ${p} answered ${res.status}`).toContain(String(res.status))
        expect(typeof body.message === 'string' && typeof body.code === 'string', `${method} ${p}`).toBe(true)
      }
    }
    expect(failures).toEqual([])
  })

  test('request bodies are the validating zod schemas: the document refuses what the route refuses', async () => {
    const bodyOf = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema
    // The same conversion of the same schema object.
    expect(bodyOf('/envelope/update')).toEqual(jsonSchema(UpdateBody))
    expect(bodyOf('/envelope/item/update-many')).toEqual(jsonSchema(ItemUpdateMany))
    const { $schema: _, ...direct } = z.toJSONSchema(UpdateBody, { target: 'draft-2020-12', io: 'input' }) as Json
    expect(bodyOf('/envelope/update')).toEqual(direct)

    // Envelope and item ids that exist nowhere: an accepted shape ends in 404, a refused one in 400.
    const envelopeId = 'envelope_0000000000000000'

    const cases: { path: string; bad: unknown; good: unknown }[] = [
      { path: '/envelope/update', bad: { envelopeId, data: { title: 'T', colour: 'red' } }, good: { envelopeId, data: { title: 'T' } } },
      { path: '/envelope/update', bad: { envelopeId: 'nope', data: { title: 'T' } }, good: { envelopeId, meta: { signingOrder: 'SEQUENTIAL' } } },
      { path: '/envelope/item/update-many', bad: { envelopeId, data: [{ envelopeItemId: 'x', colour: 'red' }] }, good: { envelopeId, data: [{ envelopeItemId: 'x', order: 2 }] } },
      { path: '/envelope/item/update-many', bad: { envelopeId, data: [] }, good: { envelopeId, data: [{ envelopeItemId: 'x' }] } },
      { path: '/envelope/recipient/create-many', bad: { envelopeId, data: [{ email: 'a@example.com', role: 'BOSS' }] }, good: { envelopeId, data: [{ email: 'a@example.com', role: 'SIGNER' }] } },
      { path: '/webhook/create', bad: { url: 'https://example.com/hook' }, good: { url: 'https://127.0.0.1/hook', events: ['DOCUMENT_SENT'] } },
      { path: '/envelope/field/create-many', bad: { envelopeId, data: [{ recipientId: 1, type: 'SIGNATURE', page: 0, positionX: 1, positionY: 1, width: 1, height: 1 }] }, good: { envelopeId, data: [{ recipientId: 1, type: 'SIGNATURE', placeholder: '{{sign}}' }] } },
    ]
    for (const { path, bad, good } of cases) {
      const schema = bodyOf(path)
      expect(valid(schema, bad, doc), `${path}: the document refuses ${JSON.stringify(bad)}`).toBe(false)
      expect(valid(schema, good, doc), `${path}: the document accepts ${JSON.stringify(good)}`).toBe(true)
      const refused = await client.post(path, bad as object)
      expect(refused.status, `${path} refuses ${JSON.stringify(bad)}`).toBe(400)
      expect(refused.body.code).toBe('INVALID_REQUEST')
      // What the document accepts passes validation: any refusal is not about the request's shape.
      const accepted = await client.post(path, good as object)
      expect(accepted.body?.code, `${path} accepts the shape of ${JSON.stringify(good)}`).not.toBe('INVALID_REQUEST')
    }
  })

  test('serves the interactive reference from its own files, with a strict CSP, without a token', async () => {
    const res = await fetch(`${host.apiUrl}/docs`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("style-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toMatch(/https?:/)
    const html = await res.text()
    // No inline script, nothing from elsewhere.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//)
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(assets).toEqual(expect.arrayContaining(['docs/assets/swagger-ui-bundle.js', 'docs/assets/init.js', 'docs/assets/swagger-ui.css']))
    for (const a of assets) {
      const url = new URL(a, `${host.apiUrl}/docs`)
      expect(url.pathname.startsWith('/api/v2/docs/assets/'), a).toBe(true)
      const asset = await fetch(url)
      expect(asset.status, a).toBe(200)
      expect(asset.headers.get('content-security-policy'), a).toBe(csp)
      expect((await asset.arrayBuffer()).byteLength, a).toBeGreaterThan(0)
    }
    const init = await (await fetch(`${host.apiUrl}/docs/assets/init.js`)).text()
    expect(init).toContain('openapi.json')
    expect((await fetch(`${host.apiUrl}/docs/assets/secret.txt`)).status).toBe(404)
    expect((await fetch(`${host.apiUrl}/docs/assets/..%2Fpackage.json`)).status).toBe(404)
    // The beta alias serves the same page, whose relative links stay under it.
    expect((await fetch(`${host.url}/api/v2-beta/docs`)).status).toBe(200)
    expect((await fetch(`${host.url}/api/v2-beta/docs/assets/swagger-ui.css`)).status).toBe(200)
  })
})
