/**
 * The host's log: one JSON object per line on stdout (pino), at LOG_LEVEL (default `info`).
 * Every request gets an id (a well-formed incoming `X-Request-Id`, else a new one), answered in
 * `X-Request-Id`; whatever is logged while it is handled carries it, and so do the jobs it
 * causes (jobs.request_id) and what they log when they run, in whichever process.
 * Paths are logged as their route pattern: a signing link's token never reaches the log.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { pino } from 'pino'

const context = new AsyncLocalStorage<{ requestId: string }>()

/** Where lines go: process.stdout (which tests watch), until a served host buffers them (bufferLog). */
let out: { write(line: string): unknown } = process.stdout

export const log = pino(
  {
    level: process.env.LOG_LEVEL || 'info',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const requestId = context.getStore()?.requestId
      return requestId ? { requestId } : {}
    },
  },
  { write: (line: string) => out.write(line) },
)

/**
 * Lines gathered and written to stdout in the background, 4 KiB at a time or every 100 ms: a busy
 * host (a line for each request and each job) spent about a twelfth of a webhook delivery's time
 * writing to stdout, a line at a time. What is still gathered is written when the process exits
 * (killed outright, it loses at most 100 ms of lines); beyond 64 MiB (stdout no longer read),
 * lines are dropped rather than held.
 */
export function bufferLog(): void {
  out = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100, maxLength: 64 * 1024 * 1024 })
}

/** The id of the request (or of the job it caused) being handled here, if any. */
export const currentRequestId = (): string | null => context.getStore()?.requestId ?? null

/** Runs fn with `requestId` as the current one. */
export const withRequestId = <T>(requestId: string, fn: () => T): T => context.run({ requestId }, fn)

/**
 * New request ids: this process's random prefix and a counter, 12 characters. An id tells requests
 * apart in the log; it is no secret, so it needs no random bytes of its own (drawing 9 per request
 * cost about 2% of a cached GET's time).
 */
const idPrefix = randomBytes(5).toString('base64url').slice(0, 6)
let idCounter = 0
const newRequestId = () => idPrefix + (idCounter++ % 2176782336).toString(36).padStart(6, '0')

/** An incoming id when it is a plain token of at most 64 characters, else a new one. */
export const requestIdFrom = (header: string | undefined): string => (header && /^[\w.:-]{1,64}$/.test(header) ? header : newRequestId())
