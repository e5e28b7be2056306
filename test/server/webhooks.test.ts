import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  InvalidInputError,
  verifyNodeWebhook,
  verifyWebhook,
  verifyWebhookBody,
  WebhookError,
  type WebhookErrorReason,
  type WebhookEvent,
} from '../../src/server/index.js'
import { timingSafeEqual } from '../../src/server/webhooks/verify.js'
import { webhookHandler } from '../../examples/webhooks.js'
import { ALL_EVENTS, eventBody, fullPayload, listen, payloadFor, recipient, readBody } from './fixtures.js'

const SECRET = 'whsec_5f2b9c0e7a1d-Secret'

const post = (body: BodyInit, headers: Record<string, string> = { 'X-Service-Secret': SECRET }) =>
  new Request('https://receiver.example/hooks', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body })

/** The WebhookError a call rejects with (fails the test if it resolves or throws anything else). */
async function refusal(p: Promise<unknown> | (() => unknown)): Promise<WebhookError> {
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookError)
    expect((e as Error).name).toBe('WebhookError')
    return e as WebhookError
  }
  throw new Error('expected a WebhookError, got success')
}

describe('verifyWebhook (Fetch Request)', () => {
  it('has all fourteen events of API v2', () => {
    expect(ALL_EVENTS).toHaveLength(14)
    expect(new Set(ALL_EVENTS).size).toBe(14)
  })

  it.each(ALL_EVENTS)('accepts %s with its API v2 payload and the right secret', async (name) => {
    const event = await verifyWebhook({ secret: SECRET, request: post(eventBody(name)) })
    expect(event.event).toBe(name)
    expect(event.payload).toEqual(payloadFor(name))
    expect(event.createdAt).toBe('2025-01-01T10:05:01.000Z')
    expect(event.webhookEndpoint).toBe('https://example.com/hooks')
  })

  it('reads the header case-insensitively', async () => {
    const event = await verifyWebhook({ secret: SECRET, request: post(eventBody('DOCUMENT_SENT'), { 'x-SERVICE-secret': SECRET }) })
    expect(event.event).toBe('DOCUMENT_SENT')
  })

  it.each<[string, string, WebhookErrorReason | 'ok']>([
    ['right', SECRET, 'ok'],
    ['wrong', 'not-the-secret', 'SECRET_MISMATCH'],
    ['a prefix of the', SECRET.slice(0, 5), 'SECRET_MISMATCH'],
    ['longer than the', SECRET + 'x', 'SECRET_MISMATCH'],
    ['empty instead of the', '', 'SECRET_MISMATCH'],
  ])('%s secret -> %s', async (_, header, expected) => {
    const run = verifyWebhook({ secret: SECRET, request: post(eventBody('DOCUMENT_COMPLETED'), { 'X-Service-Secret': header }) })
    if (expected === 'ok') return void expect((await run).event).toBe('DOCUMENT_COMPLETED')
    const e = await refusal(run)
    expect(e.reason).toBe(expected)
    expect(e.status).toBe(401)
  })

  it('no secret configured: the service sends an empty header, which matches the empty secret', async () => {
    expect((await verifyWebhook({ secret: '', request: post(eventBody('DOCUMENT_OPENED'), { 'X-Service-Secret': '' }) })).event)
      .toBe('DOCUMENT_OPENED')
    const e = await refusal(verifyWebhook({ secret: '', request: post(eventBody('DOCUMENT_OPENED'), { 'X-Service-Secret': 'guess' }) }))
    expect(e.reason).toBe('SECRET_MISMATCH')
  })

  it('a missing header is its own outcome, also when no secret is configured', async () => {
    for (const secret of [SECRET, '']) {
      const e = await refusal(verifyWebhook({ secret, request: post(eventBody('DOCUMENT_SIGNED'), {}) }))
      expect(e.reason).toBe('MISSING_SECRET_HEADER')
      expect(e.status).toBe(401)
    }
  })

  it('checks the secret before reading the body', async () => {
    const request = post('not json', { 'X-Service-Secret': 'nope' })
    const e = await refusal(verifyWebhook({ secret: SECRET, request }))
    expect(e.reason).toBe('SECRET_MISMATCH')
    expect(e.body).toBeUndefined()
    expect(request.bodyUsed).toBe(false)
  })

  it('non-JSON and non-UTF-8 bodies -> INVALID_JSON (400)', async () => {
    for (const body of ['{"event":', '', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])]) {
      const e = await refusal(verifyWebhook({ secret: SECRET, request: post(body) }))
      expect(e.reason).toBe('INVALID_JSON')
      expect(e.status).toBe(400)
    }
  })

  it('an unknown event -> UNKNOWN_EVENT, with the parsed body for logging', async () => {
    const e = await refusal(verifyWebhook({ secret: SECRET, request: post(eventBody('DOCUMENT_TELEPORTED', fullPayload())) }))
    expect(e.reason).toBe('UNKNOWN_EVENT')
    expect((e.body as { event: string }).event).toBe('DOCUMENT_TELEPORTED')
  })

  it.each<[string, string, string]>([
    ['not an object', '[1,2]', 'event'],
    ['no event name', JSON.stringify({ payload: fullPayload() }), 'event'],
    ['a reduced payload on a full event', eventBody('DOCUMENT_CREATED', payloadFor('DOCUMENT_SIGNED')), 'payload.userId'],
    ['a recipient with an unknown role', eventBody('DOCUMENT_SIGNED', { ...payloadFor('DOCUMENT_SIGNED'), recipients: [recipient({ role: 'BOSS' })] }), 'payload.recipients.0.role'],
    ['a string id', eventBody('DOCUMENT_OPENED', { ...payloadFor('DOCUMENT_OPENED'), id: '7' }), 'payload.id'],
    ['TEMPLATE_CREATED with a templateId', eventBody('TEMPLATE_CREATED', { ...payloadFor('TEMPLATE_CREATED'), templateId: 4 }), 'payload.templateId'],
    ['TEMPLATE_USED without the template id', eventBody('TEMPLATE_USED', { ...payloadFor('TEMPLATE_USED'), templateId: null }), 'payload.templateId'],
    ['no createdAt', JSON.stringify({ event: 'DOCUMENT_SENT', payload: fullPayload(), webhookEndpoint: 'x' }), 'createdAt'],
    ['a null payload', JSON.stringify({ event: 'DOCUMENT_SENT', payload: null, createdAt: 'x', webhookEndpoint: 'x' }), 'payload'],
  ])('%s -> MALFORMED_PAYLOAD at %s', async (_, body, path) => {
    const e = await refusal(verifyWebhook({ secret: SECRET, request: post(body) }))
    expect(e.reason).toBe('MALFORMED_PAYLOAD')
    expect(e.status).toBe(400)
    expect(e.issues.map((i) => i.path)).toContain(path)
  })

  it('a body that was already read -> UNREADABLE_BODY', async () => {
    const request = post(eventBody('DOCUMENT_SENT'))
    await request.text()
    expect((await refusal(verifyWebhook({ secret: SECRET, request }))).reason).toBe('UNREADABLE_BODY')
  })

  it('a secret that is not a string is a configuration error', async () => {
    const run = verifyWebhook({ secret: undefined as unknown as string, request: post(eventBody('DOCUMENT_SENT')) })
    await expect(run).rejects.toBeInstanceOf(InvalidInputError)
  })

  it('never throws anything but its typed errors, whatever arrives', async () => {
    const bodies = ['null', '0', '"x"', '{}', '{"event":1}', '{"event":"DOCUMENT_SENT"}', '{"event":"DOCUMENT_SENT","payload":[]}',
      '{"event":"__proto__","payload":{}}', '{"event":"constructor"}', eventBody('DOCUMENT_REJECTED', { recipients: 'x' })]
    for (const body of bodies) {
      const e = await refusal(verifyWebhook({ secret: SECRET, request: post(body) }))
      expect(['MALFORMED_PAYLOAD', 'UNKNOWN_EVENT']).toContain(e.reason)
    }
  })

  it('narrows the payload by event name', () => {
    const use = (event: WebhookEvent) => {
      switch (event.event) {
        case 'DOCUMENT_COMPLETED':
          expectTypeOf(event.payload.userId).toEqualTypeOf<number | null>()
          expectTypeOf(event.payload.documentMeta).toEqualTypeOf<import('../../src/server/index.js').WebhookDocumentMeta | null>()
          return event.payload.completedAt
        case 'DOCUMENT_SIGNED':
          // @ts-expect-error a reduced payload has no userId
          return event.payload.userId
        case 'TEMPLATE_USED':
          expectTypeOf(event.payload.templateId).toEqualTypeOf<number>()
          return null
        case 'TEMPLATE_DELETED':
          expectTypeOf(event.payload.templateId).toEqualTypeOf<null>()
          return null
        default:
          return null
      }
    }
    expect(typeof use).toBe('function')
  })
})

describe('verifyWebhookBody (the core)', () => {
  it('takes a string or bytes', () => {
    const body = eventBody('DOCUMENT_REMINDER_SENT')
    expect(verifyWebhookBody({ secret: SECRET, header: SECRET, body }).event).toBe('DOCUMENT_REMINDER_SENT')
    expect(verifyWebhookBody({ secret: SECRET, header: SECRET, body: new TextEncoder().encode(body) }).event).toBe('DOCUMENT_REMINDER_SENT')
  })

  it('null and undefined headers are missing, the empty string is not', async () => {
    for (const header of [null, undefined]) {
      expect((await refusal(() => verifyWebhookBody({ secret: '', header, body: '{}' }))).reason).toBe('MISSING_SECRET_HEADER')
    }
    expect((await refusal(() => verifyWebhookBody({ secret: '', header: '', body: '{}' }))).reason).toBe('MALFORMED_PAYLOAD')
  })
})

describe('timingSafeEqual', () => {
  it.each([
    ['abc', 'abc', true],
    ['', '', true],
    ['abc', 'abd', false],
    ['ab', 'abc', false],
    ['abcd', 'abc', false],
    ['', 'abc', false],
    ['abc', '', false],
    ['\0', '', false],
    ['é', 'e\u0301', false],
    ['✓✓', '✓✓', true],
  ])('%j vs %j -> %s', (a, b, expected) => {
    expect(timingSafeEqual(a, b)).toBe(expected)
  })
})

describe('verifyNodeWebhook (IncomingMessage on a real node:http server)', () => {
  let server: Awaited<ReturnType<typeof listen>>
  const mode = { body: 'stream' as 'stream' | 'buffer' | 'string' }

  // The receiver as the docs tell customers to write it.
  const receiver = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const raw = mode.body === 'stream' ? undefined : mode.body === 'buffer' ? Buffer.from(await readBody(req)) : await readBody(req)
      const event = await verifyNodeWebhook({ secret: SECRET, request: req, body: raw })
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ got: event.event, envelopeId: event.payload.envelopeId }))
    } catch (e) {
      if (!(e instanceof WebhookError)) throw e
      res.writeHead(e.status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ reason: e.reason }))
    }
  }

  beforeAll(async () => {
    server = await listen((req, res) => void receiver(req, res))
  })
  afterAll(() => server.close())

  const deliver = (body: string, headers: Record<string, string>) =>
    fetch(server.url + '/hooks', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body })

  it.each(['stream', 'buffer', 'string'] as const)('accepts every event with the body as a %s', async (kind) => {
    mode.body = kind
    for (const name of ALL_EVENTS) {
      const res = await deliver(eventBody(name), { 'X-Service-Secret': SECRET })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ got: name, envelopeId: 'envelope_abcdefghijklmnop' })
    }
  })

  it.each<[string, Record<string, string>, string, number, WebhookErrorReason]>([
    ['wrong secret', { 'X-Service-Secret': 'wrong' }, eventBody('DOCUMENT_SENT'), 401, 'SECRET_MISMATCH'],
    ['empty secret', { 'X-Service-Secret': '' }, eventBody('DOCUMENT_SENT'), 401, 'SECRET_MISMATCH'],
    ['missing header', {}, eventBody('DOCUMENT_SENT'), 401, 'MISSING_SECRET_HEADER'],
    ['non-JSON', { 'x-service-secret': SECRET }, '<xml/>', 400, 'INVALID_JSON'],
    ['unknown event', { 'X-SERVICE-SECRET': SECRET }, eventBody('NOPE', fullPayload()), 400, 'UNKNOWN_EVENT'],
    ['malformed payload', { 'X-Service-Secret': SECRET }, eventBody('DOCUMENT_CREATED', {}), 400, 'MALFORMED_PAYLOAD'],
  ])('%s -> %s %s', async (_, headers, body, status, reason) => {
    mode.body = 'stream'
    const res = await deliver(body, headers)
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual({ reason })
  })

  it('takes a hand-built headers object with any header-name case', async () => {
    const body = eventBody('TEMPLATE_UPDATED')
    const event = await verifyNodeWebhook({ secret: SECRET, request: { headers: { 'X-Service-Secret': SECRET } }, body })
    expect(event.event).toBe('TEMPLATE_UPDATED')
    const e = await refusal(verifyNodeWebhook({ secret: SECRET, request: { headers: { 'x-service-secret': [SECRET, SECRET] } }, body }))
    expect(e.reason).toBe('SECRET_MISMATCH')
    const none = await refusal(verifyNodeWebhook({ secret: SECRET, request: { headers: {} } }))
    expect(none.reason).toBe('MISSING_SECRET_HEADER')
    const noStream = await refusal(verifyNodeWebhook({ secret: SECRET, request: { headers: { 'x-service-secret': SECRET } } }))
    expect(noStream.reason).toBe('UNREADABLE_BODY')
  })

  it('an empty configured secret matches the empty header over the wire', async () => {
    const local = await listen(async (req, res) => {
      const event = await verifyNodeWebhook({ secret: '', request: req }).catch((e: WebhookError) => e)
      res.writeHead(event instanceof WebhookError ? event.status : 204).end()
    })
    try {
      const ok = await fetch(local.url, { method: 'POST', headers: { 'X-Service-Secret': '' }, body: eventBody('TEMPLATE_USED') })
      expect(ok.status).toBe(204)
      const missing = await fetch(local.url, { method: 'POST', body: eventBody('TEMPLATE_USED') })
      expect(missing.status).toBe(401)
    } finally {
      await local.close()
    }
  })
})

describe('examples/webhooks.ts', () => {
  it('acknowledges with 204, processes each delivery once, refuses forgeries with an empty 401', async () => {
    const processed: string[] = []
    const key = `whsec_${randomBytes(32).toString('base64')}`
    const handle = webhookHandler({ signingKey: key, onEvent: (e) => void processed.push(e.event) })
    const server = await listen((req, res) => void handle(req, res))
    try {
      // Signed by standardwebhooks, another implementation of the scheme; the secret header is not needed.
      const send = (body: string, signer: string, id = 'msg_1') =>
        fetch(server.url, { method: 'POST', headers: signedHeaders(signer, id, body), body })
      const body = eventBody('DOCUMENT_COMPLETED')
      expect((await send(body, key)).status).toBe(204)
      expect((await send(body, key, 'msg_1')).status).toBe(204) // a retry of the same delivery
      expect((await send(eventBody('DOCUMENT_SIGNED'), key, 'msg_2')).status).toBe(204)
      const forged = await send(body, `whsec_${randomBytes(32).toString('base64')}`)
      expect(forged.status).toBe(401)
      expect(await forged.text()).toBe('')
      expect((await send('nope', key)).status).toBe(400)
      expect(processed).toEqual(['DOCUMENT_COMPLETED', 'DOCUMENT_SIGNED'])
    } finally {
      await server.close()
    }
  })

  it('answers 503 while it holds no key yet, so the service tries again', async () => {
    const keys: string[] = []
    const handle = webhookHandler({ signingKey: () => keys, onEvent: () => {} })
    const server = await listen((req, res) => void handle(req, res))
    try {
      const key = `whsec_${randomBytes(32).toString('base64')}`
      const body = eventBody('DOCUMENT_SENT')
      const send = () => fetch(server.url, { method: 'POST', headers: signedHeaders(key, 'msg_1', body), body })
      expect((await send()).status).toBe(503)
      keys.push(key)
      expect((await send()).status).toBe(204)
    } finally {
      await server.close()
    }
  })
})

/** The Standard Webhooks headers of a call signed now with `key`, by the standardwebhooks package. */
function signedHeaders(key: string, id: string, body: string): Record<string, string> {
  const at = new Date()
  return {
    'Content-Type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign(id, at, body),
  }
}
