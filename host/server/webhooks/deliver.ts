import { iso, type Db } from '../db/index.js'
import type { Job } from '../jobs/queue.js'
import { postJson } from './post.js'
import { recordCall } from './store.js'

/** The webhook header names (spec "Delivery": the service's name replaced by the word Service). */
export const SECRET_HEADER = 'X-Service-Secret'
export const EVENT_ID_HEADER = 'X-Service-Event-Id'
export const EVENT_HEADER = 'X-Service-Event'

export interface DeliveryOptions {
  timeoutMs: number
  allowPrivate: boolean
}

/**
 * The handler of `webhook` jobs: POSTs one event to one webhook and logs the call. A non-2xx
 * answer or none at all throws, so the queue retries it; a webhook deleted or disabled since
 * is skipped.
 */
export function webhookJob(db: Db, o: DeliveryOptions) {
  return async (job: Job): Promise<void> => {
    const { webhookId, eventId } = job.payload as { webhookId: string; eventId: number }
    const [hook] = await db.query<{ url: string; secret: string; enabled: boolean }>('select url, secret, enabled from webhooks where id = $1', [webhookId])
    if (!hook?.enabled) return
    const [event] = await db.query<{ id: number; event: string; payload: unknown; created_at: Date }>(
      'select id, event, payload, created_at from events where id = $1',
      [eventId],
    )
    if (!event) return
    const body = JSON.stringify({ event: event.event, payload: event.payload, createdAt: iso(event.created_at), webhookEndpoint: hook.url })
    const result = await postJson(
      hook.url,
      body,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'envelope-embed-webhooks/1',
        [SECRET_HEADER]: hook.secret,
        [EVENT_ID_HEADER]: String(event.id),
        [EVENT_HEADER]: event.event,
      },
      o,
    )
    await recordCall(db, {
      webhook_id: webhookId,
      event_id: event.id,
      event: event.event,
      attempt: job.attempts,
      url: hook.url,
      request_body: body,
      response_status: result.status,
      response_body: result.body,
      error: result.error,
      duration_ms: result.durationMs,
    })
    if (result.status === null || result.status < 200 || result.status > 299) {
      throw new Error(result.error ?? `the receiver answered ${result.status}`)
    }
  }
}
