/**
 * Retention (docs/operations.md, "Retention and purge"): a team with `retention_days` keeps each
 * finished envelope (completed, rejected, cancelled) that many days after it finished, then the
 * envelope is purged: its files (originals, sealed PDFs, stored e-mails that attach them, link
 * attachments) go, its personal data is redacted (recipients' names and e-mails, field values,
 * the audit entries' personal values, which keep their salted hashes so the chain still holds),
 * and so is every copy of it written elsewhere (purge-copies.ts: the webhook delivery log, job
 * rows, stored e-mails, events, codes, failure and rate-limit counts). A last audit entry,
 * DOCUMENT_PURGED, records what went and how many of each.
 * The envelope stays, marked `purged_at`, with its metadata; its downloads answer 410.
 * One transaction per envelope: a purge cut short leaves each envelope whole or purged, and the
 * next run takes up the rest.
 */
import { CHANNELS } from '../../cache.js'
import { iso, type Db, type Queryable } from '../../db/index.js'
import { ApiError } from '../../errors.js'
import { audit, type Actor } from '../evidence/audit.js'
import { dropFilesOf, type ItemFileIds } from '../item/files.js'
import type { Principal } from '../../auth/principal.js'
import { teamPrincipal } from '../envelope/emit.js'
import { assertMayEnd } from '../envelope/ownership.js'
import type { EnvelopeRow } from '../common/rows.js'
import { purgeCopies, type PurgedCopies } from './purge-copies.js'

export const FINISHED_STATUSES = ['COMPLETED', 'REJECTED', 'CANCELLED'] as const

/** What an audit entry's `data` becomes when it is redacted (migration 025 lets exactly this through). */
export const REDACTED_DATA = { redacted: true } as const

export const MIN_RETENTION_DAYS = 1
export const MAX_RETENTION_DAYS = 36500

const DAY_MS = 24 * 3600_000

/** The purge acts for no one: its audit entry names no person and no address. */
const RETENTION: Actor = { name: null, email: null, recipientId: null, tokenId: null, ipAddress: null, userAgent: null }

/**
 * When an envelope finished: completed_at, else the rejection or cancellation as its audit log
 * records it, else its last update.
 */
const FINISHED_AT = `coalesce(e.completed_at,
  (select max(a.created_at) from audit_logs a where a.envelope_id = e.id and a.type in ('DOCUMENT_RECIPIENT_REJECTED', 'DOCUMENT_CANCELLED')),
  e.updated_at)`

/** Finished, unpurged envelopes of teams that have a retention, with when they finished and are due. */
const CANDIDATES = `select e.id, e.team_id, e.status, e.title, ${FINISHED_AT} as finished_at, t.retention_days
  from envelopes e join teams t on t.id = e.team_id
  where t.retention_days is not null and e.purged_at is null and e.type = 'DOCUMENT'
    and e.status in ('COMPLETED', 'REJECTED', 'CANCELLED')`

export interface DueEnvelope {
  envelopeId: string
  teamId: string
  status: string
  title: string
  finishedAt: string
  /** When it is (or was) due for purging: finishedAt plus the team's retention. */
  dueAt: string
}

interface CandidateRow {
  id: string
  team_id: string
  status: string
  title: string
  finished_at: Date | string
  retention_days: number
}

const dueAtOf = (r: CandidateRow): Date => new Date(new Date(r.finished_at).getTime() + r.retention_days * DAY_MS)

/** The envelopes due by `before` (all of a team's with `teamId`), soonest first. */
export async function retentionDue(db: Queryable, o: { before: Date; teamId?: string | undefined; limit?: number }): Promise<DueEnvelope[]> {
  const rows = await db.query<CandidateRow>(
    `select * from (${CANDIDATES} and ($1::text is null or e.team_id = $1)) c
     where c.finished_at + c.retention_days * interval '1 day' <= $2
     order by c.finished_at + c.retention_days * interval '1 day', c.id limit $3`,
    [o.teamId ?? null, o.before, o.limit ?? 10_000],
  )
  return rows.map((r) => ({ envelopeId: r.id, teamId: r.team_id, status: r.status, title: r.title, finishedAt: iso(r.finished_at)!, dueAt: dueAtOf(r).toISOString() }))
}

/** What the console's team settings show: how many envelopes fall due within 7 days, and the next purge. */
export interface RetentionOutlook {
  dueWithin7Days: number
  /** When the next envelope is purged: when it falls due, or the next run of the purge when already due. */
  nextPurgeAt: string | null
}

export async function retentionOutlook(db: Queryable, teamId: string, now: Date): Promise<RetentionOutlook> {
  const [row] = await db.query<{ n: number; first: Date | string | null }>(
    `select count(*) filter (where c.finished_at + c.retention_days * interval '1 day' <= $2)::int as n,
       min(c.finished_at + c.retention_days * interval '1 day') as first
     from (${CANDIDATES} and e.team_id = $1) c`,
    [teamId, new Date(now.getTime() + 7 * DAY_MS)],
  )
  if (!row?.first) return { dueWithin7Days: row?.n ?? 0, nextPurgeAt: null }
  let next = new Date(row.first)
  if (next <= now) {
    // Already due: the periodic job takes it on its next run.
    const [job] = await db.query<{ run_at: Date | string }>(`select min(run_at) as run_at from jobs where kind = 'maintenance' and status in ('pending', 'running')`)
    next = job?.run_at ? new Date(Math.max(now.getTime(), new Date(job.run_at).getTime())) : now
  }
  return { dueWithin7Days: row.n, nextPurgeAt: next.toISOString() }
}

export interface PurgedEnvelope {
  envelopeId: string
  teamId: string
  purgedAt: string
  /** Stored files removed (a file another envelope of the team shares stays). */
  files: number
  /** Audit entries redacted. */
  auditEntries: number
  /** The copies removed or redacted elsewhere, by kind (purge-copies.ts). */
  copies: PurgedCopies
}

/**
 * Purges one envelope if it is still due at `now` and not purged yet (else answers null): all in
 * the caller's transaction, which must be one for this envelope alone.
 */
export async function purgeEnvelope(tx: Queryable, envelopeId: string, now: Date, by?: Principal): Promise<PurgedEnvelope | null> {
  const [e] = await tx.query<CandidateRow>(
    `select c.* from (${CANDIDATES} and e.id = $1) c where c.finished_at + c.retention_days * interval '1 day' <= $2`,
    [envelopeId, now],
  )
  if (!e) return null
  // Taken by this transaction: a second purge of the same envelope waits, then finds it purged.
  const [locked] = await tx.query<Pick<EnvelopeRow, 'created_by' | 'type'>>('select created_by, type from envelopes where id = $1 and purged_at is null for update', [envelopeId])
  if (!locked) return null
  // Purging ends it for good: the one ending check, for the team (its ADMIN set the retention) unless someone narrower asks.
  assertMayEnd(by ?? teamPrincipal(e.team_id), locked, 'purge')
  await tx.query('update envelopes set purged_at = $2 where id = $1', [envelopeId, now])

  // Files: each item lets go of its original and sealed file (their hashes stay on the item); a
  // stored e-mail that attached one goes first; a file nothing else names then goes (its object,
  // with an object store, at the next sweep).
  const items = await tx.query<ItemFileIds & { id: string }>(
    `update envelope_items i set document_data_id = null, signed_document_data_id = null,
       purged_sha256 = coalesce(i.purged_sha256, (select d.sha256 from document_data d where d.id = i.document_data_id)),
       purged_sealed_sha256 = coalesce(i.purged_sealed_sha256, (select s.sha256 from document_data s where s.id = i.signed_document_data_id))
     from envelope_items o where o.id = i.id and i.envelope_id = $1
     returning i.id, o.document_data_id, o.signed_document_data_id`,
    [envelopeId],
  )
  // Every copy written elsewhere, the stored e-mails that attach its files among them, goes first.
  const copies = await purgeCopies(tx, { id: envelopeId, title: e.title }, now)
  const before = await tx.query<{ n: number }>('select count(*)::int as n from document_data where team_id = $1', [e.team_id])
  // The sealed files an archive renewal replaced (docs/sealing.md) go too; the renewals keep their hashes.
  const renewed = await tx.query<{ id: string }>(
    'select r.old_document_data_id as id from archive_renewals r join envelope_items i on i.id = r.item_id where i.envelope_id = $1',
    [envelopeId],
  )
  await dropFilesOf(tx, [
    ...items.filter((i) => i.document_data_id).map((i) => ({ document_data_id: i.document_data_id!, signed_document_data_id: i.signed_document_data_id })),
    ...renewed.map((r) => ({ document_data_id: r.id, signed_document_data_id: null })),
  ])
  const after = await tx.query<{ n: number }>('select count(*)::int as n from document_data where team_id = $1', [e.team_id])
  await tx.query('delete from attachments where envelope_id = $1', [envelopeId])

  // Personal data.
  await tx.query(`update recipients set name = '', email = '', rejection_reason = null where envelope_id = $1`, [envelopeId])
  await tx.query('update fields set custom_text = null where envelope_id = $1 and custom_text is not null', [envelopeId])
  const redacted = await tx.query(
    `update audit_logs set name = null, email = null, ip_address = null, user_agent = null,
       data = case when data = '{}'::jsonb then data else $2::jsonb end
     where envelope_id = $1
       and (name is not null or email is not null or ip_address is not null or user_agent is not null or data not in ('{}'::jsonb, $2::jsonb))
     returning 1`,
    [envelopeId, JSON.stringify(REDACTED_DATA)],
  )
  const files = (before[0]?.n ?? 0) - (after[0]?.n ?? 0)
  // Written after the redaction, so it keeps its counts (they name no one).
  await audit(tx, { id: envelopeId, team_id: e.team_id }, 'DOCUMENT_PURGED', RETENTION, {
    purgedAt: now.toISOString(),
    files,
    auditEntriesRedacted: redacted.length,
    redacted: ['recipients', 'fields', 'audit_logs', ...Object.keys(copies)],
    ...copies,
  })
  await tx.notify(CHANNELS.envelopes, envelopeId)
  return { envelopeId, teamId: e.team_id, purgedAt: now.toISOString(), files, auditEntries: redacted.length, copies }
}

/** Purges every envelope due at `now` (a team's only, with `teamId`), one transaction each. */
export async function purgeDue(db: Db, now: Date, teamId?: string): Promise<PurgedEnvelope[]> {
  const done: PurgedEnvelope[] = []
  for (;;) {
    const due = await retentionDue(db, { before: now, teamId, limit: 100 })
    let progressed = false
    for (const d of due) {
      const purged = await db.transaction((tx) => purgeEnvelope(tx, d.envelopeId, now))
      if (purged) {
        done.push(purged)
        progressed = true
      }
    }
    // Another process purging the same envelopes meanwhile: what is left is theirs.
    if (due.length < 100 || !progressed) return done
  }
}

/** 410 DOCUMENT_PURGED once the envelope was purged: its files (and what is made of them) are gone. */
export async function assertNotPurged(db: Queryable, envelopeId: string): Promise<void> {
  const [row] = await db.query('select 1 from envelopes where id = $1 and purged_at is not null', [envelopeId])
  if (row) throw documentPurged()
}

export const documentPurged = (): ApiError => new ApiError(410, 'DOCUMENT_PURGED', "the document's files were deleted at the end of its team's retention")
