/**
 * The archive renewal job: one at a time across every process (it reschedules itself), it gives
 * each sealed B-LTA file whose last timestamp is due (domain/evidence/archive-renewal.ts) a new document
 * timestamp. Its settings: ARCHIVE_RENEW_DAYS, ARCHIVE_RETIRED_DIGESTS, ARCHIVE_RENEW_EVERY_HOURS.
 */
import type { ArchiveRenewal } from '../config.js'
import type { Db, Queryable } from '../db/index.js'
import { renewDueArchives } from '../domain/evidence/archive-renewal.js'
import type { Clock } from './clock.js'
import { enqueue, type JobHandler } from './queue.js'

export const RENEW_ARCHIVES_JOB = 'renew-archives'

/** When a pass ran out of time with files still due, the next one starts this soon. */
const AGAIN_MS = 60_000

export interface RenewArchivesSettings {
  archive: ArchiveRenewal
  /** The timestamp servers the seals use (SEALING_TSA_URLS): without any, nothing is renewed. */
  tsaUrls: string[]
  timeoutMs?: number
  /** How long one pass may work: well within the queue's lease, so no other process takes the job over meanwhile. */
  budgetMs: number
}

export function renewArchivesJob(db: Db, clock: Clock, s: RenewArchivesSettings): JobHandler {
  return async () => {
    const { more } = await renewDueArchives(db, clock.now(), s.archive, { tsaUrls: s.tsaUrls, timeoutMs: s.timeoutMs }, s.budgetMs)
    await db.transaction((tx) => schedule(tx, new Date(clock.now().getTime() + (more ? AGAIN_MS : s.archive.everyMs))))
  }
}

/** Makes sure one renewal job is pending (the first process to start on a database adds it, due after one period). */
export async function scheduleArchiveRenewal(db: Db, clock: Clock, archive: ArchiveRenewal): Promise<void> {
  await db.transaction((tx) => schedule(tx, new Date(clock.now().getTime() + archive.everyMs)))
}

/** One pending pass at most, whichever processes schedule one. */
async function schedule(tx: Queryable, runAt: Date): Promise<void> {
  await tx.query('select pg_advisory_xact_lock(7310453)')
  const [pending] = await tx.query(`select 1 from jobs where kind = $1 and status = 'pending' limit 1`, [RENEW_ARCHIVES_JOB])
  if (!pending) await enqueue(tx, { kind: RENEW_ARCHIVES_JOB, payload: {}, runAt })
}
