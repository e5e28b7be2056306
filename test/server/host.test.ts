/**
 * The server entry against the real host: presign tokens used on the authoring pages, auth
 * failures as ApiError, and a round trip through every client method.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { spawn } from 'node:child_process'
import { build } from 'vite'
import { startHost, type Host } from '../../host/server/start.js'
import { EMBED_ROUTES, embedPath, type EmbedRoute } from '../../src/protocol/index.js'
import {
  ApiError,
  createClient,
  createPresignToken,
  verifyWebhookBody,
  WebhookError,
  type EnvelopeClient,
} from '../../src/server/index.js'
import { presignHandler } from '../../examples/backend.js'
import edge from '../../examples/edge.js'
import { eventBody, listen, makePdf } from './fixtures.js'

let host: Host
let dir: string
let apiKey: string
let client: EnvelopeClient

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'envelope-embed-server-'))
  // The real authoring pages, built into this test's own directory.
  const appDistDir = join(dir, 'app')
  await build({
    configFile: resolve(import.meta.dirname, '../../host/app/vite.config.ts'),
    logLevel: 'error',
    build: { outDir: appDistDir, emptyOutDir: true },
  })
  host = await startHost({ port: 0, dataDir: join(dir, 'data'), appDistDir })
  apiKey = (await host.createApiToken({ name: 'server entry tests' })).token
  client = createClient({ baseUrl: host.url, apiKey })
})

afterAll(async () => {
  await host?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** GET /embedding/session as the authoring page does it, with a presign token. */
const session = (token: string) => fetch(`${host.apiUrl}/embedding/session`, { headers: { Authorization: token } })

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => null, (e: unknown) => e)
  expect(e).toBeInstanceOf(ApiError)
  return e as ApiError
}

describe('presign tokens on the real host', () => {
  it('mints a token that opens every authoring page and its session', async () => {
    const before = Date.now()
    const t = await createPresignToken({ baseUrl: host.url, apiKey })
    expect(t.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(t.expiresIn).toBe(3600)
    expect(t.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 3600_000 - 1000)
    expect(t.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000)

    for (const route of Object.keys(EMBED_ROUTES) as EmbedRoute[]) {
      const res = await fetch(`${host.url}${embedPath(route, 'envelope_abc')}?token=${encodeURIComponent(t.token)}`)
      expect(res.status, route).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(res.headers.get('referrer-policy')).toBe('no-referrer')
      expect(await res.text()).toContain('/embed/assets/')
    }

    const s = await session(t.token)
    expect(s.status).toBe(200)
    const body = (await s.json()) as { teamId: string; scope: string | null; expiresAt: string }
    expect(body.scope).toBeNull()
    expect(typeof body.teamId).toBe('string')
    expect(new Date(body.expiresAt).getTime()).toBe(t.expiresAt.getTime())
    expect((await session(`Bearer ${t.token}`)).status).toBe(200)
  })

  it('carries a scope and a custom lifetime, through the API base form of baseUrl too', async () => {
    const t = await createPresignToken({ baseUrl: `${host.apiUrl}/`, apiKey, expiresIn: 5, scope: 'documentId:42' })
    expect(t.expiresIn).toBe(300)
    expect(await (await session(t.token)).json()).toMatchObject({ scope: 'documentId:42' })
    const u = await client.createPresignToken({ scope: { kind: 'envelopeId', id: 'envelope_abcdef' }, expiresIn: 10080 })
    expect(u.expiresIn).toBe(10080 * 60)
    expect(await (await session(u.token)).json()).toMatchObject({ scope: 'envelopeId:envelope_abcdef' })
  })

  it('expiresIn 0 mints an expired token: the session answers 401 TOKEN_EXPIRED', async () => {
    const t = await createPresignToken({ baseUrl: host.url, apiKey, expiresIn: 0 })
    expect(t.expiresIn).toBe(0)
    const res = await session(t.token)
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ code: 'TOKEN_EXPIRED' })
  })

  it('a revoked API key is an ApiError 401, for minting and for the client', async () => {
    const { id, token } = await host.createApiToken({ name: 'to revoke' })
    await createPresignToken({ baseUrl: host.url, apiKey: token })
    await host.revokeApiToken(id)
    const e = await apiError(createPresignToken({ baseUrl: host.url, apiKey: token }))
    expect([e.status, e.code]).toEqual([401, 'INVALID_API_TOKEN'])
    expect(e.message).toBeTruthy()
    const c = await apiError(createClient({ baseUrl: host.url, apiKey: token }).envelopes.list())
    expect([c.status, c.code]).toEqual([401, 'INVALID_API_TOKEN'])
  })

  it('an unknown API key is 401, a team without the enterprise plan is 403 PLAN_REQUIRED', async () => {
    const e = await apiError(createPresignToken({ baseUrl: host.url, apiKey: 'api_doesnotexist000000' }))
    expect([e.status, e.code]).toEqual([401, 'INVALID_API_TOKEN'])
    const team = await host.createTeam({ name: 'Small shop', plan: 'team' })
    const { token } = await host.createApiToken({ name: 'team plan', teamId: team.id })
    const p = await apiError(createPresignToken({ baseUrl: host.url, apiKey: token }))
    expect([p.status, p.code]).toEqual([403, 'PLAN_REQUIRED'])
  })
})

describe('the client, every method against the real host', () => {
  it('envelopes: create (multipart), get, list, update, getMany, delete', async () => {
    const [contract, annex] = await Promise.all([makePdf(2, 'Contract'), makePdf(1, 'Annex')])
    const { id } = await client.envelopes.create({
      type: 'DOCUMENT',
      title: 'Service agreement',
      externalId: 'order-1001',
      meta: { subject: 'Please sign', timezone: 'Europe/Berlin' },
      globalActionAuth: ['PASSWORD'],
      recipients: [
        {
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          role: 'SIGNER',
          accessAuth: ['TWO_FACTOR_AUTH'],
          fields: [
            { identifier: 0, type: 'SIGNATURE', page: 2, positionX: 10, positionY: 80, width: 30, height: 6 },
            { identifier: 'annex.pdf', type: 'DATE', page: 1, positionX: 60, positionY: 80, width: 20, height: 4 },
          ],
        },
        { email: 'bob@example.com', name: 'Bob', role: 'CC' },
      ],
      files: [
        { name: 'contract.pdf', data: contract },
        { name: 'annex.pdf', data: new Blob([annex as BlobPart], { type: 'application/pdf' }) },
      ],
    })
    expect(id).toMatch(/^envelope_/)

    const e = await client.envelopes.get(id)
    expect(e).toMatchObject({ id, type: 'DOCUMENT', status: 'DRAFT', title: 'Service agreement', externalId: 'order-1001' })
    expect(e.secondaryId).toMatch(/^document_\d+$/)
    expect(e.documentMeta).toMatchObject({ subject: 'Please sign', timezone: 'Europe/Berlin', language: 'en', signingOrder: 'PARALLEL' })
    expect(e.envelopeItems.map((i) => [i.title, i.order, i.pageCount])).toEqual([['contract.pdf', 1, 2], ['annex.pdf', 2, 1]])
    expect(e.recipients.map((r) => [r.email, r.role])).toEqual([['ada@example.com', 'SIGNER'], ['bob@example.com', 'CC']])
    expect(e.authOptions).toEqual({ globalAccessAuth: [], globalActionAuth: ['PASSWORD'] })
    expect(e.recipients[0]!.authOptions).toEqual({ accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: [] })
    expect(e.fields.map((f) => [f.type, f.page, f.envelopeItemId, f.recipientId])).toEqual([
      ['SIGNATURE', 2, e.envelopeItems[0]!.id, e.recipients[0]!.id],
      ['DATE', 1, e.envelopeItems[1]!.id, e.recipients[0]!.id],
    ])

    const updated = await client.envelopes.update({ envelopeId: id, data: { title: 'Service agreement v2' }, meta: { language: 'de' } })
    expect(updated.title).toBe('Service agreement v2')
    expect(updated.documentMeta.language).toBe('de')
    expect(updated.documentMeta.timezone).toBe('Europe/Berlin')

    const template = await client.envelopes.create({ type: 'TEMPLATE', title: 'NDA', files: [{ name: 'nda.pdf', data: await makePdf() }] })
    const templates = await client.envelopes.list({ type: 'TEMPLATE' })
    expect(templates.data.map((t) => t.id)).toContain(template.id)
    expect(templates.data.every((t) => t.type === 'TEMPLATE')).toBe(true)
    const page = await client.envelopes.list({ perPage: 1, page: 1 })
    expect(page).toMatchObject({ currentPage: 1, perPage: 1 })
    expect(page.data).toHaveLength(1)
    expect(page.count).toBeGreaterThanOrEqual(2)
    expect(page.data[0]!.id).toBe(template.id) // newest first

    const byId = await client.envelopes.getMany({ type: 'envelopeId', ids: [id, template.id] })
    expect(byId.map((x) => x.id).sort()).toEqual([id, template.id].sort())
    const legacy = Number(e.secondaryId.split('_')[1])
    expect((await client.envelopes.getMany({ type: 'documentId', ids: [legacy] })).map((x) => x.id)).toEqual([id])

    await client.envelopes.delete(template.id)
    const gone = await apiError(client.envelopes.get(template.id))
    expect([gone.status, gone.code]).toEqual([404, 'NOT_FOUND'])
  })

  it('a bad create payload is a 400 ApiError with issues', async () => {
    const e = await apiError(client.envelopes.create({
      type: 'DOCUMENT',
      title: 'x',
      recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ identifier: 5, type: 'TEXT', page: 1, positionX: 0, positionY: 0, width: 10, height: 10 }] }],
      files: [{ name: 'a.pdf', data: await makePdf() }],
    }))
    expect([e.status, e.code]).toEqual([400, 'INVALID_REQUEST'])
    expect(e.issues.map((i) => i.path)).toContain('payload.recipients.0.fields.0.identifier')
    const notPdf = await apiError(client.envelopes.create({ type: 'DOCUMENT', title: 'x', files: [{ name: 'a.pdf', data: new TextEncoder().encode('hello') }] }))
    expect([notPdf.status, notPdf.code]).toEqual([400, 'INVALID_PDF'])
  })

  it('items: createMany, updateMany, download, delete', async () => {
    const first = await makePdf(1, 'First')
    const { id } = await client.envelopes.create({ type: 'DOCUMENT', title: 'Items', files: [{ name: 'first.pdf', data: first }] })
    const added = await client.items.createMany(id, [{ name: 'second.pdf', data: await makePdf(3, 'Second') }])
    expect(added).toHaveLength(1)
    expect(added[0]).toMatchObject({ envelopeId: id, title: 'second.pdf', order: 2 })

    const [firstItem] = (await client.envelopes.get(id)).envelopeItems
    const renamed = await client.items.updateMany(id, [{ envelopeItemId: added[0]!.id, title: 'Second (renamed)', order: 1 }, { envelopeItemId: firstItem!.id, order: 2 }])
    expect(renamed.find((i) => i.id === added[0]!.id)).toMatchObject({ title: 'Second (renamed)', order: 1 })
    expect((await client.envelopes.get(id)).envelopeItems.map((i) => i.id)).toEqual([added[0]!.id, firstItem!.id])

    const bytes = await client.items.download(firstItem!.id)
    expect(bytes).toBeInstanceOf(Uint8Array)
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
    expect(bytes).toEqual(first)

    await client.items.delete(added[0]!.id)
    expect((await client.envelopes.get(id)).envelopeItems.map((i) => i.id)).toEqual([firstItem!.id])
    const last = await apiError(client.items.delete(firstItem!.id))
    expect(last.status).toBe(400)
  })

  it('recipients: createMany, get, updateMany, delete', async () => {
    const { id } = await client.envelopes.create({ type: 'DOCUMENT', title: 'Recipients', files: [{ name: 'r.pdf', data: await makePdf() }] })
    const created = await client.recipients.createMany(id, [
      { email: 'carol@example.com', name: 'Carol', role: 'SIGNER', signingOrder: 1 },
      { email: 'dan@example.com', name: 'Dan', role: 'APPROVER', signingOrder: 2 },
    ])
    expect(created.map((r) => [r.envelopeId, r.email, r.role, r.signingOrder])).toEqual([
      [id, 'carol@example.com', 'SIGNER', 1],
      [id, 'dan@example.com', 'APPROVER', 2],
    ])
    expect(await client.recipients.get(created[0]!.id)).toMatchObject({ id: created[0]!.id, name: 'Carol' })
    const updated = await client.recipients.updateMany(id, [{ id: created[1]!.id, name: 'Daniel', role: 'VIEWER' }])
    expect(updated[0]).toMatchObject({ id: created[1]!.id, name: 'Daniel', role: 'VIEWER', email: 'dan@example.com' })
    await client.recipients.delete(created[0]!.id)
    expect((await apiError(client.recipients.get(created[0]!.id))).status).toBe(404)
    expect((await client.envelopes.get(id)).recipients.map((r) => r.id)).toEqual([created[1]!.id])
  })

  it('fields: createMany (coordinates and placeholder), get, updateMany, delete', async () => {
    const { id } = await client.envelopes.create({
      type: 'TEMPLATE',
      title: 'Fields',
      recipients: [{ email: 'erin@example.com', name: 'Erin', role: 'SIGNER' }],
      files: [{ name: 'f.pdf', data: await makePdf(2, 'Sign here') }],
    })
    const e = await client.envelopes.get(id)
    const recipientId = e.recipients[0]!.id
    const fields = await client.fields.createMany(id, [
      { recipientId, type: 'TEXT', page: 1, positionX: 5, positionY: 5, width: 20, height: 5, fieldMeta: { type: 'text', label: 'Company' } },
      { recipientId, type: 'SIGNATURE', placeholder: 'Sign here' },
    ])
    expect(fields).toHaveLength(2)
    expect(fields[0]).toMatchObject({ envelopeId: id, envelopeItemId: e.envelopeItems[0]!.id, recipientId, type: 'TEXT', page: 1, fieldMeta: { label: 'Company' } })
    expect(fields[1]).toMatchObject({ type: 'SIGNATURE', page: 1 })
    expect(await client.fields.get(fields[0]!.id)).toEqual(fields[0])
    const moved = await client.fields.updateMany(id, [{ id: fields[0]!.id, page: 2, positionX: 50 }])
    expect(moved[0]).toMatchObject({ id: fields[0]!.id, page: 2, positionX: 50, positionY: 5 })
    await client.fields.delete(fields[1]!.id)
    expect((await client.envelopes.get(id)).fields.map((f) => f.id)).toEqual([fields[0]!.id])
    expect((await apiError(client.fields.get(fields[1]!.id))).code).toBe('NOT_FOUND')
  })

  it('attachments: create, find, update, delete', async () => {
    const { id } = await client.envelopes.create({ type: 'DOCUMENT', title: 'Attachments', files: [{ name: 'a.pdf', data: await makePdf() }] })
    expect(await client.attachments.find(id)).toEqual([])
    const created = await client.attachments.create(id, { label: 'Terms', data: 'https://example.com/terms' })
    expect(await client.attachments.find(id)).toEqual([{ id: created.id, type: 'link', label: 'Terms', data: 'https://example.com/terms' }])
    await client.attachments.update(created.id, { label: 'Terms v2', data: 'https://example.com/terms-v2' })
    expect((await client.attachments.find(id))[0]).toMatchObject({ label: 'Terms v2', data: 'https://example.com/terms-v2' })
    const bad = await apiError(client.attachments.create(id, { label: '', data: 'not a uri' }))
    expect([bad.status, bad.code]).toEqual([400, 'INVALID_REQUEST'])
    await client.attachments.delete(created.id)
    expect(await client.attachments.find(id)).toEqual([])
  })

  it('a presign token scoped to one envelope reads it and nothing else', async () => {
    const mine = await client.envelopes.create({ type: 'DOCUMENT', title: 'Mine', files: [{ name: 'm.pdf', data: await makePdf() }] })
    const other = await client.envelopes.create({ type: 'DOCUMENT', title: 'Other', files: [{ name: 'o.pdf', data: await makePdf() }] })
    const { token } = await client.createPresignToken({ scope: { kind: 'envelopeId', id: mine.id } })
    const get = (id: string) => fetch(`${host.apiUrl}/envelope/${id}`, { headers: { Authorization: token } })
    expect((await get(mine.id)).status).toBe(200)
    expect((await get(other.id)).status).toBe(404)
  })
})

describe('the examples against the real host', () => {
  it('examples/backend.ts: POST /presign answers the PresignTokenResponse, errors as {message, code}', async () => {
    const { id, token } = await host.createApiToken({ name: 'example backend' })
    const handler = presignHandler({ baseUrl: host.url, apiKey: token })
    const server = await listen((req, res) => handler(req, res))
    try {
      const presign = (body: unknown) => fetch(`${server.url}/presign`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      const ok = await presign({ scope: 'templateId:7', expiresIn: 15 })
      expect(ok.status).toBe(200)
      const body = (await ok.json()) as { token: string; expiresAt: string; expiresIn: number }
      expect(body.expiresIn).toBe(900)
      expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now())
      expect(await (await session(body.token)).json()).toMatchObject({ scope: 'templateId:7' })

      const bad = await presign({ expiresIn: 1e6 })
      expect(bad.status).toBe(400)
      expect(await bad.json()).toMatchObject({ code: 'INVALID_REQUEST' })
      expect((await fetch(`${server.url}/other`)).status).toBe(404)

      await host.revokeApiToken(id)
      const revoked = await presign({})
      expect(revoked.status).toBe(401)
      expect(await revoked.json()).toEqual({ message: expect.any(String), code: 'INVALID_API_TOKEN' })
    } finally {
      await server.close()
    }
  })

  it('examples/backend.ts run directly (tsx, env BASE_URL, API_KEY, PORT) serves POST /presign', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, '../../examples/backend.ts')], {
      env: { ...process.env, BASE_URL: host.url, API_KEY: apiKey, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        let out = ''
        child.stdout!.on('data', (d: Buffer) => {
          out += d
          const m = /POST (http:\/\/\S+)/.exec(out)
          if (m) resolveUrl(m[1]!)
        })
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)))
      })
      const res = await fetch(url, { method: 'POST', body: '{}' })
      expect(res.status).toBe(200)
      const { token } = (await res.json()) as { token: string }
      expect((await session(token)).status).toBe(200)
    } finally {
      child.kill()
    }
  })

  it('examples/edge.ts: presign and webhooks through a Fetch handler', async () => {
    const env = { BASE_URL: host.apiUrl, API_KEY: apiKey, WEBHOOK_SECRET: 'edge-secret' }
    const res = await edge.fetch(new Request('https://app.example/presign', { method: 'POST', body: '{"expiresIn":1}' }), env)
    expect(res.status).toBe(200)
    const { token } = (await res.json()) as { token: string }
    expect((await session(token)).status).toBe(200)

    const hook = (secret: string | null) => edge.fetch(new Request('https://app.example/webhooks', {
      method: 'POST',
      headers: secret === null ? {} : { 'X-Service-Secret': secret },
      body: eventBody('DOCUMENT_COMPLETED'),
    }), env)
    expect((await hook('edge-secret')).status).toBe(204)
    const wrong = await hook('guess')
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toBe('')
    expect((await hook(null)).status).toBe(401)
  })
})

describe("the host's own events", () => {
  it('every event the host recorded passes verification and parses as its payload type', async () => {
    const rows = await host.db.query<{ event: string; payload: unknown; created_at: Date | string }>(
      'select event, payload, created_at from events order by id',
    )
    const names = new Set(rows.map((r) => r.event))
    expect(names).toContain('DOCUMENT_CREATED')
    expect(names).toContain('TEMPLATE_CREATED')
    const failures: string[] = []
    for (const row of rows) {
      const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload
      const body = JSON.stringify({ event: row.event, payload, createdAt: new Date(row.created_at).toISOString(), webhookEndpoint: 'https://example.com/hooks' })
      try {
        expect(verifyWebhookBody({ secret: 'x', header: 'x', body }).event).toBe(row.event)
      } catch (e) {
        failures.push(`${row.event}: ${e instanceof WebhookError ? e.issues.map((i) => `${i.path} ${i.message}`).join(', ') : String(e)}`)
      }
    }
    expect([...new Set(failures)]).toEqual([])
  })
})
