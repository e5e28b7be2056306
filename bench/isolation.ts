/**
 * One team's heavy work never stalls another's. The host runs as its own process on the embedded
 * database (the harder case: one engine for everyone), sending e-mail to an SMTP server in this
 * process. Team B reads one of its envelopes over and over (`GET /envelope/{id}`, one request at a
 * time) and sends envelopes to a signer, timing each signing e-mail from the send to its arrival
 * over SMTP: first with nothing else going on, then
 *   1. while team A's 100,000-page document is sealed and PDF bombs are being uploaded,
 *   2. while anonymous clients post hostile PDFs (thousands of fake /ByteRange) to /verify,
 *   3. while anonymous clients post hostile evidence files to /verify: 20 MiB of base64url JSON
 *      with many short keys (alone and beside a PDF), and forged ones under the evidence cap that
 *      claim this host's certificate, their payloads 1 MiB of many short keys,
 *   4. while team A's 16 webhooks point at a receiver that never answers, with events to deliver,
 *   5. while team C sends a template to 1,000 people (bulk send: 1,000 documents and e-mails).
 * Prints each p99 and e-mail latency beside its idle figure, measured in this one run: phase 1
 * beside team B's reads alone, phases 2 to 5 beside team B's reads and e-mails together (its own
 * work, with no other team's). The anonymous clients run in a thread of their own, so the time
 * they spend sending files is not counted in team B's latency by this process's own event loop.
 * Targets: busy p99 <= 2x idle p99; busy e-mail latency (median) <= 2x idle.
 *   npx tsx bench/isolation.ts      Env: ISOLATION_PAGES (default 100000), ISOLATION_IDLE_S (5),
 *                                   ISOLATION_PHASE_S (8, phases 2 to 4), ISOLATION_BULK_ROWS (1000)
 */
import { createServer, type ServerResponse } from 'node:http'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { deflateSync } from 'node:zlib'
import { PDFDocument } from '@cantoo/pdf-lib'
import { SMTPServer } from 'smtp-server'
import { startHost } from '../host/server/start.js'
import { bulkDone, client, startBulk } from './support/bulk.js'
import { spawnHost } from './support/host-process.js'

const PAGES = Number(process.env.ISOLATION_PAGES || 100_000)
const IDLE_SECONDS = Number(process.env.ISOLATION_IDLE_S || 5)
const PHASE_SECONDS = Number(process.env.ISOLATION_PHASE_S || 8)
const TARGET_RATIO = 2
/** Anonymous /verify clients at once, and the fake signatures in each of their files. */
const VERIFIERS = 4
const FAKE_SIGNATURES = 3000
/** The evidence files' size past the cap (the finding's), and the forged ones' payload. */
const EVIDENCE_BOMB_BYTES = 20 * 1024 * 1024
const FORGED_PAYLOAD_BYTES = 700 * 1024
/** Team A's webhooks, all to a receiver that never answers. */
const SILENT_WEBHOOKS = 16
/** Team A's bulk send: one document per row, each sent to its signer. */
const BULK_ROWS = Number(process.env.ISOLATION_BULK_ROWS || 1000)

/** A PDF of `pages` letter pages sharing one small content stream, written directly (pdf-lib would take minutes). */
function manyPages(pages: number): Uint8Array {
  const parts: string[] = ['%PDF-1.7\n']
  const offsets: number[] = []
  let length = parts[0]!.length
  const add = (n: number, body: string) => {
    offsets[n] = length
    const text = `${n} 0 obj\n${body}\nendobj\n`
    parts.push(text)
    length += text.length
  }
  const content = 'BT /F1 12 Tf 72 720 Td (Page of a very long annex) Tj ET'
  add(1, '<< /Type /Catalog /Pages 2 0 R >>')
  const first = 5
  add(2, `<< /Type /Pages /Count ${pages} /Kids [${Array.from({ length: pages }, (_, i) => `${first + i} 0 R`).join(' ')}] >>`)
  add(3, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`)
  add(4, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>')
  for (let i = 0; i < pages; i++) add(first + i, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>')
  const count = first + pages
  const xref = [`xref\n0 ${count}\n`, '0000000000 65535 f \n', ...offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('')
  parts.push(xref, `trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`)
  return new TextEncoder().encode(parts.join(''))
}

/** A one-page PDF whose page content is a 0.5 MB deflate stream of zeros that inflates to 512 MiB. */
function bomb(): Uint8Array {
  const body = deflateSync(Buffer.alloc(512 * 1024 * 1024), { level: 9 })
  return new Uint8Array(
    Buffer.concat([
      Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count 1 /Kids [3 0 R] >> endobj\n'),
      Buffer.from('3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj\n'),
      Buffer.from(`4 0 obj << /Length ${body.length} /Filter /FlateDecode >>\nstream\n`),
      body,
      Buffer.from('\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
    ]),
  )
}

/** A PDF whose one page is followed by `count` signature dictionaries with fake /ByteRange and /Contents. */
function fakeSignatures(count: number): Uint8Array {
  const head = '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count 1 /Kids [3 0 R] >> endobj\n' +
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\n'
  const sigs = Array.from({ length: count }, (_, i) =>
    `${4 + i} 0 obj << /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /ByteRange [0 ${100 + i} ${300 + i} ${1000 + i}] /Contents <${'30820a'.padEnd(512, '0')}> >> endobj\n`,
  )
  return new TextEncoder().encode(`${head}${sigs.join('')}trailer << /Root 1 0 R /Size ${4 + count} >>\n%%EOF\n`)
}

/** An SMTP server in this process: when each recipient's message arrived. */
async function smtpArrivals() {
  const arrived = new Map<string, number>()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      stream.on('data', () => {})
      stream.on('end', () => {
        for (const r of session.envelope.rcptTo) arrived.set(r.address.toLowerCase(), performance.now())
        cb()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.server.address() as AddressInfo).port
  return { arrived, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** A webhook receiver that takes each call and never answers it. */
async function silentReceiver() {
  const held: ServerResponse[] = []
  const server = createServer((_req, res) => void held.push(res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    calls: () => held.length,
    close: () => {
      for (const res of held) res.destroy()
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** `bytes` of JSON with as many short keys as fit, as base64url: what the hostile evidence files held. */
function manyKeys(bytes: number): string {
  const keys: string[] = []
  for (let i = 0, used = 2; used < bytes - 12; i++) {
    const k = `"${i.toString(36)}":0`
    keys.push(k)
    used += k.length + 1
  }
  return Buffer.from(`{${keys.join(',')}}`).toString('base64url')
}

/** A request of the anonymous clients: its Content-Type and body (a multipart body carries its boundary). */
interface Hostile {
  type: string
  bytes: Uint8Array
}

/**
 * `clients` anonymous clients in a thread of their own, posting `requests` in turn to `url` until
 * `end`: the statuses they got (`reset` when the host closed the connection on a refused upload).
 * Each sends its body in 64 kB writes over a socket of its own and stops once the answer comes,
 * as a client such as curl does: a body refused from its head costs the bench what the host read.
 */
function anonymousLoad(url: string, requests: Hostile[], clients: number, end: number): { worker: Worker; statuses: Promise<Map<string, number>> } {
  const worker = new Worker(
    `const { parentPort, workerData: w } = require('node:worker_threads')
     const { connect } = require('node:net')
     const url = new URL(w.url)
     const post = (r) => new Promise((resolve) => {
       const socket = connect(Number(url.port), url.hostname)
       let answer = ''
       let sent = 0
       let answered = false
       const finish = (status) => { socket.destroy(); resolve(status) }
       const ended = () => finish(/^HTTP\\/1\\.1 (\\d+)/.exec(answer)?.[1] ?? 'reset')
       socket.on('error', ended)
       socket.on('close', ended)
       socket.on('data', (d) => {
         answered = true
         answer += d
         const head = answer.indexOf('\\r\\n\\r\\n')
         const length = Number(/content-length: *(\\d+)/i.exec(answer)?.[1] ?? 0)
         if (head !== -1 && answer.length >= head + 4 + length) finish(/^HTTP\\/1\\.1 (\\d+)/.exec(answer)?.[1] ?? 'reset')
       })
       const pump = () => {
         while (!answered && sent < r.bytes.length) {
           const chunk = r.bytes.subarray(sent, sent + 65536)
           sent += chunk.length
           if (!socket.write(chunk)) return socket.once('drain', pump)
         }
       }
       socket.on('connect', () => {
         socket.write('POST ' + url.pathname + ' HTTP/1.1\\r\\nHost: ' + url.host + '\\r\\nContent-Type: ' + r.type + '\\r\\nContent-Length: ' + r.bytes.length + '\\r\\nConnection: close\\r\\n\\r\\n')
         pump()
       })
     })
     const statuses = {}
     let next = 0
     Promise.all(Array.from({ length: w.clients }, async () => {
       while (Date.now() < w.end) {
         const status = await post(w.requests[next++ % w.requests.length])
         statuses[status] = (statuses[status] ?? 0) + 1
       }
     })).then(() => parentPort.postMessage(statuses))`,
    { eval: true, workerData: { url, requests, clients, end } },
  )
  const statuses = new Promise<Record<string, number>>((resolve, reject) => worker.once('message', resolve).once('error', reject))
  return { worker, statuses: statuses.then((s) => new Map(Object.entries(s))) }
}

const describeStatuses = (m: Map<string, number>) => [...m].map(([s, n]) => `${n} x ${s}`).join(', ')
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0)

/** CPU time a process used so far (all its threads), in ms, from /proc (Linux; null elsewhere). */
async function cpuMs(pid: number | undefined): Promise<number | null> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime + stime, in ticks of 1/100 s
  } catch {
    return null
  }
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), 'host-isolation-'))
  const dataDir = path.join(dir, 'data')
  const setup = await startHost({ port: 0, hostname: '127.0.0.1', dataDir })
  const a = await setup.createTeam({ name: 'Heavy', plan: 'enterprise' })
  const b = await setup.createTeam({ name: 'Quiet', plan: 'enterprise' })
  const tokenA = (await setup.createApiToken({ name: 'a', teamId: a.id })).token
  const tokenB = (await setup.createApiToken({ name: 'b', teamId: b.id })).token
  // Team C sends to many; a team of its own, so team A's silent webhooks do not hold its slots.
  const c = await setup.createTeam({ name: 'Many', plan: 'enterprise' })
  const tokenC = (await setup.createApiToken({ name: 'c', teamId: c.id })).token
  await setup.close()
  const smtp = await smtpArrivals()
  const silent = await silentReceiver()
  const host = await spawnHost({
    DATA_DIR: dataDir,
    APP_DIST_DIR: path.join(dir, 'no-app'),
    MAX_UPLOAD_BYTES: String(64 * 1024 * 1024),
    SMTP_URL: smtp.url,
    // Anonymous clients from many addresses: every /verify request is checked.
    VERIFY_RATE_LIMIT: '0',
    WEBHOOK_ALLOW_PRIVATE_URLS: '1',
  })
  const base = `${host.url}/api/v2`
  const call = async (token: string, p: string, init: RequestInit = {}) => {
    const res = await fetch(base + p, { ...init, headers: { Authorization: token, ...(typeof init.body === 'string' ? { 'Content-Type': 'application/json' } : {}) } })
    const type = res.headers.get('content-type') ?? ''
    return { status: res.status, body: type.includes('json') ? await res.json() : await res.arrayBuffer() }
  }
  const create = async (token: string, pdf: Uint8Array, payload: object) => {
    const fd = new FormData()
    fd.set('payload', JSON.stringify({ type: 'DOCUMENT', title: 'Document', ...payload }))
    fd.append('files', new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'document.pdf')
    return call(token, '/envelope/create', { method: 'POST', body: fd })
  }

  try {
    const small = await PDFDocument.create()
    small.addPage([612, 792])
    const quiet = await create(tokenB, await small.save(), { title: 'Quiet' })
    const read = async () => {
      const t = performance.now()
      const res = await call(tokenB, `/envelope/${quiet.body.id}`)
      if (res.status !== 200) throw new Error(`GET answered ${res.status}`)
      return performance.now() - t
    }
    for (let i = 0; i < 200; i++) await read() // warm-up
    const idle: number[] = []
    for (const until = Date.now() + IDLE_SECONDS * 1000; Date.now() < until; ) idle.push(await read())

    // Team B's signing e-mail: from the send to its arrival over SMTP.
    const onePage = await small.save()
    let mails = 0
    const mailLatency = async () => {
      const to = `signer-${++mails}@example.com`
      const e = await create(tokenB, onePage, {
        title: `Mail ${mails}`,
        recipients: [{ email: to, name: 'Signer', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 80, width: 20, height: 5 }] }],
      })
      if (e.status !== 200) throw new Error(`create answered ${e.status}: ${JSON.stringify(e.body)}`)
      const t0 = performance.now()
      const sent = await call(tokenB, '/envelope/distribute', { method: 'POST', body: JSON.stringify({ envelopeId: e.body.id }) })
      if (sent.status !== 200) throw new Error(`distribute answered ${sent.status}`)
      for (const until = Date.now() + 60_000; !smtp.arrived.has(to); await new Promise((r) => setTimeout(r, 2))) {
        if (Date.now() > until) throw new Error(`the e-mail to ${to} did not arrive within 60 s`)
      }
      return smtp.arrived.get(to)! - t0
    }
    await mailLatency() // warm-up
    const idleMail: number[] = []
    for (let i = 0; i < 5; i++) idleMail.push(await mailLatency())

    /** Team B's reads, one at a time, and its e-mails, one at a time, while `busy` says so. */
    const measure = async (busy: () => boolean) => {
      const reads: number[] = []
      const mailed: number[] = []
      const cpu0 = await cpuMs(host.child.pid)
      const t0 = performance.now()
      await Promise.all([
        (async () => {
          while (busy()) reads.push(await read())
        })(),
        (async () => {
          while (busy()) mailed.push(await mailLatency())
        })(),
      ])
      const cpu1 = await cpuMs(host.child.pid)
      // The host's CPU (every thread: loop, worker lanes, collector) per second of the phase.
      const hostCpu = cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) / (performance.now() - t0)) * 1000
      return { reads, mailed, hostCpu }
    }

    // Team A: the huge document, sent to one signer with a signature on page 1.
    process.stdout.write(`team A uploads ${PAGES.toLocaleString('en')} pages... `)
    const huge = manyPages(PAGES)
    let t = performance.now()
    const made = await create(tokenA, huge, {
      title: 'Annex',
      recipients: [{ email: 'signer@example.com', name: 'Signer', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 80, width: 20, height: 5 }] }],
    })
    if (made.status !== 200) throw new Error(`create answered ${made.status}: ${JSON.stringify(made.body)}`)
    console.log(`${(huge.byteLength / 1e6).toFixed(1)} MB, created in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    const sent = await call(tokenA, '/envelope/distribute', { method: 'POST', body: JSON.stringify({ envelopeId: made.body.id }) })
    if (sent.status !== 200) throw new Error(`distribute answered ${sent.status}`)
    const doc = (await call(tokenA, `/envelope/${made.body.id}`)).body
    const signing = (p: string, body: object) =>
      fetch(`${host.url}/api/signing${p}`, { method: 'POST', headers: { Authorization: `Bearer ${doc.recipients[0].token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

    // The signer consents to sign electronically first (the team's disclosure is the default, version 0).
    const consent = await signing('/consent', { version: 0 })
    if (!consent.ok) throw new Error(`consent answered ${consent.status}: ${await consent.text()}`)
    // Sealing starts when the last signer completes; bombs are uploaded meanwhile.
    const bombPdf = bomb()
    let sealed = false
    let bombs = 0
    let refused = 0
    let lost = 0
    const bombing = (async () => {
      while (!sealed) {
        // A connection lost now and then is counted, not fatal: the figures are team B's.
        const res = await create(tokenA, bombPdf, { title: 'Bomb' }).catch(() => ({ status: 0 }))
        bombs++
        if (res.status >= 400 && res.status < 500) refused++
        if (res.status === 0) lost++
      }
    })()
    t = performance.now()
    const done = await signing('/complete', { fields: doc.fields.map((f: any) => ({ id: f.id, value: `data:image/png;base64,${png.toString('base64')}` })) })
    if (!done.ok) throw new Error(`complete answered ${done.status}: ${await done.text()}`)
    const completedMs = performance.now() - t
    const watching = (async () => {
      while (!sealed) {
        const res = await call(tokenA, `/envelope/item/${doc.envelopeItems[0].id}/download?version=signed`)
        if (res.status === 200) sealed = true
        else if (res.status !== 409) throw new Error(`signed download answered ${res.status}: ${JSON.stringify(res.body)}`)
      }
    })()
    const busy: number[] = []
    while (!sealed) busy.push(await read())
    const sealMs = performance.now() - t
    await watching
    await bombing

    // Team B's own work, reads and e-mails together, with no other team's: the baseline of phases 2 and 3.
    const quietEnd = Date.now() + PHASE_SECONDS * 1000
    const quiet2 = await measure(() => Date.now() < quietEnd)

    // Anonymous /verify load: hostile files with thousands of fake signatures, from several clients
    // in a thread of their own.
    const hostile = fakeSignatures(FAKE_SIGNATURES)
    const verifyEnd = Date.now() + PHASE_SECONDS * 1000
    const verifying = anonymousLoad(`${base}/verify`, [{ type: 'application/pdf', bytes: hostile }], VERIFIERS, verifyEnd)
    const duringVerify = await measure(() => Date.now() < verifyEnd)
    const verifyStatuses = await verifying.statuses
    await verifying.worker.terminate()

    // Anonymous evidence files: 20 MiB of base64url JSON of many short keys, alone
    // and beside a PDF, and forged files under the cap claiming this host's certificate (the
    // header of one of team B's own evidence files) with a payload of many short keys.
    const realHeader = Buffer.from((await call(tokenB, `/envelope/${quiet.body.id}/evidence?format=jws`)).body as ArrayBuffer).toString().split('.')[0]
    const bombJws = new TextEncoder().encode(`${realHeader}.${manyKeys((EVIDENCE_BOMB_BYTES * 3) / 4)}.AAAA`)
    const forgedJws = new TextEncoder().encode(`${realHeader}.${manyKeys(FORGED_PAYLOAD_BYTES)}.AAAA`)
    const boundary = 'isolation-evidence'
    const besidePdf = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      Buffer.from(onePage),
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="evidence"; filename="e.jws"\r\nContent-Type: application/jose\r\n\r\n`),
      bombJws,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const evidenceEnd = Date.now() + PHASE_SECONDS * 1000
    const evidenceLoad = anonymousLoad(
      `${base}/verify`,
      [
        { type: 'application/jose', bytes: bombJws },
        { type: 'application/jose', bytes: forgedJws },
        { type: `multipart/form-data; boundary=${boundary}`, bytes: besidePdf },
        { type: 'application/jose', bytes: forgedJws },
      ],
      VERIFIERS,
      evidenceEnd,
    )
    const duringEvidence = await measure(() => Date.now() < evidenceEnd)
    const evidenceStatuses = await evidenceLoad.statuses
    await evidenceLoad.worker.terminate()

    // Team A's webhooks to a receiver that never answers, and events for each of them.
    const hooks = await Promise.all(
      Array.from({ length: SILENT_WEBHOOKS }, (_, i) =>
        call(tokenA, '/webhook/create', { method: 'POST', body: JSON.stringify({ url: `${silent.url}/${i}`, events: ['DOCUMENT_CREATED', 'DOCUMENT_SENT'] }) }),
      ),
    )
    if (hooks.some((h) => h.status !== 200)) throw new Error(`webhook/create answered ${hooks.map((h) => h.status).join(', ')}`)
    for (let i = 0; i < 4; i++) {
      const e = await create(tokenA, onePage, {
        title: `Noisy ${i}`,
        recipients: [{ email: `noisy-${i}@example.com`, name: 'Noisy', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 80, width: 20, height: 5 }] }],
      })
      await call(tokenA, '/envelope/distribute', { method: 'POST', body: JSON.stringify({ envelopeId: e.body.id }) })
    }
    for (const until = Date.now() + 10_000; silent.calls() === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10))
    const webhookEnd = Date.now() + PHASE_SECONDS * 1000
    const duringWebhooks = await measure(() => Date.now() < webhookEnd)
    const held = silent.calls()

    // Team C sends a template to 1,000 people: rows, documents and e-mails on the same queue.
    const bulkId = await startBulk(client(base, tokenC), onePage, BULK_ROWS, 'bulk')
    let bulkRunning = true
    const bulkEnd = bulkDone(client(base, tokenC), bulkId).finally(() => (bulkRunning = false))
    const bulkT0 = performance.now()
    const duringBulk = await measure(() => bulkRunning)
    const bulk = await bulkEnd
    const bulkSeconds = (performance.now() - bulkT0) / 1000

    const fmt = (ms: number) => `${ms.toFixed(1)} ms`
    const verdict = (ratio: number) => `${ratio.toFixed(2)} (target <= ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'met' : 'NOT MET'})`
    const ratio = percentile(busy, 99) / percentile(idle, 99)
    console.log(`last signer's completion answered in ${fmt(completedMs)}; sealed ${fmt(sealMs)} after it`)
    console.log(`bomb uploads meanwhile: ${bombs} (${refused} refused with 4xx${lost ? `, ${lost} connections lost` : ''})`)
    console.log(`team B GET /envelope/{id}, idle: ${idle.length} requests, p50 ${fmt(percentile(idle, 50))}, p99 ${fmt(percentile(idle, 99))}`)
    console.log(`team B GET /envelope/{id}, busy: ${busy.length} requests, p50 ${fmt(percentile(busy, 50))}, p99 ${fmt(percentile(busy, 99))}, max ${fmt(Math.max(...busy))}`)
    console.log(`busy p99 / idle p99: ${verdict(ratio)}`)
    const mailIdle = percentile(idleMail, 50)
    console.log(`team B signing e-mail, send to SMTP arrival, idle: ${idleMail.length} e-mails, median ${fmt(mailIdle)}, max ${fmt(Math.max(...idleMail))}`)
    const quietRead = percentile(quiet2.reads, 99)
    const quietMail = percentile(quiet2.mailed, 50)
    const cpu = (m: { hostCpu: number | null }) => (m.hostCpu === null ? '' : `; host CPU ${m.hostCpu.toFixed(0)} ms/s`)
    console.log(`team B reading and sending together, no other team: GET ${quiet2.reads.length} requests, p99 ${fmt(quietRead)}; ${quiet2.mailed.length} e-mails, median ${fmt(quietMail)}${cpu(quiet2)}`)
    const phases: [string, { reads: number[]; mailed: number[]; hostCpu: number | null }][] = [
      [`anonymous /verify load (${VERIFIERS} clients, ${(hostile.byteLength / 1e3).toFixed(0)} kB files with ${FAKE_SIGNATURES.toLocaleString('en')} fake /ByteRange; ${total(verifyStatuses)} checked: ${describeStatuses(verifyStatuses)})`, duringVerify],
      [
        `anonymous evidence files (${VERIFIERS} clients; ${(bombJws.byteLength / 1e6).toFixed(1)} MB of many short keys alone and beside a PDF, ${(forgedJws.byteLength / 1e6).toFixed(2)} MB forged; ${total(evidenceStatuses)} sent: ${describeStatuses(evidenceStatuses)})`,
        duringEvidence,
      ],
      [`team A's ${SILENT_WEBHOOKS} webhooks to a receiver that never answers (${held} deliveries held open)`, duringWebhooks],
      [`team C's bulk send of ${BULK_ROWS.toLocaleString('en')} rows (${bulk.sent} sent in ${bulkSeconds.toFixed(1)} s)`, duringBulk],
    ]
    for (const [what, m] of phases) {
      console.log(`while ${what}${cpu(m)}:`)
      console.log(`  GET /envelope/{id}: ${m.reads.length} requests, p50 ${fmt(percentile(m.reads, 50))}, p99 ${fmt(percentile(m.reads, 99))}; p99 / no-other-team p99: ${verdict(percentile(m.reads, 99) / quietRead)}`)
      console.log(`  signing e-mail: ${m.mailed.length} e-mails, median ${fmt(percentile(m.mailed, 50))}, max ${fmt(Math.max(...m.mailed))}; median / no-other-team median: ${verdict(percentile(m.mailed, 50) / quietMail)}`)
    }
  } finally {
    await silent.close()
    host.child.kill('SIGTERM')
    await new Promise((resolve) => host.child.once('exit', resolve))
    await smtp.close()
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
