/**
 * The archive renewal job: one at a time across every process (it reschedules itself), it gives
 * each sealed B-LTA file whose last timestamp is due (domain/archive-renewal.ts) a new document
 * timestamp. Its settings: ARCHIVE_RENEW_DAYS, ARCHIVE_RETIRED_DIGESTS, ARCHIVE_RENEW_EVERY_HOURS.
 */
import type { ArchiveRenewal } from '../config.js'
import type { Db } from '../db/index.js'
import { renewDueArchives } from '../domain/archive-renewal.js'
import type { Clock } from './clock.js'
import { enqueue, type JobHandler } from './queue.js'

export const RENEW_ARCHIVES_JOB = 'renew-archives'

export interface RenewArchivesSettings {
  archive: ArchiveRenewal
  /** The timestamp servers the seals use (SEALING_TSA_URLS): without any, nothing is renewed. */
  tsaUrls: string[]
  timeoutMs?: number
}

export function renewArchivesJob(db: Db, clock: Clock, s: RenewArchivesSettings): JobHandler {
  return async () => {
    await renewDueArchives(db, clock.now(), s.archive, { tsaUrls: s.tsaUrls, timeoutMs: s.timeoutMs })
    await db.transaction(async (tx) => enqueue(tx, { kind: RENEW_ARCHIVES_JOB, payload: {}, runAt: new Date(clock.now().getTime() + s.archive.everyMs) }))
  }
}

/** Makes sure one renewal job is pending (the first process to start on a database adds it, due after one period). */
export async function scheduleArchiveRenewal(db: Db, clock: Clock, archive: ArchiveRenewal): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(7310453)')
    const [pending] = await tx.query(`select 1 from jobs where kind = $1 and status in ('pending', 'running') limit 1`, [RENEW_ARCHIVES_JOB])
    if (!pending) await enqueue(tx, { kind: RENEW_ARCHIVES_JOB, payload: {}, runAt: new Date(clock.now().getTime() + archive.everyMs) })
  })
}
