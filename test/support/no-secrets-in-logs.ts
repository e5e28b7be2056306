/**
 * Set up in every project that runs a host in the test process: whatever the host (or a test)
 * writes to the console or to stdout and stderr (the host's JSON log) is kept, and each test file ends by checking that none of it carries a
 * credential: an API token, a presign token, a bearer header, a signing or direct-link token in a
 * page path, a token in a query string.
 *
 * Files share a worker's process (the projects run without isolation), so the streams are wrapped
 * once per process and each file checks only what was written since it began.
 */
import { format } from 'node:util'
import { afterAll, expect } from 'vitest'

const SECRETS: [string, RegExp][] = [
  ['API token', /\bapi_[A-Za-z0-9_-]{32}\b/],
  ['presign token (JWT)', /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/],
  ['bearer credential', /Bearer\s+[A-Za-z0-9._~+/-]{16,}/i],
  ['token in a page path', /\/(?:sign|direct|d)\/[A-Za-z0-9_-]{20,}/],
  ['token in a query string', /[?&](?:token|presignToken)=[A-Za-z0-9._-]{16,}/],
]

// The host logs requests and jobs at info: in tests only warnings and errors (log.test.ts turns it up).
process.env.LOG_LEVEL ??= 'warn'

const KEPT = Symbol.for('envelope-embed.test.written')
const WRAPPED = Symbol.for('envelope-embed.test.wrapped')
const kept = globalThis as { [KEPT]?: string[] }
const written: string[] = (kept[KEPT] ??= [])
type Wrapped = { [WRAPPED]?: true }
for (const stream of [process.stdout, process.stderr]) {
  if ((stream.write as Wrapped)[WRAPPED]) continue
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean
  stream.write = Object.assign(
    (chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk))
      return original(chunk, ...rest)
    },
    { [WRAPPED]: true as const },
  ) as typeof stream.write
}
// The test runner may give a file a console of its own: wrapped wherever it is not yet.
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  if ((console[method] as Wrapped)[WRAPPED]) continue
  const original = console[method].bind(console)
  console[method] = Object.assign(
    (...args: unknown[]) => {
      written.push(format(...args))
      original(...args)
    },
    { [WRAPPED]: true as const },
  )
}

// This runs before each file: what earlier files wrote was checked by them.
written.length = 0

afterAll(() => {
  const leaks = written.flatMap((line) => SECRETS.filter(([, re]) => re.test(line)).map(([what]) => `${what}: ${line.slice(0, 300)}`))
  written.length = 0
  expect(leaks, 'credentials written to the log').toEqual([])
})
