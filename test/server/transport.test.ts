/**
 * Input checks and the transport's failure modes, against real local HTTP servers:
 * refused connections, a server that never answers, proxies that answer HTML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  ApiError,
  createClient,
  createPresignToken,
  InvalidInputError,
  InvalidResponseError,
  NetworkError,
  TimeoutError,
} from '../../src/server/index.js'
import { apiUrlOf } from '../../src/server/config.js'
import { listen, readBody } from './fixtures.js'

const API_KEY = 'api_test_0123456789'

/** A server that records what reaches it and answers with the current `reply`. */
let server: Awaited<ReturnType<typeof listen>>
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = []
let reply: (req: IncomingMessage, res: ServerResponse) => void = (_, res) => void res.writeHead(500).end()

beforeAll(async () => {
  server = await listen(async (req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: await readBody(req) })
    reply(req, res)
  })
})
afterAll(() => server.close())

const json = (status: number, body: unknown) => (_: IncomingMessage, res: ServerResponse) =>
  void res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))

async function rejection(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(() => null, (e: unknown) => e)
  expect(e).toBeInstanceOf(Error)
  return e as Error
}

describe('baseUrl', () => {
  it.each([
    ['https://sign.example.com', 'https://sign.example.com/api/v2'],
    ['https://sign.example.com/', 'https://sign.example.com/api/v2'],
    ['https://sign.example.com/api/v2', 'https://sign.example.com/api/v2'],
    ['https://sign.example.com/api/v2/', 'https://sign.example.com/api/v2'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/api/v2'],
    ['https://example.com/sign', 'https://example.com/sign/api/v2'],
    ['https://example.com/sign/api/v2', 'https://example.com/sign/api/v2'],
    ['HTTPS://Sign.Example.COM', 'https://sign.example.com/api/v2'],
  ])('%s -> %s', (input, expected) => {
    expect(apiUrlOf(input)).toBe(expected)
  })

  it.each([
    '', 'sign.example.com', '/api/v2', 'ftp://sign.example.com', 'javascript:alert(1)', 'https://user:pw@sign.example.com',
    'https://sign.example.com?x=1', 'https://sign.example.com/#x', 'https://sign.example.com/api/v1',
    'https://sign.example.com/api/v2-beta', 'https://sign.example.com/api',
  ])('rejects %j', (input) => {
    expect(typeof apiUrlOf(input)).toBe('object')
  })
})

describe('bad input is refused before any request', () => {
  const base = () => ({ baseUrl: server.url, apiKey: API_KEY })

  it.each<[string, Record<string, unknown>, string]>([
    ['a baseUrl that is not http(s)', { baseUrl: 'ftp://x' }, 'baseUrl'],
    ['a relative baseUrl', { baseUrl: '/api/v2' }, 'baseUrl'],
    ['a missing baseUrl', { baseUrl: undefined }, 'baseUrl'],
    ['an apiKey without api_', { apiKey: 'sk_live_123' }, 'apiKey'],
    ['an apiKey that is a presign token', { apiKey: 'eyJhbGciOiJIUzI1NiJ9.e30.x' }, 'apiKey'],
    ['an empty apiKey', { apiKey: '' }, 'apiKey'],
    ['expiresIn above 10080', { expiresIn: 10081 }, 'expiresIn'],
    ['a negative expiresIn', { expiresIn: -1 }, 'expiresIn'],
    ['a fractional expiresIn', { expiresIn: 1.5 }, 'expiresIn'],
    ['a string expiresIn', { expiresIn: '60' }, 'expiresIn'],
    ['NaN expiresIn', { expiresIn: Number.NaN }, 'expiresIn'],
    ['a malformed scope', { scope: 'envelope_abc' }, 'scope'],
    ['a scope with a bad id', { scope: 'documentId:abc' }, 'scope'],
    ['a negative timeout', { timeoutMs: -5 }, 'timeoutMs'],
  ])('createPresignToken: %s', async (_, override, path) => {
    const before = seen.length
    const e = await rejection(createPresignToken({ ...base(), ...override } as never))
    expect(e).toBeInstanceOf(InvalidInputError)
    expect(e.name).toBe('InvalidInputError')
    expect((e as InvalidInputError).issues.map((i) => i.path)).toEqual([path])
    expect(e.message).toContain(path)
    expect(seen.length).toBe(before)
  })

  it('lists every problem at once', async () => {
    const e = await rejection(createPresignToken({ baseUrl: 'nope', apiKey: 'nope', expiresIn: 99999 }))
    expect((e as InvalidInputError).issues.map((i) => i.path)).toEqual(['baseUrl', 'apiKey', 'expiresIn'])
  })

  it('createClient checks its options when created', () => {
    expect(() => createClient({ baseUrl: 'https://x.example', apiKey: 'token' })).toThrow(InvalidInputError)
    expect(() => createClient({ baseUrl: 'mailto:a@b.c', apiKey: API_KEY })).toThrow(/baseUrl/)
  })

  it('client uploads need files with names and bytes', async () => {
    const client = createClient(base())
    const before = seen.length
    await expect(client.envelopes.create({ type: 'DOCUMENT', title: 't', files: [] })).rejects.toBeInstanceOf(InvalidInputError)
    const e = await rejection(client.items.createMany('envelope_x', [{ name: '', data: new Uint8Array(1) }, { name: 'a.pdf', data: 'x' as never }]))
    expect((e as InvalidInputError).issues.map((i) => i.path)).toEqual(['files.0.name', 'files.1.data'])
    await expect(client.createPresignToken({ expiresIn: 20000 })).rejects.toBeInstanceOf(InvalidInputError)
    expect(seen.length).toBe(before)
  })
})

describe('the request', () => {
  it('sends the API key as the Authorization header and the JSON body, accepts both baseUrl forms', async () => {
    reply = json(200, { token: 'jwt.token.x', expiresAt: '2030-01-01T00:00:00.000Z', expiresIn: 3600 })
    for (const baseUrl of [server.url, `${server.url}/api/v2/`]) {
      const t = await createPresignToken({ baseUrl, apiKey: API_KEY, expiresIn: 60, scope: { kind: 'documentId', id: 42 } })
      expect(t).toEqual({ token: 'jwt.token.x', expiresAt: new Date('2030-01-01T00:00:00.000Z'), expiresIn: 3600 })
      expect(JSON.parse(JSON.stringify(t))).toEqual({ token: 'jwt.token.x', expiresAt: '2030-01-01T00:00:00.000Z', expiresIn: 3600 })
      const last = seen.at(-1)!
      expect(last.method).toBe('POST')
      expect(last.url).toBe('/api/v2/embedding/create-presign-token')
      expect(last.headers.authorization).toBe(API_KEY)
      expect(last.headers['content-type']).toBe('application/json')
      expect(JSON.parse(last.body)).toEqual({ expiresIn: 60, scope: 'documentId:42' })
    }
  })

  it('maps an error body to ApiError with status, code, message and issues', async () => {
    reply = json(400, { message: 'invalid request', code: 'INVALID_REQUEST', issues: [{ message: 'too big', path: 'expiresIn' }] })
    const e = (await rejection(createPresignToken({ baseUrl: server.url, apiKey: API_KEY }))) as ApiError
    expect(e).toBeInstanceOf(ApiError)
    expect(e.name).toBe('ApiError')
    expect([e.status, e.code, e.message, e.issues]).toEqual([400, 'INVALID_REQUEST', 'invalid request', [{ message: 'too big', path: 'expiresIn' }]])
  })

  it('a non-JSON error page (a proxy) is still an ApiError, coded by status', async () => {
    reply = (_, res) => void res.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>Bad Gateway</h1>')
    const e = (await rejection(createPresignToken({ baseUrl: server.url, apiKey: API_KEY }))) as ApiError
    expect(e).toBeInstanceOf(ApiError)
    expect([e.status, e.code, e.message]).toEqual([502, 'HTTP_502', '<h1>Bad Gateway</h1>'])
  })

  it('a 200 that is not the promised shape is an InvalidResponseError', async () => {
    reply = (_, res) => void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>login</html>')
    const e1 = await rejection(createPresignToken({ baseUrl: server.url, apiKey: API_KEY }))
    expect(e1).toBeInstanceOf(InvalidResponseError)
    reply = json(200, { token: '', expiresAt: 'tomorrow', expiresIn: -1 })
    const e2 = (await rejection(createPresignToken({ baseUrl: server.url, apiKey: API_KEY }))) as InvalidResponseError
    expect(e2).toBeInstanceOf(InvalidResponseError)
    expect(e2.issues.map((i) => i.path)).toEqual(['token', 'expiresAt', 'expiresIn'])
  })

  it('a refused connection is a NetworkError', async () => {
    const closed = await listen(() => {})
    const url = closed.url
    await closed.close()
    const e = await rejection(createPresignToken({ baseUrl: url, apiKey: API_KEY }))
    expect(e).toBeInstanceOf(NetworkError)
    expect(e).not.toBeInstanceOf(TimeoutError)
    expect(e.name).toBe('NetworkError')
    expect(e.message).toContain(url)
    expect(e.cause).toBeDefined()
  })

  it('a server that never answers is a TimeoutError', async () => {
    const silent = await listen(() => {})
    try {
      const e = await rejection(createPresignToken({ baseUrl: silent.url, apiKey: API_KEY, timeoutMs: 200 }))
      expect(e).toBeInstanceOf(TimeoutError)
      expect(e).not.toBeInstanceOf(NetworkError)
      expect((e as TimeoutError).timeoutMs).toBe(200)
      expect(e.name).toBe('TimeoutError')
      const client = createClient({ baseUrl: silent.url, apiKey: API_KEY, timeoutMs: 200 })
      await expect(client.envelopes.get('envelope_x')).rejects.toBeInstanceOf(TimeoutError)
    } finally {
      await silent.close()
    }
  })

  it('a body that stops half-way counts against the timeout too', async () => {
    const stalled = await listen((_, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write('{"token":')
    })
    try {
      await expect(createPresignToken({ baseUrl: stalled.url, apiKey: API_KEY, timeoutMs: 200 })).rejects.toBeInstanceOf(TimeoutError)
    } finally {
      await stalled.close()
    }
  })

  it("the caller's abort rejects with the signal's reason, not a typed transport error", async () => {
    const silent = await listen(() => {})
    try {
      const controller = new AbortController()
      const reason = new Error('user went away')
      const p = createPresignToken({ baseUrl: silent.url, apiKey: API_KEY, signal: controller.signal })
      setTimeout(() => controller.abort(reason), 50)
      expect(await rejection(p)).toBe(reason)
      await expect(createPresignToken({ baseUrl: silent.url, apiKey: API_KEY, signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
    } finally {
      await silent.close()
    }
  })

  it('uses the fetch it is given', async () => {
    const calls: string[] = []
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      fetch: (input, init) => {
        calls.push(String(input))
        return fetch(input, init)
      },
    })
    reply = json(200, { data: [] })
    expect(await client.attachments.find('envelope_a b')).toEqual([])
    expect(calls).toEqual([`${server.url}/api/v2/envelope/attachment?envelopeId=envelope_a+b`])
  })
})
