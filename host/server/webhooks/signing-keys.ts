/**
 * A webhook's signing key: the HMAC key of its Standard Webhooks signature (webhook-signature),
 * apart from its secret, which travels in clear as X-Service-Secret: a receiver, proxy or log that
 * saw one call must not be able to sign another. Generated when the webhook is made and shown in
 * that answer and in a rotation's only; stored as the secret is.
 *
 * A webhook made before signing keys (migration 030) has none: it signs with its secret, as its
 * receivers expect, until its secret is rotated or a signing key is issued. Then what signed (that
 * secret, or the key replaced) signs beside the new key for the grace period, so a receiver moves
 * over without losing a call.
 */
import { randomBytes } from 'node:crypto'
import { WEBHOOK_SECRET_PREFIX } from '../../../src/protocol/webhook-signature.js'

/** How long what signed before a rotation keeps signing beside the new key: a day for receivers to move over. */
export const SECRET_GRACE_MS = 24 * 3600_000

/** A generated secret or signing key: `whsec_` and 32 random bytes in base64, the form Standard Webhooks libraries read. */
export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${Buffer.from(randomBytes(32)).toString('base64')}`

export interface SigningColumns {
  secret: string
  previous_secret: string | null
  previous_secret_until: Date | null
  signing_key: string | null
  previous_signing_key: string | null
  previous_signing_key_until: Date | null
}

/** What a webhook's calls are signed with: its own key, its secret (made before signing keys), or nothing (neither). */
export type SignsWith = 'SIGNING_KEY' | 'SECRET' | 'NONE'

export const signsWith = (w: SigningColumns): SignsWith => (w.signing_key !== null ? 'SIGNING_KEY' : w.secret !== '' ? 'SECRET' : 'NONE')

const live = (until: Date | null, now: Date) => !!until && until > now

/** The keys a call is signed with now: the current one, and the one it replaced while the grace lasts. */
export function signingKeys(w: SigningColumns, now = new Date()): string[] {
  const keys =
    w.signing_key !== null
      ? [w.signing_key, live(w.previous_signing_key_until, now) ? w.previous_signing_key : null]
      : [w.secret, live(w.previous_secret_until, now) ? w.previous_secret : null]
  return keys.filter((k): k is string => !!k)
}

/**
 * The columns of a webhook given `key` as its signing key: what signed until now (the key it
 * replaces, or the secret of a webhook that signed with it) signs beside it for the grace period.
 */
export function replacedBy(w: SigningColumns, key: string, now = new Date()) {
  const signed = w.signing_key ?? (w.secret || null)
  return {
    signing_key: key,
    previous_signing_key: signed,
    previous_signing_key_until: signed === null ? null : new Date(now.getTime() + SECRET_GRACE_MS),
  }
}

/** Until when what signed before the last rotation signs beside the current key; null when no rotation is under way. */
export function replacedSignsUntil(w: SigningColumns, now = new Date()): Date | null {
  const [key, until] = w.signing_key !== null ? [w.previous_signing_key, w.previous_signing_key_until] : [w.previous_secret, w.previous_secret_until]
  return key && live(until, now) ? until : null
}
