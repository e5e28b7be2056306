/**
 * Hostile input on every route the host serves (read from its router): malformed and wrongly typed
 * JSON, oversized and deeply nested bodies, broken multipart, hostile PDFs and tables, hostile ids. Every
 * answer is below 500 and every refusal is the API's `{message, code}`; the host stays up.
 * Seeded, so each run sends the same requests.
 * Database: the embedded one (the answers to hostile input are the API's; the SQL is the same on both).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { lockFile } from '../../host/server/lock.js'
import { deepArray, deeplyNestedPdfs, deepObject, HOSTILE_IDS, hostilePdfs, MALFORMED_JSON, randomObject, seeded } from './hostile.js'
import { fillRoute, routeParams, servedRoutes, type ServedRoute } from './routes.js'
import { api, createEnvelope, form, makePdf, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'
import { hostileWorkbooks } from './tables/workbooks.js'

const MAX_UPLOAD = 4 * 1024 * 1024
const rng = seeded(0x5eed_f022)

/** The routes that take a multipart upload, with a payload that passes validation (so the files are read). */
const MULTIPART: Record<string, (ids: Fixture) => Record<string, unknown>> = {
  'POST /api/v2/envelope/create': () => ({ type: 'DOCUMENT', title: 'Fuzz' }),
  'POST /api/v2/envelope/item/create-many': (f) => ({ envelopeId: f.envelopeId }),
  'POST /api/v2/envelope/use': (f) => ({ envelopeId: f.templateId, customDocumentData: [{ identifier: 'a.pdf', envelopeItemId: f.templateItemId }] }),
  'POST /api/v2/pdf/form-fields': () => ({}),
  'POST /api/v2/document/create': () => ({ title: 'Fuzz' }),
  'POST /api/v2/document/create/beta': () => ({ title: 'Fuzz' }),
  'POST /api/v2/template/create': () => ({ title: 'Fuzz' }),
  'POST /api/v2/template/create/beta': () => ({ title: 'Fuzz' }),
  'POST /api/v1/documents': () => ({ title: 'Fuzz' }),
  'POST /api/v1/templates': () => ({ title: 'Fuzz' }),
}

interface Fixture {
  envelopeId: string
  itemId: string
  recipientId: number
  fieldId: number
  attachmentId: string
  templateId: string
  templateItemId: string
  templateRecipientId: number
  webhookId: string
  legacyNumber: number
  recipientToken: string
}

// Thousands of requests a test, each answered by the host in this process: allow for a busy machine.
describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('fuzz: hostile input on every route ($variant)', { timeout: 300_000 }, ({ variant, skip }) => {
  let host: TestHost
  let token: string
  let presign: string
  let adminSecret: string
  let client: Api
  let f: Fixture
  let pool: (string | number)[]
  let appDir: string
  const routes = servedRoutes()
  const failures: string[] = []
  let requests = 0

  /** One request; any 5xx, a refusal without `{message, code}` or no answer at all is recorded. */
  async function send(label: string, method: string, p: string, init: { body?: BodyInit; headers?: Record<string, string>; auth?: string | null } = {}) {
    const headers: Record<string, string> = { ...(init.headers ?? {}) }
    const auth = init.auth === undefined ? authFor(p) : init.auth
    if (auth) headers.Authorization = auth
    requests++
    let res: Response
    const go = () => fetch(host.url + p, { method, headers, ...(init.body === undefined || method === 'GET' ? {} : { body: init.body }) })
    try {
      // A kept-alive connection the server closed after a body it did not read: the same request
      // again, on a new connection, must be answered.
      res = await go().catch((err) => (err?.cause?.code === 'UND_ERR_SOCKET' ? go() : Promise.reject(err)))
    } catch (err) {
      failures.push(`${label}: ${method} ${p.slice(0, 120)}: no answer (${(err as Error).message}: ${String((err as any).cause?.code ?? (err as any).cause)}; body ${String(init.body).length} chars: ${String(init.body).slice(0, 40)})`)
      return null
    }
    const text = await res.text()
    const where = `${label}: ${method} ${p.slice(0, 120)} -> ${res.status}`
    if (res.status >= 500) failures.push(`${where} ${text.slice(0, 200)}`)
    else if (res.status >= 400) {
      let body: any
      try {
        body = JSON.parse(text)
      } catch {
        failures.push(`${where}: not JSON: ${text.slice(0, 100)}`)
        return res.status
      }
      if (typeof body?.message !== 'string' || typeof body?.code !== 'string') failures.push(`${where}: not {message, code}: ${text.slice(0, 100)}`)
    }
    return res.status
  }

  const authFor = (p: string) => (p.startsWith('/api/signing/') ? `Bearer ${f.recipientToken}` : p.startsWith('/_admin/') ? null : token)
  const adminHeaders = (p: string): Record<string, string> => (p.startsWith('/_admin/') ? { 'x-admin-secret': adminSecret } : {})

  /** A plausible value for each path parameter, so the hostile one is the only thing wrong. */
  function validParam(route: ServedRoute, name: string): string {
    const p = route.path
    if (name === 'token') return p.startsWith('/sign') || p.startsWith('/embed/sign') ? f.recipientToken : 'direct_nope'
    if (name === 'file') return 'swagger-ui.css'
    if (name === 'callId') return 'webhook_call_nope'
    if (name === 'n') return '0'
    if (p.startsWith('/mailbox')) return '1'
    if (p.startsWith('/api/v1/')) return name === 'id' ? String(f.legacyNumber) : String(name === 'fieldId' ? f.fieldId : f.recipientId)
    if (/\/(document|template)\//.test(p)) return /field/.test(p) ? String(f.fieldId) : /recipient/.test(p) ? String(f.recipientId) : String(f.legacyNumber)
    if (p.includes('/envelope/item/') || p.startsWith('/api/signing')) return f.itemId
    if (p.includes('/envelope/recipient/')) return String(f.recipientId)
    if (p.includes('/envelope/field/')) return String(f.fieldId)
    if (p.includes('/webhook/')) return f.webhookId
    if (p.startsWith('/embed/')) return f.envelopeId
    return f.envelopeId
  }

  async function alive() {
    const res = await client.get('/envelope?perPage=1')
    expect(res.status, 'the host still answers').toBe(200)
  }

  beforeAll(async () => {
    if (skip) return
    appDir = await mkdtemp(path.join(tmpdir(), 'fuzz-app-'))
    await mkdir(path.join(appDir, 'assets'))
    await writeFile(path.join(appDir, 'index.html'), '<!doctype html><title>app</title>')
    await writeFile(path.join(appDir, 'assets', 'app.js'), 'export {}')
    // No per-address limit on /verify: the suite sends it far more than 30 requests a minute on purpose.
    host = await startTestHost(variant, { maxUploadBytes: MAX_UPLOAD, appDistDir: appDir, queueConcurrency: 0, webhookAllowPrivateUrls: true, verifyRateLimit: 0 })
    // The admin routes exist only on the embedded database (its lock file holds their secret).
    adminSecret = variant === 'pglite' ? JSON.parse(await readFile(lockFile(host.config.dataDir), 'utf8')).adminSecret : ''
    token = (await host.createApiToken({ name: 'fuzz' })).token
    client = api(host.apiUrl, token)
    const e = await createEnvelope(client, {
      recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 10, height: 5 }] }],
    })
    const att = await client.post('/envelope/attachment/create', { envelopeId: e.id, data: { label: 'L', data: 'https://example.com' } })
    const t = await client.post('/envelope/create', form({ type: 'TEMPLATE', title: 'T', recipients: [{ email: 'b@example.com', name: 'B', role: 'SIGNER' }] }, [{ bytes: await makePdf(), name: 'a.pdf' }]))
    const template = (await client.get(`/envelope/${t.body.id}`)).body
    const hook = await client.post('/webhook/create', { url: 'http://127.0.0.1:9/hook', events: ['DOCUMENT_SENT'] })
    const sent = await createEnvelope(client, {
      recipients: [{ email: 'c@example.com', name: 'C', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 10, height: 5 }] }],
    })
    const dist = await client.post('/envelope/distribute', { envelopeId: sent.id })
    const legacy = await client.post('/document/create', form({ title: 'Legacy' }, [{ bytes: await makePdf(), name: 'l.pdf' }]))
    expect([att.status, t.status, hook.status, dist.status, legacy.status]).toEqual([200, 200, 200, 200, 200])
    presign = (await client.post('/embedding/create-presign-token', { scope: `envelopeId:${e.id}` })).body.token
    f = {
      envelopeId: e.id,
      itemId: e.envelopeItems[0].id,
      recipientId: e.recipients[0].id,
      fieldId: e.fields[0].id,
      attachmentId: att.body.id,
      templateId: template.id,
      templateItemId: template.envelopeItems[0].id,
      templateRecipientId: template.recipients[0].id,
      webhookId: hook.body.id,
      legacyNumber: legacy.body.id,
      recipientToken: dist.body.recipients[0].token,
    }
    pool = [f.envelopeId, f.itemId, f.recipientId, f.fieldId, f.attachmentId, f.templateId, f.webhookId, f.legacyNumber]
  })

  beforeEach(() => {
    failures.length = 0
  })

  afterAll(async () => {
    await host?.stop()
    if (appDir) await rm(appDir, { recursive: true, force: true })
    const peak = process.resourceUsage().maxRSS / 1024
    if (skip) return
    console.log(`fuzz on ${variant}: ${requests} requests over ${routes.length} routes; peak RSS of the test process (host in-process): ${peak.toFixed(0)} MiB`)
  })

  it.skipIf(skip)('enumerates the routes from the app', () => {
    expect(routes.length).toBeGreaterThan(140)
    const keys = new Set(routes.map((r) => `${r.method} ${r.path}`))
    for (const k of Object.keys(MULTIPART)) expect(keys.has(k), k).toBe(true)
    for (const prefix of ['/api/v2/envelope', '/api/v2/document/', '/api/v2/template/', '/api/v1/', '/api/signing/', '/embed/', '/sign/', '/api/v2/webhook', '/_admin/', '/mailbox']) {
      expect(routes.some((r) => r.path.startsWith(prefix)), prefix).toBe(true)
    }
  })

  it.skipIf(skip)('hostile ids in every path parameter', async () => {
    for (const route of routes.filter((r) => routeParams(r.path).length)) {
      const names = routeParams(route.path)
      for (const bad of HOSTILE_IDS) {
        for (let i = 0; i < names.length; i++) {
          const p = fillRoute(route.path, (name, at) => (at === i ? bad : encodeURIComponent(validParam(route, name))))
          await send('id', route.method, p, { headers: adminHeaders(p), body: route.method === 'GET' ? undefined : '{}' })
        }
      }
    }
    // The same in place of every wildcard (the pages' assets, the API docs' files...).
    for (const route of servedRoutes({ wildcards: true }).filter((r) => r.path.endsWith('*'))) {
      for (const bad of HOSTILE_IDS) await send('wildcard', route.method, route.path.replace('*', bad), { headers: adminHeaders(route.path) })
    }
    // Separators that change the path itself, under each prefix.
    for (const p of ['/api/v2/envelope/item/%00/download', '/api/v2/envelope/..%2F..%2Fteam', '/api/v2/%2e%2e/%2e%2e/etc/passwd', '/embed/assets/..%2F..%2Fpackage.json', '/embed/assets/%00', '/api/v2/docs/assets/%00', '/mailbox/%00/attachments/%00', '/api/signing/item/%00', '//api/v2/envelope', '/api/v2//envelope']) {
      await send('path', 'GET', p)
    }
    expect(failures).toEqual([])
    await alive()
  })

  it.skipIf(skip)('garbage query strings on every GET route', async () => {
    const queries = [
      '?page=-1&perPage=1e9&type=%00&version=%00&orderByDirection=%00',
      '?page=1&page=2&perPage[]=3&envelopeId=%00&token=%00&parentOrigin=%00&documentId=%00',
      `?envelopeId=${encodeURIComponent(f.envelopeId)}&token=${'t'.repeat(5000)}&page=99999999999999999999`,
      '?%=%&&=&a=%FF&parentOrigin=javascript:alert(1)&team=%00',
    ]
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const p = fillRoute(route.path, (name) => encodeURIComponent(validParam(route, name)))
      for (const q of queries) await send('query', 'GET', p + q, { headers: adminHeaders(p) })
    }
    expect(failures).toEqual([])
    await alive()
  })

  it.skipIf(skip)('malformed, wrongly typed, deeply nested and random JSON on every route that takes a body', async () => {
    const deep = [deepArray(100_000), deepObject(100_000), deepArray(1000), deepObject(200)]
    // Valid shapes carrying what PostgreSQL cannot store (NUL, lone surrogates) or nests too deep.
    const field = { recipientId: f.recipientId, type: 'TEXT', page: 1, positionX: 1, positionY: 1, width: 1, height: 1 }
    const nested = JSON.parse('{"a":'.repeat(100) + '1' + '}'.repeat(100))
    const unstorable = [
      { envelopeId: f.envelopeId, data: { title: 'a\u0000b' } },
      { envelopeId: f.envelopeId, meta: { subject: '\ud800' } },
      { envelopeId: f.envelopeId, data: [{ id: f.recipientId, name: 'x\u0000' }] },
      { envelopeId: f.envelopeId, data: [{ ...field, fieldMeta: { a: 'x\u0000' } }] },
      { envelopeId: f.envelopeId, data: [{ ...field, fieldMeta: { ['k\u0000']: 1 } }] },
      { envelopeId: f.envelopeId, data: [{ ...field, fieldMeta: nested }] },
      { id: f.attachmentId, data: { label: 'a\u0000', data: 'https://example.com' } },
      { reason: '\udc00', fields: [{ id: f.fieldId, value: '\u0000' }] },
    ].map((b) => JSON.stringify(b))
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const p = fillRoute(route.path, (name) => encodeURIComponent(validParam(route, name)))
      const headers = { 'Content-Type': 'application/json', ...adminHeaders(p) }
      for (const body of [...MALFORMED_JSON, ...deep, ...unstorable]) await send('json', route.method, p, { body, headers })
      for (let i = 0; i < 8; i++) await send('random', route.method, p, { body: JSON.stringify(randomObject(rng, pool)), headers })
      // Wrong content types for a JSON body.
      await send('form-encoded', route.method, p, { body: 'envelopeId=x&data=%00', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...adminHeaders(p) } })
      await send('binary', route.method, p, { body: new Uint8Array([0, 0xff, 0xfe, 0x00, 0x7b]), headers: { 'Content-Type': 'application/octet-stream', ...adminHeaders(p) } })
    }
    expect(failures).toEqual([])
    await alive()
  })

  it.skipIf(skip)('oversized bodies, declared and chunked', async () => {
    const big = new Uint8Array(MAX_UPLOAD + 1).fill(0x7b)
    for (const route of routes.filter((r) => r.method !== 'GET' && !r.path.startsWith('/_admin') && !r.path.startsWith('/mailbox'))) {
      const p = fillRoute(route.path, (name) => encodeURIComponent(validParam(route, name)))
      const status = await send('oversized', route.method, p, { body: big, headers: { 'Content-Type': 'application/json' } })
      if (status !== null && status !== 413 && status !== 404 && status !== 401) failures.push(`oversized ${route.method} ${p}: ${status}, expected 413`)
    }
    const chunked = await fetch(`${host.apiUrl}/envelope/update`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(MAX_UPLOAD / 4))
          controller.close()
        },
      }),
      duplex: 'half',
    } as RequestInit)
    expect(chunked.status).toBe(413)
    expect(failures).toEqual([])
    await alive()
  })

  it.skipIf(skip)('broken multipart on every route that takes a body', async () => {
    const b = 'fuzzboundary'
    const part = (name: string, body: string, filename?: string) =>
      `--${b}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n${body}\r\n`
    const broken: [string, string][] = [
      ['multipart/form-data', `${part('payload', '{}')}--${b}--\r\n`], // no boundary parameter
      [`multipart/form-data; boundary=${b}`, part('payload', '{"type":"DOCUMENT"}')], // never closed
      [`multipart/form-data; boundary=${b}`, `--other\r\n\r\n--other--`], // another boundary
      [`multipart/form-data; boundary=${b}`, `--${b}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${b}--\r\n`], // part without a name
      [`multipart/form-data; boundary=${b}`, `${part('payload', '{"type":"DOCUMENT"}')}${part('files', '%PDF-1.7 not really', 'a.pdf')}--${b}--\r\n`],
      [`multipart/form-data; boundary=${b}`, `${part('payload', '{"type":"DOCUMENT","recipients":"x"}')}${part('files', 'text, not a file')}--${b}--\r\n`],
      [`multipart/form-data; boundary=${b}`, `${part('payload', 'null')}--${b}--\r\n`],
      [`multipart/form-data; boundary=${b}`, `${part('payload', '{"envelopeId":"\\u0000","title":"\\u0000"}')}${part('files', '%PDF-', 'a\u0000b.pdf')}--${b}--\r\n`],
      [`multipart/form-data; boundary=${b}`, `--${b}\r\nContent-Disposition: form-data; name="payload"\r\n${'X-Junk: y\r\n'.repeat(2000)}\r\n{}\r\n--${b}--\r\n`],
      [`multipart/form-data; boundary=${'x'.repeat(200)}`, `--${'x'.repeat(200)}--\r\n`],
      [`multipart/form-data; boundary=${b}`, `${part('payload', '{"type":"DOCUMENT","title":"Many"}')}${Array.from({ length: 25 }, (_, i) => part('files', '%PDF-1.7', `${i}.pdf`)).join('')}--${b}--\r\n`],
    ]
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const p = fillRoute(route.path, (name) => encodeURIComponent(validParam(route, name)))
      for (const [type, body] of broken) await send('multipart', route.method, p, { body, headers: { 'Content-Type': type, ...adminHeaders(p) } })
    }
    expect(failures).toEqual([])
    await alive()
  })

  // Every stream of every file is decoded (up to the budget) on nine routes: allow for a busy machine.
  it.skipIf(skip)('hostile PDFs on every upload route: refused with 400 (or taken when valid), never inflated in full', { timeout: 300_000 }, async () => {
    const deep = deeplyNestedPdfs()
    const pdfs = { ...(await hostilePdfs()), ...deep }
    const refused: Record<string, number> = {}
    for (const [key, payloadOf] of Object.entries(MULTIPART)) {
      const [method, p] = key.split(' ') as [string, string]
      for (const [name, bytes] of Object.entries(pdfs)) {
        const fd = new FormData()
        fd.set('payload', JSON.stringify(payloadOf(f)))
        fd.append(/\/(envelope|pdf)\//.test(p) ? 'files' : 'file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'a.pdf')
        const status = await send(`pdf ${name}`, method, p, { body: fd })
        if (status === 400) refused[name] = (refused[name] ?? 0) + 1
        // Nested too deep: 400 (one in the trailer, which no reader looks at, may be taken).
        const mustRefuse = name in deep && !name.endsWith('in the trailer')
        if (mustRefuse || /^(zip|lzw) bomb/.test(name) || ['empty', 'header only', 'truncated', 'encrypted', 'page tree cycle', 'no pages', 'png named pdf'].includes(name)) {
          expect(status, `${name} on ${p}`).toBe(400)
        }
      }
    }
    expect(failures).toEqual([])
    await alive()
  })

  it.skipIf(skip)('hostile tables on bulk send: read or refused with 4xx and {message, code}, never a 5xx', async () => {
    const zip = Buffer.from('PK\x03\x04' + '\0'.repeat(200), 'latin1')
    const tables: Record<string, Uint8Array> = {
      empty: new Uint8Array(0),
      'byte-order mark only': Buffer.from('\ufeff'),
      'header only': Buffer.from('E\n'),
      'an open quote': Buffer.from('E\n"a@example.com\n'),
      'quotes inside a cell': Buffer.from('E\na"b"@example.com\n'),
      'NUL bytes': Buffer.from('E\n\0\0\0\n'),
      'random bytes': Uint8Array.from({ length: 64 * 1024 }, () => rng.int(256)),
      'a zip (XLSX)': zip,
      'a PDF': await makePdf(),
      '10,000 columns': Buffer.from(`${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}\n`),
      'one cell of 1 MiB': Buffer.from(`E\n"${'x'.repeat(1024 * 1024)}"\n`),
      '20,000 rows': Buffer.from(`E\n${'a@example.com\n'.repeat(20_000)}`),
      'mixed line ends': Buffer.from('E\r\na@example.com\rb@example.com\n\r\n'),
      ...hostileWorkbooks(),
    }
    for (const [name, bytes] of Object.entries(tables)) {
      const fd = new FormData()
      fd.set('payload', JSON.stringify({ templateId: f.templateId, mapping: { recipients: [{ recipientId: f.templateRecipientId, email: 'E' }] }, dryRun: true }))
      fd.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'text/csv' }), 'a.csv')
      const status = await send(`table ${name}`, 'POST', '/api/v2/envelope/bulk-send', { body: fd })
      if (['an open quote', 'one cell of 1 MiB', '20,000 rows', '10,000 columns'].includes(name) || name.startsWith('XLSX')) expect(status, name).toBe(400)
    }
    expect(failures).toEqual([])
    await alive()
  })

  it.skipIf(skip)('every route with each kind of credential, and with none', async () => {
    const creds = [null, 'garbage', `Bearer ${'a'.repeat(10_000)}`, 'Bearer a.b.c', 'Bearer eyJhbGciOiJub25lIn0.eyJhdWQiOiJ0ZWFtX3gifQ.', 'api_' + 'x'.repeat(40), presign, token, f.recipientToken]
    for (const route of routes) {
      const p = fillRoute(route.path, (name) => encodeURIComponent(validParam(route, name)))
      for (const auth of creds) {
        await send('auth', route.method, p, { auth, body: route.method === 'GET' ? undefined : '{}', headers: { 'Content-Type': 'application/json' } })
      }
    }
    expect(failures).toEqual([])
    await alive()
  })
})
