/**
 * Slow requests: a time budget for the headers and the whole body, answered 408 in the error
 * shape; malformed HTTP is 400. The clients dribble bytes on purpose (the behaviour under test);
 * the upper bounds allow a busy machine's stalls, far below when the dribble would end.
 * Database: the embedded one (HTTP, not database). A host of its own: its time budgets.
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, startTestHost, type TestHost } from './support.js'

/** A raw connection: what was written back, and when the server closed it. */
function rawConnection(port: number, o: { ignoreClose?: boolean } = {}) {
  // ignoreClose: keep this side open when the server ends its side, as a hostile client may.
  const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: o.ignoreClose ?? false })
  let answer = ''
  socket.setEncoding('utf8')
  socket.on('data', (d: string) => (answer += d))
  socket.on('error', () => {})
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())))
  return { socket, closed, answer: () => answer }
}

/** Writes `bytes` one at a time every `everyMs` until the socket closes. */
function trickle(socket: Socket, bytes: string, everyMs: number): () => void {
  let i = 0
  const timer = setInterval(() => {
    if (socket.destroyed || i >= bytes.length) return clearInterval(timer)
    socket.write(bytes[i++]!)
  }, everyMs)
  return () => clearInterval(timer)
}

describe('slow requests: a time budget for headers and the whole body', () => {
  let host: TestHost
  let token: string
  const BUDGET = 800

  beforeAll(async () => {
    host = await startTestHost('pglite', { requestTimeoutMs: BUDGET, headersTimeoutMs: 400, queueConcurrency: 0 })
    token = (await host.createApiToken({ name: 'slow' })).token
  })
  afterAll(() => host?.stop())
  const port = () => Number(new URL(host.url).port)

  it('cuts a body trickled one byte at a time with 408 in the error shape, and keeps serving', async () => {
    const c = rawConnection(port())
    const body = JSON.stringify({ type: 'DOCUMENT', title: 'x'.repeat(200) })
    const started = performance.now()
    c.socket.write(`POST /api/v2/envelope/get-many HTTP/1.1\r\nHost: x\r\nAuthorization: ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`)
    const stop = trickle(c.socket, body, 50)
    const closedAt = await c.closed
    stop()
    // Cut at the budget, long before the body could have arrived (10 s).
    expect(closedAt - started).toBeGreaterThanOrEqual(BUDGET - 50)
    expect(closedAt - started).toBeLessThan(BUDGET + 5000)
    const [head, json] = c.answer().split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 408 /)
    expect(head).toMatch(/content-type: application\/json/i)
    expect(head).toMatch(/x-content-type-options: nosniff/i)
    expect(JSON.parse(json!)).toEqual({ message: expect.any(String), code: 'REQUEST_TIMEOUT' })
    expect((await api(host.apiUrl, token).get('/envelope')).status).toBe(200)
  })

  it('cuts headers that never end', async () => {
    const c = rawConnection(port())
    const started = performance.now()
    c.socket.write('GET /api/v2/envelope HTTP/1.1\r\nHost: x\r\n')
    const stop = trickle(c.socket, 'X-Slow: ' + 'a'.repeat(1000), 50)
    const closedAt = await c.closed
    stop()
    // Long before the headers could have ended (50 s).
    expect(closedAt - started).toBeLessThan(BUDGET + 5000)
    expect(c.answer()).toMatch(/^HTTP\/1\.1 408 /)
    expect(JSON.parse(c.answer().split('\r\n\r\n')[1]!).code).toBe('REQUEST_TIMEOUT')
  })

  // A client that ignores the server's close and goes on sending a byte at a time (slower than the
  // budget's check) must lose its connection at the headers budget, whatever its pace or method,
  // and also for the second request of a kept-alive connection.
  it('closes headers sent a byte at a time, GET, POST and a second request on a kept connection', async () => {
    const head = (method: string) => `${method} /api/v2/envelope HTTP/1.1\r\nHost: x\r\nAuthorization: ${token}\r\nX-Slow: ${'a'.repeat(2000)}`
    const first = `GET /api/v2/envelope HTTP/1.1\r\nHost: x\r\nAuthorization: ${token}\r\n\r\n`
    const cases = [
      { name: 'GET', bytes: head('GET') },
      { name: 'POST', bytes: head('POST') },
      { name: 'kept-alive second request', bytes: head('GET'), before: first },
    ]
    const held = await Promise.all(
      cases.map(async ({ name, bytes, before }) => {
        const c = rawConnection(port(), { ignoreClose: true })
        const started = performance.now()
        if (before) c.socket.write(before)
        const stop = trickle(c.socket, bytes, 150)
        // Without the cut the trickle would last 5 minutes: give up well before, as "held".
        const end = await Promise.race([c.closed, new Promise<number>((r) => setTimeout(() => r(Infinity), 30_000))])
        stop()
        c.socket.destroy()
        return { name, ms: end - started, answer: c.answer() }
      }),
    )
    for (const h of held) {
      // Headers budget 400 ms, noticed within a quarter of the shortest budget, then a second's grace
      // to read the answer, and room for a busy machine: far below the trickle's 5 minutes.
      expect(h.ms, h.name).toBeLessThan(400 + 200 + 1000 + 8000)
      expect(h.answer, h.name).toMatch(/HTTP\/1\.1 408 /)
    }
    expect(held[2]!.answer).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('answers malformed HTTP in the error shape', async () => {
    const c = rawConnection(port())
    c.socket.write('NOT HTTP AT ALL\r\n\r\n')
    await c.closed
    expect(c.answer()).toMatch(/^HTTP\/1\.1 400 /)
    expect(JSON.parse(c.answer().split('\r\n\r\n')[1]!)).toEqual({ message: expect.any(String), code: 'INVALID_REQUEST' })
  })

  it('answers a large upload early and ends the connection without a reset while the client is still sending', async () => {
    // Refused from its head (no credential) while its 2 MB body is on its way; the client goes on
    // sending after it has the answer, as one uploading does. A server that destroyed the socket
    // at once would answer those bytes with a reset, and the client could lose the answer to it.
    const c = rawConnection(port(), { ignoreClose: true })
    const errors: string[] = []
    c.socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message))
    c.socket.write(`POST /api/v2/envelope/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`)
    c.socket.write(Buffer.alloc(64 * 1024, 0x25))
    await expect.poll(() => c.answer()).toMatch(/\r\n\r\n\{.*\}$/s)
    const [head, json] = c.answer().split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 401 /)
    expect(head).toMatch(/\r\nconnection: close/i)
    expect(JSON.parse(json!)).toMatchObject({ code: expect.any(String), message: expect.any(String) })
    for (let i = 0; i < 8; i++) {
      await new Promise<void>((resolve) => c.socket.write(Buffer.alloc(64 * 1024, 0x25), () => resolve()))
    }
    c.socket.end()
    await c.closed
    expect(errors).toEqual([])
  })

  it('keeps a connection whose request was read to its end, and only such a one', async () => {
    const c = rawConnection(port())
    const body = JSON.stringify({ ids: [] })
    const request = `POST /api/v2/envelope/get-many HTTP/1.1\r\nHost: x\r\nAuthorization: ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
    c.socket.write(request)
    // Refused after its body was read (ids must be an object): the connection stays.
    await expect.poll(() => c.answer()).toMatch(/^HTTP\/1\.1 400 .*\r\n\r\n\{.*\}$/s)
    expect(c.answer()).not.toMatch(/\r\nconnection: close/i)
    c.socket.destroy()
    // A form refused at its sixth part, its 1 MB not all read: no next request may follow on it.
    const part = '--x\r\nContent-Disposition: form-data; name="p"\r\n\r\nv\r\n'
    const form = part.repeat(6) + `--x\r\nContent-Disposition: form-data; name="q"\r\n\r\n${'v'.repeat(1024 * 1024)}\r\n--x--\r\n`
    const refused = await fetch(`${host.apiUrl}/verify`, { method: 'POST', headers: { 'Content-Type': 'multipart/form-data; boundary=x' }, body: form })
    expect([refused.status, (await refused.json()).code, refused.headers.get('connection')]).toEqual([400, 'INVALID_REQUEST', 'close'])
  })

  it('leaves a request sent at a normal pace alone', async () => {
    const res = await api(host.apiUrl, token).post('/envelope/get-many', { ids: [] })
    expect(res.status).not.toBe(408)
  })
})
