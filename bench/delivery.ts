// Webhook delivery on PostgreSQL, host processes as deployed (`npm run host -- serve`), a receiver
// on loopback in this process, measured in one run:
//   throughput  EVENTS events and their deliveries committed at once (one transaction, as a burst
//               of changes would), to idle host processes: events per second from that commit to
//               the last 2xx, with one process delivering (the other paused) and with two;
//   baseline    the same number of bare POSTs to the same receiver, as many at once as a host
//               process runs jobs (QUEUE_CONCURRENCY), each loop after an uncounted one: through
//               the host's client (undici) and, to tie to earlier figures, through node:http;
//   latency     from an event's commit (its createdAt) to the receiver's 2xx, p50 and p99 over
//               EVENTS events written one after another while one host process delivers them.
// The throughputs are measured in turns, ROUNDS times, and their medians compared, so that
// what else the machine runs weighs on each alike. Both sides are measured warm, as a service that
// has been running is: the host processes first deliver uncounted bursts until their CPU per event
// settles.
// Run: npx tsx bench/delivery.ts   Env: DATABASE_URL (default the test database), BENCH_EVENTS (2000),
// BENCH_ENVELOPES (50), BENCH_CONCURRENCY (16), BENCH_ROUNDS (3).
import { spawn, type ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { Agent as UndiciAgent } from 'undici'
import { PDFDocument } from '@cantoo/pdf-lib'

const ROOT = path.resolve(import.meta.dirname, '..')
const EVENTS = Number(process.env.BENCH_EVENTS || 2000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16) // the host's default QUEUE_CONCURRENCY
const BASE_URL = process.env.DATABASE_URL || process.env.DATABASE_TEST_URL || 'postgres://postgres@127.0.0.1:5432/test'
const ENVELOPES = Number(process.env.BENCH_ENVELOPES || 50) // events spread over this many templates (deliveries keep each envelope's order)
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3)
const [MIN_WARMUPS, MAX_WARMUPS] = [4, 12]

interface Sample {
  rate: number
  hosts: number
  postgres: number
  busy: number
}

/** CPU seconds a process has used (Linux /proc), and the whole machine's busy and total seconds. */
const TICK = 100
const procCpu = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) / TICK
}
/** CPU seconds of every PostgreSQL server process on this machine. */
const postgresCpu = () =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .reduce((sum, pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres' ? sum + procCpu(Number(pid)) : sum
      } catch {
        return sum // gone meanwhile
      }
    }, 0)
const machineCpu = () => {
  const t = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number)
  const idle = t[3]! + t[4]!
  const total = t.reduce((a, b) => a + b, 0)
  return { busy: (total - idle) / TICK, total: total / TICK }
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!

/** Acknowledges every delivery, noting when each event id first arrived and how old it was. */
async function receiver() {
  const arrived = new Map<string, { at: number; age: number }>()
  let waiter: (() => void) | null = null
  let want = Infinity
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const id = String(req.headers['x-service-event-id'] ?? '')
      if (id && !arrived.has(id)) {
        const { createdAt } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt: string }
        arrived.set(id, { at: Date.now(), age: Date.now() - Date.parse(createdAt) })
      }
      res.writeHead(204).end()
      if (arrived.size >= want) waiter?.()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived,
    reset: () => arrived.clear(),
    until: (n: number) =>
      new Promise<void>((resolve) => {
        want = n
        waiter = resolve
        if (arrived.size >= n) resolve()
      }),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  }
}

function serve(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; upAt: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'host/server/cli.ts', 'serve'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_URLS: '1', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    child.once('exit', (code) => reject(new Error(`host exited with ${code}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^listening on (\S+)/.exec(line)
      if (m) resolve({ child, url: m[1]!, upAt: Date.now() })
    })
  })
}

const stop = (child: ChildProcess) =>
  new Promise<void>((r) => {
    child.removeAllListeners('exit')
    child.once('exit', () => r())
    child.kill('SIGCONT') // if paused
    child.kill('SIGTERM')
  })

/** One bare POST of the bench's body, the `i`th of its loop. */
type Post = (body: string, i: number) => Promise<void>

/**
 * The bare baselines: `n` POSTs of the same size, `concurrency` at once; after a warm-up round.
 * Through undici with its connections kept, as the host's deliveries post (webhooks/post.ts);
 * through node:http with them kept, as the host posted until it moved to undici; and through
 * node:http with a connection for each, as the host did when this bench was first run.
 */
function bareLoops(url: string) {
  const headers = (i: number) => ({ 'Content-Type': 'application/json', 'X-Service-Event-Id': `bare-${i}` })
  const viaHttp =
    (agent: Agent | false): Post =>
    (body, i) =>
      new Promise<void>((resolve, reject) => {
        const req = request(url, { method: 'POST', agent, headers: headers(i) }, (res) => {
          res.resume()
          res.on('end', resolve)
        })
        req.on('error', reject)
        req.end(body)
      })
  const kept = new Agent({ keepAlive: true, maxFreeSockets: CONCURRENCY, scheduling: 'lifo' })
  const pool = new UndiciAgent({ keepAliveTimeout: 5_000 })
  const u = new URL(url)
  const viaUndici: Post = async (body, i) => {
    const res = await pool.request({ origin: u.origin, path: u.pathname, method: 'POST', headers: headers(i), body })
    await res.body.dump()
  }
  const run = (post: Post) => async () => {
    await postLoop(post, EVENTS, CONCURRENCY)
    return postLoop(post, EVENTS, CONCURRENCY)
  }
  return {
    undici: run(viaUndici),
    kept: run(viaHttp(kept)),
    bare: run(viaHttp(false)),
    close: async () => (kept.destroy(), await pool.close()),
  }
}

async function postLoop(post: Post, n: number, concurrency: number): Promise<number> {
  const body = JSON.stringify({ event: 'TEMPLATE_UPDATED', payload: { pad: 'x'.repeat(900) }, createdAt: new Date().toISOString() })
  let next = 0
  const started = performance.now()
  const worker = async () => {
    while (next < n) await post(body, next++)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return n / ((performance.now() - started) / 1000)
}

async function main() {
  const schema = `bench_delivery_${Date.now().toString(36)}`
  const url = new URL(BASE_URL)
  url.searchParams.set('schema', schema)
  const env = { DATABASE_URL: url.toString() }
  const r = await receiver()
  const children: ChildProcess[] = []
  try {
    // A writer that delivers nothing, holding the API; the team's token and webhook.
    const writer = await serve({ ...env, QUEUE_CONCURRENCY: '0' })
    children.push(writer.child)
    const { createApiToken } = await import('../host/server/auth/api-tokens.js')
    const { openDb } = await import('../host/server/db/index.js')
    const { JOBS_CHANNEL } = await import('../host/server/jobs/queue.js')
    const db = await openDb({ dataDir: '', databaseUrl: env.DATABASE_URL })
    const { token } = await createApiToken(db, { name: 'bench' })
    const call = async (p: string, body: BodyInit | object) => {
      const json = !(body instanceof FormData)
      const res = await fetch(`${writer.url}/api/v2${p}`, {
        method: 'POST',
        headers: { Authorization: token, ...(json ? { 'Content-Type': 'application/json' } : {}) },
        body: json ? JSON.stringify(body) : (body as FormData),
      })
      if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`)
      return res.json() as Promise<any>
    }
    await call('/webhook/create', { url: r.url, events: ['TEMPLATE_UPDATED'] })
    const pdf = await PDFDocument.create().then(async (d) => (d.addPage([612, 792]), d.save()))
    const templates: string[] = []
    for (let i = 0; i < ENVELOPES; i++) {
      const form = new FormData()
      form.set('payload', JSON.stringify({ type: 'TEMPLATE', title: `T${i}` }))
      form.append('files', new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 't.pdf')
      templates.push((await call('/envelope/create', form)).id)
    }
    let n = 0
    const write = async (count: number) => {
      for (let i = 0; i < count; i++) await call('/envelope/update', { envelopeId: templates[n++ % ENVELOPES], data: { title: `T${n}` } })
    }

    // Throughput: idle processes, then a burst of EVENTS committed at once. The burst copies a real
    // event (its payload as the API wrote it) over the templates, with the jobs emit() would add.
    await write(1)
    const hookId = (await db.query<{ id: string }>('select id from webhooks'))[0]!.id
    const sample = (await db.query<{ id: number }>('select max(id)::int as id from events'))[0]!.id
    await db.query('delete from jobs')
    const burst = () =>
      db.transaction(async (tx) => {
        await tx.query(
          `with burst as (
             insert into events (team_id, event, envelope_id, payload)
             select e.team_id, e.event, ($2::text[])[1 + g % $3], e.payload from events e, generate_series(1, $4) g where e.id = $1
             returning id, envelope_id)
           insert into jobs (kind, payload, ordering_key)
           select 'webhook', jsonb_build_object('webhookId', $5::text, 'eventId', b.id), 'webhook:' || $5 || ':' || b.envelope_id from burst b`,
          [sample, templates, ENVELOPES, EVENTS, hookId],
        )
        await tx.notify(JOBS_CHANNEL, 'webhook')
      })
    // Two processes; while one delivers alone the other is paused (SIGSTOP, between bursts, when it
    // holds no job; each in its turn, so both warm alike), so both modes run on the same warm
    // processes, in turns, in the same minutes.
    const workers = await Promise.all([1, 2].map(() => serve({ ...env, QUEUE_CONCURRENCY: String(CONCURRENCY) })))
    children.push(...workers.map((w) => w.child))
    const settled = async () => {
      while ((await db.query<{ n: number }>(`select count(*)::int as n from jobs where kind = 'webhook' and status in ('pending', 'running')`))[0]!.n > 0) await sleep(10)
    }
    const hostsCpu = () => workers.reduce((a, w) => a + procCpu(w.child.pid!), 0)
    let alone = 0 // which process delivers alone next: each in its turn
    const measure = async (processes: 1 | 2): Promise<Sample> => {
      const paused = processes === 1 ? workers[alone++ % 2]!.child : null
      paused?.kill('SIGSTOP')
      r.reset()
      await burst()
      const from = Date.now()
      const [hosts, postgres, machine] = [hostsCpu(), postgresCpu(), machineCpu()]
      await r.until(EVENTS)
      const last = Math.max(...[...r.arrived.values()].map((a) => a.at))
      await settled() // every end recorded: its cost counted, and no order left waiting on a paused process
      const machineAfter = machineCpu()
      const sample = {
        rate: EVENTS / ((last - from) / 1000),
        hosts: hostsCpu() - hosts,
        postgres: postgresCpu() - postgres,
        busy: (machineAfter.busy - machine.busy) / (machineAfter.total - machine.total),
      }
      paused?.kill('SIGCONT')
      return sample
    }
    // Warm-up, not counted: a fresh process compiles its hot code during its first bursts, on CPU a
    // measured burst would count. Turns repeat until each mode's bursts cost the hosts within a
    // tenth of the CPU per event of its turn before, after at least MIN_WARMUPS.
    let warmups = 0
    for (let previous = [Infinity, Infinity]; warmups < MAX_WARMUPS; ) {
      warmups++
      const costs = [(await measure(1)).hosts, (await measure(2)).hosts]
      if (warmups >= MIN_WARMUPS && costs.every((c, i) => Math.abs(c - previous[i]!) <= previous[i]! / 10)) break
      previous = costs
    }
    // Measured: ROUNDS turns of the bare loops, one process and two, the order turning each time.
    const samples: Record<'undici' | 'kept' | 'bare' | 1 | 2, Sample[]> = { undici: [], kept: [], bare: [], 1: [], 2: [] }
    const loops = bareLoops(r.url)
    const loop = async (run: () => Promise<number>): Promise<Sample> => ({ rate: await run(), hosts: 0, postgres: 0, busy: 0 })
    for (let round = 0; round < ROUNDS; round++) {
      const turns = [
        async () => samples.bare.push(await loop(loops.bare)),
        async () => samples.kept.push(await loop(loops.kept)),
        async () => samples.undici.push(await loop(loops.undici)),
        async () => samples[1].push(await measure(1)),
        async () => samples[2].push(await measure(2)),
      ]
      for (const turn of round % 2 ? turns.reverse() : turns) await turn()
    }

    // Latency: one warm process delivering while events are written.
    const paused = workers[1]!.child
    paused.kill('SIGSTOP')
    r.reset()
    await write(EVENTS)
    await r.until(EVENTS)
    await settled()
    paused.kill('SIGCONT')
    const ages = [...r.arrived.values()].map((a) => a.age)
    await loops.close()
    await db.close()

    const median = (xs: Sample[]) => [...xs].sort((a, b) => a.rate - b.rate)[xs.length >> 1]!
    const [one, two, undici, kept, bare] = [median(samples[1]), median(samples[2]), median(samples.undici), median(samples.kept), median(samples.bare)]
    const range = (xs: number[], f: (x: number) => string) => `${f(Math.min(...xs))}-${f(Math.max(...xs))}`
    const rates = (xs: Sample[]) => range(xs.map((x) => x.rate), (x) => x.toFixed(0))
    const perRound = (a: Sample[], b: Sample[], f: (x: number) => string) => range(a.map((x, i) => x.rate / b[i]!.rate), f)
    const perEvent = (s: number) => ((s / EVENTS) * 1000).toFixed(2)
    const use = (s: Sample) => `CPU per event: hosts ${perEvent(s.hosts)} ms, PostgreSQL ${perEvent(s.postgres)} ms; machine ${(s.busy * 100).toFixed(0)}% busy`
    const ratio = (x: number) => `x${x.toFixed(2)}`
    const percent = (x: number) => `${(x * 100).toFixed(0)}%`
    console.log(`webhook delivery on PostgreSQL, ${EVENTS} events over ${ENVELOPES} envelopes, ${CONCURRENCY} jobs at once per process, medians of ${ROUNDS} rounds after ${warmups} uncounted:`)
    console.log(`  commit -> receiver 2xx   p50 ${pct(ages, 50).toFixed(0)} ms   p99 ${pct(ages, 99).toFixed(0)} ms   (1 process, events written one after another)`)
    console.log(`  1 host process           ${one.rate.toFixed(0)} events/s   (${rates(samples[1])}; ${use(one)})`)
    console.log(
      `  2 host processes         ${two.rate.toFixed(0)} events/s   (${rates(samples[2])}; ${ratio(two.rate / one.rate)}, in each round ${perRound(samples[2], samples[1], ratio)}; target > x1; baseline x0.77-0.80 measured in fresh processes after one uncounted burst, which left each of two half as warm as one; ${use(two)})`,
    )
    console.log(
      `  bare POSTs, as the host   ${undici.rate.toFixed(0)} posts/s   (${rates(samples.undici)}; undici, connections kept; 1 process at ${percent(one.rate / undici.rate)}, in each round ${perRound(samples[1], samples.undici, percent)}; target >= 50%)`,
    )
    console.log(
      `  bare POSTs, node:http     ${kept.rate.toFixed(0)} posts/s   (${rates(samples.kept)}; connections kept, the host's client until undici; 1 process at ${percent(one.rate / kept.rate)}, in each round ${perRound(samples[1], samples.kept, percent)}; baseline, against this loop: 21-27% with node:http in the host)`,
    )
    console.log(
      `  bare POSTs, new each      ${bare.rate.toFixed(0)} posts/s   (${rates(samples.bare)}; a connection for each, as when the host opened one per delivery too; 1 process at ${percent(one.rate / bare.rate)}, in each round ${perRound(samples[1], samples.bare, percent)}; baseline, against this loop: 14% as first measured, cold, with a claim and four statements per delivery)`,
    )
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) await stop(c)
    await r.close()
    const client = new pg.Client({ connectionString: BASE_URL })
    await client.connect()
    await client.query(`drop schema if exists ${schema} cascade`)
    await client.end()
  }
}

await main()
