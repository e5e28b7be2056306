// examples/app/src/backend.ts: the page's calls to its backend, each failure naming its cause.
export async function callBackend<T>(path: string, body?: unknown): Promise<T> {
  const method = body === undefined ? 'GET' : 'POST'
  const res = await fetch(path, body === undefined ? {} : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  // Check before parsing: a 404 or an HTML page is not the backend's answer (in development, is Vite proxying the route?).
  const type = res.headers.get('Content-Type') ?? 'no body'
  const cause = res.status === 404 || type.includes('text/html') ? 'no backend route' : 'the backend did not answer'
  if (!type.includes('application/json')) throw new Error(`${cause} for ${method} ${path} (${res.status}, ${type})`)
  const answer = await res.json()
  if (res.ok) return answer as T
  const { code, message } = answer as { code?: string; message?: string }
  if (code === 'UPSTREAM_UNAVAILABLE' || code === 'UPSTREAM_TIMEOUT') throw new Error(`the signing service is unreachable (${code}): ${message}`)
  throw new Error(`${method} ${path} failed (${res.status} ${code}): ${message}`)
}
export const presign = async (scope?: string): Promise<string> => (await callBackend<{ token: string }>('/presign', scope ? { scope } : {})).token
