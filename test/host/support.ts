import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib'
import { startHost, type Host, type StartHostOptions } from '../../host/server/start.js'
import { CODE_RESEND_MS } from '../../host/server/domain/signing/proof-binding.js'

export const DATABASE_TEST_URL = process.env.DATABASE_TEST_URL || 'postgres://postgres@127.0.0.1:5432/test'

/** A schema of its own on the test PostgreSQL (made on first use by the host): its URL, and its removal. */
export function freshSchema(prefix: string): { url: string; drop(): Promise<void> } {
  const schema = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const url = new URL(DATABASE_TEST_URL)
  url.searchParams.set('schema', schema)
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: DATABASE_TEST_URL })
      await client.connect()
      await client.query(`drop schema if exists ${schema} cascade`)
      await client.end()
    },
  }
}

/** Waits until `ok()` holds, looking every 100 ms; throws after `ms` (a safety net for a busy machine, not a bound). */
export async function until(ok: () => boolean | Promise<boolean>, ms = 120_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 100))
  }
}

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a process to its end, collecting what it writes. */
export function runProcess(command: string, args: string[], o: { cwd: string; env: Record<string, string | undefined> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, o)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Why the PostgreSQL variant cannot run here, or null when a server answers. */
export async function postgresUnavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: DATABASE_TEST_URL, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('select 1')
    return null
  } catch (err) {
    return `no PostgreSQL server at ${DATABASE_TEST_URL} (${(err as Error).message})`
  } finally {
    await client.end().catch(() => {})
  }
}

export type Variant = 'pglite' | 'postgres'

export interface TestHost extends Host {
  stop(): Promise<void>
}

/**
 * A host on a free port with its own storage: a fresh data dir (PGlite), or a fresh schema of the
 * test database (PostgreSQL) that is dropped afterwards, so parallel runs never meet.
 */
export async function startTestHost(variant: Variant, opts: StartHostOptions = {}): Promise<TestHost> {
  const dir = await mkdtemp(path.join(tmpdir(), 'host-test-'))
  const schema = freshSchema('host_test')
  const host = await startHost({
    port: 0,
    hostname: '127.0.0.1',
    dataDir: path.join(dir, 'data'),
    ...(variant === 'postgres' ? { databaseUrl: schema.url } : {}),
    appDistDir: path.join(dir, 'no-dist'),
    // Tests read what was sent in the local mailbox: they ask for it, as `npm start` does.
    mailbox: true,
    ...opts,
  })
  return Object.assign(host, {
    async stop() {
      try {
        await host.close()
      } finally {
        if (variant === 'postgres') await schema.drop()
        await rm(dir, { recursive: true, force: true })
      }
    },
  })
}

/** A real PDF of `pages` letter pages, with optional text drawn at (x, y) points on page 1. */
export async function makePdf(pages = 1, texts: { text: string; x: number; y: number; page?: number }[] = []): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (let i = 0; i < pages; i++) doc.addPage([612, 792])
  for (const t of texts) doc.getPage((t.page ?? 1) - 1).drawText(t.text, { x: t.x, y: t.y, size: 12, font })
  return doc.save()
}

/** A real PNG (1x1), to pass off as a PDF. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

/** That PNG as the signing pages send a signature. */
export const SIGNATURE = `data:image/png;base64,${PNG.toString('base64')}`

export interface Res<T = any> {
  status: number
  body: T
  headers: Headers
}

/** A tiny API client: JSON in, JSON (or bytes) out, with the given Authorization header value. */
export function api(base: string, auth?: string, o: { consent?: boolean } = {}) {
  const send = async (method: string, p: string, body?: BodyInit | object, extra: Record<string, string> = {}): Promise<Res> => {
    // A recipient completes only once they consented to sign electronically (docs/consent.md): on the
    // signing API the client gives that consent first, as the signing page does, unless told not to.
    if (o.consent !== false && method === 'POST' && body && typeof body === 'object' && !(body instanceof FormData) && !(body instanceof Uint8Array)) {
      if (base.endsWith('/api/signing') && p === '/complete') await giveConsent(send, extra)
      // A direct link's visitor sends their consent with the signature (from /api/signing or /api/signing/direct).
      const direct = base.endsWith('/api/signing') ? p === '/direct/complete' : base.endsWith('/api/signing/direct') && p === '/complete'
      if (direct && !('consent' in body)) body = { ...body, consent: { version: await disclosureVersion(send, p.replace(/complete$/, 'consent'), extra) } }
    }
    // A connection per call: a kept-alive one can be closed by the host as idle just as the next
    // call goes out on it when this process is too busy to notice in time (ECONNRESET).
    const headers: Record<string, string> = { ...(auth ? { Authorization: auth } : {}), Connection: 'close', ...extra }
    let payload: BodyInit | undefined
    if (body instanceof FormData || typeof body === 'string' || body instanceof Uint8Array) payload = body as BodyInit
    else if (body !== undefined) {
      payload = JSON.stringify(body)
      headers['Content-Type'] = 'application/json'
    }
    const res = await fetch(base + p, { method, headers, ...(payload === undefined ? {} : { body: payload }) })
    const type = res.headers.get('content-type') ?? ''
    const out = type.includes('json') ? await res.json() : new Uint8Array(await res.arrayBuffer())
    return { status: res.status, body: out, headers: res.headers }
  }
  return {
    get: (p: string, extra?: Record<string, string>) => send('GET', p, undefined, extra),
    post: (p: string, body?: BodyInit | object, extra?: Record<string, string>) => send('POST', p, body, extra),
    send,
  }
}
export type Api = ReturnType<typeof api>

type Send = (method: string, p: string, body?: BodyInit | object, extra?: Record<string, string>) => Promise<Res>
/** The version of the disclosure the recipient (or a direct link's visitor) is shown now; 0 when it cannot be read. */
async function disclosureVersion(send: Send, path: string, extra: Record<string, string>): Promise<number> {
  const res = await send('GET', path, undefined, extra)
  return res.status === 200 ? res.body.disclosure.version : 0
}
/** Consents as the signing page does, unless already given; a refusal is left to the action that follows. */
async function giveConsent(send: Send, extra: Record<string, string>): Promise<void> {
  const state = await send('GET', '/consent', undefined, extra)
  if (state.status !== 200 || state.body.given) return
  await send('POST', '/consent', { version: state.body.disclosure.version }, extra)
}

/**
 * A recipient on the signing API, their access check an e-mailed code when it asks for one: asks
 * for a code (read by `mailedCode` from what was sent), proves it, and opens, consents and signs
 * with the grant it gives; or gives wrong codes until the lock (five spend a code, a new one, then
 * wrong ones until 429). `clock`: the host's driven clock, moved past the wait between two codes.
 */
export function codeSigner(hostUrl: string, token: string, mailedCode: () => Promise<string>, clock?: { advance(ms: number): void }) {
  let grant: Record<string, string> = {}
  let asked = false
  const s = api(`${hostUrl}/api/signing`, `Bearer ${token}`)
  const expectOk = (res: Res, what: string) => {
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`)
    return res
  }
  const code = async () => {
    // Another code only after the page's wait between two (a driven clock passes it).
    if (asked) clock?.advance(CODE_RESEND_MS)
    asked = true
    expectOk(await s.post('/auth/code', { purpose: 'access' }), 'a code')
    return mailedCode()
  }
  const prove = (given: string) => s.post('/auth/access', { method: 'TWO_FACTOR_AUTH', code: given })
  const wrong = (right: string) => (right === '000000' ? '999999' : '000000')
  return {
    code,
    prove,
    wrong,
    /** Proves `given`: its grant then goes with every call. */
    pass: async (given: string) => void (grant = { 'x-recipient-auth': expectOk(await prove(given), 'the access check').body.grant }),
    /** The answer that locked them: 429 TOO_MANY_ATTEMPTS. */
    lockOut: async (): Promise<Res> => {
      const first = await code()
      for (let i = 0; i < 5; i++) await prove(wrong(first))
      const second = await code()
      let last = await prove(wrong(second))
      for (let i = 0; i < 5 && last.status !== 429; i++) last = await prove(wrong(second))
      return last
    },
    /** Opens, consents and signs every field of theirs. */
    sign: async () => {
      expectOk(await s.post('/open', {}, grant), 'open')
      const { fields } = (await s.get('/session', grant)).body
      expectOk(await s.post('/complete', { fields: fields.map((f: { id: number }) => ({ id: f.id, value: SIGNATURE })) }, grant), 'complete')
    },
  }
}

/** multipart: `payload` JSON plus one `files` part per PDF. */
export function form(payload: unknown, files: { bytes: Uint8Array; name: string; type?: string }[]): FormData {
  const fd = new FormData()
  fd.set('payload', JSON.stringify(payload))
  for (const f of files) fd.append('files', new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: f.type ?? 'application/pdf' }), f.name)
  return fd
}

export const pgReason = await postgresUnavailable()
if (pgReason) console.warn(`host tests: skipping the PostgreSQL variant: ${pgReason}`)

/** The variants a suite runs on; PostgreSQL is skipped, saying why, only when no server answers. */
export const VARIANTS: { variant: Variant; skip: boolean }[] = [
  { variant: 'pglite', skip: false },
  { variant: 'postgres', skip: pgReason !== null },
]

/** Creates a one-file envelope through the API and returns its full resource. */
export async function createEnvelope(
  client: Api,
  payload: Record<string, unknown> = {},
  files?: { bytes: Uint8Array; name: string }[],
): Promise<any> {
  const res = await client.post(
    '/envelope/create',
    form({ type: 'DOCUMENT', title: 'Contract', ...payload }, files ?? [{ bytes: await makePdf(2), name: 'contract.pdf' }]),
  )
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`)
  return (await client.get(`/envelope/${res.body.id}`)).body
}

/**
 * Waits until the sealing job of a completed envelope has run (its sealed files exist and
 * DOCUMENT_COMPLETED is out); a host whose queue does not run in the background is drained.
 */
export async function sealed(host: Host, envelopeId: string, timeoutMs = 120_000): Promise<void> {
  const unsealed = async () =>
    (await host.db.query('select 1 from envelope_items where envelope_id = $1 and signed_document_data_id is null', [envelopeId])).length
  for (const until = Date.now() + timeoutMs; await unsealed(); ) {
    if (Date.now() > until) throw new Error(`envelope ${envelopeId} was not sealed within ${timeoutMs} ms`)
    if (host.config.queueConcurrency === 0) await host.queue.drain()
    else await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * Waits until no e-mail of an envelope is due or under way: the mail jobs write the envelope's
 * last audit entries (EMAIL_SENT for the completed copy) after the seal; a test that counts the
 * entries reads them once these have run. Mails held back for a later retry are not waited for.
 */
export async function mailed(host: Host, envelopeId: string, timeoutMs = 120_000): Promise<void> {
  const due = async () =>
    (
      await host.db.query(
        "select 1 from jobs where kind = 'mail' and payload->>'envelopeId' = $1 and (status = 'running' or (status = 'pending' and run_at <= now()))",
        [envelopeId],
      )
    ).length
  for (const until = Date.now() + timeoutMs; await due(); ) {
    if (Date.now() > until) throw new Error(`the mails of envelope ${envelopeId} were not sent within ${timeoutMs} ms`)
    if (host.config.queueConcurrency === 0) await host.queue.drain()
    else await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * A one-signer document (one SIGNATURE field) created, sent and signed through the API, then
 * sealed and its mails sent: its id and item id. Its PDF is `files`, or two pages that another
 * envelope made in the same second shares byte for byte (the team then stores the file once). `headers` go with the signer's requests (a user agent, say).
 */
export async function completeOneSigner(
  host: Host,
  client: Api,
  payload: Record<string, unknown> & { signer?: { name: string; email: string }; files?: { bytes: Uint8Array; name: string }[] },
  headers: Record<string, string> = {},
): Promise<{ id: string; itemId: string }> {
  const { signer: who = { name: 'Jana', email: 'jana@example.com' }, files, ...rest } = payload
  const e = await createEnvelope(
    client,
    { ...rest, recipients: [{ ...who, role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] },
    files,
  )
  const sent = await client.post('/envelope/distribute', { envelopeId: e.id })
  if (sent.status !== 200) throw new Error(`distribute failed: ${sent.status} ${JSON.stringify(sent.body)}`)
  const signer = api(`${host.url}/api/signing`, `Bearer ${sent.body.recipients[0].token}`)
  await signer.post('/open', {}, headers)
  const session = (await signer.get('/session')).body
  const done = await signer.post('/complete', { fields: session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) }, headers)
  if (done.status !== 200) throw new Error(`complete failed: ${done.status} ${JSON.stringify(done.body)}`)
  await sealed(host, e.id)
  await mailed(host, e.id)
  return { id: e.id, itemId: e.envelopeItems[0].id }
}
