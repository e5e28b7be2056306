/**
 * The backend half of an embed: the browser asks POST /presign, the backend (which alone holds
 * the API key) answers with a short-lived presign token for the embed components.
 *
 *   BASE_URL=https://sign.example.com API_KEY=api_... PORT=3000 npx tsx examples/backend.ts
 *
 * In your app, import from 'envelope-embed/server'.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { ApiError, createPresignToken, InvalidInputError } from '../src/server/index.js'

/** Connect/Express-style middleware answering POST /presign with `{token, expiresAt, expiresIn}`. */
export function presignHandler({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }) {
  return (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/presign') {
      if (next) return next()
      return send(res, 404, { message: 'not found', code: 'NOT_FOUND' })
    }
    // Authorize first: only signed-in users of yours get a token, and only for their own envelopes.
    readJson(req)
      .then(({ scope, expiresIn }) => createPresignToken({ baseUrl, apiKey, scope, expiresIn }))
      .then((token) => send(res, 200, token)) // JSON turns expiresAt (a Date) back into an ISO string
      .catch((e: unknown) => {
        if (e instanceof ApiError) return send(res, e.status, { message: e.message, code: e.code })
        if (e instanceof InvalidInputError) return send(res, 400, { message: e.message, code: 'INVALID_REQUEST' })
        console.error('presign failed', e) // NetworkError, TimeoutError: the service is unreachable
        send(res, 502, { message: 'the signing service is unreachable', code: 'UPSTREAM_UNAVAILABLE' })
      })
  }
}

async function readJson(req: IncomingMessage): Promise<{ scope?: string; expiresIn?: number }> {
  let text = ''
  for await (const chunk of req) {
    text += chunk
    if (text.length > 4096) throw new InvalidInputError([{ message: 'body too large' }])
  }
  try {
    const body: unknown = text ? JSON.parse(text) : {}
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as { scope?: string; expiresIn?: number }
  } catch {}
  throw new InvalidInputError([{ message: 'expected a JSON object {scope?, expiresIn?}' }])
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(body))
}

// Run directly: serve the handler on PORT (0 = any free port).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { BASE_URL, API_KEY, PORT = '3000' } = process.env
  if (!BASE_URL || !API_KEY) throw new Error('set BASE_URL and API_KEY')
  const handler = presignHandler({ baseUrl: BASE_URL, apiKey: API_KEY })
  const server = createServer((req, res) => handler(req, res))
  server.listen(Number(PORT), () => {
    const { port } = server.address() as AddressInfo
    console.log(`POST http://localhost:${port}/presign`)
  })
}
