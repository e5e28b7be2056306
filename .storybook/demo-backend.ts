import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Plugin, ViteDevServer } from 'vite'
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib'

/**
 * The demos' backend, mounted in the Vite server that serves the stories (Storybook's dev server,
 * and Vitest's when the stories run as tests). It plays the customer's backend: it holds the API
 * key, which never reaches the browser.
 *
 *   POST /presign        the backend snippet of examples/backend.ts (presignHandler), unchanged
 *   POST /demo/envelope  {type} -> creates an envelope with a one-page PDF through the API, so the
 *                        update stories have something to edit: {envelopeId, secondaryId, legacyId}
 *
 * It reads, at request time: ENVELOPE_HOST_URL (the host's origin) and ENVELOPE_API_KEY (an API
 * token of an enterprise team). The browser learns the host's origin from `virtual:envelope-demo`
 * (STORYBOOK_HOST_URL, else ENVELOPE_HOST_URL), read when the module is first requested.
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
        const path = (req.url ?? '').split('?')[0]
        if (req.method !== 'POST' || (path !== '/presign' && path !== '/demo/envelope')) return next()
        const settings = backendSettings()
        if (!settings) return sendError(res, 503, 'DEMO_NOT_CONFIGURED', 'the demo backend needs ENVELOPE_HOST_URL and ENVELOPE_API_KEY: run npm start')
        const handle = path === '/presign' ? presign(server, settings, req, res, next) : createEnvelope(settings, req, res)
        handle.catch((error: unknown) => {
          if (!res.headersSent) sendError(res, 500, 'INTERNAL', error instanceof Error ? error.message : String(error))
        })
      })
    },
  }
}

const VIRTUAL_ID = 'virtual:envelope-demo'
const RESOLVED_ID = '\0' + VIRTUAL_ID

interface Settings {
  /** The host's origin, e.g. http://127.0.0.1:3100 */
  hostUrl: string
  apiUrl: string
  apiKey: string
}

function backendSettings(): Settings | null {
  const hostUrl = process.env.ENVELOPE_HOST_URL?.replace(/\/+$/, '')
  const apiKey = process.env.ENVELOPE_API_KEY
  return hostUrl && apiKey ? { hostUrl, apiUrl: `${hostUrl}/api/v2`, apiKey } : null
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

async function createEnvelope(s: Settings, req: IncomingMessage, res: ServerResponse) {
  const body = await readJson(req)
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
  form.append('files', new Blob([await agreementPdf(title)], { type: 'application/pdf' }), 'service-agreement.pdf')
  const created = await api(s, '/envelope/create', { method: 'POST', body: form })
  if (!created.ok) return relay(res, created)
  const { id } = (await created.json()) as { id: string }
  const got = await api(s, `/envelope/${encodeURIComponent(id)}`)
  if (!got.ok) return relay(res, got)
  const envelope = (await got.json()) as { id: string; secondaryId: string }
  const legacyId = Number(envelope.secondaryId.split('_').pop())
  sendJson(res, 200, { envelopeId: envelope.id, secondaryId: envelope.secondaryId, legacyId })
}

const api = (s: Settings, path: string, init: RequestInit = {}) =>
  fetch(s.apiUrl + path, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: s.apiKey } })

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
