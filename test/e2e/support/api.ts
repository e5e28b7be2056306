/** Calls a host's API v2 with an API token: JSON in and out, a thrown Error on any non-2xx. */
export function apiCaller(apiUrl: string, apiToken: string) {
  return async function api<T = any>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(apiUrl + path, {
      method,
      // A connection per call, as test/host/support.ts's api(): no kept-alive one reset under load.
      headers: { Authorization: apiToken, Connection: 'close', ...(body instanceof FormData || body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    })
    const json = await res.json()
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
    return json as T
  }
}
