/**
 * Webhook verification, two adapters for a Fetch `Request` and for Node's `IncomingMessage`:
 * with `signingKey`, the call's signature (signed.ts), the proof to use, since the secret header
 * travels in clear and anyone who reads one call knows it; with `secret` alone, the X-Service-Secret
 * header as before (one core, verifyWebhookBody).
 *
 * Order matters: the secret is checked before the body is even read, so a forged request
 * costs nothing and learns nothing. Every failure is a WebhookError with a `reason`.
 *
 * A receiver answers `error.status` with no body (401 on a missing or wrong secret or signature,
 * revealing nothing), answers 2xx within 10 seconds (acknowledge, then work), and processes
 * idempotently: the service may deliver the same event again.
 */
import { InvalidInputError, WebhookError } from '../errors.js'
import type { WebhookEvent } from './events.js'
import { parseEvent, readStream, type NodeRequestLike } from './body.js'
import { verifySignedNodeWebhook, verifySignedWebhook, type VerifySignedWebhookOptions } from './signed.js'

export { parseEvent, readStream }

/** The header carrying the shared secret. Header names are case-insensitive. */
export const WEBHOOK_SECRET_HEADER = 'x-service-secret'

export interface VerifyWebhookBodyOptions {
  /** The secret configured on the webhook; `''` when none is configured (the service then sends an empty header). */
  secret: string
  /** The X-Service-Secret header value; null/undefined when the header is absent. */
  header: string | null | undefined
  /** The raw request body. */
  body: string | Uint8Array
}

/** The core: checks the secret in constant time, then parses and checks the event. */
export function verifyWebhookBody({ secret, header, body }: VerifyWebhookBodyOptions): WebhookEvent {
  checkSecret(secret, header)
  return parseEvent(body)
}

/** Throws unless `header` equals `secret`. Runs before the body is read, so forgeries cost nothing. */
function checkSecret(secret: string | undefined, header: string | null | undefined): void {
  if (typeof secret !== 'string') {
    throw new InvalidInputError([
      { path: 'signingKey', message: "the webhook's signing key, to check the call's signature (or `secret`, to check the X-Service-Secret header)" },
    ])
  }
  if (header === null || header === undefined) {
    throw new WebhookError('MISSING_SECRET_HEADER', 'the X-Service-Secret header is missing')
  }
  if (!timingSafeEqual(header, secret)) throw new WebhookError('SECRET_MISMATCH', 'the X-Service-Secret header does not match')
}

/**
 * What the adapters check: `signingKey` (the webhook's, or its new and old keys during a rotation),
 * the call's signature; `secret` alone, the X-Service-Secret header (a webhook made before signing
 * keys, or a receiver not moved over yet); both, both. The signature options (`toleranceSeconds`,
 * `replays`, `now`) apply with `signingKey`.
 */
export type VerifyWebhookOptions = Omit<VerifySignedWebhookOptions, 'secret' | 'signingKey'> &
  ({ signingKey: string | readonly string[]; secret?: string } | { secret: string; signingKey?: undefined })

/** For Fetch-style runtimes (edge functions, Deno, Bun, Hono, Next.js route handlers). Reads the body. */
export async function verifyWebhook(o: VerifyWebhookOptions & { request: Request }): Promise<WebhookEvent> {
  const { secret, request } = o
  if (o.signingKey !== undefined) {
    if (secret !== undefined) checkSecret(secret, request.headers.get(WEBHOOK_SECRET_HEADER))
    return verifySignedWebhook({ ...o, secret: undefined })
  }
  checkSecret(secret, request.headers.get(WEBHOOK_SECRET_HEADER))
  let body: Uint8Array
  try {
    body = new Uint8Array(await request.arrayBuffer())
  } catch (e) {
    throw new WebhookError('UNREADABLE_BODY', `the body could not be read: ${e instanceof Error ? e.message : String(e)}`)
  }
  return parseEvent(body)
}

/** What this adapter needs of Node's IncomingMessage (structural, so no node: import). */
export type { NodeRequestLike } from './body.js'

/**
 * For Node (node:http, Express, Fastify, Koa...). Pass the raw body if a body parser already read
 * the stream (e.g. Express `express.raw({ type: 'application/json' })` gives a Buffer in req.body);
 * without `body` the request stream is read here.
 */
export async function verifyNodeWebhook(
  o: VerifyWebhookOptions & { request: NodeRequestLike & Partial<AsyncIterable<unknown>>; body?: string | Uint8Array },
): Promise<WebhookEvent> {
  const { secret, request, body } = o
  // Node lowercases header names; a hand-built headers object may not have.
  const name = Object.keys(request.headers).find((k) => k.toLowerCase() === WEBHOOK_SECRET_HEADER)
  const raw = name === undefined ? undefined : request.headers[name]
  // Node joins repeated custom headers with ', '; an array can only come from a hand-built object.
  const header = Array.isArray(raw) ? raw.join(', ') : raw
  if (o.signingKey !== undefined) {
    if (secret !== undefined) checkSecret(secret, header)
    return verifySignedNodeWebhook({ ...o, secret: undefined })
  }
  checkSecret(secret, header)
  return parseEvent(body ?? (await readStream(request)))
}

/**
 * Compares without an early exit, so the time taken does not tell how much of a guess was
 * right. It loops over the received value, so the time depends on the attacker's own input
 * only. Pure JS: no Web Crypto, which Node 18 does not expose globally.
 */
export function timingSafeEqual(received: string, expected: string): boolean {
  const encoder = new TextEncoder()
  const a = encoder.encode(received)
  const b = encoder.encode(expected)
  let diff = a.length ^ b.length
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ (b[i % (b.length || 1)] ?? 0)
  return diff === 0
}
