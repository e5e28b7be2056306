/**
 * Fair use (RateLimit headers, 429s).
 * Databases: the embedded one in one process; PostgreSQL where two processes share the counts through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { api, createEnvelope, pgReason, startTestHost, until, type TestHost } from './support.js'

const LIMIT = 5

/** RateLimit: "default";r=N;t=S (draft-ietf-httpapi-ratelimit-headers, structured fields). */
const state = (h: Headers) => {
  const m = /^"default";r=(\d+);t=(\d+)$/.exec(h.get('ratelimit') ?? '')
  return m ? { r: Number(m[1]), t: Number(m[2]) } : null
}

describe('fair use: a rate limit per token', () => {
  const clock = drivenClock()
  let host: TestHost

  beforeAll(async () => {
    host = await startTestHost('pglite', { rateLimit: LIMIT, rateLimitWindowSeconds: 60, clock, queueConcurrency: 0 })
  })
  afterAll(() => host?.stop())

  it('counts each token, answers 429 with Retry-After and RateLimit headers, and resets with the window', async () => {
    // Start at the beginning of a window, so the requests below all fall in one.
    clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 1000))
    const a = api(host.apiUrl, (await host.createApiToken({ name: 'a' })).token)
    const b = api(host.apiUrl, (await host.createApiToken({ name: 'b' })).token)
    for (let i = 1; i <= LIMIT; i++) {
      const res = await a.get('/envelope')
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60')
      expect(state(res.headers)).toEqual({ r: LIMIT - i, t: expect.any(Number) })
      expect(state(res.headers)!.t).toBeGreaterThan(0)
      expect(state(res.headers)!.t).toBeLessThanOrEqual(60)
    }
    const refused = await a.get('/envelope')
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', message: expect.any(String) } })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60')
    expect(state(refused.headers)?.r).toBe(0)
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
    // The presign tokens of a token count with it.
    expect((await a.post('/embedding/create-presign-token', {})).status).toBe(429)

    // Another token is not affected.
    expect((await b.get('/envelope')).status).toBe(200)

    // The next window starts afresh.
    clock.advance(60_000)
    const again = await a.get('/envelope')
    expect(again.status).toBe(200)
    expect(state(again.headers)?.r).toBe(LIMIT - 1)
  })

  it('counts requests without a valid token by address, and recipient tokens on the signing API', async () => {
    clock.advance(60_000)
    const anonymous = api(host.apiUrl)
    for (let i = 0; i < LIMIT; i++) expect((await anonymous.get('/envelope')).status).toBe(401)
    expect((await api(host.apiUrl, 'api_guessed').get('/envelope')).status).toBe(429)
    expect((await api(host.url).get('/api/signing/session')).status).toBe(429)

    clock.advance(60_000)
    const owner = api(host.apiUrl, (await host.createApiToken({ name: 'owner' })).token)
    const e = await createEnvelope(owner, {
      recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 10, height: 5 }] }],
    })
    const sent = await owner.post('/envelope/distribute', { envelopeId: e.id })
    const signer = api(host.url, `Bearer ${sent.body.recipients[0].token}`)
    for (let i = 0; i < LIMIT; i++) {
      const res = await signer.get('/api/signing/session')
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/)
    }
    expect((await signer.get('/api/signing/session'))).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } })
  })

  it('counts wrong recipient and direct-link tokens on the signing API by address, each one different', async () => {
    clock.advance(60_000)
    const owner = api(host.apiUrl, (await host.createApiToken({ name: 'guessed' })).token)
    const e = await createEnvelope(owner, {
      recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 10, height: 5 }] }],
    })
    const sent = await owner.post('/envelope/distribute', { envelopeId: e.id })
    const paths = ['/api/signing/session', '/api/signing/direct/session', '/api/signing/open', '/api/signing/direct/open']
    for (let i = 0; i < LIMIT; i++) {
      const path = paths[i % paths.length]!
      const res = path.endsWith('open') ? await api(host.url, `Bearer guess${i}`).post(path, {}) : await api(host.url, `Bearer guess${i}`).get(path)
      expect(res.status, path).toBe(404)
    }
    expect(await api(host.url, 'Bearer guess-next').get('/api/signing/session')).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } })
    expect((await api(host.url, 'Bearer guess-direct').get('/api/signing/direct/session')).status).toBe(429)
    // The recipient whose token is right is not held back by the guesses made from its address.
    expect((await api(host.url, `Bearer ${sent.body.recipients[0].token}`).get('/api/signing/session')).status).toBe(200)
  })
})

describe.skipIf(pgReason !== null)('fair use across processes on one PostgreSQL', () => {
  const clock = drivenClock()
  const hosts: TestHost[] = []
  afterAll(async () => {
    for (const h of hosts.reverse()) await h.stop()
  })

  it('counts a token across both processes: the limit holds for the two together', async () => {
    clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 1000))
    const settings = { rateLimit: 10, rateLimitWindowSeconds: 60, rateLimitSyncMs: 50, clock, queueConcurrency: 0 }
    const first = await startTestHost('postgres', settings)
    hosts.push(first)
    // The second process on the same database (schema), as a second replica behind a balancer.
    const second = await startTestHost('postgres', { ...settings, databaseUrl: first.config.databaseUrl })
    hosts.push(second)
    const { token } = await first.createApiToken({ name: 'shared' })
    const a = api(first.apiUrl, token)
    const b = api(second.apiUrl, token)
    for (let i = 0; i < 6; i++) expect((await a.get('/envelope')).status).toBe(200)
    // The first process has written its six.
    await until(async () => (await first.db.query<{ n: number }>('select coalesce(sum(n), 0)::int as n from rate_limit_counts'))[0]!.n >= 6, 120_000)
    // The second reads them at its next sync (every 50 ms); nothing shows when it has, so it is given twenty.
    await new Promise((r) => setTimeout(r, 1000))
    const seen = await b.get('/envelope')
    expect(seen.status).toBe(200)
    expect(state(seen.headers)?.r).toBe(3)
    for (let i = 0; i < 3; i++) expect((await b.get('/envelope')).status).toBe(200)
    expect((await b.get('/envelope')).status).toBe(429)
    // The first process learns the second's count at its next sync (every 50 ms; longer on a busy machine).
    await expect.poll(async () => (await a.get('/envelope')).status, { timeout: 120_000, interval: 200 }).toBe(429)
    // Nothing of the key is stored as it was given.
    const keys = await first.db.query<{ key: string }>('select key from rate_limit_counts')
    expect(keys.length).toBeGreaterThan(0)
    for (const { key } of keys) expect(key).not.toContain('api_')
  })
})
