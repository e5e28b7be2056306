/**
 * Webhooks: delivered, signed, retried, logged; and one team's silent receivers do not hold
 * another team's work.
 * Databases: the embedded one for the webhooks' content; both for the job queue under silent receivers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyNodeWebhook } from '../../src/server/index.js'
import { api, createEnvelope, startTestHost, type Api, SIGNATURE, type TestHost, VARIANTS } from './support.js'

const box = { page: 1, width: 20, height: 5 }
const ALL_EVENTS = [
  'DOCUMENT_CREATED', 'DOCUMENT_SENT', 'DOCUMENT_OPENED', 'DOCUMENT_SIGNED', 'DOCUMENT_RECIPIENT_COMPLETED',
  'DOCUMENT_COMPLETED', 'DOCUMENT_REJECTED', 'DOCUMENT_CANCELLED', 'RECIPIENT_EXPIRED', 'DOCUMENT_REMINDER_SENT',
  'TEMPLATE_CREATED', 'TEMPLATE_UPDATED', 'TEMPLATE_DELETED', 'TEMPLATE_USED',
]

interface Received {
  event: string
  envelopeId: string
  eventId: string
  at: number
}

/**
 * A real receiver: verifies each call with the project's own verifyNodeWebhook, and answers what
 * `answer` says for the n-th call (a status, or 'hang' to never answer).
 */
async function receiver(secret: string, answer: (n: number) => number | 'hang' = () => 200) {
  const received: Received[] = []
  let calls = 0
  const hanging: ServerResponse[] = []
  const server = createServer(async (req: IncomingMessage, res) => {
    const n = ++calls
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    try {
      const event = await verifyNodeWebhook({ secret, request: req, body: Buffer.concat(chunks) })
      const how = answer(n)
      if (how === 'hang') return void hanging.push(res)
      if (how >= 200 && how < 300) {
        received.push({ event: event.event, envelopeId: (event.payload as { envelopeId: string }).envelopeId, eventId: String(req.headers['x-service-event-id']), at: Date.now() })
      }
      res.writeHead(how).end()
    } catch (err) {
      res.writeHead((err as { status?: number }).status ?? 400).end(String((err as Error).message))
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    calls: () => calls,
    close: () => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      return new Promise<void>((r) => server.close(() => r()))
    },
  }
}

const until = async <T>(what: () => T | Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> => {
  const end = Date.now() + ms
  for (;;) {
    const v = await what()
    if (ok(v)) return v
    if (Date.now() > end) throw new Error(`timed out waiting; last value ${JSON.stringify(v)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('webhooks', () => {
  let host: TestHost
  let client: Api
  let teamId: string

  beforeAll(async () => {
    host = await startTestHost('pglite', { webhookAllowPrivateUrls: true, retryBaseMs: 100, retryFactor: 2, retryMaxMs: 1000, retryMaxAttempts: 4, queuePollMs: 50 })
    teamId = (await host.createTeam({ name: 'Acme', plan: 'enterprise' })).id
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId })).token)
  })
  afterAll(async () => {
    await host?.stop()
  })

  it('configures webhooks per team, and refuses what it cannot accept', async () => {
    const created = await client.post('/webhook/create', { url: 'http://127.0.0.1:9/a', events: ['DOCUMENT_SENT'], secret: 's3cret' })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^webhook_/), url: 'http://127.0.0.1:9/a', events: ['DOCUMENT_SENT'], secret: 's3cret', enabled: true })
    const id = created.body.id
    // The same, but the signing key: shown in the answer that made it only.
    const { signingKey, ...shown } = created.body
    expect(signingKey).toMatch(/^whsec_/)
    expect((await client.get(`/webhook/${id}`)).body).toEqual(shown)
    expect((await client.get('/webhook')).body.data.map((w: any) => w.id)).toContain(id)
    const updated = await client.post('/webhook/update', { id, enabled: false, events: ['DOCUMENT_SENT', 'DOCUMENT_COMPLETED'] })
    expect(updated.body).toMatchObject({ enabled: false, events: ['DOCUMENT_SENT', 'DOCUMENT_COMPLETED'], secret: 's3cret' })

    for (const [body, code] of [
      [{ url: 'ftp://example.com', events: ['DOCUMENT_SENT'] }, 'INVALID_REQUEST'],
      [{ url: 'https://example.com', events: [] }, 'INVALID_REQUEST'],
      [{ url: 'https://example.com', events: ['NOPE'] }, 'INVALID_REQUEST'],
      [{ url: 'https://example.com', events: ['DOCUMENT_SENT'], extra: 1 }, 'INVALID_REQUEST'],
    ] as const) {
      const res = await client.post('/webhook/create', body)
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, code])
    }
    expect((await client.post('/webhook/update', { id: 'webhook_nope', enabled: true })).status).toBe(404)

    // Another team sees nothing of it; a presign token may not manage webhooks.
    const otherTeam = (await host.createTeam({ name: 'Other', plan: 'enterprise' })).id
    const other = api(host.apiUrl, (await host.createApiToken({ name: 'o', teamId: otherTeam })).token)
    expect((await other.get(`/webhook/${id}`)).status).toBe(404)
    expect((await other.post('/webhook/delete', { id })).status).toBe(404)
    expect((await other.get('/webhook')).body.data).toEqual([])
    const presign = (await client.post('/embedding/create-presign-token', {})).body.token
    expect((await api(host.apiUrl, presign).get('/webhook')).status).toBe(403)

    expect((await client.post('/webhook/delete', { id })).body).toEqual({ success: true })
    expect((await client.get(`/webhook/${id}`)).status).toBe(404)
  })

  it('refuses private and loopback receivers unless allowed', async () => {
    const strict = await startTestHost('pglite')
    try {
      const t = (await strict.createTeam({ name: 'S', plan: 'team' })).id
      const c = api(strict.apiUrl, (await strict.createApiToken({ name: 's', teamId: t })).token)
      for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/latest', 'http://192.168.0.10/x',
        'http://[::7f00:1]/x', 'http://[64:ff9b::7f00:1]/x', 'http://[fec0::1]/x', 'http://[2002:a00:1::1]/x', 'http://[2001:0:7f00:1::1]/x', 'http://[::ffff:10.0.0.1]/x']) {
        const res = await c.post('/webhook/create', { url, events: ['DOCUMENT_SENT'] })
        expect([res.status, res.body.code], url).toEqual([400, 'WEBHOOK_URL_NOT_ALLOWED'])
      }
      expect((await c.get('/webhook')).body.data).toEqual([])
    } finally {
      await strict.stop()
    }
  })

  it('delivers every event of a signing, in order, with the secret, and logs each call', async () => {
    const r = await receiver('top-secret')
    try {
      const hook = (await client.post('/webhook/create', { url: r.url, events: ALL_EVENTS, secret: 'top-secret' })).body
      const e = await createEnvelope(client, {
        meta: { signingOrder: 'SEQUENTIAL' },
        recipients: [
          { email: 'a@example.com', name: 'A', role: 'SIGNER', signingOrder: 1, fields: [{ ...box, type: 'SIGNATURE', positionX: 1, positionY: 1 }] },
          { email: 'b@example.com', name: 'B', role: 'VIEWER', signingOrder: 2 },
        ],
      })
      const { recipients } = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
      const sign = (token: string) => api(`${host.url}/api/signing`, `Bearer ${token}`)
      await sign(recipients[0].token).post('/open')
      const { fields } = (await sign(recipients[0].token).get('/session')).body
      await sign(recipients[0].token).post('/complete', { fields: [{ id: fields[0].id, value: SIGNATURE }] })
      await sign(recipients[1].token).post('/complete', { fields: [] })

      const expected = ['DOCUMENT_CREATED', 'DOCUMENT_SENT', 'DOCUMENT_OPENED', 'DOCUMENT_SIGNED', 'DOCUMENT_RECIPIENT_COMPLETED', 'DOCUMENT_RECIPIENT_COMPLETED', 'DOCUMENT_COMPLETED']
      const got = await until(() => r.received.filter((x) => x.envelopeId === e.id), (x) => x.length >= expected.length)
      expect(got.map((x) => x.event)).toEqual(expected)
      // Event ids, for deduplication: distinct and increasing.
      const ids = got.map((x) => Number(x.eventId))
      expect(new Set(ids).size).toBe(ids.length)
      expect([...ids].sort((a, b) => a - b)).toEqual(ids)

      // A call's log entry commits with its job's end, just after the receiver answered.
      const log = await until(async () => (await client.get(`/webhook/${hook.id}/calls?perPage=50`)).body, (l) => l.count >= expected.length)
      const last = log.data[0]
      expect(last).toMatchObject({ webhookId: hook.id, event: 'DOCUMENT_COMPLETED', attempt: 1, responseStatus: 200, url: r.url, durationMs: expect.any(Number) })
      expect(last.requestBody).toMatchObject({ event: 'DOCUMENT_COMPLETED', webhookEndpoint: r.url, payload: { envelopeId: e.id, status: 'COMPLETED' } })

      // Resending a logged call delivers its event again.
      const before = r.received.length
      expect((await client.post(`/webhook/call/${last.id}/resend`)).body).toEqual({ success: true })
      await until(() => r.received.length, (n) => n === before + 1)
      expect(r.received.at(-1)!.event).toBe('DOCUMENT_COMPLETED')
      expect((await client.post('/webhook/call/webhook_call_nope/resend')).status).toBe(404)
      await client.post('/webhook/delete', { id: hook.id })
    } finally {
      await r.close()
    }
  })

  it('retries a failing receiver with backoff, and gives up after the last attempt', async () => {
    const flaky = await receiver('', (n) => (n <= 2 ? 503 : 200))
    const down = await receiver('', () => 500)
    try {
      const a = (await client.post('/webhook/create', { url: flaky.url, events: ['TEMPLATE_CREATED'] })).body
      const b = (await client.post('/webhook/create', { url: down.url, events: ['TEMPLATE_CREATED'] })).body
      await createEnvelope(client, { type: 'TEMPLATE' })
      await until(() => flaky.received.length, (n) => n === 1)
      expect(flaky.calls()).toBe(3)
      const log = await until(async () => (await client.get(`/webhook/${a.id}/calls`)).body.data, (l) => l.length === 3)
      expect(log.map((c: any) => [c.attempt, c.responseStatus])).toEqual([[3, 200], [2, 503], [1, 503]])

      const failed = await until(
        () => host.db.query<{ status: string; attempts: number; last_error: string }>(`select status, attempts, last_error from jobs where payload->>'webhookId' = $1`, [b.id]),
        (rows) => rows[0]?.status === 'failed',
      )
      expect(failed[0]).toMatchObject({ attempts: 4, last_error: 'the receiver answered 500' })
      expect(down.calls()).toBe(4)
      await client.post('/webhook/delete', { id: a.id })
      await client.post('/webhook/delete', { id: b.id })
    } finally {
      await flaky.close()
      await down.close()
    }
  })

  it('cuts a receiver that does not answer at 10 s, and retries it', async () => {
    const slow = await receiver('', (n) => (n === 1 ? 'hang' : 200))
    // The default timeout (WEBHOOK_TIMEOUT_MS 10 s), really waited for once.
    const quick = await startTestHost('pglite', { webhookAllowPrivateUrls: true, retryBaseMs: 100, queuePollMs: 50 })
    try {
      const t = (await quick.createTeam({ name: 'Q', plan: 'team' })).id
      const c = api(quick.apiUrl, (await quick.createApiToken({ name: 'q', teamId: t })).token)
      const hook = (await c.post('/webhook/create', { url: slow.url, events: ['TEMPLATE_CREATED'] })).body
      await createEnvelope(c, { type: 'TEMPLATE' })
      await until(() => slow.received.length, (n) => n === 1, 30_000)
      const log = await until(async () => (await c.get(`/webhook/${hook.id}/calls`)).body.data, (l) => l.length === 2)
      expect(log[1]).toMatchObject({ attempt: 1, responseStatus: null, error: 'no answer within 10000 ms' })
      expect(log[1].durationMs).toBeGreaterThanOrEqual(9900)
      expect(log[1].durationMs).toBeLessThan(12_000)
      expect(log[0]).toMatchObject({ attempt: 2, responseStatus: 200 })
    } finally {
      await quick.stop()
      await slow.close()
    }
  })
})

// One team's receivers that never answer hold at most its share of a process's slots (half of
// 16), and another team's signing e-mail goes out meanwhile; a team has at most 20 webhooks. The
// receivers' time limit is long, so on a busy machine the slots are still held when the mail is done.
describe.each(VARIANTS)("one team's silent receivers on $variant", ({ variant, skip }) => {
  let host: TestHost
  let silent: Awaited<ReturnType<typeof receiver>>

  beforeAll(async () => {
    if (skip) return
    silent = await receiver('s', () => 'hang')
    host = await startTestHost(variant, { webhookAllowPrivateUrls: true, webhookTimeoutMs: 90_000, queuePollMs: 50 })
  })
  afterAll(async () => {
    await silent?.close()
    await host?.stop()
  })

  const teamClient = async (name: string) =>
    api(host.apiUrl, (await host.createApiToken({ name, teamId: (await host.createTeam({ name, plan: 'enterprise' })).id })).token)
  const signer = [{ email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 10, width: 20, height: 5 }] }]

  it.skipIf(skip)("holds a team to 20 webhooks and half the slots; another team's e-mail does not wait for them", async () => {
    const noisy = await teamClient('Noisy')
    for (let i = 0; i < 20; i++) expect((await noisy.post('/webhook/create', { url: `${silent.url}/${i}`, events: ['DOCUMENT_SENT'], secret: 's' })).status).toBe(200)
    const over = await noisy.post('/webhook/create', { url: `${silent.url}/20`, events: ['DOCUMENT_SENT'], secret: 's' })
    expect([over.status, over.body]).toEqual([403, { message: expect.stringContaining('20 webhooks'), code: 'WEBHOOK_LIMIT_REACHED' }])
    expect((await noisy.get('/webhook')).body.data).toHaveLength(20)

    const sent = await createEnvelope(noisy, { title: 'Noisy', recipients: signer })
    expect((await noisy.post('/envelope/distribute', { envelopeId: sent.id })).status).toBe(200)
    await until(silent.calls, (n) => n >= 8)

    const quiet = await teamClient('Quiet')
    const mine = await createEnvelope(quiet, { title: 'Quiet', recipients: signer })
    expect((await quiet.post('/envelope/distribute', { envelopeId: mine.id })).status).toBe(200)
    const mailed = () => host.db.query<{ status: string }>(`select status from jobs where kind = 'mail' and payload->>'envelopeId' = $1`, [mine.id])
    // Long before the silent receivers time out (90 s).
    await until(mailed, (rows) => rows.length > 0 && rows.every((r) => r.status === 'done'))
    expect(silent.calls()).toBe(8)
    const hooks = await host.db.query<{ n: number }>(`select count(*)::int as n from jobs where kind = 'webhook' and status = 'running'`)
    expect(hooks[0]!.n).toBeGreaterThanOrEqual(8)
  })
})
