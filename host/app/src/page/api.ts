/** The host's API v2, called with the presign token (same origin as this page). */

export interface ApiIssue {
  message: string
  path?: string
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ApiIssue[] = [],
    /** Seconds to wait before asking again (a 429's Retry-After), when the service said. */
    readonly retryAfter: number | null = null,
  ) {
    super(message)
  }
}

export type Api = ReturnType<typeof createApi>

export function createApi(token: string, base = '/api/v2') {
  // Headers every later request carries (a signing page's grant: never a cookie; sign/proof-store.ts keeps it).
  const extra: Record<string, string> = {}
  async function request<T>(method: string, path: string, body?: BodyInit, json = false): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...extra }
    if (json) headers['Content-Type'] = 'application/json'
    let res: Response
    try {
      res = await fetch(base + path, { method, headers, body })
    } catch {
      throw new ApiError(0, 'NETWORK', 'the service cannot be reached')
    }
    if (res.ok) return (res.headers.get('content-type')?.includes('json') ? res.json() : res.arrayBuffer()) as Promise<T>
    const err = (await res.json().catch(() => null)) as { message?: string; code?: string; issues?: ApiIssue[] } | null
    const wait = Number(res.headers.get('retry-after') ?? NaN)
    throw new ApiError(res.status, err?.code ?? 'INTERNAL', err?.message ?? `HTTP ${res.status}`, err?.issues ?? [], Number.isFinite(wait) ? wait : null)
  }
  return {
    get: <T>(path: string) => request<T>('GET', path),
    post: <T>(path: string, body: unknown) => request<T>('POST', path, JSON.stringify(body), true),
    /** Multipart, as API v2's uploads take it: the JSON `payload` part and the repeated `files` part. */
    postFiles: <T>(path: string, payload: unknown, files: File[]) => {
      const form = new FormData()
      form.append('payload', JSON.stringify(payload))
      for (const file of files) form.append('files', file, file.name)
      return request<T>('POST', path, form)
    },
    download: (path: string) => request<ArrayBuffer>('GET', path),
    setHeader: (name: string, value: string) => void (extra[name] = value),
  }
}
