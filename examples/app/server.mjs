// examples/app/server.mjs: the example app's backend, plain Node 20 (no build step): `node server.mjs`.
// It alone holds the API key: it mints presign tokens for the browser (POST /presign), sends a
// created document to its recipients (POST /send), receives the service's webhooks and verifies
// their signature (POST /webhooks, listed at GET /events), and serves the built app (dist/).
//
//   SIGNING_URL       the signing service's origin (default http://localhost:3100, `npm start`'s host)
//   SIGNING_API_KEY   an API token of a team on the enterprise plan, api_... (required)
//   WEBHOOK_SIGNING_KEY  the webhook's signing key, whsec_... (without it, webhooks are answered 503)
//   PORT              default 3000
//
// The repository's README.md quotes parts of this file word for word
// (test/e2e/readme-example.test.ts fails when they differ).
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  ApiError,
  createClient,
  createPresignToken,
  InvalidInputError,
  TimeoutError,
  verifyNodeWebhook,
  WebhookError,
} from 'envelope-embed/server'

const signingUrl = process.env.SIGNING_URL || 'http://localhost:3100'
const apiKey = process.env.SIGNING_API_KEY || ''
const webhookSigningKey = process.env.WEBHOOK_SIGNING_KEY || ''
if (!apiKey) {
  console.error('Set SIGNING_API_KEY to an API token (api_...): see README.md')
  process.exit(1)
}
const api = createClient({ baseUrl: signingUrl, apiKey })

// POST /presign {scope?}: a short-lived presign token for the embed components.
async function presign(req, res) {
  // Authorize first: only your signed-in users get a token, and only for their own envelopes.
  try {
    const { scope } = await readJson(req) // e.g. 'envelopeId:envelope_abc' to allow that one envelope only
    sendJson(res, 200, await createPresignToken({ baseUrl: signingUrl, apiKey, scope, expiresIn: 60 })) // {token, expiresAt, expiresIn}
  } catch (e) {
    sendError(res, e)
  }
}

// A failure as {message, code}: 400 for a bad scope or body, the service's own status when it refused
// (401 bad key, 403 plan, 404 scope not found...), 504 UPSTREAM_TIMEOUT, 502 UPSTREAM_UNAVAILABLE.
function sendError(res, e) {
  if (e instanceof InvalidInputError) sendJson(res, 400, { message: e.message, code: 'INVALID_INPUT', issues: e.issues })
  else if (e instanceof ApiError) sendJson(res, e.status < 500 ? e.status : 502, { message: e.message, code: e.code })
  else if (e instanceof TimeoutError) sendJson(res, 504, { message: 'the signing service did not answer in time', code: 'UPSTREAM_TIMEOUT' })
  else sendJson(res, 502, { message: `the signing service at ${signingUrl} is unreachable`, code: 'UPSTREAM_UNAVAILABLE' })
}

// POST /send {envelopeId}: sends the document to its recipients; answers their signing tokens.
async function sendDocument(req, res) {
  try {
    const { envelopeId } = await readJson(req)
    if (typeof envelopeId !== 'string') throw new InvalidInputError([{ path: 'envelopeId', message: 'is required' }])
    const { recipients } = await api.envelopes.distribute({ envelopeId })
    sendJson(res, 200, { recipients: recipients.map(({ name, email, role, token }) => ({ name, email, role, token })) })
  } catch (e) {
    sendError(res, e)
  }
}

// POST /webhooks: the service's calls, each verified with the webhook's signing key.
const events = [] // newest first; keep them in your database instead
async function receiveWebhook(req, res) {
  if (!webhookSigningKey) return void res.writeHead(503).end() // not set up: the service tries again later
  let event
  try {
    event = await verifyNodeWebhook({ signingKey: webhookSigningKey, request: req })
  } catch (e) {
    if (!(e instanceof WebhookError)) throw e
    return void res.writeHead(e.status).end() // 401 (bad signature) or 400, no detail
  }
  res.writeHead(204).end() // acknowledge at once, work afterwards
  const { envelopeId, title, status } = event.payload
  // The same event may arrive twice: event, envelopeId and createdAt identify it.
  if (events.some((e) => e.event === event.event && e.envelopeId === envelopeId && e.createdAt === event.createdAt)) return
  events.unshift({ event: event.event, envelopeId, title, status, createdAt: event.createdAt })
  events.length = Math.min(events.length, 50)
}

const routes = {
  'POST /presign': presign,
  'POST /send': sendDocument,
  'POST /webhooks': receiveWebhook,
  'GET /events': (req, res) => sendJson(res, 200, { events, webhooks: webhookSigningKey ? 'on' : 'off' }),
}

const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname
  const route = routes[`${req.method} ${path}`]
  const done = route ? route(req, res) : serveApp(req, res, path)
  Promise.resolve(done).catch((e) => {
    console.error(`${req.method} ${path} failed`, e)
    if (!res.headersSent) sendJson(res, 500, { message: 'internal error', code: 'INTERNAL' })
  })
})

server.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`backend on http://localhost:${server.address().port} (signing service ${signingUrl})`)
})

// In production, the built app (`npm run build` writes dist/); any other path gets its index.html.
const dist = fileURLToPath(new URL('./dist/', import.meta.url))
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }
async function serveApp(req, res, path) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 404, { message: `no route ${req.method} ${path}`, code: 'NOT_FOUND' })
  let file = join(dist, normalize(path)) // an absolute path, normalized, never climbs above dist
  if (!(await stat(file).catch(() => null))?.isFile()) file = join(dist, 'index.html')
  if (!(await stat(file).catch(() => null))) return sendJson(res, 404, { message: 'no built app: run `npm run build`, or use `npm run dev`', code: 'NOT_FOUND' })
  res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
  createReadStream(file).pipe(res)
}

async function readJson(req) {
  let text = ''
  for await (const chunk of req) {
    text += chunk
    if (text.length > 4096) throw new InvalidInputError([{ message: 'body too large' }])
  }
  try {
    const body = text ? JSON.parse(text) : {}
    if (body && typeof body === 'object' && !Array.isArray(body)) return body
  } catch {}
  throw new InvalidInputError([{ message: 'expected a JSON object' }])
}

function sendJson(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(body))
}
