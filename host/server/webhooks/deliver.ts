import { iso, type Db } from '../db/index.js'
import type { Job } from '../jobs/queue.js'
import { postJson } from './post.js'
import { GroupCommit } from '../db/group-commit.js'
import { recordCalls, type CallRecord } from './store.js'

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
  // The record of each call, written together with those of the deliveries ending meanwhile.
  const calls = new GroupCommit<CallRecord>((batch) => recordCalls(db, batch))
  return async (job: Job): Promise<void> => {
    const { webhookId, eventId } = job.payload as { webhookId: string; eventId: number }
    // The webhook and the event in one round trip: none when either is gone or the webhook is off.
    const [row] = await db.query<{ url: string; secret: string; id: number; event: string; payload: unknown; created_at: Date }>(
      'select w.url, w.secret, e.id, e.event, e.payload, e.created_at from webhooks w, events e where w.id = $1 and w.enabled and e.id = $2',
      [webhookId, eventId],
    )
    if (!row) return
    const body = JSON.stringify({ event: row.event, payload: row.payload, createdAt: iso(row.created_at), webhookEndpoint: row.url })
    const result = await postJson(
      row.url,
      body,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'envelope-embed-webhooks/1',
        [SECRET_HEADER]: row.secret,
        [EVENT_ID_HEADER]: String(row.id),
        [EVENT_HEADER]: row.event,
      },
      o,
    )
    await calls.add({
      webhook_id: webhookId,
      event_id: row.id,
      event: row.event,
      attempt: job.attempts,
      url: row.url,
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
