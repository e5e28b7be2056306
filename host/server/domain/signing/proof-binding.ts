/**
 * Every proof the service issues about a recipient, and the one rule they all follow: a proof
 * names exactly what it proves — the recipient's id, their address, their token (the link's
 * generation) and the proof's purpose — and counts only while that recipient is still exactly
 * that. A new address or a new link voids every proof issued before it, whichever door changed it
 * (a correction, a template edit, a signer naming the next signer).
 *
 * The proofs: e-mailed codes (access, action, account), access grants, consent to sign
 * electronically, and passkey challenges of the signing pages. Each carries the binding digest
 * of its subject and purpose; each check recomputes the digest from the recipient as it is now.
 * Codes are also spent at once when an address or token changes (migration 031's trigger).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto'
import type { Db, Queryable } from '../../db/index.js'
import { ApiError } from '../../errors.js'
import { enqueue } from '../../jobs/enqueue.js'
import { normaliseEmail } from '../../people/emails.js'
import { MAIL_REQUESTS_PER_IP, spend } from '../../people/throttle.js'
import { ACCESS_METHODS, type AccessMethod } from '../recipient/auth.js'
import type { RecipientRow, DirectLinkRow } from '../common/rows.js'

/** Who a proof is about: a recipient as it is now, or a direct link's visitor at the address they gave. */
export interface ProofSubject {
  recipientId: number
  email: string
  /** The recipient's signing token, or the direct link's token for its visitor. */
  token: string
}

/** access, action, account: the e-mailed codes; grant: a passed access check; consent; passkey: a signing page's challenge. */
export type ProofPurpose = CodePurpose | 'grant' | 'consent' | 'passkey'

/** The recipient as the row says now. */
export const recipientSubject = (r: Pick<RecipientRow, 'id' | 'email' | 'token'>): ProofSubject => ({ recipientId: r.id, email: r.email, token: r.token })

/** A direct link's visitor: the link's recipient, at the address the visitor gives, under the link's token. */
export const visitorSubject = (link: Pick<DirectLinkRow, 'recipient_id' | 'token'>, email: string): ProofSubject => ({
  recipientId: link.recipient_id,
  email,
  token: link.token,
})

/**
 * The binding digest (hex) of a proof of `purpose` about `s`. Not keyed: it names, it does not
 * authenticate (the token in it is secret and random, so the digest reveals nothing of it).
 */
export function proofBinding(s: ProofSubject, purpose: ProofPurpose): string {
  return createHash('sha256').update(JSON.stringify(['recipient-proof', purpose, s.recipientId, normaliseEmail(s.email), s.token])).digest('hex')
}

// ---- Grants: proof of an access check (or an account sign-in), kept by the page.

/** How long a grant lasts: a sitting, not a day. */
export const GRANT_MS = 2 * 3600_000

const mac = (key: KeyObject, text: string) => createHmac('sha256', key).update(text).digest('base64url')

/** A grant for `s` proving `methods` (the access check passed, an account signed in), valid until now + GRANT_MS. */
export function issueGrant(key: KeyObject, s: ProofSubject, methods: AccessMethod[], now: Date): { grant: string; expiresAt: string } {
  const expires = Math.floor((now.getTime() + GRANT_MS) / 1000)
  const body = `${s.recipientId}.${[...new Set(methods)].sort().join('+')}.${expires}`
  return { grant: `${body}.${mac(key, `recipient-grant|${proofBinding(s, 'grant')}|${body}`)}`, expiresAt: new Date(expires * 1000).toISOString() }
}

/** The methods a grant presented for `s` proves; [] when absent, forged, expired, or issued to `s` before its address or token changed. */
export function grantMethods(key: KeyObject, s: ProofSubject, grant: string | undefined, now: Date): AccessMethod[] {
  if (!grant || grant.length > 200) return []
  const parts = grant.split('.')
  if (parts.length !== 4) return []
  const [id, methods, expires, tag] = parts as [string, string, string, string]
  const expected = Buffer.from(mac(key, `recipient-grant|${proofBinding(s, 'grant')}|${id}.${methods}.${expires}`))
  const given = Buffer.from(tag)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return []
  if (id !== String(s.recipientId) || Number(expires) * 1000 <= now.getTime()) return []
  return methods.split('+').filter((m): m is AccessMethod => (ACCESS_METHODS as readonly string[]).includes(m))
}

// ---- One-time codes sent by e-mail.

export const CODE_MS = 10 * 60_000
/** Wrong codes per code; then a new one must be asked for. */
export const CODE_ATTEMPTS = 5
/**
 * Codes one recipient (a direct link's visitor: one address) may be sent in the throttle window
 * (people/throttle.ts). It bounds mail, not guessing: guesses are bounded by CODE_ATTEMPTS per
 * code and by the second-factor throttle of the address (10 wrong codes in the window, however
 * many codes were sent). With CODE_RESEND_MS between sends, reaching it takes minutes of asking.
 */
export const CODES_PER_RECIPIENT = 10
/** The least time between two codes of one purpose to one subject; the page counts it down. */
export const CODE_RESEND_MS = 30_000

/** access and action: the checks' codes; account: proves the address before an account is made for it. */
export type CodePurpose = 'access' | 'action' | 'account'

/** The six digits of code row `id`: derived with the host's key, never stored. */
export function codeValue(key: KeyObject, id: string): string {
  const n = createHmac('sha256', key).update(`recipient-code|${id}`).digest().readUInt32BE(0) % 1_000_000
  return String(n).padStart(6, '0')
}

/**
 * A new code for `s` (its older one of the purpose stops working); its row id, for the mail job.
 * `visitor`: `s` is a direct link's visitor, whose address the code is mailed to (else the recipient's).
 */
export async function newCode(tx: Queryable, s: ProofSubject, purpose: CodePurpose, now: Date, visitor = false): Promise<{ id: string; expiresAt: Date }> {
  const binding = proofBinding(s, purpose)
  await tx.query('update recipient_auth_codes set used_at = $2 where binding = $1 and used_at is null', [binding, now])
  const id = randomBytes(16).toString('base64url')
  const expiresAt = new Date(now.getTime() + CODE_MS)
  await tx.query('insert into recipient_auth_codes (id, recipient_id, purpose, expires_at, created_at, email, binding) values ($1, $2, $3, $4, $5, $6, $7)', [
    id,
    s.recipientId,
    purpose,
    expiresAt,
    now,
    visitor ? normaliseEmail(s.email) : null,
    binding,
  ])
  return { id, expiresAt }
}

/** The job that e-mails a new code (payload: `{ codeId }`). */
export const RECIPIENT_CODE_JOB = 'recipient-code'

/**
 * A new code (as newCode), its e-mail queued in the same transaction: one door for every page
 * that sends one. Refused (429 CODE_COOLDOWN, Retry-After) within CODE_RESEND_MS of the last code
 * of this purpose to `s`, before any budget is spent; then counted on `budget` (CODES_PER_RECIPIENT
 * in the window) and on the caller's network address (429 TOO_MANY_REQUESTS over either).
 */
export async function sendCode(
  db: Db,
  s: ProofSubject,
  purpose: CodePurpose,
  now: Date,
  o: { budget: string; ip: string; visitor?: boolean },
): Promise<{ id: string; expiresAt: Date; resendAt: Date }> {
  const [last] = await db.query<{ created_at: Date }>('select created_at from recipient_auth_codes where binding = $1 order by created_at desc limit 1', [proofBinding(s, purpose)])
  const wait = last ? new Date(last.created_at).getTime() + CODE_RESEND_MS - now.getTime() : 0
  if (wait > 0) {
    const seconds = String(Math.ceil(wait / 1000))
    throw new ApiError(429, 'CODE_COOLDOWN', `a code was just sent: a new one can be sent in ${seconds} seconds`, undefined, { 'Retry-After': seconds })
  }
  await spend(db, [{ key: o.budget, limit: CODES_PER_RECIPIENT }, ...(o.ip ? [{ key: `mail-ip:${o.ip}`, limit: MAIL_REQUESTS_PER_IP }] : [])], now)
  const made = await db.transaction(async (tx) => {
    const code = await newCode(tx, s, purpose, now, o.visitor)
    await enqueue(tx, { kind: RECIPIENT_CODE_JOB, payload: { codeId: code.id } })
    return code
  })
  return { ...made, resendAt: new Date(now.getTime() + CODE_RESEND_MS) }
}

/**
 * Uses the current code of `purpose` issued to `s` as it is now, when `code` is it: true once;
 * false for a wrong code (counted: after CODE_ATTEMPTS the code is spent). 400 CODE_EXPIRED when
 * there is no live code: none asked, expired, used, or issued before the address or token changed.
 */
export async function useCode(tx: Queryable, key: KeyObject, s: ProofSubject, purpose: CodePurpose, code: string, now: Date): Promise<boolean> {
  const [row] = await tx.query<{ id: string }>(
    `select id from recipient_auth_codes where binding = $1 and recipient_id = $2 and used_at is null and expires_at > $3
     order by created_at desc limit 1 for update`,
    [proofBinding(s, purpose), s.recipientId, now],
  )
  if (!row) throw new ApiError(400, 'CODE_EXPIRED', 'there is no valid code: ask for a new one')
  const expected = Buffer.from(codeValue(key, row.id))
  const given = Buffer.from(code.replace(/\s/g, ''))
  const ok = given.length === expected.length && timingSafeEqual(given, expected)
  if (ok) await tx.query('update recipient_auth_codes set used_at = $2 where id = $1', [row.id, now])
  else await tx.query('update recipient_auth_codes set attempts = attempts + 1, used_at = case when attempts + 1 >= $2 then $3::timestamptz else null end where id = $1', [row.id, CODE_ATTEMPTS, now])
  return ok
}

// ---- Consent and passkey challenges carry the digest; these name it for their stores.

/** The digest a consent to sign electronically records (RECIPIENT_CONSENT_GIVEN), and is matched by. */
export const consentBinding = (r: Pick<RecipientRow, 'id' | 'email' | 'token'>): string => proofBinding(recipientSubject(r), 'consent')

/** The digest a signing page's passkey challenge (a recipient's, or a direct link visitor's) is stored with, and must be answered under. */
export const passkeyBinding = (s: ProofSubject): string => proofBinding(s, 'passkey')
