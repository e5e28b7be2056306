// examples/app/src/backend.ts: the page's calls to its own backend (server.mjs), failing with a message that
// names the cause instead of "Unexpected end of JSON input".

/** POSTs `body` as JSON to a route of the backend (GETs without one); its JSON answer, or an error naming the cause. */
export async function callBackend<T>(path: string, body?: unknown): Promise<T> {
  const method = body === undefined ? 'GET' : 'POST'
  let res: Response
  try {
    res = await fetch(path, body === undefined ? {} : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  } catch {
    throw new Error(`the backend did not answer ${method} ${path}: is it running?`)
  }
  // Check the answer is the backend's JSON before parsing it: a 404 or an HTML page means the
  // request never reached the route (in development: Vite's proxy in vite.config.ts).
  const type = res.headers.get('Content-Type') ?? 'no body'
  if (!type.includes('application/json')) {
    throw new Error(
      res.status === 404 || type.includes('text/html')
        ? `no backend route for ${method} ${path} (${res.status}, ${type}): in development, run the backend and let Vite proxy ${path} to it`
        : `${method} ${path} answered ${res.status} (${type}), not the backend's JSON: is the backend running?`,
    )
  }
  const answer = await res.json()
  if (res.ok) return answer as T
  const { code, message } = answer as { code?: string; message?: string }
  if (code === 'UPSTREAM_UNAVAILABLE' || code === 'UPSTREAM_TIMEOUT') throw new Error(`the signing service is unreachable (${code}): ${message}`)
  throw new Error(`${method} ${path} failed (${res.status} ${code ?? 'without a code'}): ${message ?? 'no message'}`)
}

/** A presign token for the authoring components; `scope` limits it, e.g. 'envelopeId:envelope_abc'. */
export async function presign(scope?: string): Promise<string> {
  const { token } = await callBackend<{ token: string }>('/presign', scope ? { scope } : {})
  return token
}
