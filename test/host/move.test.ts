/**
 * Moving up without losing anything: an instance that ran on the embedded database is moved by
 * `host move` (the CLI, as an operator runs it) onto PostgreSQL and an S3-compatible bucket.
 * Every table's count and every file's hash are equal afterwards, and a document that was waiting
 * for its second signer before the move is signed after it, sealed, and its completion delivered
 * by webhook; links, tokens and the sealed files made before the move keep working.
 * Databases: both (moving the data from one engine to the other).
 */
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDb } from '../../host/server/db/index.js'
import { startHost, type Host } from '../../host/server/start.js'
import { startS3Server } from '../support/s3-server.js'
import { api, completeOneSigner, createEnvelope, freshSchema, pgReason, sealed, SIGNATURE } from './support.js'
import { runCli } from './host-process.js'

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

/** Collects the webhook deliveries: event name and document title. */
async function receiver() {
  const events: { event: string; title: string }[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const { event, payload } = JSON.parse(body) as { event: string; payload: { title: string } }
      events.push({ event, title: payload.title })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, events, close: () => new Promise((r) => server.close(r)) }
}

describe.skipIf(pgReason !== null)('moving an embedded instance to PostgreSQL and a bucket', { timeout: 240_000 }, () => {
  const cleanup: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const f of cleanup.reverse()) await f().catch(() => {})
  })

  it('copies every row and file, checked, and the work under way goes on after it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'host-move-'))
    cleanup.push(() => rm(dir, { recursive: true, force: true }))
    const s3 = await startS3Server()
    cleanup.push(() => s3.close())
    const hooks = await receiver()
    cleanup.push(hooks.close)
    const common = { port: 0, hostname: '127.0.0.1', appDistDir: path.join(dir, 'no-dist'), webhookAllowPrivateUrls: true }

    // Before: the embedded database, with a completed document and one half signed.
    let host: Host = await startHost({ ...common, dataDir: path.join(dir, 'data') })
    const { token } = await host.createApiToken({ name: 'moving' })
    let client = api(host.apiUrl, `Bearer ${token}`)
    expect((await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_COMPLETED'] })).status).toBe(200)
    const done = await completeOneSigner(host, client, { title: 'Completed before the move' })
    const sealedBefore = new Uint8Array(await (await fetch(`${host.apiUrl}/envelope/item/${done.itemId}/download`, { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer())
    const field = { type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }
    const pending = await createEnvelope(client, {
      title: 'Pending at the move',
      recipients: [
        { name: 'First', email: 'first@example.com', role: 'SIGNER', fields: [field] },
        { name: 'Second', email: 'second@example.com', role: 'SIGNER', fields: [{ ...field, positionY: 50 }] },
      ],
    })
    const sent = await client.post('/envelope/distribute', { envelopeId: pending.id })
    const [first, second] = sent.body.recipients as { token: string }[]
    const sign = async (origin: string, t: string) => {
      const signer = api(`${origin}/api/signing`, `Bearer ${t}`)
      await signer.post('/open', {})
      const session = (await signer.get('/session')).body
      const res = await signer.post('/complete', { fields: session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
    await sign(host.url, first!.token)
    await host.close()

    // The move.
    const schema = freshSchema('host_move')
    cleanup.push(schema.drop)
    const storageUrl = s3.storageUrl('moved')
    const moved = await runCli({ DATA_DIR: path.join(dir, 'data') }, 'move', '--to-database', schema.url, '--to-storage', storageUrl)
    expect(moved.code, moved.stderr).toBe(0)
    expect(moved.stdout).toMatch(/^moved \d+ rows and \d+ files/)

    // Counts and hashes, compared here on both sides.
    const source = await openDb({ dataDir: path.join(dir, 'data') })
    const target = await openDb({ dataDir: '', databaseUrl: schema.url, storageUrl })
    try {
      const tables = (await source.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`)).map((t) => t.name)
      expect(tables.length).toBeGreaterThan(30)
      for (const t of tables) {
        const count = async (db: typeof source) => (await db.query<{ n: number }>(`select count(*)::int as n from "${t}"`))[0]!.n
        expect(await count(target), t).toBe(await count(source))
      }
      const files = await source.query<{ sha256: string; bytes: Uint8Array }>('select sha256, bytes from document_data order by sha256')
      expect(files.length).toBeGreaterThanOrEqual(3)
      for (const f of files) expect(sha(f.bytes)).toBe(f.sha256)
      const after = await target.query<{ sha256: string; in_row: boolean }>('select sha256, bytes is not null as in_row from document_data order by sha256')
      expect(after).toEqual(files.map((f) => ({ sha256: f.sha256, in_row: false })))
      for (const f of after) expect(sha(await target.files!.get(f.sha256))).toBe(f.sha256)
    } finally {
      await source.close()
      await target.close()
    }
    // A second move into the same database is refused: it is no longer empty.
    const again = await runCli({ DATA_DIR: path.join(dir, 'data') }, 'move', '--to-database', schema.url)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already holds data/)

    // After: PostgreSQL and the bucket. The same token, the same link, the same sealed file.
    host = await startHost({ ...common, dataDir: path.join(dir, 'unused'), databaseUrl: schema.url, storageUrl })
    cleanup.push(() => host.close())
    const before = await fetch(`${host.apiUrl}/envelope/item/${done.itemId}/download`, { headers: { Authorization: `Bearer ${token}` } })
    expect(new Uint8Array(await before.arrayBuffer())).toEqual(sealedBefore)
    // Signing writes audit entries, events and jobs: the moved serial columns go on after the copied rows.
    await sign(host.url, second!.token)
    await sealed(host, pending.id)
    const signed = await fetch(`${host.apiUrl}/envelope/item/${pending.envelopeItems[0].id}/download`, { headers: { Authorization: `Bearer ${token}` } })
    expect(signed.status).toBe(200)
    expect(Buffer.from(await signed.arrayBuffer()).includes('/ByteRange')).toBe(true)
    await expect.poll(() => hooks.events.filter((e) => e.event === 'DOCUMENT_COMPLETED').map((e) => e.title)).toEqual(['Completed before the move', 'Pending at the move'])
  })
})
