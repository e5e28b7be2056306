/**
 * The counts of the rate limiter's processes sharing one PostgreSQL (api/rate-limit.ts), by
 * window, hashed key and process.
 */
import { createHash } from 'node:crypto'
import type { Queryable } from './engine.js'

/** A key as the table stores it: hashed, so the table names no token or address. */
export const storedRateKey = (key: string): string => createHash('sha256').update(key).digest('base64url').slice(0, 22)

/** A recipient's key (their signing token) as stored: what a retention purge drops. */
export const storedRecipientRateKey = (token: string): string => storedRateKey(`recipient:${token}`)

/** Writes this process's counts of `window` for the keys given (hashed), each the count so far. */
export async function writeRateCounts(db: Queryable, window: number, process: string, keys: string[], counts: number[]): Promise<void> {
  await db.query(
    `insert into rate_limit_counts (window_start, key, process, n) select $1, k, $2, n from unnest($3::text[], $4::int[]) as t(k, n)
     on conflict (window_start, key, process) do update set n = excluded.n`,
    [window, process, keys, counts],
  )
}

/** The other processes' counts of `window`: of the keys given, and of any other past a tenth of `limit`. */
export async function otherRateCounts(db: Queryable, window: number, process: string, keys: string[], limit: number): Promise<Map<string, number>> {
  const rows = await db.query<{ key: string; n: number }>(
    `select key, sum(n)::int as n from rate_limit_counts where window_start = $1 and process <> $2
     group by key having key = any($3::text[]) or sum(n) * 10 >= $4`,
    [window, process, keys, limit],
  )
  return new Map(rows.map((r) => [r.key, r.n]))
}

/** Drops the counts of the windows before `window - 1`. */
export async function dropOldRateCounts(db: Queryable, window: number): Promise<void> {
  await db.query('delete from rate_limit_counts where window_start < $1', [window - 1])
}
