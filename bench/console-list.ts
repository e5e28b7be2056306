/**
 * What the console's documents list costs as a team grows: GET /envelope (a page of 20, as the
 * console asks it) at 10 and 10,000 envelopes, each with one recipient: the first page, a far page,
 * a search by title, a search by a recipient's e-mail, and a status filter. One request at a time,
 * so the figure is the latency of one page (median of RUNS), not throughput.
 * Run: npx tsx bench/console-list.ts   (DATABASE_URL: PostgreSQL instead of PGlite)
 * Env: RUNS (default 30).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startHost } from '../host/server/start.js'

const RUNS = Number(process.env.RUNS ?? 30)
const dir = await mkdtemp(path.join(tmpdir(), 'bench-console-list-'))
const host = await startHost({ port: 0, hostname: '127.0.0.1', dataDir: path.join(dir, 'data'), databaseUrl: process.env.DATABASE_URL })

async function msPerPage(url: string, token: string): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < RUNS + 3; i++) {
    const t0 = performance.now()
    // A kept-alive connection may have lapsed while the rows went in: sent again once.
    const res = await fetch(url, { headers: { Authorization: token } }).catch(() => fetch(url, { headers: { Authorization: token } }))
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
    if (i >= 3) times.push(performance.now() - t0) // the first few warm the caches
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

const figures = new Map<string, number>()
try {
  console.log(`GET /envelope, 20 a page, median of ${RUNS} (ms per page) on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`)
  for (const n of [10, 10_000]) {
    // A team of its own, its envelopes and their recipients written straight into the database.
    const team = await host.createTeam({ name: `console list ${n}`, plan: 'enterprise' })
    const { token } = await host.createApiToken({ name: `console list ${n}`, teamId: team.id })
    await host.db.query(
      `insert into envelopes (id, team_id, type, secondary_number, status, source, visibility, template_type, title, document_meta, created_at)
       select 'envelope_cl' || $2::int || 'x' || g, $1, 'DOCUMENT', g, case when g % 3 = 0 then 'COMPLETED' else 'PENDING' end, 'DOCUMENT', 'EVERYONE', 'PRIVATE',
              'Contract ' || g, '{}'::jsonb, now() - make_interval(secs => g)
       from generate_series(1, $2::int) g`,
      [team.id, n],
    )
    await host.db.query(
      `insert into recipients (envelope_id, email, name, role, token)
       select 'envelope_cl' || $1::int || 'x' || g, 'signer' || g || '@example.com', 'Signer ' || g, 'SIGNER', 'tok_cl' || $1::int || 'x' || g
       from generate_series(1, $1::int) g`,
      [n],
    )
    await host.db.query('analyze envelopes')
    await host.db.query('analyze recipients')
    const base = `${host.apiUrl}/envelope?perPage=20`
    const rows: [string, string][] = [
      ['first page', base],
      ['page 50 (or the last)', `${base}&page=${Math.min(50, Math.ceil(n / 20))}`],
      ['search by title', `${base}&query=${encodeURIComponent(`Contract ${n - 1}`)}`],
      ["search by a recipient's e-mail", `${base}&query=${encodeURIComponent(`signer${n - 1}@`)}`],
      ['status COMPLETED', `${base}&status=COMPLETED`],
    ]
    for (const [what, url] of rows) {
      const ms = await msPerPage(url, token)
      figures.set(`${n} ${what}`, ms)
      console.log(`  ${String(n).padStart(6)} envelopes  ${what.padEnd(32)} ${ms.toFixed(1)} ms`)
    }
  }
  // Targets: the first page at 10,000 within 1.5x of it at 10; a search within 2x the first page of
  // its team; a search at 10,000 within 2x the first page at 10.
  const at = (k: string) => figures.get(k)!
  const report = (what: string, r: number, target: number) => console.log(`  ${what.padEnd(58)} ${r.toFixed(2)}x   target <= ${target}: ${r <= target ? 'ok' : 'OVER TARGET'}`)
  report('first page, 10,000 / 10', at('10000 first page') / at('10 first page'), 1.5)
  for (const n of [10, 10_000]) {
    report(`search by title / first page, ${n}`, at(`${n} search by title`) / at(`${n} first page`), 2)
    report(`search by e-mail / first page, ${n}`, at(`${n} search by a recipient's e-mail`) / at(`${n} first page`), 2)
  }
  report('search by title at 10,000 / first page at 10', at('10000 search by title') / at('10 first page'), 2)
  report('search by e-mail at 10,000 / first page at 10', at("10000 search by a recipient's e-mail") / at('10 first page'), 2)
} finally {
  await host.close()
  await rm(dir, { recursive: true, force: true })
}
