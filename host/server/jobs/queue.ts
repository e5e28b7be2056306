/**
 * The one durable queue: jobs are rows of the service's own database, written in the transaction
 * of the change that causes them, claimed with `FOR UPDATE SKIP LOCKED` so several host processes
 * on one PostgreSQL never take the same job, and leased so that a job whose process died runs again.
 * Jobs sharing an `orderingKey` run one at a time in the order they were written.
 *
 * Slots are shared fairly: a team's jobs (its payload's teamId, or its webhook's team) hold at most
 * half of a process's slots, and claims take the teams in turns; the kinds of the `lane` (e-mail)
 * have a quarter of the slots to themselves, so no team's slow webhooks hold up anyone's e-mail.
 */
import { channelName, statement, type Db } from '../db/index.js'
import type { Clock } from './clock.js'
import { retryDelay, type RetryPolicy } from './retry.js'
import { GroupCommit } from '../db/group-commit.js'
import { endStatement, type AttemptEnd } from './ends.js'
import { log, withRequestId } from '../log.js'
import { JOBS_CHANNEL, type Job, type JobHandler } from './enqueue.js'

export { enqueue, JOBS_CHANNEL, type Job, type JobEnd, type JobHandler, type JobSpec } from './enqueue.js'

export interface QueueOptions {
  /** Jobs one process runs at once; it holds more claimed and ready (AHEAD_MS, FOLLOW). */
  concurrency: number
  /** How often to look for due jobs when nothing announced one (scheduled and retried jobs). */
  pollMs: number
  /** How long a claimed job is this process's; after that another process may run it again. */
  leaseMs: number
  retry: RetryPolicy
  clock: Clock
  /** Told how each attempt ended and how long it ran (metrics.ts). */
  onFinished?: (kind: string, outcome: 'done' | 'retry' | 'failed', seconds: number) => void
  /** Kinds with slots of their own (e-mail): the other kinds together hold at most the rest (laneSlots). */
  lane?: string[]
  /** Orders one team may hold at once outside the lane; default teamShare(concurrency), half. */
  teamShare?: number
}

/** Of `concurrency` slots, those only the lane's kinds may use: a quarter (none with fewer than 2 slots). */
export const laneSlots = (concurrency: number): number => (concurrency < 2 ? 0 : Math.max(1, Math.floor(concurrency / 4)))
/** Of `concurrency` slots, the orders one team may hold at once: half. */
export const teamShare = (concurrency: number): number => Math.max(1, Math.ceil(concurrency / 2))

interface JobRow {
  id: string
  kind: string
  payload: Record<string, unknown>
  attempts: number
  ordering_key: string | null
  request_id: string | null
  team_id: string | null
}

/**
 * Up to $3 due jobs, only the first of each order, each ordered one with up to $4 of those that come
 * next in its order, none of the kinds in $5, and outside the kinds of $8 none of the teams in $6 and
 * at most $7 orders of one team, teams taken in turns (claim_jobs, migration 21), in one statement with no
 * transaction around it. Its commit does not wait for the disk: a claim lost with the database
 * server leaves its job pending, to run again as a lapsed lease would, and the end that follows is
 * durable only with everything written before it (1.6-1.7 ms a claim in bench/delivery.ts, against
 * 1.9-2.0 ms waiting for the disk). The setting is made in a CTE that the claim refers to, as one
 * left unreferenced would not run.
 */
const CLAIM = statement(`
  with quick as (select set_config('synchronous_commit', 'off', true))
  select id, kind, payload, attempts, ordering_key, request_id, job_team(payload) as team_id
  from claim_jobs($1, $2, $3, $4, $5, $6, $7, $8) where exists (select from quick)`)

/**
 * With each ordered job it claims, a process takes up to this many that come next in its order and
 * runs them one after another: an order's jobs do not wait for a claim each.
 */
const FOLLOW = 7

/** While other jobs run, an end waits this long for theirs, to be written with them. */
const LINGER_MS = 3
/**
 * A process holds ready, beyond its free slots, what its slots finish in about this long (at most
 * three rounds of them): many short jobs are claimed in batches, slow ones are left to the other
 * processes rather than waiting here.
 */
const AHEAD_MS = 200

/** The order a job belongs to: its ordering key, or the job alone. */
const orderOf = (job: Job): string => job.orderingKey ?? job.id

/** A claimed job waiting for a slot, and when it was claimed (performance.now()). */
interface Ready {
  job: Job
  claimedAt: number
}

/**
 * Runs jobs in `concurrency` slots. It claims ahead, in batches, so that a slot that frees takes
 * its next job at once and short jobs cost a fraction of a claim each; an order's jobs claimed
 * together run one after another, each after the one before it ended for good. It claims only when
 * the table may hold more (something was announced, or the poll is due). Attempts end through one
 * group commit: the ends and what the handlers left behind, one statement per batch.
 */
export class Queue {
  private running = false
  private readonly ready: Ready[] = []
  private readonly inFlight = new Set<Promise<void>>()
  /** The orders of the jobs in flight: their next jobs wait until they end. */
  private readonly busy = new Set<string>()
  /** Jobs in flight by kind, for the kinds with a limit. */
  private readonly runningKinds = new Map<string, number>()
  /** Jobs in flight (their orders and teams count against the shares). */
  private readonly runningJobs = new Set<Job>()
  /** The lane's kinds, the orders the other kinds may hold together, the orders of one team. */
  private readonly lane: Set<string>
  private readonly othersCap: number
  private readonly teamCap: number
  /** What the last claim skipped: one of them ending may let the claims take more. */
  private skipped = { kinds: new Set<string>(), teams: new Set<string>() }
  /** False after a claim found fewer jobs than it asked for, until something is announced. */
  private more = true
  /** Announcements heard, so that one arriving during a claim is not lost. */
  private heard = 0
  private wake: (() => void) | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  private loop: Promise<void> | null = null
  private claiming: Promise<void> | null = null
  /** How long attempts take, a moving average; at first, no more than one round is held ahead. */
  private averageMs = AHEAD_MS
  /** How long a claim takes with its batch load, a moving average. */
  private claimMs = 1
  private readonly ends = new GroupCommit<AttemptEnd>(
    async (batch) => {
      let announced = 0
      try {
        announced = await this.record(batch)
      } catch (err) {
        if (batch.length === 1) throw err
        // One end the database refuses must not hold back the others: each alone, failures logged
        // (such a job stays this process's until its lease runs out, then runs again).
        for (const end of batch) {
          announced += await this.record([end]).catch((e: unknown) => (log.error({ err: e, job: end.id }, 'queue: recording the end of a job failed'), 0))
        }
      }
      // The next job of an order may now run here too; a job given back may be claimed again.
      if (announced || batch.some((e) => e.released)) this.announce()
    },
    // The ending job is still in flight when its end is added: others run when there are two.
    () => (this.inFlight.size > 1 ? LINGER_MS : 0),
  )

  constructor(
    private readonly db: Db,
    private readonly handlers: Record<string, JobHandler>,
    private readonly options: QueueOptions,
  ) {
    this.lane = new Set(options.lane ?? [])
    this.othersCap = this.lane.size ? options.concurrency - laneSlots(options.concurrency) : Infinity
    this.teamCap = options.teamShare ?? teamShare(options.concurrency)
    db.listen(JOBS_CHANNEL, () => this.announce())
  }

  /** Writes ends in one statement; answers how many kinds it announced. */
  private async record(ends: AttemptEnd[]): Promise<number> {
    const { statement, params } = endStatement(ends, channelName(JOBS_CHANNEL))
    return (await this.db.query(statement, params)).length
  }

  private announce(): void {
    this.more = true
    this.heard++
    this.wake?.()
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

  /** Stops claiming, gives back the jobs claimed but not started, and waits for those under way and every end to be recorded. */
  async stop(): Promise<void> {
    this.running = false
    this.wake?.()
    await this.loop
    await this.claiming
    for (const { job } of this.ready.splice(0)) void this.release(job)
    await Promise.all(this.inFlight)
    await this.ends.settled()
  }

  /** Runs every job due now (by the clock), one at a time, until none is left; for tests and tools. */
  async drain(): Promise<number> {
    let n = 0
    for (let [job] = await this.claim(1, 0); job; [job] = await this.claim(1, 0)) {
      await this.execute(job)
      n++
    }
    return n
  }

  private async run(): Promise<void> {
    const { concurrency, leaseMs } = this.options
    while (this.running) {
      for (let i = this.startable(); i >= 0 && this.inFlight.size < concurrency; i = this.startable()) {
        const { job, claimedAt } = this.ready.splice(i, 1)[0]!
        // Held so long its lease may soon run out (slow jobs ahead of it): another process may take it.
        if (performance.now() - claimedAt > leaseMs / 2) this.giveBack(job)
        else this.begin(job)
      }
      // Orders claimed and ready to start (those running here go on by themselves): refilled while
      // jobs run, before the slots use up what is left in the time a claim takes.
      const orders = new Set(this.ready.map(({ job }) => orderOf(job)).filter((key) => !this.busy.has(key))).size
      const free = concurrency - this.inFlight.size
      // Held ahead: what the slots finish in AHEAD_MS, in orders that bring the jobs next in them
      // (fewer orders taken, more left to the other processes).
      const ahead = Math.ceil(Math.min(3 * concurrency, Math.floor((concurrency * AHEAD_MS) / this.averageMs)) / (1 + FOLLOW))
      const hold = Math.max(free, ahead)
      const meanwhile = Math.ceil((concurrency * this.claimMs) / this.averageMs)
      if (this.more && !this.claiming && orders < Math.min(hold, free + meanwhile)) {
        this.claiming = this.refill(hold - orders).finally(() => {
          this.claiming = null
          this.wake?.()
        })
      }
      await new Promise<void>((resolve) => {
        this.wake = () => {
          this.wake = null
          clearTimeout(this.timer)
          resolve()
        }
        // Scheduled and retried jobs fall due without an announcement.
        this.timer = setTimeout(() => this.announce(), this.options.pollMs)
      })
    }
  }

  private async refill(want: number): Promise<void> {
    const heard = this.heard
    const started = performance.now()
    try {
      const kinds = this.kindsAtLimit()
      const teams = this.teamsAtShare()
      this.skipped = { kinds: new Set(kinds), teams: new Set(teams) }
      const jobs = this.withinLimits(await this.claim(want, FOLLOW, kinds, teams))
      this.claimMs += (performance.now() - started - this.claimMs) / 8
      if (new Set(jobs.map(orderOf)).size < want && heard === this.heard) this.more = false
      const claimedAt = performance.now()
      for (const job of jobs) this.ready.push({ job, claimedAt })
    } catch (err) {
      log.error({ err }, 'queue: claiming jobs failed')
      this.more = false
    }
  }

  /** Where in `ready` the next job that may start now is: the first of an order not running here. */
  private startable(): number {
    const passed = new Set<string>()
    for (let i = 0; i < this.ready.length; i++) {
      const key = this.ready[i]!.job.orderingKey
      if (key === null || (!this.busy.has(key) && !passed.has(key))) return i
      passed.add(key)
    }
    return -1
  }

  private begin(job: Job): void {
    const key = job.orderingKey
    const limited = this.handlers[job.kind]?.limit !== undefined
    if (key !== null) this.busy.add(key)
    if (limited) this.runningKinds.set(job.kind, (this.runningKinds.get(job.kind) ?? 0) + 1)
    this.runningJobs.add(job)
    const p = this.execute(job, false).finally(() => {
      if (key !== null) this.busy.delete(key)
      this.runningJobs.delete(job)
      if (limited) this.runningKinds.set(job.kind, this.runningKinds.get(job.kind)! - 1)
      // Those of its kind or team that the claims left may now be taken.
      const team = this.shareOf(job)
      if (this.skipped.kinds.has(job.kind) || (team !== null && this.skipped.teams.has(team))) this.more = true
      this.inFlight.delete(p)
      this.wake?.()
    })
    this.inFlight.add(p)
  }

  /** How many of a kind this process holds, running or ready. */
  private held(kind: string): number {
    return (this.runningKinds.get(kind) ?? 0) + this.ready.filter(({ job }) => job.kind === kind).length
  }

  /** How many orders this process holds, running or ready, of the jobs that `match`. */
  private ordersHeld(match: (job: Job) => boolean): number {
    const orders = new Set<string>()
    for (const job of this.runningJobs) if (match(job)) orders.add(orderOf(job))
    for (const { job } of this.ready) if (match(job)) orders.add(orderOf(job))
    return orders.size
  }

  private readonly outsideLane = (job: Job) => !this.lane.has(job.kind)

  /**
   * The kinds the claim takes none of: those of which this process holds as many as their limit,
   * and every kind outside the lane once they hold the slots that are not the lane's.
   */
  private kindsAtLimit(): string[] {
    const othersFull = this.ordersHeld(this.outsideLane) >= this.othersCap
    return Object.entries(this.handlers)
      .filter(([kind, h]) => (h.limit !== undefined && this.held(kind) >= h.limit) || (othersFull && !this.lane.has(kind)))
      .map(([kind]) => kind)
  }

  /** The team whose share a job counts against: none for the lane's kinds, which have slots of their own. */
  private shareOf(job: Job): string | null {
    return this.lane.has(job.kind) ? null : job.teamId
  }

  /** The teams that hold their share of this process's slots: the claim takes none of their jobs outside the lane. */
  private teamsAtShare(): string[] {
    const orders = new Map<string, Set<string>>()
    for (const job of [...this.runningJobs, ...this.ready.map((r) => r.job)]) {
      const team = this.shareOf(job)
      if (team !== null) orders.set(team, (orders.get(team) ?? new Set()).add(orderOf(job)))
    }
    return [...orders].filter(([, held]) => held.size >= this.teamCap).map(([team]) => team)
  }

  /**
   * What a claim brought beyond a kind's limit, the slots outside the lane or a team's share (one
   * claim may bring several) goes back at once, each order whole: none of its jobs may run before
   * its first.
   */
  private withinLimits(jobs: Job[]): Job[] {
    const room = new Map<string, number>()
    const kept = new Set<string>()
    const dropped = new Set<string>()
    return jobs.filter((job) => {
      const order = orderOf(job)
      if (kept.has(order)) return true
      if (!dropped.has(order)) {
        const limit = this.handlers[job.kind]?.limit
        const bounds: [string, () => number][] = []
        if (limit !== undefined) bounds.push([`kind ${job.kind}`, () => limit - this.held(job.kind)])
        if (this.outsideLane(job)) bounds.push(['others', () => this.othersCap - this.ordersHeld(this.outsideLane)])
        const team = this.shareOf(job)
        if (team !== null) bounds.push([`team ${team}`, () => this.teamCap - this.ordersHeld((j) => this.shareOf(j) === team)])
        const left = bounds.map(([key, initial]) => [key, room.get(key) ?? initial()] as const)
        if (left.every(([, n]) => n > 0)) {
          for (const [key, n] of left) room.set(key, n - 1)
          kept.add(order)
          return true
        }
        dropped.add(order)
      }
      void this.release(job)
      return false
    })
  }

  /** Gives back a held job and those after it in its order: none may run before it does. */
  private giveBack(job: Job): void {
    void this.release(job)
    if (job.orderingKey !== null) this.giveBackOrder(job.orderingKey)
  }

  private giveBackOrder(key: string): void {
    for (let i = this.ready.length - 1; i >= 0; i--) if (this.ready[i]!.job.orderingKey === key) void this.release(this.ready.splice(i, 1)[0]!.job)
  }

  /**
   * Up to `limit` due jobs, first of their orders, each ordered one with up to `follow` that come
   * next in its order; none of the kinds in `skip` nor of the teams in `skipTeams`, and no more
   * orders of one team than its share.
   */
  private async claim(limit: number, follow: number, skip: string[] = [], skipTeams: string[] = []): Promise<Job[]> {
    const now = this.options.clock.now()
    const lease = new Date(now.getTime() + this.options.leaseMs)
    const rows = await this.db.query<JobRow>(CLAIM, [now, lease, limit, follow, skip, skipTeams, this.teamCap, [...this.lane]])
    const jobs = rows
      .map(
        (row): Job => ({ id: String(row.id), kind: row.kind, payload: row.payload, attempts: row.attempts, orderingKey: row.ordering_key, requestId: row.request_id, teamId: row.team_id }),
      )
      .sort((a, b) => Number(a.id) - Number(b.id))
    await this.prepare(jobs)
    return jobs
  }

  /** Each kind's batch loading; a failure fails the attempts it was for. */
  private async prepare(jobs: Job[]): Promise<void> {
    for (const kind of new Set(jobs.map((j) => j.kind))) {
      const prepare = this.handlers[kind]?.prepare
      if (!prepare) continue
      const batch = jobs.filter((j) => j.kind === kind)
      try {
        const loaded = await prepare(batch)
        for (const job of batch) job.prepared = loaded.get(job.id) ?? null
      } catch (err) {
        for (const job of batch) job.prepared = new PrepareFailed(err)
      }
    }
  }

  /**
   * Runs one claimed job and records how it ended, in the context of the request that caused it
   * (its logs, and the jobs it adds, carry its id). In a slot, the slot frees when the handler
   * ends, before its end is recorded; the job stays this process's in the table until then.
   */
  private execute(job: Job, awaitEnd = true): Promise<void> {
    return withRequestId(job.requestId ?? `job-${job.id}`, async () => {
      const ended = this.attempt(job)
      // Its end could not be recorded (the database is gone): the lease runs out and it runs again.
      const recorded = ended.then((end) => this.ends.add(end)).catch((err: unknown) => log.error({ err, job: job.id }, 'queue: recording the end of a job failed'))
      await (awaitEnd ? recorded : ended)
    })
  }

  private async attempt(job: Job): Promise<AttemptEnd> {
    const handler = this.handlers[job.kind]
    const rows: AttemptEnd['rows'] = []
    const started = performance.now()
    let error: unknown = handler ? null : new Error(`no handler for jobs of kind ${job.kind}`)
    if (job.prepared instanceof PrepareFailed) error = job.prepared.cause
    else if (handler) {
      try {
        await handler(job, { insert: (table, row) => void rows.push({ table, row }) })
      } catch (err) {
        error = err
      }
    }
    const now = this.options.clock.now()
    const final = job.attempts >= this.options.retry.maxAttempts
    const outcome = error === null ? 'done' : final ? 'failed' : 'retry'
    // It runs again later: the next jobs of its order held here go back to wait for it.
    if (outcome === 'retry' && job.orderingKey !== null) this.giveBackOrder(job.orderingKey)
    const seconds = (performance.now() - started) / 1000
    this.averageMs += (Math.max(1, seconds * 1000) - this.averageMs) / 8
    this.options.onFinished?.(job.kind, outcome, seconds)
    const message = error === null ? null : (error instanceof Error ? error.message : String(error)).slice(0, 2000)
    log[outcome === 'done' ? 'info' : outcome === 'retry' ? 'warn' : 'error'](
      { job: job.id, kind: job.kind, attempt: job.attempts, outcome, ms: Math.round(seconds * 1000), ...(message && { error: message.slice(0, 500) }) },
      'job',
    )
    return {
      id: job.id,
      attempts: job.attempts,
      status: outcome === 'retry' ? 'pending' : outcome,
      runAt: outcome === 'retry' ? new Date(now.getTime() + retryDelay(this.options.retry, job.attempts)) : null,
      error: message,
      finishedAt: outcome === 'retry' ? null : now,
      rows,
    }
  }

  /** Gives a claimed job that never started back to the table, its attempt uncounted. */
  private release(job: Job): Promise<void> {
    return this.ends
      .add({ id: job.id, attempts: job.attempts, status: 'pending', runAt: null, error: null, finishedAt: null, released: true, rows: [] })
      .catch((err: unknown) => log.error({ err, job: job.id }, 'queue: giving back a job failed'))
  }
}

class PrepareFailed {
  constructor(readonly cause: unknown) {}
}
