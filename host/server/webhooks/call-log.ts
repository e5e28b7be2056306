/**
 * A webhook's delivery log as the console shows it: each call with the document it was about,
 * the request headers it carried (the secret and the signatures hidden), the answer's status and
 * the start of its body, and how long it took.
 */
import type { Queryable } from '../db/index.js'
import { WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '../../../src/protocol/webhook-signature.js'
import { EVENT_HEADER, EVENT_ID_HEADER, SECRET_HEADER, WEBHOOK_USER_AGENT } from './deliver.js'
import { getWebhook, webhookCalls, type Webhook, type WebhookCaller, type WebhookCall } from './store.js'
import type { LoggedCall } from '../../shared/console-contract.js'

/** How much of an answer's body the log shows. */
export const RESPONSE_EXCERPT_CHARS = 500

type CallHeader = LoggedCall['requestHeaders'][number]

/**
 * The headers a delivery sends (webhooks/deliver.ts), their secret values hidden, as the webhook is
 * set now: X-Service-Secret unless left out, the signature unless nothing signs.
 */
export function requestHeaders(
  call: Pick<WebhookCall, 'eventId' | 'event' | 'createdAt' | 'durationMs'>,
  hook: Pick<Webhook, 'sendSecretHeader' | 'signsWith'> = { sendSecretHeader: true, signsWith: 'SIGNING_KEY' },
): CallHeader[] {
  // The signature's timestamp is taken as the call starts: the log's time less its duration.
  const sentAt = Math.floor((Date.parse(call.createdAt) - call.durationMs) / 1000)
  return [
    { name: 'Content-Type', value: 'application/json' },
    { name: 'User-Agent', value: WEBHOOK_USER_AGENT },
    ...(hook.sendSecretHeader ? [{ name: SECRET_HEADER, value: null }] : []),
    { name: EVENT_ID_HEADER, value: String(call.eventId) },
    { name: EVENT_HEADER, value: call.event },
    ...(hook.signsWith === 'NONE'
      ? []
      : [
          { name: WEBHOOK_ID_HEADER, value: String(call.eventId) },
          { name: WEBHOOK_TIMESTAMP_HEADER, value: String(sentAt) },
          { name: WEBHOOK_SIGNATURE_HEADER, value: null },
        ]),
  ]
}

function documentOf(call: WebhookCall): LoggedCall['document'] {
  const payload = (call.requestBody as { payload?: { envelopeId?: unknown; title?: unknown } } | null)?.payload
  if (typeof payload?.envelopeId !== 'string' || !payload.envelopeId.startsWith('envelope_')) return null
  return { id: payload.envelopeId, title: typeof payload.title === 'string' ? payload.title : '', type: ['TEMPLATE_CREATED', 'TEMPLATE_UPDATED', 'TEMPLATE_DELETED'].includes(call.event) ? 'TEMPLATE' : 'DOCUMENT' }
}

export async function callLog(db: Queryable, who: WebhookCaller, id: string, o: { page: number; perPage: number }) {
  const [hook, page] = await Promise.all([getWebhook(db, who, id), webhookCalls(db, who, id, o)])
  return {
    ...page,
    data: page.data.map(
      (call): LoggedCall => ({
        ...call,
        document: documentOf(call),
        requestHeaders: requestHeaders(call, hook),
        responseExcerpt: (call.error ?? call.responseBody ?? '').slice(0, RESPONSE_EXCERPT_CHARS),
      }),
    ),
  }
}
