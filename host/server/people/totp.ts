import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import type { Db, Queryable } from '../db/index.js'
import { ApiError } from '../errors.js'

/**
 * Two-factor codes (RFC 6238: SHA-1, 6 digits, 30 s steps, one step of clock drift either way)
 * and the recovery codes that stand in for the phone. A code works once: the step it was accepted
 * for is kept (users.totp_last_step), and no code of that step or an earlier one works again.
 */
const PERIOD = 30
const DIGITS = 6
const DRIFT_STEPS = 1
export const RECOVERY_CODE_COUNT = 10

const totpOf = (secret: string, label: string, issuer: string) =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) })

export const newTotpSecret = () => new Secret({ size: 20 }).base32

/** The otpauth:// URI an authenticator app reads (from the QR code). */
export const totpUri = (secret: string, label: string, issuer: string) => totpOf(secret, label, issuer).toString()

/** The time step a code is right for (now, or one step before or after), or null. Constant-time per candidate. */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const digits = code.replace(/\s+/g, '')
  if (!/^\d{6}$/.test(digits)) return null
  const totp = totpOf(secret, 'x', 'x')
  const current = Math.floor(now.getTime() / 1000 / PERIOD)
  let found: number | null = null
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    const want = Buffer.from(totp.generate({ timestamp: step * PERIOD * 1000 }))
    // Every candidate is compared, so the time does not tell which step matched.
    if (timingSafeEqual(want, Buffer.from(digits)) && found === null) found = step
  }
  return found
}

/**
 * Whether `code` is a fresh code for the user's secret; a good code is used up (its step
 * recorded in the same statement that checks it was not used, so two requests cannot share it).
 */
export async function useTotpCode(tx: Queryable, userId: string, secret: string, code: string, now: Date): Promise<boolean> {
  const step = matchingStep(secret, code, now)
  if (step === null) return false
  const rows = await tx.query('update users set totp_last_step = $2 where id = $1 and (totp_last_step is null or totp_last_step < $2) returning id', [userId, step])
  return rows.length > 0
}

/** The user's TOTP secret: `pending` (set up, not yet confirmed) or on. */
export async function totpState(db: Queryable, userId: string): Promise<{ secret: string | null; enabled: boolean }> {
  const [row] = await db.query<{ totp_secret: string | null; totp_enabled_at: Date | null }>('select totp_secret, totp_enabled_at from users where id = $1', [userId])
  return { secret: row?.totp_secret ?? null, enabled: !!row?.totp_enabled_at }
}

// Recovery codes are 80 random bits each: a fast digest is enough to keep them out of a dump.
const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '')
const recoveryDigest = (code: string) => createHash('sha256').update(`recovery:${normaliseRecovery(code)}`).digest('hex')
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

function newRecoveryCode(): string {
  const bytes = randomBytes(10)
  let bits = ''
  for (const b of bytes) bits += b.toString(2).padStart(8, '0')
  const chars = bits.match(/.{5}/g)!.map((b) => BASE32[parseInt(b, 2)]).join('')
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}-${chars.slice(12, 16)}`
}

/** Ten new recovery codes, replacing any the user had; shown once, stored as digests. */
export async function replaceRecoveryCodes(tx: Queryable, userId: string): Promise<string[]> {
  await tx.query('delete from recovery_codes where user_id = $1', [userId])
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  for (const code of codes) await tx.query('insert into recovery_codes (user_id, code_hash) values ($1, $2)', [userId, recoveryDigest(code)])
  return codes
}

/** The account page's new recovery codes: replaceRecoveryCodes in one transaction. */
export function renewRecoveryCodes(db: Db, userId: string): Promise<string[]> {
  return db.transaction((tx) => replaceRecoveryCodes(tx, userId))
}

/** Uses a recovery code once; false when it is unknown or was used. */
export async function useRecoveryCode(tx: Queryable, userId: string, code: string): Promise<boolean> {
  if (normaliseRecovery(code).length !== 16) return false
  const rows = await tx.query('update recovery_codes set used_at = now() where user_id = $1 and code_hash = $2 and used_at is null returning user_id', [
    userId,
    recoveryDigest(code),
  ])
  return rows.length > 0
}

export async function recoveryCodesLeft(db: Queryable, userId: string): Promise<number> {
  const [row] = await db.query<{ n: number | string }>('select count(*) as n from recovery_codes where user_id = $1 and used_at is null', [userId])
  return Number(row?.n ?? 0)
}

/** Two-factor off: secret, step and recovery codes gone. */
export function disableTotp(db: Db, userId: string): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.query('update users set totp_secret = null, totp_enabled_at = null, totp_last_step = null where id = $1', [userId])
    await tx.query('delete from recovery_codes where user_id = $1', [userId])
  })
}

/** A new secret for the user, not yet on: they keep signing in as before until a code confirms it. */
export async function beginTotpSetup(db: Queryable, userId: string): Promise<string> {
  const secret = newTotpSecret()
  await db.query('update users set totp_secret = $2, totp_last_step = null where id = $1', [userId, secret])
  return secret
}

/** Turns two-factor on once `code` is a fresh code of the pending `secret`; the new recovery codes. */
export function confirmTotp(db: Db, userId: string, secret: string, code: string, now: Date): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (!(await useTotpCode(tx, userId, secret, code, now))) throw new ApiError(400, 'INVALID_CODE', 'the code is wrong: check the time on your phone and try the next code')
    await tx.query('update users set totp_enabled_at = $2 where id = $1', [userId, now])
    return replaceRecoveryCodes(tx, userId)
  })
}
