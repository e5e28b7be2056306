import type { Queryable } from '../db/index.js'
import { ApiError } from '../errors.js'
import { normaliseEmail } from './emails.js'

/**
 * Guessing passwords and codes is slowed down per account and per network address, in fixed
 * windows counted in the database (table auth_throttle), so every process on one PostgreSQL
 * shares the counts. Only failures count. Accounts are keyed by the address typed, whether or not
 * it has an account, so the answer over the limit is the same for both and hints at nothing.
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000
/** Failed attempts per account (password, TOTP code, recovery code) in one window. */
export const ACCOUNT_FAILURES = 10
/** Failed attempts from one network address, over all accounts, in one window. */
export const ADDRESS_FAILURES = 50

export interface ThrottleKeys {
  /** The address typed (or the signed-in account's). */
  email: string
  /** The peer's network address; empty when unknown. */
  ip: string
}

const keysOf = (k: ThrottleKeys) => [
  { key: `account:${normaliseEmail(k.email)}`, limit: ACCOUNT_FAILURES },
  ...(k.ip ? [{ key: `ip:${k.ip}`, limit: ADDRESS_FAILURES }] : []),
]

const tooMany = (retryAfterSeconds: number) =>
  new ApiError(429, 'TOO_MANY_ATTEMPTS', `too many failed attempts: try again in ${Math.ceil(retryAfterSeconds / 60)} minutes`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  })

/** 429 TOO_MANY_ATTEMPTS (with Retry-After) while the account or the address is over its limit. */
export async function assertNotThrottled(db: Queryable, k: ThrottleKeys, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS)
  for (const { key, limit } of keysOf(k)) {
    const [row] = await db.query<{ window_start: Date; failures: number }>('select window_start, failures from auth_throttle where key = $1 and window_start > $2', [
      key,
      windowStart,
    ])
    if (row && row.failures >= limit) {
      const ends = new Date(row.window_start).getTime() + THROTTLE_WINDOW_MS
      throw tooMany(Math.max(1, Math.ceil((ends - now.getTime()) / 1000)))
    }
  }
}

/** Counts one failure against the account and the address (a window that ended starts over). */
export async function recordFailure(db: Queryable, k: ThrottleKeys, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS)
  for (const { key } of keysOf(k)) {
    await db.query(
      `insert into auth_throttle (key, window_start, failures) values ($1, $2, 1)
       on conflict (key) do update set
         failures = case when auth_throttle.window_start <= $3 then 1 else auth_throttle.failures + 1 end,
         window_start = case when auth_throttle.window_start <= $3 then excluded.window_start else auth_throttle.window_start end`,
      [key, now, windowStart],
    )
  }
}

/** A success clears the account's count (not the address's: one good account does not unlock guessing others). */
export async function clearFailures(db: Queryable, email: string): Promise<void> {
  await db.query('delete from auth_throttle where key = $1', [`account:${normaliseEmail(email)}`])
}

/**
 * Runs `attempt` (true: the secret was right) under the throttle: refused while over the limit,
 * a failure counted, a success clearing the account's count.
 */
export async function throttled(db: Queryable, k: ThrottleKeys, now: Date, attempt: () => Promise<boolean>): Promise<boolean> {
  await assertNotThrottled(db, k, now)
  const ok = await attempt()
  if (ok) await clearFailures(db, k.email)
  else await recordFailure(db, k, now)
  return ok
}

/** E-mails one address may be sent (sign-up, reset, sign-in links) in one window, and requests for them from one network address. */
export const MAILS_PER_ADDRESS = 5
export const MAIL_REQUESTS_PER_IP = 30
/** Passkey sign-in challenges one network address may ask for in one window. */
export const CHALLENGES_PER_IP = 100

/**
 * Spends one unit of `key`'s budget (every request counts, not only failures): for requests that
 * cost us something whatever their outcome (an e-mail sent, a challenge stored). 429
 * TOO_MANY_REQUESTS over the budget; the keys are what was typed, so the answer hints at nothing.
 */
export async function spend(db: Queryable, budgets: { key: string; limit: number }[], now: Date): Promise<void> {
  for (const { key, limit } of budgets) {
    const [row] = await db.query<{ window_start: Date; failures: number }>(
      `insert into auth_throttle (key, window_start, failures) values ($1, $2, 1)
       on conflict (key) do update set
         failures = case when auth_throttle.window_start <= $3 then 1 else auth_throttle.failures + 1 end,
         window_start = case when auth_throttle.window_start <= $3 then excluded.window_start else auth_throttle.window_start end
       returning window_start, failures`,
      [key, now, new Date(now.getTime() - THROTTLE_WINDOW_MS)],
    )
    if (row!.failures > limit) {
      const retry = Math.max(1, Math.ceil((new Date(row!.window_start).getTime() + THROTTLE_WINDOW_MS - now.getTime()) / 1000))
      throw new ApiError(429, 'TOO_MANY_REQUESTS', `too many requests: try again in ${Math.ceil(retry / 60)} minutes`, undefined, { 'Retry-After': String(retry) })
    }
  }
}

/** The budgets of a request that e-mails `email`. */
export const mailBudgets = (email: string, ip: string) => [
  { key: `mail:${normaliseEmail(email)}`, limit: MAILS_PER_ADDRESS },
  ...(ip ? [{ key: `mail-ip:${ip}`, limit: MAIL_REQUESTS_PER_IP }] : []),
]
