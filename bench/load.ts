/**
 * Durability under load. The host runs as its own process (the operator CLI's `serve`, loopback
 * only); concurrent clients mix create, get, update, recipient and field edits and distribute for a
 * bounded time, each on its own envelopes, one request at a time, keeping a model of every write
 * the host acknowledged. Optionally the host is killed (SIGKILL) halfway and restarted on the same
 * data. Then every envelope is read back and checked against the model: present, its title, its
 * recipients and fields as acknowledged, its status, and never half-written (one item, every field
 * on a recipient and item of its own envelope).
 * Prints requests, answers by class, lost writes and restart time; exits 1 when anything is wrong.
 *   npx tsx bench/load.ts                       both databases, with and without a kill
 *   LOAD_CLIENTS=10 LOAD_SECONDS=8 npx tsx bench/load.ts
 * Targets: 0 answers 5xx, 0 lost writes, 0 half-written envelopes.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { PDFDocument } from '@cantoo/pdf-lib'
import { startHost } from '../host/server/start.js'
import { spawnHost } from './support/host-process.js'

export interface LoadOptions {
  clients: number
  seconds: number
  /** Kill the host with SIGKILL halfway and start it again on the same data. */
  kill: boolean
  /** With a kill: not before this many writes were acknowledged (a busy machine may take longer than half the time). */
  killAfterWrites?: number
  /** PostgreSQL connection string (a fresh schema is used and dropped), or undefined: embedded. */
  databaseUrl?: string | undefined
}

export interface LoadResult {
  engine: 'pglite' | 'postgres'
  requests: number
  /** Answers by class; `network` = no answer (the host was down or died mid-request). */
  answers: { '2xx': number; '4xx': number; '5xx': number; network: number }
  /** The first few unexpected answers (4xx/5xx), for the report. */
  unexpected: string[]
  acknowledgedWrites: number
  lostWrites: number
  halfWritten: number
  envelopesChecked: number
  /** From spawning the host again to its first answer, ms. */
  restartMs: number | null
  problems: string[]
}

interface Model {
  id: string
  itemId: string
  signerId: number
  title: string
  /** Titles sent without an answer since the last acknowledged one: any of them may have landed. */
  maybeTitles: string[]
  recipients: Set<string>
  maybeRecipients: Set<string>
  fields: number
  maybeFields: number
  status: 'DRAFT' | 'PENDING'
  maybeSent: boolean
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'host-load-'))
  const dataDir = path.join(dir, 'data')
  let databaseUrl: string | undefined
  let schema: string | undefined
  if (o.databaseUrl) {
    schema = `host_load_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`
    const u = new URL(o.databaseUrl)
    u.searchParams.set('schema', schema)
    databaseUrl = u.toString()
  }
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    APP_DIST_DIR: path.join(dir, 'no-app'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  }
  // Storage and a token first, in this process; then the host as a process of its own.
  const setup = await startHost({ port: 0, hostname: '127.0.0.1', dataDir, databaseUrl })
  const engine = setup.db.engine
  const { token } = await setup.createApiToken({ name: 'load' })
  await setup.close()

  let host = await spawnHost(env)
  let base = `${host.url}/api/v2`
  const result: LoadResult = {
    engine,
    requests: 0,
    answers: { '2xx': 0, '4xx': 0, '5xx': 0, network: 0 },
    unexpected: [],
    acknowledgedWrites: 0,
    lostWrites: 0,
    halfWritten: 0,
    envelopesChecked: 0,
    restartMs: null,
    problems: [],
  }

  const doc = await PDFDocument.create()
  doc.addPage([612, 792])
  const pdf = await doc.save()

  /** One request; null when no answer came (counted as network). Loopback only. */
  async function call(method: 'GET' | 'POST', p: string, body?: object | FormData): Promise<{ status: number; json: any } | null> {
    result.requests++
    const form = body instanceof FormData
    try {
      const res = await fetch(base + p, {
        method,
        headers: { Authorization: token, ...(body && !form ? { 'Content-Type': 'application/json' } : {}) },
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      })
      const text = await res.text()
      const cls = res.status >= 500 ? '5xx' : res.status >= 400 ? '4xx' : '2xx'
      result.answers[cls]++
      if (cls !== '2xx' && result.unexpected.length < 10) result.unexpected.push(`${method} ${p.replace(/\?.*/, '')} -> ${res.status} ${text.slice(0, 200)}`)
      return { status: res.status, json: text ? JSON.parse(text) : null }
    } catch {
      result.answers.network++
      return null
    }
  }

  const models: Model[] = []
  // With a kill, pushed back by the time the host was down, so as much load runs after the restart.
  let deadline = Date.now() + o.seconds * 1000
  let counter = 0

  async function client(n: number) {
    const mine: Model[] = []
    while (Date.now() < deadline) {
      const drafts = mine.filter((m) => m.status === 'DRAFT' && !m.maybeSent)
      const r = Math.random()
      const m = drafts[Math.floor(Math.random() * drafts.length)]
      const k = ++counter
      if (!m || r < 0.15) {
        const title = `load ${n}-${k}`
        const form = new FormData()
        form.set(
          'payload',
          JSON.stringify({
            type: 'DOCUMENT',
            title,
            recipients: [{ email: `s${k}@example.com`, name: 'Signer', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 10, width: 20, height: 5 }] }],
          }),
        )
        form.append('files', new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'load.pdf')
        const res = await call('POST', '/envelope/create', form)
        if (res?.status !== 200) {
          if (!res) await new Promise((r) => setTimeout(r, 100)) // the host is down: wait a little
          continue
        }
        result.acknowledgedWrites++
        // Learn the item and recipient ids (a read, counted as one).
        let got = await call('GET', `/envelope/${res.json.id}`)
        for (let tries = 0; !got && tries < 100 && Date.now() < deadline + 30_000; tries++) {
          await new Promise((r) => setTimeout(r, 100))
          got = await call('GET', `/envelope/${res.json.id}`)
        }
        const e = got?.json
        const model: Model = {
          id: res.json.id,
          itemId: e?.envelopeItems?.[0]?.id,
          signerId: e?.recipients?.[0]?.id,
          title,
          maybeTitles: [],
          recipients: new Set([`s${k}@example.com`]),
          maybeRecipients: new Set(),
          fields: 1,
          maybeFields: 0,
          status: 'DRAFT',
          maybeSent: false,
        }
        mine.push(model)
        models.push(model)
      } else if (r < 0.45) {
        await call('GET', `/envelope/${m.id}`)
      } else if (r < 0.6) {
        const title = `renamed ${n}-${k}`
        const res = await call('POST', '/envelope/update', { envelopeId: m.id, data: { title } })
        if (res?.status === 200) {
          m.title = title
          m.maybeTitles = []
          result.acknowledgedWrites++
        } else if (!res) m.maybeTitles.push(title)
      } else if (r < 0.75) {
        const email = `cc${k}@example.com`
        const res = await call('POST', '/envelope/recipient/create-many', { envelopeId: m.id, data: [{ email, name: 'Copy', role: 'CC' }] })
        if (res?.status === 200) {
          m.recipients.add(email)
          result.acknowledgedWrites++
        } else if (!res) m.maybeRecipients.add(email)
      } else if (r < 0.92) {
        const field = { recipientId: m.signerId, envelopeItemId: m.itemId, type: 'TEXT', page: 1, positionX: 30, positionY: 30 + (k % 50), width: 20, height: 4 }
        const res = await call('POST', '/envelope/field/create-many', { envelopeId: m.id, data: [field] })
        if (res?.status === 200) {
          m.fields++
          result.acknowledgedWrites++
        } else if (!res) m.maybeFields++
      } else {
        const res = await call('POST', '/envelope/distribute', { envelopeId: m.id })
        if (res?.status === 200) {
          m.status = 'PENDING'
          result.acknowledgedWrites++
        } else if (!res) m.maybeSent = true
      }
    }
  }

  async function killAndRestart() {
    await new Promise((r) => setTimeout(r, (o.seconds * 1000) / 2))
    // Until enough writes were acknowledged, keeping half the time ahead so the clients go on.
    while (result.acknowledgedWrites < (o.killAfterWrites ?? 0)) {
      deadline = Math.max(deadline, Date.now() + (o.seconds * 1000) / 2)
      await new Promise((r) => setTimeout(r, 50))
    }
    host.child.kill('SIGKILL')
    await new Promise((r) => host.child.once('exit', r))
    const t0 = performance.now()
    host = await spawnHost(env)
    base = `${host.url}/api/v2`
    // Ready = answers an authenticated read (the data opened).
    for (let i = 0; i < 600; i++) {
      const res = await fetch(`${base}/envelope?perPage=1`, { headers: { Authorization: token } }).catch(() => null)
      if (res?.ok) break
      await new Promise((r) => setTimeout(r, 50))
    }
    result.restartMs = performance.now() - t0
    deadline += result.restartMs
  }

  try {
    await Promise.all([...Array.from({ length: o.clients }, (_, i) => client(i)), ...(o.kill ? [killAndRestart()] : [])])

    // Read everything back.
    for (const m of models) {
      result.envelopesChecked++
      const res = await call('GET', `/envelope/${m.id}`)
      const e = res?.json
      const lost = (what: string, n = 1) => {
        result.lostWrites += n
        if (result.problems.length < 20) result.problems.push(`${m.id}: ${what}`)
      }
      if (res?.status !== 200) {
        lost(`acknowledged envelope missing (${res?.status ?? 'no answer'})`, 1)
        continue
      }
      if (e.title !== m.title && !m.maybeTitles.includes(e.title)) lost(`title ${JSON.stringify(e.title)}, acknowledged ${JSON.stringify(m.title)}`)
      const emails = new Set<string>(e.recipients.map((x: { email: string }) => x.email))
      for (const email of m.recipients) if (!emails.has(email)) lost(`recipient ${email} missing`)
      for (const email of emails) if (!m.recipients.has(email) && !m.maybeRecipients.has(email)) lost(`recipient ${email} never acknowledged`)
      if (e.fields.length < m.fields || e.fields.length > m.fields + m.maybeFields) lost(`${e.fields.length} fields, acknowledged ${m.fields}`)
      if (m.status === 'PENDING' ? e.status !== 'PENDING' : e.status !== 'DRAFT' && !m.maybeSent) lost(`status ${e.status}, acknowledged ${m.status}`)
      const recipientIds = new Set(e.recipients.map((x: { id: number }) => x.id))
      const itemIds = new Set(e.envelopeItems.map((x: { id: string }) => x.id))
      const orphans = e.fields.filter((f: { recipientId: number; envelopeItemId: string }) => !recipientIds.has(f.recipientId) || !itemIds.has(f.envelopeItemId))
      if (e.envelopeItems.length !== 1 || orphans.length) {
        result.halfWritten++
        result.problems.push(`${m.id}: half-written (${e.envelopeItems.length} items, ${orphans.length} fields without their recipient or item)`)
      }
    }
  } finally {
    host.child.kill('SIGTERM')
    await new Promise((r) => (host.child.exitCode !== null ? r(null) : host.child.once('exit', r)))
    if (schema && o.databaseUrl) {
      const c = new pg.Client({ connectionString: o.databaseUrl })
      await c.connect()
      await c.query(`drop schema if exists ${schema} cascade`)
      await c.end()
    }
    await rm(dir, { recursive: true, force: true })
  }
  return result
}

export function formatLoad(o: LoadOptions, r: LoadResult): string {
  return [
    `${r.engine}, ${o.clients} clients, ${o.seconds} s${o.kill ? ', SIGKILL halfway and restart' : ''}:`,
    `  requests ${r.requests} (${(r.requests / o.seconds).toFixed(0)}/s)   2xx ${r.answers['2xx']}   4xx ${r.answers['4xx']}   5xx ${r.answers['5xx']} (target 0)   no answer ${r.answers.network}`,
    `  acknowledged writes ${r.acknowledgedWrites}   lost ${r.lostWrites} (target 0)   envelopes checked ${r.envelopesChecked}   half-written ${r.halfWritten} (target 0)` +
      (r.restartMs === null ? '' : `   restart ${r.restartMs.toFixed(0)} ms (spawn to first answer)`),
    ...r.unexpected.map((u) => `  unexpected: ${u}`),
    ...r.problems.map((p) => `  problem: ${p}`),
  ].join('\n')
}

export const loadOk = (r: LoadResult) => r.answers['5xx'] === 0 && r.answers['4xx'] === 0 && r.lostWrites === 0 && r.halfWritten === 0

if (import.meta.url === `file://${process.argv[1]}`) {
  const clients = Number(process.env.LOAD_CLIENTS || 50)
  const seconds = Number(process.env.LOAD_SECONDS || 60)
  const pgUrl = process.env.DATABASE_TEST_URL || 'postgres://postgres@127.0.0.1:5432/test'
  const probe = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 })
  const pgUp = await probe.connect().then(() => true, () => false)
  await probe.end().catch(() => {})
  let ok = true
  for (const databaseUrl of [undefined, ...(pgUp ? [pgUrl] : [])]) {
    for (const kill of [false, true]) {
      const o = { clients, seconds, kill, databaseUrl }
      const r = await runLoad(o)
      console.log(formatLoad(o, r))
      ok &&= loadOk(r)
    }
  }
  if (!pgUp) console.log(`PostgreSQL variant skipped: no server at ${pgUrl}`)
  process.exit(ok ? 0 : 1)
}
