/**
 * The receiver's side of signing keys: verifyWebhook and verifyNodeWebhook check the call's
 * signature with the webhook's signing key (calls signed here by standardwebhooks, an
 * implementation of the scheme written by others), through a rotation's overlap, with or without
 * the X-Service-Secret header, and the options receivers were written with keep working.
 */
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import {
  InvalidInputError,
  memoryReplayStore,
  verifyNodeWebhook,
  verifySignedNodeWebhook,
  verifySignedWebhookBody,
  verifyWebhook,
  WebhookError,
} from '../../src/server/index.js'
import { eventBody, listen } from './fixtures.js'

const key = () => `whsec_${randomBytes(32).toString('base64')}`
const KEY = key()
const OLD_KEY = key()
const SECRET = 'sent-in-clear'
const BODY = eventBody('DOCUMENT_COMPLETED')

/** A call as the service sends it: signed with `keys`, the secret header unless left out. */
function call(o: { keys?: string[]; secret?: string | null; body?: string; id?: string } = {}) {
  const id = o.id ?? 'msg_1'
  const at = new Date()
  const body = o.body ?? BODY
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': (o.keys ?? [KEY]).map((k) => new Webhook(k).sign(id, at, body)).join(' '),
  }
  if (o.secret !== null) headers['x-service-secret'] = o.secret ?? SECRET
  return { headers, body }
}

const request = (c: ReturnType<typeof call>) => new Request('https://receiver.example/hooks', { method: 'POST', headers: c.headers, body: c.body })

async function reason(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(WebhookError)
  return (e as WebhookError).reason
}

describe('verifyWebhook and verifyNodeWebhook with the signing key', () => {
  it('take a call signed with the key, with the secret header or without it', async () => {
    for (const secret of [SECRET, null]) {
      expect((await verifyWebhook({ signingKey: KEY, request: request(call({ secret })) })).event).toBe('DOCUMENT_COMPLETED')
      const c = call({ secret })
      expect((await verifyNodeWebhook({ signingKey: KEY, request: { headers: c.headers }, body: c.body })).event).toBe('DOCUMENT_COMPLETED')
    }
  })

  it('refuse a call signed with what the secret header revealed, a changed body and another key', async () => {
    // Whoever read one call knows the header's value, and signs with it.
    const forged = call({ keys: [`whsec_${Buffer.from(SECRET).toString('base64')}`] })
    expect(await reason(verifyWebhook({ signingKey: KEY, request: request(forged) }))).toBe('SIGNATURE_MISMATCH')
    const genuine = call()
    expect(await reason(verifyWebhook({ signingKey: KEY, request: request({ ...genuine, body: BODY.replace('COMPLETED', 'REJECTED') }) }))).toBe('SIGNATURE_MISMATCH')
    expect(await reason(verifyWebhook({ signingKey: OLD_KEY, request: request(genuine) }))).toBe('SIGNATURE_MISMATCH')
    expect(await reason(verifyWebhook({ signingKey: KEY, request: request({ headers: { 'x-service-secret': SECRET }, body: BODY }) }))).toBe('MISSING_SIGNATURE')
  })

  it('through a rotation: a call signed with both keys, and a receiver holding both takes a call signed with either', async () => {
    const both = call({ keys: [KEY, OLD_KEY] })
    for (const held of [KEY, OLD_KEY, [KEY, OLD_KEY]]) expect((await verifyWebhook({ signingKey: held, request: request(both) })).event).toBe('DOCUMENT_COMPLETED')
    for (const signer of [KEY, OLD_KEY]) {
      expect((await verifyWebhook({ signingKey: [KEY, OLD_KEY], request: request(call({ keys: [signer] })) })).event).toBe('DOCUMENT_COMPLETED')
    }
  })

  it('with the secret too, check both: the header must be there and match', async () => {
    expect((await verifyWebhook({ signingKey: KEY, secret: SECRET, request: request(call()) })).event).toBe('DOCUMENT_COMPLETED')
    expect(await reason(verifyWebhook({ signingKey: KEY, secret: SECRET, request: request(call({ secret: null })) }))).toBe('MISSING_SECRET_HEADER')
    expect(await reason(verifyWebhook({ signingKey: KEY, secret: SECRET, request: request(call({ secret: 'other' })) }))).toBe('SECRET_MISMATCH')
    expect(await reason(verifyWebhook({ signingKey: KEY, secret: SECRET, request: request(call({ keys: [OLD_KEY] })) }))).toBe('SIGNATURE_MISMATCH')
  })

  it('refuse a call taken already when given a replay store', async () => {
    const replays = memoryReplayStore()
    const c = call()
    await verifyWebhook({ signingKey: KEY, request: request(c), replays })
    expect(await reason(verifyWebhook({ signingKey: KEY, request: request(c), replays }))).toBe('REPLAYED')
  })

  it('on a real node:http server: the signed call passes, the one signed with the header value is an empty 401', async () => {
    const server = await listen(async (req, res) => {
      try {
        await verifyNodeWebhook({ signingKey: KEY, request: req })
        res.writeHead(204).end()
      } catch (e) {
        res.writeHead((e as WebhookError).status ?? 500).end()
      }
    })
    try {
      const send = (c: ReturnType<typeof call>) => fetch(server.url, { method: 'POST', headers: c.headers, body: c.body })
      expect((await send(call({ secret: null }))).status).toBe(204)
      const forged = await send(call({ keys: [`whsec_${Buffer.from(SECRET).toString('base64')}`] }))
      expect(forged.status).toBe(401)
      expect(await forged.text()).toBe('')
    } finally {
      await server.close()
    }
  })
})

describe('the options receivers were written with', () => {
  it('verifyWebhook with `secret` alone checks the header, as before', async () => {
    expect((await verifyWebhook({ secret: SECRET, request: request(call({ keys: [OLD_KEY] })) })).event).toBe('DOCUMENT_COMPLETED')
    expect(await reason(verifyWebhook({ secret: SECRET, request: request(call({ secret: null })) }))).toBe('MISSING_SECRET_HEADER')
  })

  it('verifySigned* read `secret` as the key (a webhook made before signing keys signs with its secret), not both at once', async () => {
    const legacy = call({ keys: [`whsec_${Buffer.from(SECRET).toString('base64')}`] })
    // A typed secret is a key of its UTF-8 bytes, as the service signs with it.
    const typed = (() => {
      const id = 'msg_1'
      const at = new Date()
      const signature = new Webhook(Buffer.from(SECRET, 'utf8'), { format: 'raw' }).sign(id, at, BODY)
      return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature }
    })()
    expect((await verifySignedWebhookBody({ secret: SECRET, headers: typed, body: BODY })).event).toBe('DOCUMENT_COMPLETED')
    expect((await verifySignedNodeWebhook({ secret: `whsec_${Buffer.from(SECRET).toString('base64')}`, request: { headers: legacy.headers }, body: legacy.body })).event).toBe(
      'DOCUMENT_COMPLETED',
    )
    await expect(verifySignedWebhookBody({ secret: SECRET, signingKey: KEY, headers: typed, body: BODY })).rejects.toBeInstanceOf(InvalidInputError)
    await expect(verifySignedWebhookBody({ headers: typed, body: BODY })).rejects.toBeInstanceOf(InvalidInputError)
    await expect(verifyWebhook({ signingKey: '', request: request(call()) })).rejects.toBeInstanceOf(InvalidInputError)
  })
})
