import type { Context } from 'hono'
import type { HttpBindings } from '@hono/node-server'
import { getConnInfo } from '@hono/node-server/conninfo'
import { ApiError } from '../errors.js'
import type { Clock } from '../jobs/clock.js'

/**
 * Fair use: at most `limit` requests per `windowSeconds` per key (an API token, with the presign
 * tokens it minted; a recipient's token; the caller's address when there is no valid token).
 * A fixed window per process, in memory: one map lookup per request, and the map is dropped
 * whole when the window turns, so it never holds more than one window's callers. Several
 * processes each count their own requests (the limit is per process).
 * Answers carry the IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers-09).
 */
export interface RateLimitOptions {
  /** Requests per window and key; 0 = no limit. */
  limit: number
  windowSeconds: number
  clock: Clock
}

const POLICY = 'default'

export class RateLimiter {
  private counts = new Map<string, number>()
  private window = -1
  readonly policy: string

  constructor(private readonly o: RateLimitOptions) {
    this.policy = `"${POLICY}";q=${o.limit};w=${o.windowSeconds}`
  }

  get enabled(): boolean {
    return this.o.limit > 0
  }

  /** Counts one request of `key`; sets the headers; throws 429 RATE_LIMITED over the limit. */
  hit(c: Context, key: string): void {
    if (!this.enabled) return
    const windowMs = this.o.windowSeconds * 1000
    const now = this.o.clock.now().getTime()
    const window = Math.floor(now / windowMs)
    if (window !== this.window) {
      this.window = window
      this.counts = new Map()
    }
    const n = (this.counts.get(key) ?? 0) + 1
    this.counts.set(key, n)
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
