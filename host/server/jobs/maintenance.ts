/**
 * The housekeeping job: one at a time across every process (it reschedules itself), it removes
 * finished jobs and webhook calls past their retention, purges the envelopes past their team's
 * retention (domain/retention/retention.ts) and sweeps objects no file names.
 */
import type { Db } from '../db/index.js'
import type { Retention } from '../config.js'
import type { FileStore } from '../storage/file-store.js'
import { purgeDue } from '../domain/retention/retention.js'
import { sweepFiles } from '../storage/sweep.js'
import type { Clock } from './clock.js'
import { enqueue, type JobHandler } from './queue.js'

export const MAINTENANCE_JOB = 'maintenance'

const DAY = 24 * 3600_000

export interface MaintenanceResult {
  jobs: number
  webhookCalls: number
  files: number
  /** Envelopes purged at the end of their team's retention. */
  purged: number
}

/** One pass; answers what it removed. */
export async function maintain(db: Db, files: FileStore | null, now: Date, r: Retention): Promise<MaintenanceResult> {
  const ago = (ms: number) => new Date(now.getTime() - ms)
  const jobs = await db.query(`delete from jobs where status = 'done' and finished_at < $1 returning 1`, [ago(r.jobsDays * DAY)])
  const calls = await db.query('delete from webhook_calls where created_at < $1 returning 1', [ago(r.webhookCallsDays * DAY)])
  // Before the sweep, so the objects of the files a purge removed go in the same pass.
  const purged = await purgeDue(db, now)
  const swept = files ? await sweepFiles(db, files, ago(r.filesHours * 3600_000)) : 0
  return { jobs: jobs.length, webhookCalls: calls.length, files: swept, purged: purged.length }
}

export function maintenanceJob(db: Db, clock: Clock, r: Retention): JobHandler {
  return async () => {
    await maintain(db, db.files, clock.now(), r)
    await db.transaction(async (tx) => enqueue(tx, { kind: MAINTENANCE_JOB, payload: {}, runAt: new Date(clock.now().getTime() + r.everyMs) }))
  }
}

/** Makes sure one maintenance job is pending (the first process to start on a database adds it). */
export async function scheduleMaintenance(db: Db, clock: Clock, r: Retention): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(7310452)')
    const [pending] = await tx.query(`select 1 from jobs where kind = $1 and status in ('pending', 'running') limit 1`, [MAINTENANCE_JOB])
    if (!pending) await enqueue(tx, { kind: MAINTENANCE_JOB, payload: {}, runAt: new Date(clock.now().getTime() + r.everyMs) })
  })
}
