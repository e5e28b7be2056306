import { createHmac } from 'node:crypto'
import { iso, statement, type Db } from '../db/index.js'
import {
  signedContent,
  webhookKey,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../../src/protocol/webhook-signature.js'
import type { JobHandler } from '../jobs/enqueue.js'
import { newId } from '../domain/common/ids.js'
import { postJson } from './post.js'
import { receives } from './store.js'
import { holdsLinksSql, withheldPayload } from '../domain/recipient/link-holders.js'
import { signingKeys, type SigningColumns } from './signing-keys.js'

/** The webhook header names: the deployed service's, with its name replaced by the word Service (docs/delivery.md, "Webhooks"). */
export const SECRET_HEADER = 'X-Service-Secret'
export const EVENT_ID_HEADER = 'X-Service-Event-Id'
export const EVENT_HEADER = 'X-Service-Event'
export const WEBHOOK_USER_AGENT = 'envelope-embed-webhooks/1'

export interface DeliveryOptions {
  timeoutMs: number
  allowPrivate: boolean
}

const LOAD = statement(`
  select d.job_id, w.url, w.secret, w.previous_secret, w.previous_secret_until, w.signing_key, w.previous_signing_key, w.previous_signing_key_until,
    w.send_secret_header, e.id, e.event, e.payload, e.created_at,
    ${holdsLinksSql('e.envelope_id')} as holds_links
  from unnest($1::text[], $2::text[], $3::bigint[]) as d(job_id, webhook_id, event_id)
  join webhooks w on w.id = d.webhook_id and w.enabled
  join events e on e.id = d.event_id
  where ${receives('e.envelope_id')}`)

interface Delivery extends SigningColumns {
  url: string
  send_secret_header: boolean
  id: number
  event: string
  payload: unknown
  created_at: Date
  /** Whether the webhook's maker may hold the envelope's signing links (domain/recipient/link-holders.ts). */
  holds_links: boolean
}

/**
 * The Standard Webhooks headers of one call: signed at this attempt with each of `keys` (the
 * webhook's signing key and, while a rotation's grace lasts, what signed before: signing-keys.ts).
 * No key, no signature.
 */
export function signatureHeaders(id: string, body: string, keys: string[]): Record<string, string> {
  if (!keys.length) return {}
  const timestamp = Math.floor(Date.now() / 1000)
  const content = signedContent(id, timestamp, body)
  const signatures = keys.map((s) => `v1,${createHmac('sha256', webhookKey(s)).update(content).digest('base64')}`)
  return { [WEBHOOK_ID_HEADER]: id, [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp), [WEBHOOK_SIGNATURE_HEADER]: signatures.join(' ') }
}

/**
 * The handler of `webhook` jobs: POSTs one event to one webhook and logs the call with the job's
 * end. A non-2xx answer or none at all throws, so the queue retries it; a webhook deleted or
 * disabled since, or whose maker may no longer see the envelope (store.ts, receives), is skipped.
 */
export function webhookJob(db: Db, o: DeliveryOptions): JobHandler {
  const handler: JobHandler = async (job, end) => {
    const { webhookId } = job.payload as { webhookId: string }
    const row = job.prepared as Delivery | null
    if (!row) return
    // The event keeps the tokens; a webhook whose maker may not hold them is told without (what the call log keeps too).
    const payload = row.holds_links ? row.payload : withheldPayload(row.payload)
    const body = JSON.stringify({ event: row.event, payload, createdAt: iso(row.created_at), webhookEndpoint: row.url })
    const result = await postJson(
      row.url,
      body,
      {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        ...(row.send_secret_header && { [SECRET_HEADER]: row.secret }),
        [EVENT_ID_HEADER]: String(row.id),
        [EVENT_HEADER]: row.event,
        ...signatureHeaders(String(row.id), body, signingKeys(row)),
      },
      o,
    )
    end.insert('webhook_calls', {
      id: newId.webhookCall(),
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
  // The webhooks and events of a claimed batch in one round trip: none for a job whose webhook is gone or off.
  handler.prepare = async (jobs) => {
    const rows = await db.query<Delivery & { job_id: string }>(
      LOAD,
      [jobs.map((j) => j.id), jobs.map((j) => String(j.payload.webhookId)), jobs.map((j) => Number(j.payload.eventId))],
    )
    return new Map(rows.map((r) => [r.job_id, r]))
  }
  return handler
}
