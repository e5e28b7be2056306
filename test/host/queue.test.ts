/**
 * The job queue on its own: orders, ends recorded with what handlers leave, batch loading,
 * claiming ahead and giving back what was claimed but not run.
 * Databases: both (the queue's claims and locks differ by engine; two processes on PostgreSQL).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDb, type Db, type Queryable } from '../../host/server/db/index.js'
import { systemClock, type Clock } from '../../host/server/jobs/clock.js'
import { enqueue, Queue, type JobHandler, type QueueOptions } from '../../host/server/jobs/queue.js'
import { freshSchema, until, VARIANTS } from './support.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const options = (o: Partial<QueueOptions> = {}): QueueOptions => ({
  concurrency: 4,
  pollMs: 50,
  leaseMs: 60_000,
  clock: systemClock,
  retry: { maxAttempts: 3, baseDelayMs: 10, factor: 1, maxDelayMs: 10 },
  ...o,
})

describe.each(VARIANTS)('the job queue ($variant)', ({ variant, skip }) => {
  const cleanups: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  })

  /** A fresh database with a table for what handlers leave behind; `again` opens it a second time (PostgreSQL only). */
  async function database(): Promise<{ db: Db; again: () => Promise<Db> }> {
    let db: Db
    let again = (): Promise<Db> => Promise.reject(new Error('one process per embedded database'))
    if (variant === 'postgres') {
      const schema = freshSchema('queue_test')
      db = await openDb({ dataDir: '', databaseUrl: schema.url })
      const others: Db[] = []
      again = async () => {
        const other = await openDb({ dataDir: '', databaseUrl: schema.url })
        others.push(other)
        return other
      }
      cleanups.push(async () => {
        for (const o of others) await o.close()
        await db.close()
        await schema.drop()
      })
    } else {
      const dir = await mkdtemp(path.join(tmpdir(), 'queue-test-'))
      db = await openDb({ dataDir: dir })
      cleanups.push(async () => {
        await db.close()
        await rm(dir, { recursive: true, force: true })
      })
    }
    await db.exec('create table left_behind (job text not null, attempt int not null, note text)')
    return { db, again }
  }

  const add = (db: Db, n: number, key: (i: number) => string | undefined = () => undefined) =>
    db.transaction(async (tx) => {
      for (let i = 0; i < n; i++) await enqueue(tx, { kind: 'test', payload: { i }, orderingKey: key(i) })
    })
  const jobs = (db: Db) =>
    db.query<{ id: string; status: string; attempts: number; last_error: string | null; locked_until: Date | null }>(
      'select id::text as id, status, attempts, last_error, locked_until from jobs order by jobs.id',
    )

  it.skipIf(skip)('runs the jobs of one order one at a time and in order, other orders beside them', async () => {
    const { db } = await database()
    const log: { key: string; i: number; at: 'start' | 'end' }[] = []
    let running = 0
    let most = 0
    const handler: JobHandler = async (job) => {
      const { i } = job.payload as { i: number }
      log.push({ key: job.orderingKey!, i, at: 'start' })
      most = Math.max(most, ++running)
      // Work of a few ms (the behaviour under test: orders overlap while one runs).
      await sleep(5 + ((i * 7) % 11))
      running--
      log.push({ key: job.orderingKey!, i, at: 'end' })
    }
    await add(db, 30, (i) => `k${i % 3}`)
    const queue = new Queue(db, { test: handler }, options())
    queue.start()
    await until(async () => (await jobs(db)).every((j) => j.status === 'done'))
    await queue.stop()
    for (const key of ['k0', 'k1', 'k2']) {
      const mine = log.filter((l) => l.key === key)
      // start, end, start, end... in the order written
      expect(mine.map((l) => l.at)).toEqual(mine.map((_, n) => (n % 2 ? 'end' : 'start')))
      expect(mine.filter((l) => l.at === 'start').map((l) => l.i)).toEqual([...Array(10).keys()].map((n) => n * 3 + Number(key[1])))
    }
    expect(most).toBeGreaterThan(1)
    expect(most).toBeLessThanOrEqual(3)
  })

  it.skipIf(skip)('runs the next jobs of an order without claiming each, and gives them back when one before them is retried', async () => {
    const { db } = await database()
    const starts: { key: string; i: number }[] = []
    let claims = 0
    const handler: JobHandler = async (job) => {
      const { i } = job.payload as { i: number }
      starts.push({ key: job.orderingKey!, i })
      if (job.orderingKey === 'k0' && i === 8 && job.attempts === 1) throw new Error('the receiver is down')
    }
    handler.prepare = async (batch) => (claims++, new Map(batch.map((j) => [j.id, null])))
    // Two orders of 12, all pending before the queue starts.
    await add(db, 24, (i) => `k${i % 2}`)
    const queue = new Queue(db, { test: handler }, options())
    queue.start()
    await until(async () => (await jobs(db)).every((j) => j.status === 'done'))
    await queue.stop()
    // Each order's jobs ran in the order written; the one that failed ran again before those after it.
    const k0 = [...Array(12).keys()].map((n) => n * 2)
    expect(starts.filter((s) => s.key === 'k0').map((s) => s.i)).toEqual([...k0.slice(0, 5), 8, ...k0.slice(5)])
    expect(starts.filter((s) => s.key === 'k1').map((s) => s.i)).toEqual(k0.map((i) => i + 1))
    // Those after it had been claimed with it: given back, their attempts uncounted.
    const all = await jobs(db)
    expect(all.map((j) => j.attempts)).toEqual(all.map((_, n) => (n === 8 ? 2 : 1)))
    // 24 jobs and a retry in far fewer claims than jobs: the next jobs of an order come with its first.
    expect(claims).toBeLessThanOrEqual(8)
  })

  it.skipIf(skip)('holds no more jobs of a kind than its limit, and runs the other kinds beside them', async () => {
    const { db } = await database()
    const events: string[] = []
    let heavyNow = 0
    let heavyMost = 0
    const heavy: JobHandler = async (job) => {
      heavyMost = Math.max(heavyMost, ++heavyNow)
      events.push(`heavy ${job.payload.i} start`)
      // A heavy job's work: the light ones must pass it meanwhile.
      await sleep(80)
      heavyNow--
    }
    heavy.limit = 1
    const light: JobHandler = async (job) => void events.push(`light ${job.payload.i}`)
    // Four heavy jobs first in the table, then ten light ones.
    await db.transaction(async (tx) => {
      for (let i = 0; i < 4; i++) await enqueue(tx, { kind: 'heavy', payload: { i } })
      for (let i = 0; i < 10; i++) await enqueue(tx, { kind: 'light', payload: { i } })
    })
    const queue = new Queue(db, { heavy, light }, options({ concurrency: 4 }))
    queue.start()
    await until(async () => (await jobs(db)).every((j) => j.status === 'done'))
    await queue.stop()
    expect(heavyMost).toBe(1)
    // The light jobs did not wait behind the heavy ones held back.
    expect(events.findIndex((e) => e === 'heavy 3 start')).toBeGreaterThan(Math.max(...events.map((e, n) => (e.startsWith('light') ? n : -1))))
    // What a claim brought beyond the limit went back uncounted.
    expect((await jobs(db)).map((j) => j.attempts)).toEqual(Array(14).fill(1))
  })

  // One team's receivers that never answer: its jobs hold no more than half the slots, the other
  // teams get theirs, and e-mail has slots of its own that no team's webhooks take.
  it.skipIf(skip)('gives each team a fair share of the slots and e-mail slots of its own', async () => {
    const { db } = await database()
    let release!: () => void
    const silent = new Promise<void>((r) => (release = r))
    const running = new Map<string, number>()
    const most = new Map<string, number>()
    const started: string[] = []
    const hook: JobHandler = async (job) => {
      const team = String(job.payload.teamId)
      started.push(team)
      running.set(team, (running.get(team) ?? 0) + 1)
      most.set(team, Math.max(most.get(team) ?? 0, running.get(team)!))
      most.set('all', Math.max(most.get('all') ?? 0, [...running.values()].reduce((a, b) => a + b)))
      await silent
      running.set(team, running.get(team)! - 1)
    }
    const mailed: string[] = []
    const mail: JobHandler = async (job) => void mailed.push(String(job.payload.to))
    // Team A's many deliveries first in the table, then team B's, then e-mail of both teams.
    await db.transaction(async (tx) => {
      for (let i = 0; i < 12; i++) await enqueue(tx, { kind: 'hook', payload: { teamId: 'team_a', i }, orderingKey: `hook:a${i}` })
      for (let i = 0; i < 4; i++) await enqueue(tx, { kind: 'hook', payload: { teamId: 'team_b', i }, orderingKey: `hook:b${i}` })
      await enqueue(tx, { kind: 'mail', payload: { teamId: 'team_a', to: 'ann@a.test' } })
      await enqueue(tx, { kind: 'mail', payload: { teamId: 'team_b', to: 'bob@b.test' } })
    })
    // 8 slots: 2 of them e-mail's own, half (4) at most for one team.
    const queue = new Queue(db, { hook, mail }, options({ concurrency: 8, lane: ['mail'] }))
    queue.start()
    try {
      await until(() => mailed.length === 2 && started.includes('team_b'), 120_000)
      expect(mailed.sort()).toEqual(['ann@a.test', 'bob@b.test'])
      expect(most.get('team_a')).toBe(4)
      expect(most.get('all')).toBe(6)
    } finally {
      release()
      await until(async () => (await jobs(db)).every((j) => j.status === 'done'))
      await queue.stop()
    }
    expect(started.filter((t) => t === 'team_a')).toHaveLength(12)
    expect(most.get('team_a')).toBe(4)
    expect(most.get('team_b')).toBeLessThanOrEqual(4)
    // What a claim brought beyond a share went back uncounted.
    expect((await jobs(db)).map((j) => j.attempts)).toEqual(Array(18).fill(1))
  })

  it.skipIf(skip)('records each end in one with the rows its handler left, whatever the outcome', async () => {
    const { db } = await database()
    const handler: JobHandler = async (job, end) => {
      const { i } = job.payload as { i: number }
      end.insert('left_behind', { job: job.id, attempt: job.attempts, note: `try ${job.attempts}` })
      if (i === 1 || (i === 0 && job.attempts === 1)) throw new Error(`refused on try ${job.attempts}`)
    }
    await add(db, 2)
    const queue = new Queue(db, { test: handler }, options())
    queue.start()
    await until(async () => (await jobs(db)).every((j) => j.status === 'done' || j.status === 'failed'))
    await queue.stop()
    const [first, second] = await jobs(db)
    // The first failed once, then succeeded; the second failed on every one of its 3 attempts.
    expect(first).toMatchObject({ status: 'done', attempts: 2, last_error: null, locked_until: null })
    expect(second).toMatchObject({ status: 'failed', attempts: 3, last_error: 'refused on try 3', locked_until: null })
    const rows = await db.query<{ job: string; attempt: number; note: string }>('select * from left_behind order by job, attempt')
    expect(rows).toEqual([
      { job: first!.id, attempt: 1, note: 'try 1' },
      { job: first!.id, attempt: 2, note: 'try 2' },
      { job: second!.id, attempt: 1, note: 'try 1' },
      { job: second!.id, attempt: 2, note: 'try 2' },
      { job: second!.id, attempt: 3, note: 'try 3' },
    ])
    // A table or column name that is not a plain identifier is refused before any SQL is made.
    const bad: JobHandler = async (_job, end) => end.insert('left_behind; drop table jobs', { job: 'x' })
    await add(db, 1)
    const q2 = new Queue(db, { test: bad }, options())
    expect(await q2.drain()).toBe(1)
    expect((await jobs(db)).at(-1)).toMatchObject({ status: 'running', attempts: 1 })
    expect((await db.query('select count(*)::int as n from jobs'))[0]).toEqual({ n: 3 })
  })

  it.skipIf(skip)('records the ends beside one the database refuses, and keeps text it cannot hold', async () => {
    const { db } = await database()
    let ready = 0
    const handler: JobHandler = async (job, end) => {
      const { i } = job.payload as { i: number }
      // Both end together, so that their ends go in one batch.
      ready++
      await until(() => ready === 2)
      end.insert('left_behind', { job: i === 0 ? null : job.id, attempt: job.attempts, note: 'a\0b' })
    }
    await add(db, 2)
    const queue = new Queue(db, { test: handler }, options({ concurrency: 2 }))
    queue.start()
    await until(async () => (await jobs(db)).some((j) => j.status === 'done'))
    await queue.stop()
    const [refused, fine] = await jobs(db)
    // The refused end is not recorded (its lease runs out and it runs again); the other is.
    expect(refused).toMatchObject({ status: 'running', attempts: 1 })
    expect(fine).toMatchObject({ status: 'done', attempts: 1 })
    expect(await db.query('select job, note from left_behind')).toEqual([{ job: fine!.id, note: 'a\uFFFDb' }])
  })

  it.skipIf(skip)('loads what a claimed batch needs at once, and retries the batch when that fails', async () => {
    const { db } = await database()
    const batches: number[] = []
    let failNext = true
    const seen = new Map<string, unknown>()
    const handler: JobHandler = async (job) => void seen.set(job.id, job.prepared)
    handler.prepare = async (batch) => {
      batches.push(batch.length)
      if (failNext) {
        failNext = false
        throw new Error('the batch could not be loaded')
      }
      return new Map(batch.filter((j) => (j.payload as { i: number }).i !== 5).map((j) => [j.id, `for ${j.id}`]))
    }
    await add(db, 12)
    const queue = new Queue(db, { test: handler }, options({ concurrency: 2 }))
    queue.start()
    await until(async () => (await jobs(db)).every((j) => j.status === 'done'))
    await queue.stop()
    const all = await jobs(db)
    // Claimed ahead: batches of more than one; the first batch failed and its jobs ran again.
    expect(Math.max(...batches)).toBeGreaterThan(1)
    expect(batches.reduce((a, b) => a + b, 0)).toBe(12 + batches[0]!)
    expect(all.filter((j) => j.attempts === 2)).toHaveLength(batches[0]!)
    for (const [n, j] of all.entries()) expect(seen.get(j.id)).toBe(n === 5 ? null : `for ${j.id}`)
  })

  it.skipIf(skip)('claims and ends a few jobs by reading a few of them, however many are pending and whatever the statistics say', async () => {
    const { db } = await database()
    // 2,000 pending jobs in 50 orders, arrived faster than statistics follow (the table never analyzed).
    await db.query(`insert into jobs (kind, payload, ordering_key) select 'test', '{}', 'k' || (g % 50) from generate_series(1, 2000) g`)
    // What this transaction has read of the table so far, by kind of scan.
    const reads = async (tx: Queryable) =>
      (await tx.query<{ seq: number; fetched: number }>(`select seq_tup_read::int as seq, idx_tup_fetch::int as fetched from pg_stat_xact_user_tables where relid = 'jobs'::regclass`))[0]!
    const { claimed, afterClaim, afterEnd } = await db.transaction(async (tx) => {
      const claimed = await tx.query<{ id: string; attempts: number }>(`select id::text as id, attempts from claim_jobs(now(), now() + interval '1 minute', 9, 3, '{}', '{}', 8, '{}')`)
      const afterClaim = await reads(tx)
      await tx.query(`select * from end_jobs($1::bigint[], $2::int[], $3::text[], $4::timestamptz[], $5::text[], $6::timestamptz[], $7::boolean[])`, [
        claimed.map((j) => j.id),
        claimed.map((j) => j.attempts),
        claimed.map(() => 'done'),
        claimed.map(() => null),
        claimed.map(() => null),
        claimed.map(() => new Date().toISOString()),
        claimed.map(() => false),
      ])
      return { claimed, afterClaim, afterEnd: await reads(tx) }
    })
    // The first job of each of the first 9 orders, each with the 3 that come next in its order.
    const all = (await jobs(db)).map((j) => j.id)
    const first = [0, 50, 100, 150].flatMap((step) => all.slice(step, step + 9)).sort()
    expect(claimed.map((j) => j.id).sort()).toEqual(first)
    expect(all.length).toBe(2000)
    expect((await jobs(db)).filter((j) => j.status === 'done').map((j) => j.id).sort()).toEqual(first)
    // Planned for the small table the statistics describe, the claim read every pending job (about
    // 4,000 rows here) and the end the whole table; walking the indexes, each reads a few dozen.
    expect(afterClaim).toMatchObject({ seq: 0 })
    expect(afterClaim.fetched).toBeLessThan(150)
    expect(afterEnd.seq).toBe(0)
    expect(afterEnd.fetched - afterClaim.fetched).toBeLessThan(100)
  })

  it.skipIf(skip)('gives back, when it stops, the jobs it claimed but did not start, their attempts uncounted', async () => {
    const { db } = await database()
    let release = () => {}
    let started = 0
    const handler: JobHandler = async () => {
      started++
      await new Promise<void>((r) => (release = r))
    }
    await add(db, 5)
    const queue = new Queue(db, { test: handler }, options({ concurrency: 1 }))
    queue.start()
    await until(() => started === 1)
    await until(async () => (await jobs(db)).filter((j) => j.status === 'running').length >= 2) // one runs, others are held
    const stopped = queue.stop()
    // The held jobs are given back while the one under way still runs.
    await until(async () => (await jobs(db)).filter((j) => j.status === 'pending').length === 4, 120_000)
    release()
    await stopped
    const all = await jobs(db)
    expect(started).toBe(1)
    expect(all.map((j) => [j.status, j.attempts])).toEqual([['done', 1], ['pending', 0], ['pending', 0], ['pending', 0], ['pending', 0]])
    expect(all.every((j) => j.locked_until === null)).toBe(true)
  })

  // Two processes on one database: PostgreSQL only (an embedded database belongs to one process).
  if (variant === 'postgres')
    it.skipIf(skip)('lets go of the jobs it held past half their lease, so no other process runs them at once', async () => {
      const { db, again } = await database()
      const ran: string[] = []
      // The leases' clock moves only while a job works, so a machine too busy to run anything lets
      // no lease run out; how long a job was held is real time (at least as long as a job works).
      await add(db, 2)
      let at = Date.now() + 1000
      const clock: Clock = { now: () => new Date(at) }
      // Each job takes three quarters of the lease; the first process claims both, one held ready.
      // The first waits for the second process, so it is there while the held one is held.
      let secondStarted = () => {}
      const second = new Promise<void>((r) => (secondStarted = r))
      const slow: JobHandler = async (job) => {
        ran.push(job.id)
        if (ran.length === 1) await second
        for (let i = 0; i < 9; i++) {
          await sleep(50)
          at += 50
        }
      }
      const a = new Queue(db, { test: slow }, options({ concurrency: 1, leaseMs: 600, clock }))
      a.start()
      await until(() => ran.length === 1)
      await until(async () => (await jobs(db)).every((j) => j.status === 'running'))
      // Started after 450 ms, the second job's lease would run out while it ran, and this process
      // would take it again; given back and claimed afresh instead, it runs once.
      const other = await again()
      const b = new Queue(other, { test: slow }, options({ concurrency: 1, clock }))
      b.start()
      secondStarted()
      await until(async () => (await jobs(db)).every((j) => j.status === 'done'))
      // Past the last lease, for as long as a job works: a job run twice would show now (nothing to poll for).
      at += 700
      await sleep(700)
      await a.stop()
      await b.stop()
      expect(ran.sort()).toEqual((await jobs(db)).map((j) => j.id).sort())
    })
})
