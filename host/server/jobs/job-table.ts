/**
 * The jobs table as operators, metrics and start-up see it, outside the queue's own runs: counts,
 * retries of failed jobs, and the jobs a stopped process left running.
 */
import { iso, type Db, type Queryable } from '../db/index.js'
import { JOBS_CHANNEL } from './enqueue.js'

/** Pending, running and failed jobs, for operators (`host jobs`). */
export async function jobSummary(db: Queryable) {
  const rows = await db.query<{ kind: string; status: string; count: number; next: Date | null }>(
    `select kind, status, count(*)::int as count, min(run_at) as next from jobs group by kind, status order by kind, status`,
  )
  return rows.map((r) => ({ kind: r.kind, status: r.status, count: r.count, next: iso(r.next) }))
}

/** Gives failed jobs (of one kind, or all) a fresh set of attempts, due now; answers how many. */
export async function retryFailed(db: Db, kind?: string): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      `update jobs set status = 'pending', attempts = 0, run_at = now(), finished_at = null
       where status = 'failed' and ($1::text is null or kind = $1) returning id`,
      [kind ?? null],
    )
    if (rows.length) await tx.notify(JOBS_CHANNEL, kind ?? 'retry')
    return rows.length
  })
}

/** Jobs due or running, and failed ones: what the landing page tells of the queue's health. */
export async function jobBacklog(db: Queryable): Promise<{ waiting: number; failed: number }> {
  const rows = await db.query<{ status: string; n: string | number }>(
    `select status, count(*) as n from jobs where status in ('running', 'failed') or (status = 'pending' and run_at <= now()) group by status`,
  )
  const n = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0)
  return { waiting: n('pending') + n('running'), failed: n('failed') }
}

/** Due or running jobs of each kind, and how long the oldest due one has waited (seconds). */
export function waitingJobs(db: Queryable): Promise<{ kind: string; count: number; oldest: number }[]> {
  return db.query<{ kind: string; count: number; oldest: number }>(
    `select kind, count(*)::int as count,
       coalesce(extract(epoch from (now() - min(run_at) filter (where run_at <= now()))), 0)::float8 as oldest
     from jobs where status in ('pending', 'running') group by kind`,
  )
}

/** Jobs left running by a process that stopped, due again (the database is this process's alone). */
export async function requeueRunning(db: Queryable): Promise<void> {
  await db.query(`update jobs set status = 'pending', locked_until = null where status = 'running'`)
}
