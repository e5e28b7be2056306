/**
 * A webhook receiver on plain node:http. The service POSTs each event with the shared secret in
 * X-Service-Secret; verifyNodeWebhook checks it in constant time and types the event.
 *
 *   WEBHOOK_SECRET=... PORT=3001 npx tsx examples/webhooks.ts
 *
 * In your app, import from 'envelope-embed/server'.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { verifyNodeWebhook, WebhookError, type WebhookEvent } from '../src/server/index.js'

/** Answers 2xx at once and processes after; events may be retried, so processing is idempotent. */
export function webhookHandler({ secret, onEvent }: { secret: string; onEvent: (e: WebhookEvent) => Promise<void> | void }) {
  const seen = new Set<string>() // use your database in production
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let event: WebhookEvent
    try {
      event = await verifyNodeWebhook({ secret, request: req }) // '' when the webhook has no secret
    } catch (e) {
      if (!(e instanceof WebhookError)) throw e
      // 401 without detail for a bad secret; 400 for a body we cannot use (log it, the sender is genuine).
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
  const { WEBHOOK_SECRET = '', PORT = '3001' } = process.env
  const handle = webhookHandler({
    secret: WEBHOOK_SECRET,
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
