import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Plugin, ViteDevServer } from 'vite'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib'
import { WEBHOOK_EVENTS } from '../src/server/index.js'

/**
 * The demos' backend, mounted in the Vite server that serves the stories (Storybook's dev server,
 * and Vitest's when the stories run as tests). It plays the customer's backend: it holds the API
 * key, which never reaches the browser.
 *
 *   POST /presign        the backend snippet of examples/backend.ts (presignHandler), unchanged
 *   POST /demo/envelope  {type} -> creates an envelope with a one-page PDF through the API, so the
 *                        update stories have something to edit: {envelopeId, secondaryId, legacyId};
 *                        {sample: true}: a draft document of examples/sample-contract.pdf, no recipient
 *   GET  /demo/sample.pdf the sample contract, for the editor's file step
 *   POST /demo/signing   {signingOrder?, key?} -> creates a document for a signer and an approver and
 *                        sends it (with a key: the one sent before for it while nobody has acted on it): {envelopeId, recipients: [{id, name, email, role, signingOrder,
 *                        token, signingUrl}]} (the tokens are credentials: a real backend hands
 *                        each one only to the signed-in user it belongs to)
 *   POST /demo/distribute {envelopeId} -> sends an envelope authored in a story: the same answer
 *   POST /demo/direct    {key?} -> creates a template (with a key: once per server) (a visitor who signs, then an approver) with a direct
 *                        link for the visitor: {templateId, templateNumber, token, url}
 *   GET  /demo/signed?envelopeId=  -> the sealed PDF of the envelope's first file
 *   POST /demo/webhook   the webhook receiver of examples/webhook-receiver.ts: the service's calls,
 *                        their signature verified with the webhook's signing key; it keeps the last events
 *   GET  /demo/events    -> {events: [{event, envelopeId, title, status, createdAt, receivedAt}]
 *                        newest first, webhook: {url, state: 'registered' | 'off' | 'failed', message?}}
 *
 * It reads, at request time: ENVELOPE_HOST_URL (the host's origin), ENVELOPE_API_KEY (an API
 * token of an enterprise team) and ENVELOPE_WEBHOOK_SECRET (the webhook's shared secret; without
 * it no webhook is registered). The signing key the receiver verifies with is the one the service
 * answers when the backend registers the webhook (or, for one made before, rotates its key): it is
 * shown once, so this process keeps it in memory only. The browser learns the host's origin from `virtual:envelope-demo`
 * (STORYBOOK_HOST_URL, else ENVELOPE_HOST_URL), read when the module is first requested.
 *
 * On the first request from an origin (the Host header: Storybook's, or the test runner's), the
 * backend registers a webhook of the demo team for every event to `{that origin}/demo/webhook`
 * unless one exists (GET /webhook), so the events of everything the stories do arrive here. The
 * host must allow loopback receivers (webhookAllowPrivateUrls, as npm start and the tests run it).
 */
export function demoBackend(): Plugin {
  return {
    name: 'envelope-embed:demo-backend',
    resolveId: (id) => (id === VIRTUAL_ID ? RESOLVED_ID : null),
    load(id) {
      if (id !== RESOLVED_ID) return null
      return `export const hostUrl = ${JSON.stringify(publicHostUrl())}\n`
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const [path = '', query = ''] = (req.url ?? '').split('?')
        const route = ROUTES[`${req.method} ${path}`]
        if (!route) return next()
        const settings = backendSettings()
        if (!settings) return sendError(res, 503, 'DEMO_NOT_CONFIGURED', 'the demo backend needs ENVELOPE_HOST_URL and ENVELOPE_API_KEY: run npm start')
        const call = { server, s: settings, req, res, next, query: new URLSearchParams(query) }
        // The service's own calls need no webhook; everything else makes sure it exists first,
        // so the events of what this request does are delivered here.
        const handle = path === '/demo/webhook' ? route(call) : webhookFor(settings, req).then(() => route(call))
        handle.catch((error: unknown) => {
          // fetch's own message ("fetch failed") hides why: the cause (a refused or reset connection) says it.
          const cause = (error as { cause?: { code?: string; message?: string } }).cause
          const why = cause ? ` (${cause.code ?? cause.message})` : ''
          if (!res.headersSent) sendError(res, 500, 'INTERNAL', `${error instanceof Error ? error.message : String(error)}${why}`)
        })
      })
    },
  }
}

interface Call {
  server: ViteDevServer
  s: Settings
  req: IncomingMessage
  res: ServerResponse
  next: () => void
  query: URLSearchParams
}
const ROUTES: Record<string, (call: Call) => Promise<void>> = {
  'POST /presign': (c) => presign(c.server, c.s, c.req, c.res, c.next),
  'POST /demo/envelope': (c) => createEnvelope(c.s, c.req, c.res),
  'POST /demo/signing': (c) => createAndSend(c.s, c.req, c.res),
  'POST /demo/direct': async (c) => createDirectLink(c.s, await readJson(c.req), c.res),
  'GET /demo/sample.pdf': (c) => samplePdf(c.res),
  'POST /demo/distribute': async (c) => distribute(c.s, String((await readJson(c.req)).envelopeId), c.res),
  'GET /demo/signed': (c) => signedPdf(c.s, c.query.get('envelopeId') ?? '', c.res),
  'POST /demo/webhook': async (c) => (await receiver(c.server)).handle(c.req, c.res),
  'GET /demo/events': async (c) =>
    sendJson(c.res, 200, { events: (await receiver(c.server)).events(), webhook: webhookState(c.s, c.req) }),
}
const VIRTUAL_ID = 'virtual:envelope-demo'
const RESOLVED_ID = '\0' + VIRTUAL_ID

interface Settings {
  /** The host's origin, e.g. http://127.0.0.1:3100 */
  hostUrl: string
  apiUrl: string
  apiKey: string
  /** The webhook's shared secret; '' = no webhook. */
  webhookSecret: string
}

function backendSettings(): Settings | null {
  const hostUrl = process.env.ENVELOPE_HOST_URL?.replace(/\/+$/, '')
  const apiKey = process.env.ENVELOPE_API_KEY
  const webhookSecret = process.env.ENVELOPE_WEBHOOK_SECRET ?? ''
  return hostUrl && apiKey ? { hostUrl, apiUrl: `${hostUrl}/api/v2`, apiKey, webhookSecret } : null
}

function publicHostUrl(): string {
  return (process.env.STORYBOOK_HOST_URL || process.env.ENVELOPE_HOST_URL || 'http://localhost:3100').replace(/\/+$/, '')
}

type PresignHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void
let handlerFor: { key: string; handler: PresignHandler } | undefined

/** examples/backend.ts, loaded through Vite so its TypeScript and `envelope-embed/server` resolve. */
async function presign(server: ViteDevServer, s: Settings, req: IncomingMessage, res: ServerResponse, next: () => void) {
  const key = `${s.apiUrl} ${s.apiKey}`
  if (handlerFor?.key !== key) {
    const mod = (await server.ssrLoadModule('/examples/backend.ts')) as { presignHandler: (o: { baseUrl: string; apiKey: string }) => PresignHandler }
    handlerFor = { key, handler: mod.presignHandler({ baseUrl: s.apiUrl, apiKey: s.apiKey }) }
  }
  handlerFor.handler(req, res, next)
}

// ---- webhooks ------------------------------------------------------------------------------

interface ReceiverModule {
  webhookReceiver: (o: { signingKey: () => readonly string[]; keep?: number }) => { handle: (req: IncomingMessage, res: ServerResponse) => void; events: () => unknown[] }
}
let receiverFor: Promise<ReturnType<ReceiverModule['webhookReceiver']>> | undefined
/** The signing keys of the webhooks this process registered, as the service answered them (once). */
const signingKeys = new Set<string>()

/** examples/webhook-receiver.ts, one for this process (its list lives as long as the server), loaded like the presign handler. */
function receiver(server: ViteDevServer) {
  if (!receiverFor) {
    const loading = (server.ssrLoadModule('/examples/webhook-receiver.ts') as Promise<ReceiverModule>).then((mod) =>
      mod.webhookReceiver({ signingKey: () => [...signingKeys], keep: 50 }),
    )
    receiverFor = loading
    loading.catch(() => (receiverFor = undefined))
  }
  return receiverFor
}

/** Every event the service sends. */
const ALL_EVENTS: readonly string[] = WEBHOOK_EVENTS

interface WebhookState {
  url: string
  state: 'registered' | 'off' | 'failed'
  message?: string
}
/** Per API key and receiver URL: the registration, done once (again after a failure, at most every 10 s). */
const webhooks = new Map<string, { state: WebhookState; done: Promise<void>; retryAt?: number }>()

/** `{origin of this request}/demo/webhook`, from its Host header; null when the header is not a plain host[:port]. */
function receiverUrl(req: IncomingMessage): string | null {
  const authority = req.headers.host ?? ''
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(authority)) return null
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true
  return `${encrypted ? 'https' : 'http'}://${authority}/demo/webhook`
}

const webhookKey = (s: Settings, url: string) => `${s.apiUrl} ${s.apiKey} ${s.webhookSecret} ${url}`

function webhookState(s: Settings, req: IncomingMessage): WebhookState {
  const url = receiverUrl(req) ?? ''
  return webhooks.get(webhookKey(s, url))?.state ?? { url, state: 'off', message: 'not registered' }
}

/**
 * Registers the demo team's webhook to this request's origin unless it exists (and puts an
 * existing one right: every event, this secret, enabled). Never fails the request: a problem is
 * logged once and reported by GET /demo/events, and the next request tries again.
 */
function webhookFor(s: Settings, req: IncomingMessage): Promise<void> {
  const url = receiverUrl(req)
  if (!url) return Promise.resolve()
  const key = webhookKey(s, url)
  const known = webhooks.get(key)
  if (known && (known.state.state !== 'failed' || Date.now() < known.retryAt!)) return known.done
  if (!s.webhookSecret) {
    webhooks.set(key, { state: { url, state: 'off', message: 'set ENVELOPE_WEBHOOK_SECRET to receive webhooks' }, done: Promise.resolve() })
    return Promise.resolve()
  }
  const entry: { state: WebhookState; done: Promise<void>; retryAt?: number } = { state: { url, state: 'registered' }, done: Promise.resolve() }
  entry.done = registerWebhook(s, url).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    if (known?.state.message !== message) console.warn(`demo backend: cannot register the webhook ${url}: ${message}`)
    entry.state = { url, state: 'failed', message }
    entry.retryAt = Date.now() + 10_000
  })
  webhooks.set(key, entry)
  return entry.done
}

async function registerWebhook(s: Settings, url: string): Promise<void> {
  const json = { 'Content-Type': 'application/json' }
  const listed = await api(s, '/webhook')
  if (!listed.ok) throw new Error(`GET /webhook: ${listed.status} ${await listed.text()}`)
  const { data } = (await listed.json()) as { data: { id: string; url: string; events: string[]; secret: string; enabled: boolean }[] }
  const existing = data.find((w) => w.url === url)
  // The receiver checks the signature only: the secret stays out of the calls.
  const wanted = { url, events: ALL_EVENTS, secret: s.webhookSecret, sendSecretHeader: false, enabled: true }
  if (existing) {
    const updated = await api(s, '/webhook/update', { method: 'POST', headers: json, body: JSON.stringify({ id: existing.id, ...wanted }) })
    if (!updated.ok) throw new Error(`update: ${updated.status} ${await updated.text()}`)
  }
  // A new webhook's key is in the answer that made it; an existing one's was shown once to whoever
  // made it, so it gets a new one (the old one signs beside it for a day).
  const answer = existing
    ? await api(s, `/webhook/${encodeURIComponent(existing.id)}/rotate-signing-key`, { method: 'POST', headers: json, body: '{}' })
    : await api(s, '/webhook/create', { method: 'POST', headers: json, body: JSON.stringify(wanted) })
  if (!answer.ok) throw new Error(`${existing ? 'rotate-signing-key' : 'create'}: ${answer.status} ${await answer.text()}`)
  signingKeys.add(((await answer.json()) as { signingKey: string }).signingKey)
}

// ---- envelopes -----------------------------------------------------------------------------

async function createEnvelope(s: Settings, req: IncomingMessage, res: ServerResponse) {
  const body = await readJson(req)
  if (body.sample === true) return createSampleDraft(s, res)
  const type = body.type === 'TEMPLATE' ? 'TEMPLATE' : 'DOCUMENT'
  const title = type === 'TEMPLATE' ? 'Service agreement (template)' : 'Service agreement'
  const payload = {
    type,
    title,
    recipients: [
      {
        email: 'alex.signer@example.com',
        name: 'Alex Signer',
        role: 'SIGNER',
        fields: [
          { identifier: 0, type: 'SIGNATURE', page: 1, positionX: 12, positionY: 74, width: 30, height: 6 },
          { identifier: 0, type: 'DATE', page: 1, positionX: 58, positionY: 74, width: 22, height: 4 },
        ],
      },
    ],
  }
  const form = new FormData()
  form.append('payload', JSON.stringify(payload))
  form.append('files', new Blob([new Uint8Array(await agreementPdf(title))], { type: 'application/pdf' }), 'service-agreement.pdf')
  const created = await api(s, '/envelope/create', { method: 'POST', body: form })
  if (!created.ok) return relay(res, created)
  const { id } = (await created.json()) as { id: string }
  const got = await api(s, `/envelope/${encodeURIComponent(id)}`)
  if (!got.ok) return relay(res, got)
  const envelope = (await got.json()) as { id: string; secondaryId: string }
  const legacyId = Number(envelope.secondaryId.split('_').pop())
  sendJson(res, 200, { envelopeId: envelope.id, secondaryId: envelope.secondaryId, legacyId })
}

/** A draft document of the sample contract, with no recipient yet: the loop's start without a file of one's own. */
async function createSampleDraft(s: Settings, res: ServerResponse) {
  const form = new FormData()
  form.append('payload', JSON.stringify({ type: 'DOCUMENT', title: 'Sample contract' }))
  form.append('files', new Blob([new Uint8Array(await readFile(SAMPLE))], { type: 'application/pdf' }), 'Sample contract.pdf')
  const created = await api(s, '/envelope/create', { method: 'POST', body: form })
  if (!created.ok) return relay(res, created)
  const { id } = (await created.json()) as { id: string }
  const got = await api(s, `/envelope/${encodeURIComponent(id)}`)
  if (!got.ok) return relay(res, got)
  const envelope = (await got.json()) as { id: string; secondaryId: string }
  sendJson(res, 200, { envelopeId: envelope.id, secondaryId: envelope.secondaryId, legacyId: Number(envelope.secondaryId.split('_').pop()) })
}

const SAMPLE = fileURLToPath(new URL('../examples/sample-contract.pdf', import.meta.url))

async function samplePdf(res: ServerResponse) {
  res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="Sample contract.pdf"', 'Cache-Control': 'no-cache' })
  res.end(await readFile(SAMPLE))
}

/** The agreement for a signer (signature, name, date, a text and a checkbox) and then an approver, as a `type` envelope. */
async function createAgreement(s: Settings, type: 'DOCUMENT' | 'TEMPLATE', signingOrder: 'SEQUENTIAL' | 'PARALLEL'): Promise<Response> {
  const title = 'Service agreement'
  const at = (type: string, positionX: number, positionY: number, width: number, height: number, fieldMeta?: object) => ({
    identifier: 0, type, page: 1, positionX, positionY, width, height, ...(fieldMeta ? { fieldMeta } : {}),
  })
  const payload = {
    type,
    title,
    meta: { signingOrder, subject: 'Please sign the service agreement' },
    recipients: [
      {
        email: 'alex.signer@example.com',
        name: 'Alex Signer',
        role: 'SIGNER',
        signingOrder: 1,
        fields: [
          at('SIGNATURE', 12, 74, 30, 6),
          at('DATE', 58, 74, 22, 4),
          at('NAME', 12, 82, 30, 3.5),
          at('TEXT', 12, 52, 40, 3.5, { type: 'text', label: 'Company', required: true }),
          at('CHECKBOX', 12, 58, 40, 5, { type: 'checkbox', label: 'Options', options: ['Priority support'], required: false }),
        ],
      },
      { email: 'blair.approver@example.com', name: 'Blair Approver', role: 'APPROVER', signingOrder: 2 },
    ],
  }
  const form = new FormData()
  form.append('payload', JSON.stringify(payload))
  form.append('files', new Blob([new Uint8Array(await agreementPdf(title))], { type: 'application/pdf' }), 'service-agreement.pdf')
  return api(s, '/envelope/create', { method: 'POST', body: form })
}

/**
 * What the stories sent, by their `key` (a story's id), for as long as this server runs: viewing a
 * story again shows the same document while nobody has acted on it yet, instead of sending (and
 * e-mailing) a new one each time. Once a recipient has signed, approved or rejected it (or it is
 * done), the next view sends a fresh one, so every story can be played again from the start.
 */
const sentFor = new Map<string, unknown>()
const directFor = new Map<string, unknown>()
const keyOf = (body: Record<string, unknown>, ...parts: unknown[]) =>
  typeof body.key === 'string' && body.key ? `${body.key} ${parts.join(' ')}` : null

/** The agreement as a document, sent (or the one already sent for this key, while nobody has acted on it). */
async function createAndSend(s: Settings, req: IncomingMessage, res: ServerResponse) {
  const body = await readJson(req)
  const order = body.signingOrder === 'PARALLEL' ? 'PARALLEL' : 'SEQUENTIAL'
  const key = keyOf(body, order)
  const known = key ? (sentFor.get(key) as { envelopeId: string } | undefined) : undefined
  if (known) {
    const got = await api(s, `/envelope/${encodeURIComponent(known.envelopeId)}`)
    const env = got.ok ? ((await got.json()) as { status: string; recipients: { signingStatus: string }[] }) : null
    if (env?.status === 'PENDING' && env.recipients.every((r) => r.signingStatus === 'NOT_SIGNED')) return sendJson(res, 200, known)
    sentFor.delete(key!)
  }
  const created = await createAgreement(s, 'DOCUMENT', order)
  if (!created.ok) return relay(res, created)
  await distribute(s, ((await created.json()) as { id: string }).id, res, (answer) => key && sentFor.set(key, answer))
}

/** The agreement as a template with a direct link for its signer: anyone with the link signs as them (one per key). */
async function createDirectLink(s: Settings, body: Record<string, unknown>, res: ServerResponse) {
  const key = keyOf(body)
  const known = key ? directFor.get(key) : undefined
  if (known) return sendJson(res, 200, known)
  const created = await createAgreement(s, 'TEMPLATE', 'SEQUENTIAL')
  if (!created.ok) return relay(res, created)
  const got = await api(s, `/envelope/${encodeURIComponent(((await created.json()) as { id: string }).id)}`)
  if (!got.ok) return relay(res, got)
  const template = (await got.json()) as { id: string; secondaryId: string; recipients: { id: number; role: string }[] }
  const templateNumber = Number(template.secondaryId.split('_').pop())
  const link = await api(s, '/template/direct/create', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ templateId: templateNumber, directRecipientId: template.recipients.find((r) => r.role === 'SIGNER')!.id }),
  })
  if (!link.ok) return relay(res, link)
  const { token } = (await link.json()) as { token: string }
  const answer = { templateId: template.id, templateNumber, token, url: `${s.hostUrl}/d/${encodeURIComponent(token)}` }
  if (key) directFor.set(key, answer)
  sendJson(res, 200, answer)
}

async function distribute(s: Settings, envelopeId: string, res: ServerResponse, keep?: (answer: object) => unknown) {
  const sent = await api(s, '/envelope/distribute', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ envelopeId }),
  })
  if (!sent.ok) return relay(res, sent)
  type Sent = { id: number; name: string; email: string; role: string; signingOrder: number | null; token: string; signingUrl: string }
  const { id, recipients } = (await sent.json()) as { id: string; recipients: Sent[] }
  const answer = { envelopeId: id, recipients: recipients.map(({ id, name, email, role, signingOrder, token, signingUrl }) => ({ id, name, email, role, signingOrder, token, signingUrl })) }
  keep?.(answer)
  sendJson(res, 200, answer)
}

async function signedPdf(s: Settings, envelopeId: string, res: ServerResponse) {
  const got = await api(s, `/envelope/${encodeURIComponent(envelopeId)}`)
  if (!got.ok) return relay(res, got)
  const { envelopeItems, title } = (await got.json()) as { envelopeItems: { id: string }[]; title: string }
  const pdf = await api(s, `/envelope/item/${encodeURIComponent(envelopeItems[0]!.id)}/download?version=signed`)
  if (!pdf.ok) return relay(res, pdf)
  res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Disposition': contentDisposition('inline', `${title} (signed).pdf`), 'Cache-Control': 'no-store' })
  res.end(Buffer.from(await pdf.arrayBuffer()))
}

/**
 * A call to the service on a connection of its own (`Connection: close`): a kept-alive one that the
 * service closes as idle just as a call is sent on it is reset (ECONNRESET), which a busy machine
 * makes likely and a POST cannot safely be sent again after.
 */
const api = (s: Settings, path: string, init: RequestInit = {}) =>
  fetch(s.apiUrl + path, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: s.apiKey, Connection: 'close' } })

/** A one-page contract, so the editor has a real page to place fields on. */
async function agreementPdf(title: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const page = pdf.addPage([595, 842])
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  page.drawText(title, { x: 60, y: 760, size: 22, font: bold })
  const lines = [
    'This agreement is made between Example Corp ("Provider") and the undersigned ("Client").',
    '1. Services. Provider will deliver the services described in the order form.',
    '2. Fees. Client pays the fees in the order form within 30 days of each invoice.',
    '3. Term. This agreement starts on the date of the last signature and runs for one year.',
    '4. Confidentiality. Each party keeps the other party\'s confidential information private.',
  ]
  lines.forEach((line, i) => page.drawText(line, { x: 60, y: 710 - i * 26, size: 11, font }))
  page.drawText('Signature', { x: 70, y: 170, size: 10, font, color: rgb(0.4, 0.4, 0.4) })
  page.drawLine({ start: { x: 70, y: 185 }, end: { x: 250, y: 185 }, thickness: 0.7 })
  page.drawText('Date', { x: 345, y: 170, size: 10, font, color: rgb(0.4, 0.4, 0.4) })
  page.drawLine({ start: { x: 345, y: 185 }, end: { x: 475, y: 185 }, thickness: 0.7 })
  return pdf.save()
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

async function relay(res: ServerResponse, answer: Response) {
  res.writeHead(answer.status, { 'Content-Type': 'application/json' })
  res.end(await answer.text())
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
  res.end(JSON.stringify(body))
}

const sendError = (res: ServerResponse, status: number, code: string, message: string) => sendJson(res, status, { message, code })

/** A Content-Disposition naming a download after its document, safe for any title. */
function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}
