/** Webhook bodies as API v2 sends them: the body and every event kind (docs/delivery.md, "Webhooks"). */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib'
import { FULL_PAYLOAD_EVENTS, WEBHOOK_EVENTS, type WebhookEventName } from '../../src/server/index.js'

const ENVELOPE_ID = 'envelope_abcdefghijklmnop'

export function recipient(overrides: Record<string, unknown> = {}) {
  return {
    id: 11,
    envelopeId: ENVELOPE_ID,
    documentId: 7,
    templateId: null,
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    role: 'SIGNER',
    token: 'tok_ada',
    readStatus: 'NOT_OPENED',
    signingStatus: 'NOT_SIGNED',
    sendStatus: 'SENT',
    signingOrder: 1,
    signedAt: null,
    rejectionReason: null,
    documentDeletedAt: null,
    expiresAt: null,
    expirationNotifiedAt: null,
    authOptions: { accessAuth: null, actionAuth: null },
    ...overrides,
  }
}

export function fullPayload(overrides: Record<string, unknown> = {}) {
  const recipients = [recipient()]
  return {
    id: 7,
    envelopeId: ENVELOPE_ID,
    externalId: 'order-1',
    userId: 3,
    authOptions: null,
    formValues: null,
    title: 'Contract',
    status: 'PENDING',
    visibility: 'EVERYONE',
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:05:00.000Z',
    completedAt: null,
    deletedAt: null,
    teamId: 2,
    templateId: null,
    source: 'DOCUMENT',
    documentMeta: {
      id: 'meta_1',
      subject: null,
      message: null,
      timezone: 'Etc/UTC',
      dateFormat: 'yyyy-MM-dd hh:mm a',
      redirectUrl: null,
      signingOrder: 'PARALLEL',
      allowDictateNextSigner: false,
      typedSignatureEnabled: true,
      uploadSignatureEnabled: true,
      drawSignatureEnabled: true,
      language: 'en',
      distributionMethod: 'EMAIL',
      emailSettings: null,
    },
    recipients,
    Recipient: recipients,
    ...overrides,
  }
}

/** The payload API v2 gives each event: full for four, reduced for the others, template ids as API v2 sets them. */
export function payloadFor(event: WebhookEventName): Record<string, unknown> {
  if ((FULL_PAYLOAD_EVENTS as readonly string[]).includes(event)) return fullPayload()
  const { id, envelopeId, status, title, source, recipients } = fullPayload()
  const reduced = { id, envelopeId, status, title, source, recipients }
  if (event === 'TEMPLATE_USED') return { ...reduced, source: 'TEMPLATE', templateId: 4 }
  if (event.startsWith('TEMPLATE_')) {
    return { ...reduced, id: 4, status: 'DRAFT', source: 'TEMPLATE', templateId: null, recipients: [recipient({ documentId: null, templateId: 4 })] }
  }
  return reduced
}

export function eventBody(event: string, payload: unknown = payloadFor(event as WebhookEventName)) {
  return JSON.stringify({ event, payload, createdAt: '2025-01-01T10:05:01.000Z', webhookEndpoint: 'https://example.com/hooks' })
}

export const ALL_EVENTS = WEBHOOK_EVENTS

/** A real HTTP server on a free port; `url` has no trailing slash. */
export async function listen(handler: RequestListener): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  let s = ''
  for await (const chunk of req) s += chunk
  return s
}

/** A real PDF with `pages` pages and some text on each. */
export async function makePdf(pages = 1, text = 'Sign here'): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`${text} (page ${i + 1})`, { x: 50, y: 700, size: 18, font })
  return doc.save()
}
