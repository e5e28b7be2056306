/**
 * The one durable queue: jobs are rows of the service's own database, written in the transaction
 * of the change that causes them, claimed with `FOR UPDATE SKIP LOCKED` so several host processes
 * on one PostgreSQL never take the same job, and leased so that a job whose process died runs again.
 * Jobs sharing an `orderingKey` run one at a time in the order they were written.
 */
import { iso, type Db, type Queryable } from '../db/index.js'
import type { Clock } from './clock.js'
import { retryDelay, type RetryPolicy } from './retry.js'
import { GroupCommit } from '../db/group-commit.js'
import { currentRequestId, log, withRequestId } from '../log.js'

export const JOBS_CHANNEL = 'jobs'

export interface JobSpec {
  kind: string
  payload: Record<string, unknown>
  /** Not before this time (scheduled jobs); default now. */
  runAt?: Date | undefined
  /** Jobs with the same key run one after another, in order. */
  orderingKey?: string | undefined
}

export interface Job {
  id: string
  kind: string
  payload: Record<string, unknown>
  attempts: number
  orderingKey: string | null
  requestId: string | null
}

/** Adds a job inside the caller's transaction: it exists exactly when that transaction commits. */
export async function enqueue(tx: Queryable, job: JobSpec): Promise<void> {
  // The request that caused it (log.ts): its id goes into the logs of every attempt.
  await tx.query('insert into jobs (kind, payload, ordering_key, run_at, request_id) values ($1, $2, $3, coalesce($4, now()), $5)', [
    job.kind,
    JSON.stringify(job.payload),
    job.orderingKey ?? null,
    job.runAt ?? null,
    currentRequestId(),
  ])
  await tx.notify(JOBS_CHANNEL, job.kind)
}

export type JobHandler = (job: Job) => Promise<void>

export interface QueueOptions {
  /** Jobs one process runs at once. */
  concurrency: number
  /** How often to look for due jobs when nothing announced one (scheduled and retried jobs). */
  pollMs: number
  /** How long a claimed job is this process's; after that another process may run it again. */
  leaseMs: number
  retry: RetryPolicy
  clock: Clock
  /** Told how each attempt ended and how long it ran (metrics.ts). */
  onFinished?: (kind: string, outcome: 'done' | 'retry' | 'failed', seconds: number) => void
}

interface JobRow {
  id: string
  kind: string
  payload: Record<string, unknown>
  attempts: number
  ordering_key: string | null
  request_id: string | null
}

/** Up to $3 due jobs, one statement (no transaction around it): only the first of each order. */
const CLAIM = `
  update jobs set status = 'running', attempts = attempts + 1, locked_until = $2
  where id = any(array(
    select j.id from jobs j
    where ((j.status = 'pending' and j.run_at <= $1) or (j.status = 'running' and j.locked_until <= $1))
      and (j.ordering_key is null or not exists (
        select 1 from jobs e where e.ordering_key = j.ordering_key and e.id < j.id and e.status in ('pending', 'running')))
    order by j.run_at, j.id
    limit $3
    for update skip locked))
  returning id, kind, payload, attempts, ordering_key, request_id`

/** Every attempt in a batch that ended well, in one statement; only the holder of an attempt may record it. */
const FINISH = `
  update jobs j set status = 'done', finished_at = d.at, locked_until = null, last_error = null
  from unnest($1::bigint[], $2::int[], $3::timestamptz[]) as d(id, attempts, at)
  where j.id = d.id and j.attempts = d.attempts`

export class Queue {
  private running = false
  private readonly inFlight = new Set<Promise<void>>()
  private wake: (() => void) | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  private loop: Promise<void> | null = null
  /** Attempts that ended well, recorded together with the others ending meanwhile. */
  private readonly done = new GroupCommit<{ job: Job; at: Date }>(async (batch) => {
    await this.db.query(FINISH, [batch.map((f) => f.job.id), batch.map((f) => f.job.attempts), batch.map((f) => f.at.toISOString())])
    // The next job of each order may now run, perhaps in another process: wake them all.
    for (const kind of new Set(batch.filter((f) => f.job.orderingKey).map((f) => f.job.kind))) await this.db.notify(JOBS_CHANNEL, kind)
  })

  constructor(
    private readonly db: Db,
    private readonly handlers: Record<string, JobHandler>,
    private readonly options: QueueOptions,
  ) {
    db.listen(JOBS_CHANNEL, () => this.wake?.())
  }

  /** Whether it claims and runs jobs in the background (between start() and stop()). */
  get active(): boolean {
    return this.running
  }

  /** Runs jobs in the background until stop(). */
  start(): void {
    if (this.running) return
    this.running = true
    this.loop = this.run()
  }

  /** Stops claiming, and waits for the jobs under way. */
  async stop(): Promise<void> {
    this.running = false
    this.wake?.()
    await this.loop
    await Promise.all(this.inFlight)
  }

  /** Runs every job due now (by the clock), one at a time, until none is left; for tests and tools. */
  async drain(): Promise<number> {
    let n = 0
    for (let [job] = await this.claim(1); job; [job] = await this.claim(1)) {
      await this.execute(job)
      n++
    }
    return n
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = false
      while (this.running && this.inFlight.size < this.options.concurrency) {
        const jobs = await this.claim(this.options.concurrency - this.inFlight.size).catch((err: unknown) => {
          log.error({ err }, 'queue: claiming jobs failed')
          return []
        })
        if (!jobs.length) break
        claimed = true
        for (const job of jobs) {
          const p = this.execute(job)
            // Its end could not be recorded (the database is gone): the lease runs out and it runs again.
            .catch((err: unknown) => log.error({ err, job: job.id }, 'queue: recording the end of a job failed'))
            .finally(() => {
              this.inFlight.delete(p)
              this.wake?.()
            })
          this.inFlight.add(p)
        }
      }
      if (!this.running) break
      if (claimed && this.inFlight.size < this.options.concurrency) continue
      await new Promise<void>((resolve) => {
        this.wake = () => {
          this.wake = null
          clearTimeout(this.timer)
          resolve()
        }
        this.timer = setTimeout(() => this.wake?.(), this.options.pollMs)
      })
    }
  }

  private async claim(limit: number): Promise<Job[]> {
    const now = this.options.clock.now()
    const rows = await this.db.query<JobRow>(CLAIM, [now, new Date(now.getTime() + this.options.leaseMs), limit])
    return rows
      .map((row) => ({ id: String(row.id), kind: row.kind, payload: row.payload, attempts: row.attempts, orderingKey: row.ordering_key, requestId: row.request_id }))
      .sort((a, b) => Number(a.id) - Number(b.id))
  }

  /** Runs one claimed job and records how it ended; only the holder of this attempt may record it. */
  private execute(job: Job): Promise<void> {
    // In the context of the request that caused it: its logs, and the jobs it adds, carry its id.
    return withRequestId(job.requestId ?? `job-${job.id}`, () => this.attempt(job))
  }

  private async attempt(job: Job): Promise<void> {
    const handler = this.handlers[job.kind]
    const started = performance.now()
    let error: unknown = handler ? null : new Error(`no handler for jobs of kind ${job.kind}`)
    if (handler) {
      try {
        await handler(job)
      } catch (err) {
        error = err
      }
    }
    const now = this.options.clock.now()
    const final = job.attempts >= this.options.retry.maxAttempts
    const outcome = error === null ? 'done' : final ? 'failed' : 'retry'
    const seconds = (performance.now() - started) / 1000
    this.options.onFinished?.(job.kind, outcome, seconds)
    const message = error === null ? undefined : error instanceof Error ? error.message : String(error)
    log[outcome === 'done' ? 'info' : outcome === 'retry' ? 'warn' : 'error'](
      { job: job.id, kind: job.kind, attempt: job.attempts, outcome, ms: Math.round(seconds * 1000), ...(message && { error: message.slice(0, 500) }) },
      'job',
    )
    if (message === undefined) return this.done.add({ job, at: now })
    await this.db.query(
      `update jobs set status = $3, run_at = $4, locked_until = null, last_error = $5, finished_at = $6
       where id = $1 and attempts = $2`,
      [
        job.id,
        job.attempts,
        final ? 'failed' : 'pending',
        new Date(now.getTime() + (final ? 0 : retryDelay(this.options.retry, job.attempts))),
        message.slice(0, 2000),
        final ? now : null,
      ],
    )
  }
}

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
