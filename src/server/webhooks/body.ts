/** A webhook call's body: read from a Node stream, then parsed and checked as an event once its sender is proven. */
import { WebhookError } from '../errors.js'
import { check, isRecord, obj, str } from '../check.js'
import { PAYLOAD_SCHEMAS, WEBHOOK_EVENTS, type WebhookEvent, type WebhookEventName } from './events.js'

/** A Node request as the verifiers read it: its headers (and, unless a body is given, its stream). */
export interface NodeRequestLike {
  headers: Record<string, string | string[] | undefined>
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
