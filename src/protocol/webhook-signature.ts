/**
 * Signed webhook calls, the Standard Webhooks scheme, shared by the service that signs and the
 * server entry that checks: every call carries `webhook-id`, `webhook-timestamp` (Unix seconds)
 * and `webhook-signature`, a space-separated list of `v1,<base64 HMAC-SHA256>` over
 * `{id}.{timestamp}.{body}`; two during a secret's rotation, one per secret.
 */

export const WEBHOOK_ID_HEADER = 'webhook-id'
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp'
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature'

/** The prefix of a generated secret: the rest is the key, in base64. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_'

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/**
 * The HMAC key of a secret: for `whsec_<base64>` the decoded bytes, as every Standard Webhooks
 * library reads it; for any other secret (one a person typed) its UTF-8 bytes.
 */
export function webhookKey(secret: string): Uint8Array<ArrayBuffer> {
  const rest = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : null
  if (rest && BASE64.test(rest)) return Uint8Array.from(atob(rest), (c) => c.charCodeAt(0))
  return new TextEncoder().encode(secret)
}

/** What is signed: the id, the timestamp and the body exactly as sent. */
export const signedContent = (id: string, timestamp: number | string, body: string): string => `${id}.${timestamp}.${body}`

/** The base64 signatures of a `webhook-signature` header, of the versions this library knows (`v1`). */
export function signaturesOf(header: string): string[] {
  return header
    .split(' ')
    .map((part) => part.split(','))
    .filter(([version, signature]) => version === 'v1' && signature)
    .map(([, signature]) => signature!)
}
