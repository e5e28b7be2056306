/**
 * A webhook receiver that keeps the last events in memory, to show them on a page: the
 * verifying handler of examples/webhooks.ts plus a short list, newest first. The demos mount it
 * at POST /demo/webhook and list what it kept at GET /demo/events.
 *
 *   WEBHOOK_SIGNING_KEY=whsec_... PORT=3002 npx tsx examples/webhook-receiver.ts
 *   # POST / receives the service's calls; GET / lists the kept events as JSON
 *
 * Register the URL with the service once (API token of your team); the answer's `signingKey`,
 * shown this once, is what the receiver verifies with:
 *
 *   curl -X POST https://sign.example.com/api/v2/webhook/create -H "Authorization: $API_KEY" \
 *     -d '{"url": "https://app.example.com/webhooks", "events": ["DOCUMENT_SENT", "DOCUMENT_COMPLETED"], "sendSecretHeader": false}'
 *
 * In your app, import from 'envelope-embed/server', and keep events in your database instead.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import type { WebhookEvent, WebhookEventName } from '../src/server/index.js'
import { webhookHandler, type SigningKeys } from './webhooks.js'

/** What the list keeps of each event. */
export interface ReceivedEvent {
  event: WebhookEventName
  envelopeId: string
  title: string
  /** The envelope's status when the event happened. */
  status: string
  /** When the service created the event (ISO). */
  createdAt: string
  /** When this receiver got it (ISO). */
  receivedAt: string
}

export interface WebhookReceiver {
  /** Connect/Express-style handler for the service's POSTs: 401 for a wrong signature, 204 once kept. */
  handle(req: IncomingMessage, res: ServerResponse): void
  /** The kept events, newest first. */
  events(): ReceivedEvent[]
}

/**
 * Verifies each call's signature with the webhook's signing key and keeps the last `keep` events.
 * A retried delivery of an event already kept is answered but not kept twice.
 */
export function webhookReceiver({ signingKey, keep = 50 }: { signingKey: SigningKeys; keep?: number }): WebhookReceiver {
  const kept: ReceivedEvent[] = []
  const handler = webhookHandler({
    signingKey,
    onEvent(e: WebhookEvent) {
      const { envelopeId, title, status } = e.payload
      kept.unshift({ event: e.event, envelopeId, title, status, createdAt: e.createdAt, receivedAt: new Date().toISOString() })
      kept.length = Math.min(kept.length, keep)
    },
  })
  return {
    handle(req, res) {
      handler(req, res).catch((error: unknown) => {
        console.error('webhook failed', error)
        if (!res.headersSent) res.writeHead(500).end()
      })
    },
    events: () => kept.slice(),
  }
}

// Run directly: POST / receives, GET / lists.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { WEBHOOK_SIGNING_KEY = '', PORT = '3002' } = process.env
  const receiver = webhookReceiver({ signingKey: WEBHOOK_SIGNING_KEY ? [WEBHOOK_SIGNING_KEY] : [] })
  const server = createServer((req, res) => {
    if (req.method === 'POST') return receiver.handle(req, res)
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(receiver.events()))
  })
  server.listen(Number(PORT), () => console.log(`webhooks: POST http://localhost:${(server.address() as AddressInfo).port}/ (GET / lists them)`))
}
