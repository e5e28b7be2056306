/**
 * Posting a webhook to hostile or broken receivers: time limits, answer sizes, redirects, cut connections.
 * Database: none (the poster alone).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { heldOrigins, postJson } from '../../host/server/webhooks/post.js'
import { until } from './support.js'

/** What a hostile or broken receiver may do with a delivery, each at its own path. */
const behaviours: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/ok': (_req, res) => res.end('fine'),
  '/big': (_req, res) => {
    res.writeHead(200)
    res.end('x'.repeat(5 * 1024 * 1024))
  },
  // Headers at once, then a byte every 50 ms for ever: each gap is short, the whole is not.
  '/trickle': (_req, res) => {
    res.writeHead(200)
    const t = setInterval(() => res.write('.'), 50)
    res.on('close', () => clearInterval(t))
  },
  '/silent': () => {},
  // Its answer comes just after the delivery gave up on it.
  '/late': (_req, res) => void setTimeout(() => {
    res.end('too late')
    lateAnswered()
  }, 1_300),
  '/redirect': (_req, res) => {
    res.writeHead(302, { Location: '/ok' })
    res.end('moved')
  },
  '/cut': (req) => req.socket.destroy(),
}

let base = ''
/** Called once the late receiver has written its answer. */
let lateAnswered = () => {}
const hits: string[] = []
const server = createServer((req, res) => {
  hits.push(req.url!)
  req.resume()
  req.on('end', () => behaviours[req.url!]!(req, res))
})

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

// A delivery cut at its timeout gets 1 s; one that must arrive gets a time no busy machine reaches.
const short = { timeoutMs: 1000, allowPrivate: true }
const o = { timeoutMs: 60_000, allowPrivate: true }

describe('posting a webhook', () => {
  it('sends the body and headers and keeps the first KiB of a huge answer', async () => {
    const r = await postJson(`${base}/big`, '{"a":1}', { 'X-Test': 'yes' }, o)
    expect(r).toMatchObject({ status: 200, error: null })
    expect(r.body).toBe('x'.repeat(1024))
    // The next delivery goes through after it, on a kept connection or a new one.
    expect(await postJson(`${base}/ok`, '{}', {}, o)).toMatchObject({ status: 200, body: 'fine', error: null })
  })

  it('cuts the whole exchange at the timeout, however the receiver paces its answer', async () => {
    for (const path of ['/trickle', '/silent']) {
      const started = Date.now()
      const r = await postJson(`${base}${path}`, '{}', {}, short)
      expect(r, path).toMatchObject({ status: null, body: null, error: 'no answer within 1000 ms' })
      // A trickle would go on for ever: any bound shows the cut, a wide one holds on a busy machine.
      expect(Date.now() - started, path).toBeLessThan(20_000)
    }
    expect(await postJson(`${base}/ok`, '{}', {}, o)).toMatchObject({ status: 200 })
  })

  it('drops an answer that comes after the timeout, and goes on', async () => {
    const answered = new Promise<void>((r) => (lateAnswered = r))
    expect(await postJson(`${base}/late`, '{}', {}, short)).toMatchObject({ status: null, error: 'no answer within 1000 ms' })
    await answered // the answer arrives meanwhile, and is thrown away
    expect(await postJson(`${base}/ok`, '{}', {}, o)).toMatchObject({ status: 200 })
  })

  it('follows no redirect', async () => {
    hits.length = 0
    expect(await postJson(`${base}/redirect`, '{}', {}, o)).toMatchObject({ status: 302, body: 'moved', error: null })
    expect(hits).toEqual(['/redirect'])
  })

  it('says why when there is no answer', async () => {
    const cut = await postJson(`${base}/cut`, '{}', {}, o)
    expect(cut.status).toBeNull()
    expect(cut.error).toMatch(/\w/)
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    closed.close()
    const refused = await postJson(`http://127.0.0.1:${port}/hook`, '{}', {}, o)
    expect(refused).toMatchObject({ status: null, body: null })
    expect(refused.error).toMatch(/ECONNREFUSED|refused/i)
  })

  it('never reuses a connection made where private addresses were allowed where they are not', async () => {
    expect(await postJson(`${base}/ok`, '{}', {}, o)).toMatchObject({ status: 200 })
    const checked = await postJson(`${base}/ok`, '{}', {}, { ...o, allowPrivate: false })
    expect(checked).toMatchObject({ status: null, error: expect.stringMatching(/private/) })
    // A name that resolves to the inside, with a connection to that address already open in the
    // pool that allows it: refused all the same.
    const resolve = async () => ['127.0.0.1']
    expect(await postJson(`http://bed.cafe:${new URL(base).port}/ok`, '{}', {}, { ...o, resolve })).toMatchObject({ status: 200 })
    const named = await postJson(`http://bed.cafe:${new URL(base).port}/ok`, '{}', {}, { ...o, allowPrivate: false, resolve })
    expect(named).toMatchObject({ status: null, error: expect.stringMatching(/private/) })
  })
})

describe('the connections to receivers', () => {
  it('forgets a receiver once its connections close, however many there were', async () => {
    // 60 origins (names that all resolve here), as a team could make by changing its webhooks.
    const resolve = async () => ['127.0.0.1']
    const port = new URL(base).port
    const before = heldOrigins() // this file's other receivers, still connected
    for (let i = 0; i < 60; i++) expect(await postJson(`http://r${i}.test:${port}/ok`, '{}', {}, { ...o, resolve })).toMatchObject({ status: 200 })
    expect(heldOrigins() - before).toBe(60)
    server.closeAllConnections()
    await until(() => heldOrigins() === 0, 5000)
    expect(heldOrigins()).toBe(0)
  })
})
