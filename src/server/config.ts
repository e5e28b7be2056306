import type { Issue } from './errors.js'
import { InvalidInputError } from './errors.js'

export interface ConnectionOptions {
  /**
   * Where the service runs. Either its address (`https://sign.example.com`, also under a path
   * prefix: `https://example.com/sign`) or the API base itself, ending in `/api/v2`.
   * Both name the same API: `/api/v2` is appended when it is not already there.
   */
  baseUrl: string
  /** The team's API token, `api_...`. Keep it on the server. */
  apiKey: string
  /** Milliseconds before a request fails with TimeoutError; default 30000, 0 = never. */
  timeoutMs?: number
  /** A fetch implementation; default the global one. */
  fetch?: typeof fetch
}

/** Validated options, ready for `request`. */
export interface Connection {
  /** Absolute, ends in `/api/v2`, no trailing slash. */
  apiUrl: string
  apiKey: string
  timeoutMs: number
  fetch: typeof fetch
}

export const DEFAULT_TIMEOUT_MS = 30_000
/** setTimeout's limit; larger delays fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** The API base for a baseUrl, or an issue saying what is wrong with it. */
export function apiUrlOf(baseUrl: unknown): string | Issue {
  const issue = (message: string): Issue => ({ path: 'baseUrl', message })
  if (typeof baseUrl !== 'string' || !baseUrl) return issue('is required (e.g. https://sign.example.com)')
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return issue(`${JSON.stringify(baseUrl)} is not an absolute URL`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return issue(`must be an http(s) URL, got ${url.protocol}`)
  if (url.username || url.password) return issue('must not contain credentials; pass the API key as apiKey')
  if (url.search || url.hash) return issue('must not have a query or a fragment')
  const path = url.pathname.replace(/\/+$/, '')
  if (path.endsWith('/api/v2')) return url.origin + path
  if (/\/api(\/[^/]*)?$/.test(path)) return issue(`must be the service address or end in /api/v2, got ${path}`)
  return `${url.origin}${path}/api/v2`
}

/** Checks connection options; pushes issues and returns the connection (meaningful only without issues). */
export function connectionOf(o: ConnectionOptions, issues: Issue[]): Connection {
  const apiUrl = apiUrlOf(o?.baseUrl)
  if (typeof apiUrl !== 'string') issues.push(apiUrl)
  const apiKey: unknown = o?.apiKey
  if (typeof apiKey !== 'string' || !/^api_\S+$/.test(apiKey)) {
    issues.push({
      path: 'apiKey',
      message: typeof apiKey === 'string' && apiKey
        ? 'must be an API token starting with api_ (a presign token cannot call the API from a backend)'
        : 'is required (an API token starting with api_)',
    })
  }
  const timeoutMs = o?.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (typeof timeoutMs !== 'number' || !(timeoutMs >= 0 && timeoutMs <= MAX_TIMER_MS)) {
    issues.push({ path: 'timeoutMs', message: `must be a number of milliseconds, 0..${MAX_TIMER_MS} (0 = no timeout)` })
  }
  if (o?.fetch !== undefined && typeof o.fetch !== 'function') issues.push({ path: 'fetch', message: 'must be a function' })
  return {
    apiUrl: typeof apiUrl === 'string' ? apiUrl : '',
    apiKey: apiKey as string,
    timeoutMs,
    // Looked up per call, so a fetch installed later (polyfill, instrumentation) is used.
    fetch: o?.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  }
}

/** The connection, or InvalidInputError listing every problem at once. */
export function connect(o: ConnectionOptions): Connection {
  const issues: Issue[] = []
  const connection = connectionOf(o, issues)
  if (issues.length) throw new InvalidInputError(issues)
  return connection
}
