import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it, vi } from 'vitest'
import {
  InvalidInputError,
  memoryReplayStore,
  verifySignedNodeWebhook,
  verifySignedWebhook,
  verifySignedWebhookBody,
  WebhookError,
  type WebhookReplayStore,
} from '../../src/server/index.js'
import { webhookKey } from '../../src/protocol/webhook-signature.js'
import { ALL_EVENTS, eventBody, listen } from './fixtures.js'

// Calls are signed here by standardwebhooks, an implementation of the scheme written by others.
const SECRET = `whsec_${randomBytes(32).toString('base64')}`
const OLD_SECRET = `whsec_${randomBytes(32).toString('base64')}`
const TYPED_SECRET = 'a secret a person typed, not base64 €'
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0)
const now = () => NOW

function signed(body: string, o: { secrets?: string[]; id?: string; at?: number } = {}) {
  const id = o.id ?? 'msg_1'
  const at = new Date(o.at ?? NOW)
  const signatures = (o.secrets ?? [SECRET]).map((s) => (s.startsWith('whsec_') ? new Webhook(s) : new Webhook(Buffer.from(s, 'utf8'), { format: 'raw' })).sign(id, at, body))
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signatures.join(' ') }
}

async function refusal(p: Promise<unknown>): Promise<WebhookError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(WebhookError)
  return e as WebhookError
}

const BODY = eventBody('DOCUMENT_COMPLETED')

describe('signed webhook calls', () => {
  it('reads a whsec_ secret as its base64 key, any other secret as its UTF-8 bytes', () => {
    expect(Buffer.from(webhookKey(SECRET)).equals(Buffer.from(SECRET.slice(6), 'base64'))).toBe(true)
    expect(Buffer.from(webhookKey(TYPED_SECRET)).toString('utf8')).toBe(TYPED_SECRET)
    // whsec_ followed by something that is not base64: the whole text is the key.
    expect(Buffer.from(webhookKey('whsec_not-base64!')).toString('utf8')).toBe('whsec_not-base64!')
  })

  it.each(ALL_EVENTS)('takes %s signed by another implementation of the scheme', async (name) => {
    const body = eventBody(name)
    const event = await verifySignedWebhookBody({ secret: SECRET, headers: signed(body), body, now })
    expect(event.event).toBe(name)
  })

  it('takes a typed secret, a Fetch Request and a Node request', async () => {
    const headers = signed(BODY, { secrets: [TYPED_SECRET] })
    const request = new Request('https://receiver.example/hooks', { method: 'POST', headers, body: BODY })
    expect((await verifySignedWebhook({ secret: TYPED_SECRET, request, now })).event).toBe('DOCUMENT_COMPLETED')

    const got = vi.fn()
    const receiver = await listen(async (req, res) => {
      try {
        got((await verifySignedNodeWebhook({ secret: TYPED_SECRET, request: req, now })).event)
        res.writeHead(200).end()
      } catch (e) {
        res.writeHead((e as WebhookError).status ?? 500).end()
      }
    })
    try {
      const res = await fetch(receiver.url, { method: 'POST', headers, body: BODY })
      expect(res.status).toBe(200)
      expect(got).toHaveBeenCalledWith('DOCUMENT_COMPLETED')
      const forged = await fetch(receiver.url, { method: 'POST', headers, body: BODY.replace('DOCUMENT_COMPLETED', 'DOCUMENT_REJECTED') })
      expect(forged.status).toBe(401)
    } finally {
      await receiver.close()
    }
  })

  it('refuses a changed body, a changed id or timestamp, another secret, and missing headers', async () => {
    const headers = signed(BODY)
    expect((await refusal(verifySignedWebhookBody({ secret: SECRET, headers, body: `${BODY} `, now }))).reason).toBe('SIGNATURE_MISMATCH')
    expect((await refusal(verifySignedWebhookBody({ secret: SECRET, headers: { ...headers, 'webhook-id': 'msg_2' }, body: BODY, now }))).reason).toBe('SIGNATURE_MISMATCH')
    const later = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) }
    expect((await refusal(verifySignedWebhookBody({ secret: SECRET, headers: later, body: BODY, now }))).reason).toBe('SIGNATURE_MISMATCH')
    expect((await refusal(verifySignedWebhookBody({ secret: OLD_SECRET, headers, body: BODY, now }))).status).toBe(401)
    expect((await refusal(verifySignedWebhookBody({ secret: SECRET, headers: { ...headers, 'webhook-signature': 'v2,abc' }, body: BODY, now }))).reason).toBe('MISSING_SIGNATURE')
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _, ...rest } = headers
      expect((await refusal(verifySignedWebhookBody({ secret: SECRET, headers: rest, body: BODY, now }))).reason).toBe('MISSING_SIGNATURE')
    }
    await expect(verifySignedWebhookBody({ secret: '', headers, body: BODY, now })).rejects.toBeInstanceOf(InvalidInputError)
  })

  it('refuses a timestamp outside the window either way, and takes one at its edge', async () => {
    for (const skew of [-301_000, 301_000]) {
      const headers = signed(BODY, { at: NOW + skew })
      const e = await refusal(verifySignedWebhookBody({ secret: SECRET, headers, body: BODY, now }))
      expect([e.reason, e.status]).toEqual(['STALE_TIMESTAMP', 401])
    }
    await verifySignedWebhookBody({ secret: SECRET, headers: signed(BODY, { at: NOW - 300_000 }), body: BODY, now })
    const wide = signed(BODY, { at: NOW - 3_600_000 })
    await verifySignedWebhookBody({ secret: SECRET, headers: wide, body: BODY, now, toleranceSeconds: 3_600 })
    expect((await refusal(verifySignedWebhookBody({ secret: SECRET, headers: { ...wide, 'webhook-timestamp': '1e9' }, body: BODY, now }))).reason).toBe('STALE_TIMESTAMP')
  })

  it('during a rotation: a call signed with both secrets passes either receiver, and a receiver holding both takes either', async () => {
    const both = signed(BODY, { secrets: [SECRET, OLD_SECRET] })
    expect(both['webhook-signature'].split(' ')).toHaveLength(2)
    await verifySignedWebhookBody({ secret: SECRET, headers: both, body: BODY, now })
    await verifySignedWebhookBody({ secret: OLD_SECRET, headers: both, body: BODY, now })
    // The receiver moved to the new secret before the service did, or the other way round.
    await verifySignedWebhookBody({ secret: [SECRET, OLD_SECRET], headers: signed(BODY, { secrets: [OLD_SECRET] }), body: BODY, now })
    await verifySignedWebhookBody({ secret: [SECRET, OLD_SECRET], headers: signed(BODY), body: BODY, now })
    // The other implementation takes our double header too.
    expect(new Webhook(OLD_SECRET).verify(BODY, signed(BODY, { secrets: [SECRET, OLD_SECRET], at: Date.now() }))).toBeTruthy()
  })

  it('refuses a call taken already, takes the service retrying it, and a forgery writes nothing to the store', async () => {
    const replays = memoryReplayStore()
    const headers = signed(BODY)
    await verifySignedWebhookBody({ secret: SECRET, headers, body: BODY, now, replays })
    const again = await refusal(verifySignedWebhookBody({ secret: SECRET, headers, body: BODY, now, replays }))
    expect([again.reason, again.status]).toEqual(['REPLAYED', 409])
    // A retry: the same id, a new timestamp, signed anew.
    await verifySignedWebhookBody({ secret: SECRET, headers: signed(BODY, { at: NOW + 30_000 }), body: BODY, now, replays })

    const store: WebhookReplayStore = { seen: vi.fn(() => false) }
    await refusal(verifySignedWebhookBody({ secret: SECRET, headers: { ...headers, 'webhook-id': 'msg_forged' }, body: BODY, now, replays: store }))
    expect(store.seen).not.toHaveBeenCalled()
    await verifySignedWebhookBody({ secret: SECRET, headers, body: BODY, now, replays: store })
    expect(store.seen).toHaveBeenCalledWith(`msg_1.${headers['webhook-timestamp']}`, new Date(NOW + 300_000))
  })
})
