/** What a job is, and how one is added: a row of the jobs table, written in the caller's transaction (queue.ts runs them). */
import type { Queryable } from '../db/index.js'
import { currentRequestId } from '../log.js'

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
  /** The team it works for (payload.teamId, or its webhook's team), or null. */
  teamId: string | null
  /** What the kind's `prepare` loaded for it with the rest of its batch. */
  prepared?: unknown
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

/** Collects what an attempt leaves behind, written in the statement that records its end. */
export interface JobEnd {
  /** A row inserted with the attempt's end, whatever its outcome (ends.ts). */
  insert(table: string, row: Record<string, unknown>): void
}

export type JobHandler = ((job: Job, end: JobEnd) => Promise<void>) & {
  /** Loads what claimed jobs of this kind need, for a whole batch in one round trip: the value for each job id. */
  prepare?: (jobs: Job[]) => Promise<Map<string, unknown>>
  /** At most this many jobs of the kind held by one process, running or ready (heavy work); the rest are left to wait or to the others. */
  limit?: number
}
