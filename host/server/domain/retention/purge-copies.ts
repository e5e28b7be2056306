/**
 * The copies of an envelope's personal data written outside its own rows, which a retention purge
 * (retention.ts) removes or redacts with the rest: the webhook delivery log (request and answer
 * bodies name the recipients and carry their signing tokens), the job rows (mail payloads name
 * them; webhook, reminder, expiry and code jobs point at them), the stored e-mails (the local
 * mailbox, codes included), the events outbox, the e-mailed codes, the failure counts keyed by a
 * recipient's address, the rate-limit counts keyed by a recipient's token, and the bulk-send rows
 * that copied its table.
 * Each count says how many rows went or were redacted: the purge's audit entry records them.
 */
import type { Queryable } from '../../db/index.js'
import { storedRecipientRateKey } from '../../db/rate-limit-counts.js'
import { THROTTLE_WINDOW_MS, throttleKeysOf } from '../../people/throttle.js'

export interface PurgedCopies {
  /** Delivery log entries whose request and answer bodies were replaced by a redaction marker. */
  webhookCalls: number
  /** Job rows deleted (or, while one runs, its payload and error redacted). */
  jobs: number
  /** Stored e-mails deleted. */
  mails: number
  /** Webhook events deleted from the outbox. */
  events: number
  /** E-mailed codes deleted. */
  codes: number
  /** Failure counts of the recipients' addresses deleted (a count still in its window stays: it is someone's current attempt). */
  throttleKeys: number
  /** Rate-limit counts of the recipients' tokens deleted. */
  rateLimitKeys: number
  /** Bulk-send rows redacted: the document's own, and the refused rows of its bulk send (as old as it). */
  bulkRows: number
}

/** What a redacted delivery log entry keeps: the event and which document it was about. */
const REDACTED_CALL = `jsonb_build_object('event', event, 'redacted', true, 'payload', jsonb_build_object('envelopeId', $1::text, 'title', $2::text))::text`

/** Removes or redacts every copy; call it in the purge's transaction before the recipients are redacted. */
export async function purgeCopies(tx: Queryable, e: { id: string; title: string }, now: Date): Promise<PurgedCopies> {
  const recipients = await tx.query<{ id: number; email: string; token: string }>('select id, email, token from recipients where envelope_id = $1', [e.id])
  const codes = await tx.query<{ id: string; email: string | null }>(
    'select c.id, c.email from recipient_auth_codes c join recipients r on r.id = c.recipient_id where r.envelope_id = $1',
    [e.id],
  )
  const events = (await tx.query<{ id: number }>('select id from events where envelope_id = $1', [e.id])).map((r) => String(r.id))
  const recipientIds = recipients.map((r) => String(r.id))
  const emails = [...new Set([...recipients.map((r) => r.email), ...codes.map((c) => c.email)].filter((m): m is string => !!m))]

  // The events first: a delivery ending meanwhile waits for this transaction, then logs no body
  // (migration 032); one that ended before is logged by now, and redacted below.
  const deletedEvents = await tx.query('delete from events where envelope_id = $1 returning 1', [e.id])
  // A delivery's body is the event as sent; one whose event is gone is found by the envelope it names.
  const webhookCalls = await tx.query(
    `update webhook_calls set request_body = ${REDACTED_CALL}, response_body = null
     where (event_id = any($3::int[]) or request_body like $4) and request_body not like '%"redacted": true%'
     returning 1`,
    [e.id, e.title, events, `%"envelopeId":"${e.id.replace(/[\\%_]/g, (ch) => `\\${ch}`)}"%`],
  )
  // A job that runs now keeps its row (its end updates it) without the data; the others go.
  const mine = `(payload->>'envelopeId' = $1 or payload->>'recipientId' = any($2::text[]) or payload->>'eventId' = any($3::text[]) or payload->>'codeId' = any($4::text[]))`
  const jobArgs = [e.id, recipientIds, events, codes.map((c) => c.id)]
  const deletedJobs = await tx.query(`delete from jobs where status <> 'running' and ${mine} returning 1`, jobArgs)
  const runningJobs = await tx.query(`update jobs set payload = '{"redacted": true}', last_error = null where status = 'running' and ${mine} returning 1`, jobArgs)
  // A code's e-mail names no envelope (nothing files it where the team reads): found by its
  // recipient, or, stored before it was, by its address and the document's title it states.
  const mails = await tx.query(
    `delete from mails where envelope_id = $1 or recipient_id = any($2::int[])
       or (template = 'recipient-code' and recipient_id is null and to_address = any($3::text[]) and strpos(text, $4) > 0)
     returning 1`,
    [e.id, recipients.map((r) => r.id), emails, e.title],
  )
  const deletedCodes = await tx.query('delete from recipient_auth_codes where id = any($1::text[]) returning 1', [codes.map((c) => c.id)])
  const throttleKeys = await tx.query('delete from auth_throttle where key = any($1::text[]) and window_start <= $2 returning 1', [
    emails.flatMap(throttleKeysOf),
    new Date(now.getTime() - THROTTLE_WINDOW_MS),
  ])
  const rateLimitKeys = await tx.query('delete from rate_limit_counts where key = any($1::text[]) returning 1', [recipients.map((r) => storedRecipientRateKey(r.token))])
  // A refused row's reason may quote its address: it goes with the row's input.
  const bulkRows = await tx.query(
    `update bulk_send_rows set input = '{"redacted": true}'::jsonb, reason = case when status = 'REFUSED' then null else reason end
     where (envelope_id = $1 or (status = 'REFUSED' and bulk_send_id in (select bulk_send_id from bulk_send_rows where envelope_id = $1)))
       and input <> '{"redacted": true}'::jsonb
     returning 1`,
    [e.id],
  )
  return {
    webhookCalls: webhookCalls.length,
    jobs: deletedJobs.length + runningJobs.length,
    mails: mails.length,
    events: deletedEvents.length,
    codes: deletedCodes.length,
    throttleKeys: throttleKeys.length,
    rateLimitKeys: rateLimitKeys.length,
    bulkRows: bulkRows.length,
  }
}
