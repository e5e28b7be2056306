/**
 * Host throughput on loopback, measured in one run so the ratios compare like with like:
 * (a) a bare node:http handler answering fixed JSON, (b) presign-token minting,
 * (c) GET /envelope/{id}, (d) POST /envelope/create with a one-page PDF; (a2) the smallest Hono app
 * answering a POST from its JSON body, the framework's own floor under (b).
 * Targets: (b)/(a) >= 0.5, (c)/(a) >= 0.5. Then how cost grows: (e) create with 1, 10, 100 pages (and 5 signers with 20 fields),
 * (f) GET /envelope with 10, 1,000, 10,000 envelopes in the team; (g) the same searched (`query`, the console's search; targets: within 2x (f) of the same team, and at 10,000 within 2x (f) at 10).   Run: npx tsx bench/host.ts  (DATABASE_URL: PostgreSQL)
 * Each line also gives the servers' CPU time per request (this process runs only the servers), a
 * figure that moves much less than req/s when other work shares the machine.
 * Env: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 10).
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { Hono } from 'hono'
import { PDFDocument } from '@cantoo/pdf-lib'
import { startHost } from '../host/server/start.js'
import { bufferLog } from '../host/server/log.js'

/** GET /envelope at 10,000 envelopes may cost at most this many times its cost at 10. */
const LIST_GROWTH_TARGET = 1.5
/** A search (GET /envelope?query=) may cost at most this many times the list's first page. */
const SEARCH_TARGET = 2

const seconds = Number(process.env.BENCH_SECONDS || 5)
const connections = Number(process.env.BENCH_CONNECTIONS || 10)

// autocannon runs as its own process, so the load generator never shares the servers' event loop.
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js')

interface Target {
  url: string
  method?: string
  headers?: Record<string, string>
  /** A file holding the request body (binary-safe). */
  bodyFile?: string
}

function autocannon(t: Target, duration: number): Promise<{ requests: { average: number; total: number }; latency: { p99: number }; errors: number; non2xx: number }> {
  const args = [AUTOCANNON, '--json', '-c', String(connections), '-d', String(duration), '-m', t.method ?? 'GET']
  for (const [k, v] of Object.entries(t.headers ?? {})) args.push('-H', `${k}=${v}`)
  if (t.bodyFile) args.push('-i', t.bodyFile)
  args.push(t.url)
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout)))),
  )
}

async function measure(name: string, t: Target) {
  await autocannon(t, 1) // warm-up: JIT, caches, connection pools
  const cpu0 = process.cpuUsage()
  const r = await autocannon(t, seconds)
  const cpu = process.cpuUsage(cpu0)
  const cpuPerRequest = (cpu.user + cpu.system) / Math.max(1, r.requests.total)
  const bad = r.errors + r.non2xx
  console.log(
    `${name.padEnd(42)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(r.latency.p99).padStart(4)} ms` +
      `   ${cpuPerRequest.toFixed(0).padStart(5)} µs CPU/req${bad ? `   (${bad} failed!)` : ''}`,
  )
  return r.requests.average
}

const bare = createServer((_req, res) => {
  const body = JSON.stringify({ ok: true, service: 'bench' })
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
})
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve))
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`

// The floor under (b): the smallest Hono app on @hono/node-server answering a POST from its JSON
// body, with nothing of the host (no gate, token, validation or signing).
const floorApp = new Hono()
floorApp.post('/', async (c) => c.json({ token: 'x'.repeat(230), expiresIn: (JSON.parse(await c.req.text()) as { expiresIn: number }).expiresIn }))
const floor = createServer(getRequestListener(floorApp.fetch))
await new Promise<void>((resolve) => floor.listen(0, '127.0.0.1', resolve))
const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}/`

// The log as `serve` writes it: a line per request, gathered and written in the background (a
// line at a time straight to stdout cost GET /envelope/{id} more than half of its time).
// Filter the lines out of what this prints with `| grep -v '^{'`.
bufferLog()
const dir = await mkdtemp(path.join(tmpdir(), 'host-bench-'))
const host = await startHost({ port: 0, hostname: '127.0.0.1', dataDir: path.join(dir, 'data'), databaseUrl: process.env.DATABASE_URL })
const { token } = await host.createApiToken({ name: 'bench' })
const auth = { Authorization: token }

// autocannon reads a body file as UTF-8, so the PDF is kept pure ASCII: no object streams,
// and the header's binary marker comment (same length, so every xref offset stays right) made ASCII.
async function asciiPdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create()
  for (let i = 0; i < pages; i++) doc.addPage()
  const pdf = Buffer.from(await doc.save({ useObjectStreams: false }))
  const marker = pdf.indexOf('\n%') + 2
  for (let i = marker; pdf[i]! > 0x7f; i++) pdf[i] = 0x41
  if (pdf.some((b) => b > 0x7f)) throw new Error('the benchmark PDF is not ASCII')
  return pdf
}
const boundary = 'benchboundary7MA4YWxkTrZu0gW'
/** One signer with one signature field, or `signers` signers with `fields` fields shared out between them. */
const createBody = (pdf: Buffer, signers = 1, fields = 1) =>
  Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="payload"\r\n\r\n` +
        JSON.stringify({
          type: 'DOCUMENT',
          title: 'Bench',
          recipients: Array.from({ length: signers }, (_, r) => ({
            email: `signer${r}@example.com`,
            name: `Signer ${r}`,
            role: 'SIGNER',
            fields: Array.from({ length: Math.ceil(fields / signers) }, (_, i) => ({ identifier: 0, type: 'SIGNATURE', page: 1, positionX: 10 + i, positionY: 10, width: 20, height: 5 })),
          })),
        }) +
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="one.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
const multipart = createBody(await asciiPdf(1))
const multipartFile = path.join(dir, 'create.multipart')
await writeFile(multipartFile, multipart)
const presignFile = path.join(dir, 'presign.json')
await writeFile(presignFile, '{"expiresIn":60}')
const created = await fetch(`${host.apiUrl}/envelope/create`, {
  method: 'POST',
  headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
  body: multipart,
})
const { id } = (await created.json()) as { id: string }

console.log(`host on ${host.db.engine}, ${connections} connections, ${seconds} s per measurement\n`)
try {
  const a = await measure('(a) bare node:http JSON', { url: bareUrl })
  const b = await measure('(b) POST /embedding/create-presign-token', {
    url: `${host.apiUrl}/embedding/create-presign-token`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    bodyFile: presignFile,
  })
  const floorRps = await measure('(a2) minimal Hono POST, JSON body', { url: floorUrl, method: 'POST', headers: { 'content-type': 'application/json' }, bodyFile: presignFile })
  const c = await measure('(c) GET /envelope/{id}', { url: `${host.apiUrl}/envelope/${id}`, headers: auth })
  await measure('(d) POST /envelope/create (1-page PDF)', {
    url: `${host.apiUrl}/envelope/create`,
    method: 'POST',
    headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    bodyFile: multipartFile,
  })
  console.log(`\n(b)/(a) = ${(b / a).toFixed(2)}  (target >= 0.5)`)
  console.log(`(c)/(a) = ${(c / a).toFixed(2)}  (target >= 0.5)`)
  console.log(`(a2)/(a) = ${(floorRps / a).toFixed(2)}  (what a POST costs on Hono and @hono/node-server alone; (b)/(a2) = ${(b / floorRps).toFixed(2)})`)

  console.log('\nHow cost grows: create with 1, 10, 100 blank pages, and with 5 signers and 20 fields')
  for (const pages of [1, 10, 100]) {
    const file = path.join(dir, `create-${pages}.multipart`)
    await writeFile(file, createBody(await asciiPdf(pages)))
    await measure(`(e) POST /envelope/create, ${pages} page(s)`, {
      url: `${host.apiUrl}/envelope/create`,
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      bodyFile: file,
    })
  }

  const busy = path.join(dir, 'create-fields.multipart')
  await writeFile(busy, createBody(await asciiPdf(1), 5, 20))
  await measure('(e) create, 1 page, 5 signers, 20 fields', {
    url: `${host.apiUrl}/envelope/create`,
    method: 'POST',
    headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    bodyFile: busy,
  })

  console.log('\nHow cost grows: GET /envelope (first page of 20) with 10, 1,000, 10,000 envelopes in the team')
  const listRate = new Map<number, number>()
  const searchRate = new Map<number, number>()
  for (const n of [10, 1_000, 10_000]) {
    // A team of its own, its envelopes written straight into the database.
    const team = await host.createTeam({ name: `list ${n}`, plan: 'enterprise' })
    const { token: listToken } = await host.createApiToken({ name: `list ${n}`, teamId: team.id })
    await host.db.query(
      `insert into envelopes (id, team_id, type, secondary_number, status, source, visibility, template_type, title, document_meta, created_at)
       select 'envelope_list' || $2::int || 'x' || g, $1, 'DOCUMENT', g, 'DRAFT', 'DOCUMENT', 'EVERYONE', 'PRIVATE', 'Listed ' || g, '{}'::jsonb,
              now() - make_interval(secs => g)
       from generate_series(1, $2::int) g`,
      [team.id, n],
    )
    await host.db.query('analyze envelopes')
    listRate.set(n, await measure(`(f) GET /envelope, ${n} in the team`, { url: `${host.apiUrl}/envelope`, headers: { Authorization: listToken } }))
    // The console's search: a substring of the title or of a recipient's name or e-mail.
    searchRate.set(n, await measure(`(g) GET /envelope?query=, ${n} in the team`, { url: `${host.apiUrl}/envelope?query=Listed%20${n}`, headers: { Authorization: listToken } }))
    if (n === 10_000) {
      const plan = await host.db.query<{ 'QUERY PLAN': string }>(
        `explain select e.id from envelopes e where e.team_id = $1 and e.deleted_at is null order by e.created_at desc, e.id desc limit 20`,
        [team.id],
      )
      const text = plan.map((r) => r['QUERY PLAN']).join(' | ')
      console.log(`    page query plan at 10,000: ${/Index Scan|Index Only Scan|Bitmap Index Scan/.test(text) ? 'uses an index' : 'NO INDEX'} (${text.slice(0, 160)})`)
    }
  }
  // The list's cost at 10,000 against 10, as requests per second (the same page shape).
  const growth = listRate.get(10)! / listRate.get(10_000)!
  console.log(`\n(f) 10,000 / 10: ${growth.toFixed(2)}x the time per request   target <= ${LIST_GROWTH_TARGET}: ${growth <= LIST_GROWTH_TARGET ? 'ok' : 'OVER TARGET'}   (baseline, counting every row: 5.5x, 629 vs 114 req/s)`)
  // A search against the list of the same team, and at 10,000 against the first page of a small team.
  for (const n of [10, 1_000, 10_000]) {
    const r = listRate.get(n)! / searchRate.get(n)!
    console.log(`(g)/(f) at ${String(n).padStart(6)}: ${r.toFixed(2)}x the time per request   target <= ${SEARCH_TARGET}: ${r <= SEARCH_TARGET ? 'ok' : 'OVER TARGET'}`)
  }
  const far = listRate.get(10)! / searchRate.get(10_000)!
  console.log(`(g) at 10,000 / (f) at 10: ${far.toFixed(2)}x   target <= ${SEARCH_TARGET}: ${far <= SEARCH_TARGET ? 'ok' : 'OVER TARGET'}`)
} finally {
  await host.close()
  bare.close()
  floor.close()
  await rm(dir, { recursive: true, force: true })
}
