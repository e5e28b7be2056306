/**
 * A webhook receiver on plain node:http. The service signs each event with the webhook's signing
 * key (webhook-signature, the answer that made or rotated the webhook shows it once);
 * verifyNodeWebhook checks the signature and types the event. It does not rely on the
 * X-Service-Secret header, which travels in clear: the webhook can leave it out (sendSecretHeader: false).
 *
 *   WEBHOOK_SIGNING_KEY=whsec_... PORT=3001 npx tsx examples/webhooks.ts
 *
 * In your app, import from 'envelope-embed/server'.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { verifyNodeWebhook, WebhookError, type WebhookEvent } from '../src/server/index.js'

/** The webhook's signing key; during a rotation, the new and the old one; or where to read them now. */
export type SigningKeys = string | readonly string[] | (() => readonly string[])

/** Answers 2xx at once and processes after; events may be retried, so processing is idempotent. */
export function webhookHandler({ signingKey, onEvent }: { signingKey: SigningKeys; onEvent: (e: WebhookEvent) => Promise<void> | void }) {
  const seen = new Set<string>() // use your database in production
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const keys = typeof signingKey === 'function' ? signingKey() : signingKey
    // No key yet (not registered): not ready, and the service tries again later.
    if (!keys.length) return void res.writeHead(503).end()
    let event: WebhookEvent
    try {
      event = await verifyNodeWebhook({ signingKey: keys, request: req })
    } catch (e) {
      if (!(e instanceof WebhookError)) throw e
      // 401 without detail for a bad signature; 400 for a body we cannot use (log it, the sender is genuine).
      if (e.status !== 401) console.warn('webhook refused:', e.reason, e.message)
      return void res.writeHead(e.status).end()
    }
    res.writeHead(204).end() // within 10 seconds, before any slow work
    const key = `${event.event}:${event.payload.envelopeId}:${event.createdAt}`
    if (seen.has(key)) return
    seen.add(key)
    await onEvent(event)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { WEBHOOK_SIGNING_KEY = '', PORT = '3001' } = process.env
  const handle = webhookHandler({
    signingKey: WEBHOOK_SIGNING_KEY ? [WEBHOOK_SIGNING_KEY] : [],
    onEvent(event) {
      switch (event.event) {
        case 'DOCUMENT_COMPLETED':
          return console.log(`completed: ${event.payload.title} at ${event.payload.completedAt}`)
        case 'DOCUMENT_REJECTED':
          return console.log('rejected:', event.payload.recipients.map((r) => r.rejectionReason).filter(Boolean))
        default:
          return console.log(event.event, event.payload.envelopeId)
      }
    },
  })
  const server = createServer((req, res) => void handle(req, res).catch(console.error))
  server.listen(Number(PORT), () => console.log(`webhooks: POST http://localhost:${(server.address() as AddressInfo).port}/`))
}
