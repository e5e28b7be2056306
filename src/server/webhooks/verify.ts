/**
 * Webhook verification: one core that takes the secret header and the raw body, and two thin
 * adapters for a Fetch `Request` and for Node's `IncomingMessage`.
 *
 * Order matters: the secret is checked before the body is even read, so a forged request
 * costs nothing and learns nothing. Every failure is a WebhookError with a `reason`.
 *
 * A receiver answers `error.status` with no body (401 on a missing or wrong secret, revealing
 * nothing), answers 2xx within 10 seconds (acknowledge, then work), and processes idempotently:
 * the service may deliver the same event again.
 */
import { InvalidInputError, WebhookError } from '../errors.js'
import { check, isRecord, obj, str } from '../check.js'
import { PAYLOAD_SCHEMAS, WEBHOOK_EVENTS, type WebhookEvent, type WebhookEventName } from './events.js'

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
function checkSecret(secret: string, header: string | null | undefined): void {
  if (typeof secret !== 'string') {
    throw new InvalidInputError([{ path: 'secret', message: "must be a string ('' when the webhook has no secret)" }])
  }
  if (header === null || header === undefined) {
    throw new WebhookError('MISSING_SECRET_HEADER', 'the X-Service-Secret header is missing')
  }
  if (!timingSafeEqual(header, secret)) throw new WebhookError('SECRET_MISMATCH', 'the X-Service-Secret header does not match')
}

/** Parses and checks the event of a body whose sender was proven. */
export function parseEvent(body: string | Uint8Array): WebhookEvent {
  let text: string
  try {
    text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    throw new WebhookError('INVALID_JSON', 'the body is not UTF-8 text')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new WebhookError('INVALID_JSON', 'the body is not JSON')
  }
  if (!isRecord(value) || typeof value.event !== 'string') {
    throw new WebhookError('MALFORMED_PAYLOAD', 'the body is not an event: expected an object with an `event` string', {
      body: value,
      issues: [{ path: 'event', message: 'expected string' }],
    })
  }
  const name = value.event
  if (!(WEBHOOK_EVENTS as readonly string[]).includes(name)) {
    throw new WebhookError('UNKNOWN_EVENT', `unknown event ${JSON.stringify(name.slice(0, 64))}`, { body: value })
  }
  const issues = check(obj({ createdAt: str, webhookEndpoint: str, payload: PAYLOAD_SCHEMAS[name as WebhookEventName] }), value)
  if (issues.length) {
    throw new WebhookError('MALFORMED_PAYLOAD', `malformed ${name} event: ${issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join('; ')}`, {
      body: value,
      issues,
    })
  }
  return value as WebhookEvent
}

/** For Fetch-style runtimes (edge functions, Deno, Bun, Hono, Next.js route handlers). Reads the body. */
export async function verifyWebhook({ secret, request }: { secret: string; request: Request }): Promise<WebhookEvent> {
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
export interface NodeRequestLike {
  headers: Record<string, string | string[] | undefined>
}

/**
 * For Node (node:http, Express, Fastify, Koa...). Pass the raw body if a body parser already read
 * the stream (e.g. Express `express.raw({ type: 'application/json' })` gives a Buffer in req.body);
 * without `body` the request stream is read here.
 */
export async function verifyNodeWebhook({ secret, request, body }: {
  secret: string
  request: NodeRequestLike & Partial<AsyncIterable<unknown>>
  body?: string | Uint8Array
}): Promise<WebhookEvent> {
  // Node lowercases header names; a hand-built headers object may not have.
  const name = Object.keys(request.headers).find((k) => k.toLowerCase() === WEBHOOK_SECRET_HEADER)
  const raw = name === undefined ? undefined : request.headers[name]
  // Node joins repeated custom headers with ', '; an array can only come from a hand-built object.
  checkSecret(secret, Array.isArray(raw) ? raw.join(', ') : raw)
  return parseEvent(body ?? (await readStream(request)))
}

export async function readStream(stream: Partial<AsyncIterable<unknown>>): Promise<Uint8Array> {
  if (typeof stream[Symbol.asyncIterator] !== 'function') {
    throw new WebhookError('UNREADABLE_BODY', 'no body given and the request is not a readable stream')
  }
  const chunks: Uint8Array[] = []
  const encoder = new TextEncoder()
  try {
    for await (const chunk of stream as AsyncIterable<unknown>) {
      chunks.push(typeof chunk === 'string' ? encoder.encode(chunk) : (chunk as Uint8Array))
    }
  } catch (e) {
    throw new WebhookError('UNREADABLE_BODY', `the body could not be read: ${e instanceof Error ? e.message : String(e)}`)
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
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
