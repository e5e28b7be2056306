/**
 * Reminders and signing-link deadlines (documentMeta.reminderSettings, envelopeExpirationPeriod):
 * scheduled as jobs when a recipient is sent the document or their turn begins, and acted on by
 * the job handlers below at the time the queue's clock says.
 */
import { add } from 'date-fns'
import { CHANNELS } from '../../cache.js'
import type { Db, Queryable } from '../../db/index.js'
import { enqueue, type Job } from '../../jobs/enqueue.js'
import type { Clock } from '../../jobs/clock.js'
import { aboutRecipient, audit } from '../evidence/audit.js'
import { DEFAULT_DOCUMENT_META } from '../envelope/document-meta.js'
import type { EnvelopeRow, RecipientRow } from '../common/rows.js'
import { mustAct, signingState } from './turns.js'
import type { DocumentMeta } from '../envelope/document-meta.js'

type Period = { unit: 'day' | 'week' | 'month' | 'year'; amount: number } | { disabled: true } | null | undefined

/** `at` plus the period, or null when there is none. */
export function after(at: Date, period: Period): Date | null {
  if (!period || 'disabled' in period) return null
  return add(at, { [`${period.unit}s`]: period.amount })
}

const SYSTEM = { name: null, email: null, recipientId: null, tokenId: null, ipAddress: null, userAgent: null }

/** Sets each recipient's link deadline from now (none when the document has no expiry) and schedules its check. */
export async function setDeadlines(tx: Queryable, e: EnvelopeRow, recipients: RecipientRow[], now: Date): Promise<void> {
  const deadline = after(now, e.document_meta.envelopeExpirationPeriod)
  await tx.notify(CHANNELS.envelopes, e.id)
  for (const r of recipients.filter(mustAct)) {
    await tx.query('update recipients set expires_at = $2, expiration_notified_at = null where id = $1', [r.id, deadline])
    r.expires_at = deadline
    r.expiration_notified_at = null
    if (deadline) await enqueue(tx, { kind: 'expiry', payload: { recipientId: r.id }, runAt: deadline })
  }
}

/** The first reminder of each recipient whose turn has just begun. */
export async function scheduleReminders(tx: Queryable, e: EnvelopeRow, recipients: RecipientRow[], now: Date): Promise<void> {
  const first = after(now, e.document_meta.reminderSettings?.sendAfter)
  if (!first) return
  for (const r of recipients.filter(mustAct)) await enqueue(tx, { kind: 'reminder', payload: { recipientId: r.id }, runAt: first })
}

async function lockRecipient(tx: Queryable, recipientId: number) {
  const [row] = await tx.query<{ envelope_id: string }>('select envelope_id from recipients where id = $1', [recipientId])
  if (!row) return null
  const [e] = await tx.query<EnvelopeRow>('select * from envelopes where id = $1 and deleted_at is null for update', [row.envelope_id])
  if (!e) return null
  const all = await tx.query<RecipientRow>('select * from recipients where envelope_id = $1 order by id for update', [e.id])
  return { e: { ...e, document_meta: { ...DEFAULT_DOCUMENT_META, ...e.document_meta } as DocumentMeta }, all, r: all.find((x) => x.id === recipientId)! }
}

export interface DeadlineHooks {
  /** Emits an event about the envelope (inside the transaction). */
  emit: (tx: Queryable, e: EnvelopeRow, event: 'RECIPIENT_EXPIRED' | 'DOCUMENT_REMINDER_SENT') => Promise<void>
  /** Queues the recipient a reminder of their turn (inside the transaction, as a job); how many were queued: none when e-mail to recipients is off. */
  remind: (tx: Queryable, e: EnvelopeRow, r: RecipientRow) => Promise<number>
}

/**
 * `expiry` jobs: when the deadline has passed on a pending document and the recipient has not
 * acted, records it once (expirationNotifiedAt, RECIPIENT_EXPIRED). A deadline moved later since
 * (the document was sent again) has its own job.
 */
export function expiryJob(db: Db, clock: Clock, hooks: DeadlineHooks) {
  return (job: Job) =>
    db.transaction(async (tx) => {
      const found = await lockRecipient(tx, Number(job.payload.recipientId))
      if (!found) return
      const { e, r } = found
      const now = clock.now()
      if (e.status !== 'PENDING' || r.signing_status !== 'NOT_SIGNED' || r.expiration_notified_at || !r.expires_at || new Date(r.expires_at) > now) return
      await tx.query('update recipients set expiration_notified_at = $2 where id = $1', [r.id, now])
      await tx.notify(CHANNELS.envelopes, e.id)
      await audit(tx, e, 'DOCUMENT_RECIPIENT_EXPIRED', { ...SYSTEM, name: r.name, email: r.email, recipientId: r.id }, { ...aboutRecipient(r), expiresAt: r.expires_at })
      await hooks.emit(tx, e, 'RECIPIENT_EXPIRED')
    })
}

/**
 * `reminder` jobs: reminds a recipient whose turn it still is (by e-mail: with e-mail to recipients
 * off, neither a message nor DOCUMENT_REMINDER_SENT) (nothing once they acted, or the
 * document completed, was cancelled or rejected, or their link expired), then schedules the next.
 */
export function reminderJob(db: Db, clock: Clock, hooks: DeadlineHooks) {
  return (job: Job) =>
    db.transaction(async (tx) => {
      const found = await lockRecipient(tx, Number(job.payload.recipientId))
      if (!found) return
      const { e, all, r } = found
      const now = clock.now()
      if (!mustAct(r) || signingState(e, all, r, now) !== 'READY') return
      // The reminder's job records its EMAIL_SENT once the message has left (mail/job.ts); the
      // event tells of a reminder on its way, so there is none when no message was queued.
      if (await hooks.remind(tx, e, r)) await hooks.emit(tx, e, 'DOCUMENT_REMINDER_SENT')
      const next = after(now, e.document_meta.reminderSettings?.repeatEvery)
      if (next) await enqueue(tx, { kind: 'reminder', payload: { recipientId: r.id }, runAt: next })
    })
}
