/**
 * Files in an S3-compatible bucket (STORAGE_URL), through a real S3 protocol server on loopback:
 * uploads land in the bucket under their hash before their row, downloads stream from it (or
 * redirect to a presigned URL), a file altered in the bucket is never served as the original,
 * sealing reads and writes there, unreferenced objects are swept after their retention only, and
 * readiness tells when the store is gone.
 * Database: the embedded one (the bucket is what is tested; rows are the same on both).
 */
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../host/server/config.js'
import { maintain } from '../../host/server/jobs/maintenance.js'
import { storeFile } from '../../host/server/domain/item/files.js'
import type { Queryable } from '../../host/server/db/index.js'
import { startS3Server, type S3Server } from '../support/s3-server.js'
import { api, completeOneSigner, createEnvelope, makePdf, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('files in an S3-compatible bucket ($variant)', ({ variant, skip }) => {
  let s3: S3Server
  let host: TestHost
  let client: Api
  let auth: Record<string, string>
  const prefix = `host-${variant}`
  const object = (hash: string) => ({ Bucket: s3.bucket, Key: `${prefix}/${hash}` })
  const inBucket = async (hash: string) => {
    const res = await s3.client.send(new GetObjectCommand(object(hash))).catch(() => null)
    return res ? new Uint8Array(await res.Body!.transformToByteArray()) : null
  }

  beforeAll(async () => {
    if (skip) return
    s3 = await startS3Server()
    host = await startTestHost(variant, { storageUrl: s3.storageUrl(prefix) })
    const { token } = await host.createApiToken({ name: 'storage' })
    auth = { Authorization: `Bearer ${token}` }
    client = api(host.apiUrl, auth.Authorization)
  })
  afterAll(async () => {
    await host?.stop()
    await s3?.close()
  })

  it.skipIf(skip)('an upload, its download, its sealing, the sealed download and the e-mail attachment all go through the bucket', async () => {
    const pdf = await makePdf(2, [{ text: 'Stored in a bucket', x: 50, y: 700 }])
    const e = await createEnvelope(client, {}, [{ bytes: pdf, name: 'bucket.pdf' }])
    const [row] = await host.db.query<{ sha256: string; in_row: boolean; size: number }>(
      `select d.sha256, d.bytes is not null as in_row, d.size from envelope_items i join document_data d on d.id = i.document_data_id where i.envelope_id = $1`,
      [e.id],
    )
    expect(row).toEqual({ sha256: sha(pdf), in_row: false, size: pdf.byteLength })
    expect(await inBucket(row!.sha256)).toEqual(pdf)

    const res = await fetch(`${host.apiUrl}/envelope/item/${e.envelopeItems[0].id}/download?version=original`, { headers: auth })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(String(pdf.byteLength))
    expect(res.headers.get('etag')).toBe(`"sha256-${sha(pdf)}"`)
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdf)

    // Sealing reads the original from the bucket and writes the sealed file there.
    const done = await completeOneSigner(host, client, { title: 'Sealed in a bucket' })
    const [sealed] = await host.db.query<{ sha256: string; in_row: boolean }>(
      `select d.sha256, d.bytes is not null as in_row from envelope_items i join document_data d on d.id = i.signed_document_data_id where i.id = $1`,
      [done.itemId],
    )
    expect(sealed!.in_row).toBe(false)
    const signed = await fetch(`${host.apiUrl}/envelope/item/${done.itemId}/download`, { headers: auth })
    const bytes = new Uint8Array(await signed.arrayBuffer())
    expect(signed.status).toBe(200)
    expect(sha(bytes)).toBe(sealed!.sha256)
    expect(await inBucket(sealed!.sha256)).toEqual(bytes)
    expect(Buffer.from(bytes).includes('/ByteRange')).toBe(true)

    // The completion e-mail attaches the sealed file, read from the bucket (the local mailbox here).
    await expect
      .poll(async () => (await host.db.query(`select 1 from mails where envelope_id = $1 and jsonb_array_length(attachments) > 0`, [done.id])).length)
      .toBeGreaterThan(0)
    const [mail] = await host.db.query<{ id: string }>(`select id from mails where envelope_id = $1 and jsonb_array_length(attachments) > 0 order by id limit 1`, [done.id])
    const attachment = await fetch(`${host.url}/mailbox/${mail!.id}/attachments/0`)
    expect(attachment.status).toBe(200)
    expect(new Uint8Array(await attachment.arrayBuffer())).toEqual(bytes)
  })

  it.skipIf(skip)('a file altered in the bucket is not served as the stored one: the download breaks off', async () => {
    const pdf = await makePdf(1, [{ text: 'Original', x: 50, y: 700 }])
    const e = await createEnvelope(client, {}, [{ bytes: pdf, name: 'a.pdf' }])
    const forged = await makePdf(1, [{ text: 'Forged!!', x: 50, y: 700 }])
    await s3.client.send(new PutObjectCommand({ ...object(sha(pdf)), Body: forged }))
    const res = await fetch(`${host.apiUrl}/envelope/item/${e.envelopeItems[0].id}/download?version=original`, { headers: auth })
    await expect(res.arrayBuffer()).rejects.toThrow()
    // Whatever reads the whole file (sealing, e-mail attachments) refuses it outright.
    await expect(host.db.files!.get(sha(pdf))).rejects.toThrow(/does not match its hash/)
  })

  it.skipIf(skip)('the sweep removes objects no file names once their retention has passed, and nothing else; finished jobs go after theirs', async () => {
    const kept = await makePdf(1, [{ text: 'Named by a row', x: 50, y: 700 }])
    await createEnvelope(client, {}, [{ bytes: kept, name: 'kept.pdf' }])
    // A deleted draft's file: its row goes with it, its object stays until the sweep.
    const dropped = await makePdf(1, [{ text: 'A deleted draft', x: 50, y: 700 }])
    const draft = await createEnvelope(client, {}, [{ bytes: dropped, name: 'draft.pdf' }])
    expect((await client.post('/envelope/delete', { envelopeId: draft.id })).status).toBe(200)
    expect(await host.db.query('select 1 from document_data where sha256 = $1', [sha(dropped)])).toEqual([])
    expect(await inBucket(sha(dropped))).toEqual(dropped)
    // An object whose row never committed (a request that failed after its upload).
    const orphan = await makePdf(1, [{ text: 'Orphan', x: 50, y: 700 }])
    await host.db.files!.put(sha(orphan), orphan)
    const retention = { jobsDays: 7, webhookCallsDays: 30, filesHours: 24, everyMs: 3600_000 }

    expect((await maintain(host.db, host.db.files, new Date(), retention)).files).toBe(0)
    expect(await inBucket(sha(orphan))).not.toBeNull()

    const later = new Date(Date.now() + 25 * 3600_000)
    expect((await maintain(host.db, host.db.files, later, retention)).files).toBeGreaterThanOrEqual(2)
    expect(await inBucket(sha(orphan))).toBeNull()
    expect(await inBucket(sha(dropped))).toBeNull()
    expect(await inBucket(sha(kept))).toEqual(kept)
    const [{ n }] = (await host.db.query<{ n: number }>('select count(*)::int as n from document_data')) as [{ n: number }]
    for (const { sha256 } of await host.db.query<{ sha256: string }>('select sha256 from document_data')) {
      expect(await s3.client.send(new HeadObjectCommand(object(sha256))).then(() => true), sha256).toBe(true)
    }
    expect(n).toBeGreaterThan(0)

    // Retention: a month on, jobs that ended well are gone; a failed one stays for the operator.
    await host.db.query(`insert into jobs (kind, payload, status, attempts, last_error, finished_at) values ('seal', '{}', 'failed', 10, 'x', now())`)
    const [{ done }] = (await host.db.query<{ done: number }>(`select count(*)::int as done from jobs where status = 'done'`)) as [{ done: number }]
    expect(done).toBeGreaterThan(0)
    const month = await maintain(host.db, host.db.files, new Date(Date.now() + 31 * 24 * 3600_000), retention)
    // (The queue runs beside this test: a job may end between the count and the pass.)
    expect(month.jobs).toBeGreaterThanOrEqual(done)
    expect(await host.db.query(`select status from jobs where status = 'failed'`)).toEqual([{ status: 'failed' }])
  })

  // The probe: upload, delete, upload again and compare file ids. A file shared with another team
  // would keep its id (the other team's row stays); the team's own is a new file each time.
  it.skipIf(skip)('a file is never shared with another team: its id does not tell whether another team holds the same bytes', async () => {
    const otherTeam = (await host.createTeam({ name: 'Prober', plan: 'team' })).id
    const other = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'prober', teamId: otherTeam })).token}`)
    const held = await makePdf(1, [{ text: 'Held by the first team', x: 50, y: 700 }])
    const unheld = await makePdf(1, [{ text: 'Held by no other team', x: 50, y: 700 }])
    const fileOf = (e: any): string => e.envelopeItems[0].documentDataId
    const mine = await createEnvelope(client, {}, [{ bytes: held, name: 'mine.pdf' }])
    async function probe(bytes: Uint8Array) {
      const first = await createEnvelope(other, {}, [{ bytes, name: 'probe.pdf' }])
      expect((await other.post('/envelope/delete', { envelopeId: first.id })).status).toBe(200)
      const second = await createEnvelope(other, {}, [{ bytes, name: 'probe.pdf' }])
      return [fileOf(first), fileOf(second)]
    }
    const [heldFirst, heldSecond] = await probe(held)
    const [unheldFirst, unheldSecond] = await probe(unheld)
    expect([heldFirst, heldSecond]).not.toContain(fileOf(mine))
    // The same answer whether the first team holds the bytes or not: a new file each time.
    expect(heldSecond).not.toBe(heldFirst)
    expect(unheldSecond).not.toBe(unheldFirst)
    // Underneath, one object per hash: the other team's deletion leaves the first team's file whole.
    const res = await fetch(`${host.apiUrl}/envelope/item/${mine.envelopeItems[0].id}/download?version=original`, { headers: auth })
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(held)
    expect(await inBucket(sha(held))).toEqual(held)
    // Within one team identical bytes are still stored once.
    expect(fileOf(await createEnvelope(client, {}, [{ bytes: held, name: 'again.pdf' }]))).toBe(fileOf(mine))

    // Files kept in their rows (no bucket) are scoped alike.
    const rows: Queryable = { query: (s, p) => host.db.query(s, p), exec: (s) => host.db.exec(s), notify: (c, p) => host.db.notify(c, p), files: null }
    const first = (await host.createTeam({ name: 'Rows A', plan: 'team' })).id
    const a = await storeFile(rows, first, unheld, 1)
    const b = await storeFile(rows, otherTeam, unheld, 1)
    expect(b.id).not.toBe(a.id)
    expect((await storeFile(rows, first, unheld, 1)).id).toBe(a.id)
    expect(await host.db.query('select bytes is not null as in_row from document_data where id = $1', [a.id])).toEqual([{ in_row: true }])
  })

  it.skipIf(skip)('downloads can redirect to a short-lived URL of the bucket, a minute at most however configured', async () => {
    // A presigned URL outlives the document's deletion and the token's revocation: an hour asked, a minute given.
    expect(configFromEnv({ STORAGE_REDIRECT_SECONDS: '3600' }).storageRedirectSeconds).toBe(60)
    const other = await startTestHost(variant, { storageUrl: s3.storageUrl(`${prefix}-redirect`), storageRedirectSeconds: 3600 })
    try {
      const { token } = await other.createApiToken({ name: 'redirect' })
      const c = api(other.apiUrl, `Bearer ${token}`)
      const pdf = await makePdf(1)
      const e = await createEnvelope(c, { title: 'Quarterly report' }, [{ bytes: pdf, name: 'q.pdf' }])
      const res = await fetch(`${other.apiUrl}/envelope/item/${e.envelopeItems[0].id}/download?version=original`, { headers: { Authorization: `Bearer ${token}` }, redirect: 'manual' })
      expect(res.status).toBe(302)
      const location = res.headers.get('location')!
      expect(location.startsWith(s3.endpoint)).toBe(true)
      expect(location).toMatch(/X-Amz-Expires=60/)
      const followed = await fetch(location)
      expect(followed.status).toBe(200)
      expect(followed.headers.get('content-disposition')).toContain('attachment')
      expect(new Uint8Array(await followed.arrayBuffer())).toEqual(pdf)
    } finally {
      await other.stop()
    }
  })

  it.skipIf(skip)('readiness includes the store, and turns 503 when it is gone', async () => {
    const ready = await fetch(`${host.url}/readyz`)
    expect(ready.status).toBe(200)
    expect((await ready.json()).checks.storage).toBe('ok')
    await s3.close()
    const gone = await fetch(`${host.url}/readyz`)
    expect(gone.status).toBe(503)
    expect((await gone.json()).checks.storage).toMatch(/does not answer/)
  })
})
