/**
 * The console's calls: its own API (`/api/console`) and API v2 with the session cookie, both
 * same-origin and carrying the session's anti-forgery token. A 401 means the session ended:
 * the shell goes back to sign-in.
 */
import type { Answer, Body, ConsoleRoute } from '../../../shared/console-contract.js'

let csrf = ''
const signedOutListeners = new Set<() => void>()

export function setCsrfToken(token: string): void {
  csrf = token
}

export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener)
  return () => signedOutListeners.delete(listener)
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: { path: (string | number)[]; message: string }[],
  ) {
    super(message)
  }
}

let freshProof: (() => Promise<boolean>) | null = null

/**
 * Who asks the person to prove themselves again when a change needs a recent proof (403
 * FRESH_PROOF_REQUIRED): resolves true once proven, and the change is sent again.
 */
export function onFreshProofRequired(handler: () => Promise<boolean>): () => void {
  freshProof = handler
  return () => {
    if (freshProof === handler) freshProof = null
  }
}

async function call<T>(url: string, init: { method?: string; body?: unknown; form?: FormData; raw?: boolean; retried?: boolean } = {}): Promise<T> {
  const json = init.body !== undefined
  const res = await fetch(url, {
    method: init.method ?? (json || init.form ? 'POST' : 'GET'),
    headers: { 'x-csrf-token': csrf, ...(json && { 'content-type': 'application/json' }) },
    ...(json ? { body: JSON.stringify(init.body) } : init.form ? { body: init.form } : {}),
    credentials: 'same-origin',
  })
  if (!res.ok) {
    const err = (await res.json().catch(() => ({}))) as { message?: string; code?: string; issues?: ApiFailure['issues'] }
    // A wrong password or code (a change that asks for one) is not the end of the session.
    if (res.status === 401 && !url.includes('/auth/') && err.code !== 'INVALID_CREDENTIALS' && err.code !== 'INVALID_CODE') for (const l of signedOutListeners) l()
    if (res.status === 403 && err.code === 'FRESH_PROOF_REQUIRED' && freshProof && !init.retried && (await freshProof())) {
      // The proof gave the session a new cookie, and so a new anti-forgery token.
      const me = await call<{ csrfToken?: string }>('/api/console/me')
      if (me.csrfToken) csrf = me.csrfToken
      return call<T>(url, { ...init, retried: true })
    }
    throw new ApiFailure(res.status, err.code ?? 'ERROR', err.message ?? `the request failed (${res.status})`, err.issues)
  }
  return (init.raw ? res : await res.json()) as T
}

type Method = ConsoleRoute extends `${infer M} ${string}` ? M : never
/** A route's path as a page writes it: any text for each `:name`. */
type Written<P extends string> = P extends `${infer Head}:${string}/${infer Tail}` ? `${Head}${string}/${Written<Tail>}` : P extends `${infer Head}:${string}` ? `${Head}${string}` : P
/** The paths that reach route `R`; a GET's may carry a query. */
type PathOf<R extends ConsoleRoute> = R extends `GET ${infer P}` ? Written<P> | `${Written<P>}?${string}` : R extends `${Method} ${infer P}` ? Written<P> : never
/** Every path the console's API answers with `method`. */
export type ConsolePath<M extends Method> = PathOf<Extract<ConsoleRoute, `${M} ${string}`>>
/** The route(s) of `method` that a path written as `P` reaches. */
type RouteAt<M extends Method, P extends string> = { [R in ConsoleRoute]: R extends `${M} ${string}` ? (P extends PathOf<R> ? R : never) : never }[ConsoleRoute]

/** `/api/console{path}`, typed by the console's contract: a path it does not list, or a wrong body, does not compile. */
export function consoleApi<P extends ConsolePath<'GET'>>(path: P): Promise<Answer<RouteAt<'GET', P>>>
export function consoleApi<P extends ConsolePath<'POST'>>(path: P, init: { body: Body<RouteAt<'POST', P>> }): Promise<Answer<RouteAt<'POST', P>>>
export function consoleApi<P extends ConsolePath<'PATCH'>>(path: P, init: { method: 'PATCH'; body: Body<RouteAt<'PATCH', P>> }): Promise<Answer<RouteAt<'PATCH', P>>>
export function consoleApi<P extends ConsolePath<'DELETE'>>(path: P, init: { method: 'DELETE' }): Promise<Answer<RouteAt<'DELETE', P>>>
export function consoleApi(path: string, init?: { method?: string; body?: unknown }): Promise<unknown> {
  return call(`/api/console${path}`, init)
}

/** `/api/v2{path}` as the signed-in member. */
export const v2 = <T>(path: string, init?: { method?: string; body?: unknown }) => call<T>(`/api/v2${path}`, init)

/** A multipart request to `/api/v2{path}` (uploads, template use). */
export const v2Form = <T>(path: string, form: FormData) => call<T>(`/api/v2${path}`, { form })

/** A file through API v2 as bytes (the page previews draw it). */
export const v2Bytes = async (path: string): Promise<ArrayBuffer> => (await call<Response>(`/api/v2${path}`, { raw: true })).arrayBuffer()

/** A download through API v2 (the browser keeps the file): fetched with the token, saved as a blob. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const res = await call<Response>(`/api/v2${path}`, { raw: true })
  const name = /filename\*=UTF-8''([^;]+)/.exec(res.headers.get('content-disposition') ?? '')?.[1]
  const url = URL.createObjectURL(await res.blob())
  const a = Object.assign(document.createElement('a'), { href: url, download: name ? decodeURIComponent(name) : fallbackName })
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
