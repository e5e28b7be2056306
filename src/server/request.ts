/**
 * The one way this entry talks to the API: auth header, JSON or multipart body, timeout and
 * caller abort, error mapping, response validation. Every client method is a call to `request`.
 */
import type { Connection } from './config.js'
import { ApiError, InvalidResponseError, NetworkError, TimeoutError, type Issue } from './errors.js'
import { check, isRecord, type Schema } from './check.js'

export interface ApiRequest {
  method: 'GET' | 'POST'
  /** Relative to the API base, e.g. `/envelope/create`. */
  path: string
  query?: Record<string, string | number | undefined>
  /** Sent as application/json. */
  json?: unknown
  /** Sent as multipart/form-data (fetch sets the boundary). */
  form?: FormData
  signal?: AbortSignal | undefined
}

/** Per-call options every client method accepts. */
export interface CallOptions {
  signal?: AbortSignal
}

/** Sends the request and returns the JSON body checked against `schema`. */
export async function request<T>(c: Connection, req: ApiRequest, schema: Schema<T>): Promise<T> {
  const { status, body } = await send(c, req, (res) => res.text())
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    throw new InvalidResponseError(status, [{ message: 'the body is not JSON' }])
  }
  const issues = check(schema, value)
  if (issues.length) throw new InvalidResponseError(status, issues)
  return value as T
}

/** Sends the request and returns the raw body bytes (file downloads). */
export async function requestBytes(c: Connection, req: ApiRequest): Promise<Uint8Array> {
  const { body } = await send(c, req, async (res) => new Uint8Array(await res.arrayBuffer()))
  return body
}

async function send<B>(c: Connection, req: ApiRequest, read: (res: Response) => Promise<B>) {
  const url = urlOf(c, req)
  const { signal } = req
  signal?.throwIfAborted()
  // One controller for both the timeout and the caller's signal, so the reason can be told apart.
  const controller = new AbortController()
  let timedOut = false
  const timer = c.timeoutMs > 0
    ? setTimeout(() => { timedOut = true; controller.abort() }, c.timeoutMs)
    : undefined
  const onAbort = () => controller.abort(signal?.reason)
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const res = await c.fetch(url, {
      method: req.method,
      headers: {
        Authorization: c.apiKey,
        Accept: 'application/json',
        ...(req.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: req.json !== undefined ? JSON.stringify(req.json) : req.form,
      signal: controller.signal,
    })
    if (!res.ok) throw apiError(res.status, await res.text())
    return { status: res.status, body: await read(res) }
  } catch (e) {
    if (e instanceof ApiError) throw e
    if (timedOut) throw new TimeoutError(url, c.timeoutMs)
    if (signal?.aborted) throw signal.reason
    throw new NetworkError(url, e)
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

function urlOf(c: Connection, req: ApiRequest): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) params.set(k, String(v))
  const qs = params.toString()
  return c.apiUrl + req.path + (qs ? `?${qs}` : '')
}

/** The API's error body `{message, code, issues?}`; anything else still becomes an ApiError. */
function apiError(status: number, text: string): ApiError {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  const b = isRecord(body) ? body : {}
  const code = typeof b.code === 'string' && b.code ? b.code : `HTTP_${status}`
  const message = typeof b.message === 'string' && b.message
    ? b.message
    : text.trim().slice(0, 200) || `the API answered ${status}`
  const issues: Issue[] = Array.isArray(b.issues)
    ? b.issues.filter(isRecord).map((i) => ({
        message: String(i.message ?? ''),
        ...(typeof i.path === 'string' ? { path: i.path } : Array.isArray(i.path) ? { path: i.path.join('.') } : {}),
      }))
    : []
  return new ApiError(status, code, message, issues)
}
