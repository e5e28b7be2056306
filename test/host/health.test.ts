/**
 * /healthz and /readyz, and a graceful shutdown: a request under way when the
 * host is told to stop is answered in full; new connections are refused.
 * Database: the embedded one (the host's checks; migrations and the queue are held on both elsewhere).
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf, startTestHost, type TestHost } from './support.js'

describe('health and readiness on pglite', () => {
  let host: TestHost

  beforeAll(async () => {
    host = await startTestHost('pglite')
  }, 60_000)
  afterAll(async () => {
    await host?.stop()
  })

  const get = async (path: string) => {
    const res = await fetch(host.url + path)
    return { status: res.status, body: (await res.json()) as any, cache: res.headers.get('cache-control') }
  }

  it('alive and ready, with no token; not ready when the schema is not this build\'s or the queue stopped', async () => {
    expect(await get('/healthz')).toEqual({ status: 200, body: { status: 'ok' }, cache: 'no-store' })
    const ready = await get('/readyz')
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok', shutdown: 'ok' } } })

    await host.db.query('insert into schema_migrations (version) values (9999)')
    try {
      const drift = await get('/readyz')
      expect(drift.status).toBe(503)
      expect(drift.body.checks.migrations).toMatch(/schema 9999, this build needs \d+/)
    } finally {
      await host.db.query('delete from schema_migrations where version = 9999')
    }

    await host.queue.stop()
    const stopped = await get('/readyz')
    expect(stopped).toMatchObject({ status: 503, body: { status: 'not ready', checks: { queue: 'stopped' } } })
    host.queue.start()
    expect((await get('/readyz')).status).toBe(200)
  })
})

describe('graceful shutdown', () => {
  let host: TestHost
  beforeAll(async () => {
    host = await startTestHost('pglite', { shutdownGraceMs: 30_000 })
    // The check lane's thread loaded, and its rest after this first check over, so the request cut
    // in two below is a small check and not a thread start (that lane yields to every other thread).
    const warming = performance.now()
    await fetch(`${host.url}/api/v2/verify`, { method: 'POST', headers: { 'content-type': 'application/pdf' }, body: Buffer.from(await makePdf(1)) })
    await new Promise((r) => setTimeout(r, performance.now() - warming))
  })
  afterAll(async () => {
    await host?.stop()
  })

  it('answers the request under way in full, then refuses new connections', async () => {
    const pdf = Buffer.from(await makePdf(1))
    const url = new URL(`${host.url}/api/v2/verify`)
    let sentHalf!: () => void
    const half = new Promise<void>((r) => (sentHalf = r))
    let sendRest!: () => void
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/pdf', 'content-length': pdf.length } },
        (res) => {
          let body = ''
          res.on('data', (c) => (body += c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        },
      )
      req.on('error', reject)
      sendRest = () => req.end(pdf.subarray(pdf.length >> 1))
      req.write(pdf.subarray(0, pdf.length >> 1), () => sentHalf())
    })
    await half
    const closed = host.close()
    // The rest arrives after the host was told to stop.
    sendRest()
    const res = await answer
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toMatchObject({ valid: false, signatures: [] })
    await closed
    await expect(fetch(`${host.url}/healthz`)).rejects.toThrow()
  })
})
