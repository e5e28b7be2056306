/**
 * Set up in every project that runs a host in the test process: whatever the host (or a test)
 * writes to the console or to stdout and stderr (the host's JSON log) is kept, and each test file ends by checking that none of it carries a
 * credential: an API token, a presign token, a bearer header, a signing or direct-link token in a
 * page path, a token in a query string.
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

const written: string[] = []
for (const stream of [process.stdout, process.stderr]) {
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    written.push(String(chunk))
    return original(chunk, ...rest)
  }) as typeof stream.write
}
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  const original = console[method].bind(console)
  console[method] = (...args: unknown[]) => {
    written.push(format(...args))
    original(...args)
  }
}

afterAll(() => {
  const leaks = written.flatMap((line) => SECRETS.filter(([, re]) => re.test(line)).map(([what]) => `${what}: ${line.slice(0, 300)}`))
  expect(leaks, 'credentials written to the log').toEqual([])
})
