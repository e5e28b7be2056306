/**
 * Signed webhook verification (the Standard Webhooks scheme, src/protocol/webhook-signature.ts):
 * one core over the three headers and the raw body, and adapters for a Fetch `Request` and for
 * Node's `IncomingMessage`, as for the shared-secret header (verify.ts). The key is the webhook's
 * signing key, never the secret of the X-Service-Secret header (which anyone who reads a call
 * knows), except for a webhook made before signing keys, which signs with its secret until rotated.
 *
 * Order matters: the timestamp is checked first (free), then the signature over the body, then
 * the replay store, so a forgery costs one HMAC and never writes to the store; the event is
 * parsed last, once its sender is proven.
 */
import { InvalidInputError, WebhookError } from '../errors.js'
import {
  signaturesOf,
  signedContent,
  webhookKey,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../protocol/webhook-signature.js'
import type { WebhookEvent } from './events.js'
import { parseEvent, readStream, type NodeRequestLike } from './body.js'

/**
 * Where the ids of calls already taken are kept, to refuse a captured call sent again within the
 * time window. A retry of the service is not a replay: it carries a new timestamp, so the key is
 * the id and the timestamp together. Share one store between the processes that receive.
 */
export interface WebhookReplayStore {
  /** Records `key` until `expiresAt`; answers true when it was recorded already. */
  seen(key: string, expiresAt: Date): boolean | Promise<boolean>
}

export interface VerifySignedWebhookOptions {
  /**
   * The webhook's signing key (`signingKey` in the answer that made or rotated it); during a
   * rotation, the new and the old one (either signature is enough). For a webhook made before
   * signing keys (`signsWith: 'SECRET'`), its secret, until it is rotated.
   */
  signingKey?: string | readonly string[]
  /** The former name of `signingKey`, still read when `signingKey` is not given (not both). */
  secret?: string | readonly string[] | undefined
  /** How far the call's timestamp may be from now, either way. Default 300 seconds. */
  toleranceSeconds?: number
  /** Refuses calls already taken (REPLAYED). Without it, replays within the window are not detected. */
  replays?: WebhookReplayStore
  /** The clock, in milliseconds (tests). */
  now?: () => number
}

export interface VerifySignedWebhookBodyOptions extends VerifySignedWebhookOptions {
  /** The request's headers: a Fetch `Headers`, or Node's headers object. */
  headers: Headers | Record<string, string | string[] | undefined>
  /** The raw request body, exactly as received. */
  body: string | Uint8Array
}

const DEFAULT_TOLERANCE = 300

/** The core: checks the timestamp, a signature, the replay store, then parses and checks the event. */
export async function verifySignedWebhookBody(o: VerifySignedWebhookBodyOptions): Promise<WebhookEvent> {
  const proven = await proveSender(o, o.headers)
  const text = typeof o.body === 'string' ? o.body : decode(o.body)
  await proven(text)
  return parseEvent(text)
}

/** For Fetch-style runtimes (edge functions, Deno, Bun, Hono, Next.js route handlers). Reads the body. */
export async function verifySignedWebhook(o: VerifySignedWebhookOptions & { request: Request }): Promise<WebhookEvent> {
  const proven = await proveSender(o, o.request.headers)
  let body: Uint8Array
  try {
    body = new Uint8Array(await o.request.arrayBuffer())
  } catch (e) {
    throw new WebhookError('UNREADABLE_BODY', `the body could not be read: ${e instanceof Error ? e.message : String(e)}`)
  }
  const text = decode(body)
  await proven(text)
  return parseEvent(text)
}

/** For Node (node:http, Express with `express.raw()`, Fastify, Koa...). Reads the stream unless `body` is given. */
export async function verifySignedNodeWebhook(
  o: VerifySignedWebhookOptions & { request: NodeRequestLike & Partial<AsyncIterable<unknown>>; body?: string | Uint8Array },
): Promise<WebhookEvent> {
  const proven = await proveSender(o, o.request.headers)
  const body = o.body ?? (await readStream(o.request))
  const text = typeof body === 'string' ? body : decode(body)
  await proven(text)
  return parseEvent(text)
}

/**
 * Checks the headers and the time window now; returns the check of the body's signature and the
 * replay store, to run once the body is read.
 */
async function proveSender(o: VerifySignedWebhookOptions, headers: VerifySignedWebhookBodyOptions['headers']) {
  if (o.signingKey !== undefined && o.secret !== undefined) {
    throw new InvalidInputError([{ path: 'secret', message: 'the former name of signingKey: give signingKey alone (verifyWebhook checks a secret header beside the signature)' }])
  }
  const given = o.signingKey ?? o.secret
  const secrets = typeof given === 'string' ? [given] : [...(given ?? [])]
  if (!secrets.length || secrets.some((s) => typeof s !== 'string' || s === '')) {
    const path = o.signingKey === undefined && o.secret !== undefined ? 'secret' : 'signingKey'
    throw new InvalidInputError([{ path, message: "must be the webhook's signing key (or its new and old keys during a rotation)" }])
  }
  const id = header(headers, WEBHOOK_ID_HEADER)
  const timestamp = header(headers, WEBHOOK_TIMESTAMP_HEADER)
  const signatures = signaturesOf(header(headers, WEBHOOK_SIGNATURE_HEADER) ?? '')
  if (!id || !timestamp || !signatures.length) {
    throw new WebhookError('MISSING_SIGNATURE', 'the webhook-id, webhook-timestamp or webhook-signature header is missing')
  }
  const tolerance = o.toleranceSeconds ?? DEFAULT_TOLERANCE
  const nowSeconds = Math.floor((o.now ?? Date.now)() / 1000)
  const sentAt = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN
  if (!(Math.abs(nowSeconds - sentAt) <= tolerance)) {
    throw new WebhookError('STALE_TIMESTAMP', `the webhook-timestamp is not within ${tolerance} s of now`)
  }
  const subtle = globalThis.crypto?.subtle
  if (!subtle) throw new InvalidInputError([{ path: 'crypto', message: "Web Crypto is needed: globalThis.crypto (Node 19+; on Node 18, set it to node:crypto's webcrypto)" }])
  const keys = await Promise.all(secrets.map((s) => subtle.importKey('raw', webhookKey(s), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])))

  return async (body: string) => {
    const content = new TextEncoder().encode(signedContent(id, timestamp, body))
    let valid = false
    for (const key of keys) {
      for (const signature of signatures) {
        const bytes = fromBase64(signature)
        // subtle.verify compares in constant time.
        if (bytes && (await subtle.verify('HMAC', key, bytes, content))) valid = true
      }
    }
    if (!valid) throw new WebhookError('SIGNATURE_MISMATCH', 'no signature of the webhook-signature header matches')
    if (o.replays && (await o.replays.seen(`${id}.${timestamp}`, new Date((sentAt + tolerance) * 1000)))) {
      throw new WebhookError('REPLAYED', 'this call was taken already')
    }
  }
}

/** A header's value from a Fetch `Headers` or a Node headers object, whatever the case of its name. */
function header(headers: VerifySignedWebhookBodyOptions['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const record = headers as Record<string, string | string[] | undefined>
  const key = Object.keys(record).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return Array.isArray(value) ? value.join(' ') : value
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

function decode(body: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    throw new WebhookError('INVALID_JSON', 'the body is not UTF-8 text')
  }
}

/**
 * A replay store in this process's memory: right for one receiving process; several need a
 * shared one (a database table or Redis `SET key 1 NX EXAT`).
 */
export function memoryReplayStore(): WebhookReplayStore {
  const until = new Map<string, number>()
  let swept = 0
  return {
    seen(key, expiresAt) {
      const now = Date.now()
      // Expired keys go at most once a second, so a busy receiver does not walk the map per call.
      if (now - swept > 1000) {
        swept = now
        for (const [k, t] of until) if (t < now) until.delete(k)
      }
      if (until.has(key)) return true
      until.set(key, expiresAt.getTime())
      return false
    },
  }
}
