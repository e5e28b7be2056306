import type { Queryable } from '../db/index.js'
import { ApiError } from '../errors.js'
import { normaliseEmail } from './emails.js'

/**
 * Guessing passwords and codes is slowed down per account and per network address, in fixed
 * windows counted in the database (table auth_throttle), so every process on one PostgreSQL
 * shares the counts. Accounts are keyed by the address typed, whether or not it has an account,
 * so the answer over the limit is the same for both and hints at nothing.
 *
 * Each attempt is counted BEFORE its secret is checked, by one atomic upsert that returns the
 * count: any number of attempts sent at once (to one process or several) get at most the limit
 * checked, the others are refused unchecked. A success gives its unit back, so only failures
 * stay counted. Each factor has a count of its own (a right password never clears the count of
 * wrong authenticator codes, and the reverse); the network address's count is shared by all.
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000
/** Failed attempts per account and factor (password, second factor, passkey) in one window. */
export const ACCOUNT_FAILURES = 10
/** Failed attempts from one network address, over all accounts, in one window. */
export const ADDRESS_FAILURES = 50

/**
 * The secret an attempt checks; each has its own count per account. `password`: the console's
 * sign-in and the signing pages' account password; `second-factor`: authenticator and recovery
 * codes and the codes e-mailed to recipients; `passkey`: passkey assertions.
 */
export type Factor = 'password' | 'second-factor' | 'passkey'

export interface ThrottleKeys {
  /** The address typed (or the signed-in account's); empty when none is named (a passkey sign-in). */
  email: string
  /** The peer's network address; empty when unknown. */
  ip: string
  /** The secret checked (default: password). */
  factor?: Factor
}

const accountKey = (factor: Factor, email: string) => (factor === 'password' ? `account:${normaliseEmail(email)}` : `${factor}:${normaliseEmail(email)}`)

const keysOf = (k: ThrottleKeys) => [
  ...(k.email ? [{ key: accountKey(k.factor ?? 'password', k.email), limit: ACCOUNT_FAILURES }] : []),
  ...(k.ip ? [{ key: `ip:${k.ip}`, limit: ADDRESS_FAILURES }] : []),
]

const tooMany = (retryAfterSeconds: number) =>
  new ApiError(429, 'TOO_MANY_ATTEMPTS', `too many failed attempts: try again in ${Math.ceil(retryAfterSeconds / 60)} minutes`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  })

/** Counts one unit on each key at once (a window that ended starts over) and answers the counts. */
async function take(db: Queryable, keys: { key: string }[], now: Date): Promise<{ key: string; window_start: Date; failures: number }[]> {
  if (!keys.length) return []
  const values = keys.map((_, i) => `($${i + 3}, $1::timestamptz, 1)`).join(', ')
  return db.query(
    `insert into auth_throttle (key, window_start, failures) values ${values}
     on conflict (key) do update set
       failures = case when auth_throttle.window_start <= $2 then 1 else auth_throttle.failures + 1 end,
       window_start = case when auth_throttle.window_start <= $2 then excluded.window_start else auth_throttle.window_start end
     returning key, window_start, failures`,
    [now, new Date(now.getTime() - THROTTLE_WINDOW_MS), ...keys.map((k) => k.key)],
  )
}

/** Gives back the unit `take` counted (a success: only failures stay counted). */
async function giveBack(db: Queryable, keys: { key: string }[]): Promise<void> {
  if (keys.length) await db.query('update auth_throttle set failures = greatest(failures - 1, 0) where key = any($1::text[])', [keys.map((k) => k.key)])
}

/**
 * One attempt at a secret: its unit is taken first (429 TOO_MANY_ATTEMPTS, with Retry-After,
 * when that goes over a limit: the secret is not checked); then `attempt` runs; a success gives
 * the unit back. `onLock` runs once, on the failure that reaches the account's limit, and may
 * throw its own answer.
 */
export async function throttled(db: Queryable, k: ThrottleKeys, now: Date, attempt: () => Promise<boolean>, onLock?: () => Promise<void>): Promise<boolean> {
  const keys = keysOf(k)
  const counts = await take(db, keys, now)
  const limits = new Map(keys.map((x) => [x.key, x.limit]))
  const over = counts.filter((c) => c.failures > limits.get(c.key)!)
  if (over.length) {
    const ends = Math.max(...over.map((c) => new Date(c.window_start).getTime() + THROTTLE_WINDOW_MS))
    throw tooMany(Math.max(1, Math.ceil((ends - now.getTime()) / 1000)))
  }
  let ok = false
  try {
    ok = await attempt()
  } catch (err) {
    // An attempt that could not be judged (no live code, a refused request) is not a failure.
    await giveBack(db, keys)
    throw err
  }
  if (ok) await giveBack(db, keys)
  else if (onLock && k.email && counts.some((c) => c.key === accountKey(k.factor ?? 'password', k.email) && c.failures === ACCOUNT_FAILURES)) await onLock()
  return ok
}

/** The keys an address's failures are counted under, one per factor (a retention purge drops them). */
export const throttleKeysOf = (email: string): string[] => (['password', 'second-factor', 'passkey'] as const).map((f) => accountKey(f, email))

/** The account's count of `factor` starts over (its owner proved the address with an e-mailed link). */
export async function clearFailures(db: Queryable, email: string, factor: Factor = 'password'): Promise<void> {
  await db.query('delete from auth_throttle where key = $1', [accountKey(factor, email)])
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
  const counts = await take(db, budgets, now)
  for (const { key, limit } of budgets) {
    const row = counts.find((c) => c.key === key)!
    if (row.failures > limit) {
      const retry = Math.max(1, Math.ceil((new Date(row.window_start).getTime() + THROTTLE_WINDOW_MS - now.getTime()) / 1000))
      throw new ApiError(429, 'TOO_MANY_REQUESTS', `too many requests: try again in ${Math.ceil(retry / 60)} minutes`, undefined, { 'Retry-After': String(retry) })
    }
  }
}

/** The budgets of a request that e-mails `email`. */
export const mailBudgets = (email: string, ip: string) => [
  { key: `mail:${normaliseEmail(email)}`, limit: MAILS_PER_ADDRESS },
  ...(ip ? [{ key: `mail-ip:${ip}`, limit: MAIL_REQUESTS_PER_IP }] : []),
]
