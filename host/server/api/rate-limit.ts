import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import type { HttpBindings } from '@hono/node-server'
import { getConnInfo } from '@hono/node-server/conninfo'
import { ApiError } from '../errors.js'
import type { Clock } from '../jobs/clock.js'
import type { Queryable } from '../db/index.js'
import { dropOldRateCounts, otherRateCounts, storedRateKey as digest, writeRateCounts } from '../db/rate-limit-counts.js'
import { log } from '../log.js'

/**
 * Fair use: at most `limit` requests per `windowSeconds` per key (an API token, with the presign
 * tokens it minted; a recipient's token; the caller's address when there is no valid token).
 * A fixed window per process, in memory: one map lookup per request, and the map is dropped
 * whole when the window turns, so it never holds more than one window's callers.
 * Several processes on one PostgreSQL share the count (`shared`): each writes its own counts of
 * the window to `rate_limit_counts` every `syncMs` and reads the others' for the keys it saw (and
 * for any key past a tenth of the limit), so a key is refused once all processes together reach
 * the limit, give or take what the others admitted since their last write (at most one
 * interval's requests). Keys are stored hashed.
 * Answers carry the IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers-09).
 */
export interface RateLimitOptions {
  /** Requests per window and key; 0 = no limit. */
  limit: number
  windowSeconds: number
  clock: Clock
  /** Several processes count together through this database. */
  shared?: { db: Queryable; syncMs: number } | undefined
}

const POLICY = 'default'

export class RateLimiter {
  private counts = new Map<string, number>()
  private window = -1
  readonly policy: string
  /** Shared counting: the other processes' counts of this window, by hashed key, as last read. */
  private others = new Map<string, number>()
  private othersWindow = -1
  private changed = new Set<string>()
  private readonly process = randomBytes(9).toString('base64url')
  private timer: ReturnType<typeof setInterval> | undefined

  constructor(private readonly o: RateLimitOptions) {
    this.policy = `"${POLICY}";q=${o.limit};w=${o.windowSeconds}`
  }

  get enabled(): boolean {
    return this.o.limit > 0
  }

  /** Starts writing and reading the shared counts (when shared). */
  start(): void {
    if (!this.enabled || !this.o.shared || this.timer) return
    this.timer = setInterval(() => void this.sync().catch((err: unknown) => log.warn({ err }, 'rate limit: sharing the counts failed')), this.o.shared.syncMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Writes this process's changed counts of the window, and reads the others' for its keys. */
  async sync(): Promise<void> {
    const shared = this.o.shared
    if (!shared) return
    const window = this.turn(this.o.clock.now().getTime())
    const counts = this.counts
    const changed = [...this.changed]
    this.changed = new Set()
    const db = shared.db
    if (changed.length) await writeRateCounts(db, window, this.process, changed.map(digest), changed.map((k) => counts.get(k) ?? 0))
    // The keys this process saw, and any other that is past a tenth of the limit already.
    this.others = await otherRateCounts(db, window, this.process, [...counts.keys()].map(digest), this.o.limit)
    this.othersWindow = window
    await dropOldRateCounts(db, window)
  }

  /** The window `now` falls in; a new one starts with no counts. */
  private turn(now: number): number {
    const window = Math.floor(now / (this.o.windowSeconds * 1000))
    if (window !== this.window) {
      this.window = window
      this.counts = new Map()
      this.changed = new Set()
    }
    return window
  }

  /** Counts one request of `key`; sets the headers; throws 429 RATE_LIMITED over the limit. */
  hit(c: Context, key: string): void {
    if (!this.enabled) return
    const windowMs = this.o.windowSeconds * 1000
    const now = this.o.clock.now().getTime()
    const window = this.turn(now)
    const own = (this.counts.get(key) ?? 0) + 1
    this.counts.set(key, own)
    let n = own
    if (this.o.shared) {
      this.changed.add(key)
      if (this.othersWindow === window) n += this.others.get(digest(key)) ?? 0
    }
    const reset = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000))
    const remaining = Math.max(0, this.o.limit - n)
    const state = `"${POLICY}";r=${remaining};t=${reset}`
    if (n > this.o.limit) {
      throw new ApiError(429, 'RATE_LIMITED', `too many requests: at most ${this.o.limit} per ${this.o.windowSeconds} s; retry in ${reset} s`, undefined, {
        'Retry-After': String(reset),
        'RateLimit-Policy': this.policy,
        RateLimit: state,
      })
    }
    // On the node response itself, as the CORS header: a header set through Hono would make every
    // answer copy its headers one by one (see withBaseHeaders in security-headers.ts).
    const out = (c.env as HttpBindings | undefined)?.outgoing
    if (out?.setHeader) {
      out.setHeader('RateLimit-Policy', this.policy)
      out.setHeader('RateLimit', state)
    } else {
      c.header('RateLimit-Policy', this.policy)
      c.header('RateLimit', state)
    }
  }
}

/** The caller's address: the key of requests without a valid token. */
export function addressKey(c: Context): string {
  try {
    return `ip:${getConnInfo(c).remote.address ?? '?'}`
  } catch {
    return 'ip:?'
  }
}

/** A key as stored (it may hold a recipient's token). */
