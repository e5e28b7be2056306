/**
 * The host's JSON log: one object per line, a request id on every request (taken from a
 * well-formed X-Request-Id, else made) answered in X-Request-Id, carried into the jobs the request
 * caused and into what they log when they run; routes logged as patterns, never a link's token.
 * Database: the embedded one (logging). A host of its own: the tests run its queue themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { log } from '../../host/server/log.js'
import { api, createEnvelope, startTestHost, type Api, type TestHost } from './support.js'

describe('the JSON log', () => {
  let host: TestHost
  let client: Api
  let auth: string
  const lines: Record<string, unknown>[] = []
  const write = process.stdout.write
  const level = log.level

  beforeAll(async () => {
    host = await startTestHost('pglite', { queueConcurrency: 0 })
    auth = `Bearer ${(await host.createApiToken({ name: 'log' })).token}`
    client = api(host.apiUrl, auth)
    log.level = 'info'
    process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
      for (const line of String(chunk).split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>)
      return (write as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest)
    }) as typeof process.stdout.write
  })
  afterAll(async () => {
    process.stdout.write = write
    log.level = level
    await host?.stop()
  })

  it('gives each request an id, answers it, and carries it into the jobs it causes', async () => {
    const e = await createEnvelope(client, {
      recipients: [{ name: 'Jo', email: 'jo@example.com', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
    })
    const sent = await fetch(`${host.apiUrl}/envelope/distribute`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json', 'X-Request-Id': 'trace-distribute-1' },
      body: JSON.stringify({ envelopeId: e.id }),
    })
    expect(sent.status).toBe(200)
    expect(sent.headers.get('x-request-id')).toBe('trace-distribute-1')
    const recipientToken = ((await sent.json()) as { recipients: { token: string }[] }).recipients[0]!.token

    const request = lines.find((l) => l.requestId === 'trace-distribute-1' && l.msg === 'request')
    expect(request).toMatchObject({ level: 'info', method: 'POST', route: '/api/v2/envelope/distribute', status: 200 })
    expect(typeof request!.time).toBe('string')
    expect(typeof request!.ms).toBe('number')

    // The signing request mail it caused: its job row, and its run's log line, carry the id.
    const jobs = await host.db.query<{ kind: string; request_id: string }>(`select kind, request_id from jobs where request_id = 'trace-distribute-1'`)
    expect(jobs.map((j) => j.kind)).toContain('mail')
    await host.queue.drain()
    expect(lines.filter((l) => l.msg === 'job' && l.requestId === 'trace-distribute-1')).toContainEqual(expect.objectContaining({ kind: 'mail', outcome: 'done', attempt: 1 }))

    // The recipient's link: logged by its pattern, the token nowhere.
    const page = await fetch(`${host.url}/sign/${recipientToken}`)
    expect(page.headers.get('x-request-id')).toMatch(/^[\w-]{12}$/)
    await fetch(`${host.url}/api/signing/session`, { headers: { Authorization: `Bearer ${recipientToken}` } })
    expect(lines.find((l) => l.route === '/api/signing/session')).toBeTruthy()
    expect(JSON.stringify(lines)).not.toContain(recipientToken)
  })

  it('makes its own id when the given one is not a plain short token', async () => {
    for (const given of ['x'.repeat(65), '{"level":"fatal"}', 'a b', '']) {
      const res = await fetch(`${host.url}/healthz`, { headers: { 'X-Request-Id': given } })
      const id = res.headers.get('x-request-id')!
      expect(id).not.toBe(given)
      expect(id).toMatch(/^[\w-]{12}$/)
    }
  })
})
