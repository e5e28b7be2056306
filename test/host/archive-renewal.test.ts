/**
 * Archives that stay valid: a B-LTA seal whose document timestamp comes from an authority whose
 * certificate ends soon gets, once the driven clock reaches the renewal window, one more
 * incremental update (the last timestamp's validation data, a new document timestamp), stored as
 * a new file that begins with the old one's bytes; on both databases, with a loopback TSA.
 * Databases: both (a renewal that does not extend the sealed file is refused by a database trigger).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PDFDocument } from '@cantoo/pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../host/server/config.js'
import { archivesDue, recordRenewal, renewDueArchives } from '../../host/server/domain/evidence/archive-renewal.js'
import { checkAuditChain } from '../../host/server/domain/evidence/audit-chain.js'
import { readFile, sha256Hex, storeFile } from '../../host/server/domain/item/files.js'
import { purgeEnvelope } from '../../host/server/domain/retention/retention.js'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { existingDss } from '../../host/server/pdf/long-term.js'
import { sha256 } from '../../host/server/pdf/cms.js'
import { archiveFacts, renewalDue } from '../../host/server/pdf/renew.js'
import { startCrlServer, type CrlServer } from '../support/crl-server.js'
import { extractSignature, hasTool, opensslTsVerify, pdfsig } from '../support/outside-checks.js'
import { makeTestCa, type TestCa } from '../support/test-pki.js'
import { startTsa, type TsaServer } from '../support/tsa-server.js'
import { api, completeOneSigner, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'
import { runCli } from './host-process.js'

const HAS_PDFSIG = hasTool('pdfsig')
const HAS_OPENSSL = hasTool('openssl')
const DAY = 24 * 3600_000

describe.each(VARIANTS)('archive renewal on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let soon: TsaServer
  let later: TsaServer
  let crls: CrlServer[]
  let dir: string
  let tsaCa: TestCa
  const clock = drivenClock()
  const saved = { cert: process.env.SEALING_CERT_FILE, key: process.env.SEALING_KEY_FILE }

  beforeAll(async () => {
    if (skip) return
    dir = await mkdtemp(path.join(tmpdir(), 'renew-host-'))
    const ca = makeTestCa('renewal test root')
    tsaCa = makeTestCa('renewal test timestamp root')
    crls = [await startCrlServer(ca), await startCrlServer(tsaCa)]
    const seal = ca.issue('renewal test seal', 'seal', { crlUrl: crls[0]!.url })
    await writeFile(path.join(dir, 'seal.pem'), seal.chainPem)
    await writeFile(path.join(dir, 'seal.key'), seal.privateKeyPem)
    process.env.SEALING_CERT_FILE = path.join(dir, 'seal.pem')
    process.env.SEALING_KEY_FILE = path.join(dir, 'seal.key')
    // The first authority's certificate ends in 120 days: 30 days before the 90-day window opens.
    soon = await startTsa(tsaCa.issue('short-lived TSA', 'timestamping', { crlUrl: crls[1]!.url, validDays: 120 }))
    later = await startTsa(tsaCa.issue('long-lived TSA', 'timestamping', { crlUrl: crls[1]!.url }))
    host = await startTestHost(variant, { clock, queueConcurrency: 0, sealing: { subFilter: 'ETSI.CAdES.detached', tsaUrls: [soon.url, later.url] } })
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'tests' })).token}`)
  }, 60_000)
  afterAll(async () => {
    await host?.stop()
    await Promise.all([soon?.close(), later?.close(), ...(crls ?? []).map((c) => c.close())])
    if (dir) await rm(dir, { recursive: true, force: true })
    for (const [name, value] of [
      ['SEALING_CERT_FILE', saved.cert],
      ['SEALING_KEY_FILE', saved.key],
    ] as const) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })

  const servedFile = async (itemId: string) => {
    const [row] = await host.db.query<{ signed_document_data_id: string }>('select signed_document_data_id from envelope_items where id = $1', [itemId])
    return readFile(host.db, row!.signed_document_data_id)
  }
  const renewals = async (itemId: string) =>
    host.db.query<{ old_sha256: string; new_sha256: string }>('select old_sha256, new_sha256 from archive_renewals where item_id = $1 order by id', [itemId])

  it.skipIf(skip)('renews a B-LTA seal once inside the window, keeps the old bytes, and /verify lists both timestamps', async () => {
    const { id: envelopeId, itemId } = await completeOneSigner(host, client, { title: 'Archivvertrag' })
    const first = await servedFile(itemId)

    // Before the window: due in about 30 days, and a pass of the job changes nothing.
    const [listed] = (await archivesDue(host.db, clock.now(), host.config.archive)).filter((a) => a.itemId === itemId)
    expect(listed).toMatchObject({ envelopeId, sha256: first.sha256, due: false, digests: ['sha256'] })
    expect(new Date(listed!.dueAt).getTime() - clock.now().getTime()).toBeGreaterThan(29 * DAY)
    clock.advance(2 * DAY)
    await host.queue.drain()
    expect(await renewals(itemId)).toEqual([])
    expect((await servedFile(itemId)).sha256).toBe(first.sha256)

    // Inside the window: the job appends a timestamp (from the next server: the first is gone by then).
    await soon.close()
    clock.advance(40 * DAY)
    // A pass out of time renews nothing and says more is due (the job then runs again within a minute).
    expect(await renewDueArchives(host.db, clock.now(), host.config.archive, { tsaUrls: [later.url] }, -1)).toEqual({ renewed: 0, failed: 0, more: true })
    await host.queue.drain()
    const renewed = await servedFile(itemId)
    expect(renewed.sha256).not.toBe(first.sha256)
    expect(Buffer.from(renewed.bytes.subarray(0, first.bytes.byteLength)).equals(Buffer.from(first.bytes))).toBe(true)
    expect(await renewals(itemId)).toEqual([{ old_sha256: first.sha256, new_sha256: renewed.sha256 }])
    // The old file is kept.
    expect((await host.db.query('select 1 from document_data where sha256 = $1', [first.sha256])).length).toBe(1)

    // The DSS names what it held before, and the CRL fetched for the last timestamp.
    const before = existingDss(await PDFDocument.load(first.bytes, { updateMetadata: false }))
    const after = existingDss(await PDFDocument.load(renewed.bytes, { updateMetadata: false }))
    for (const c of [...before.certificates, ...before.crls]) expect([...after.certificates, ...after.crls].some((a) => a.der.equals(c.der))).toBe(true)
    expect(after.crls.length).toBeGreaterThan(before.crls.length)

    const anyone = api(host.apiUrl)
    const res = (await anyone.post('/verify', renewed.bytes, { 'content-type': 'application/pdf' })).body
    expect(res).toMatchObject({ valid: true, sealedByThisService: true, document: { title: 'Archivvertrag' }, auditLog: { intact: true } })
    expect(res.signatures.map((s: { kind: string; intact: boolean; updatesAfter: string }) => [s.kind, s.intact, s.updatesAfter])).toEqual([
      ['signature', true, 'validation'],
      ['document-timestamp', true, 'validation'],
      ['document-timestamp', true, 'none'],
    ])
    expect(res.signatures[0].level).toBe('B-LTA')
    expect(res.timestamps).toMatchObject([
      { intact: true, coversPrevious: true, authority: expect.stringContaining('short-lived TSA') },
      { intact: true, coversPrevious: true, authority: expect.stringContaining('long-lived TSA') },
    ])
    expect(new Date(res.timestamps[1].time).getTime()).toBeGreaterThanOrEqual(new Date(res.timestamps[0].time).getTime())
    // The file as it was first sealed (say, the copy e-mailed on completion) is still this document's.
    const old = (await anyone.post('/verify', first.bytes, { 'content-type': 'application/pdf' })).body
    expect(old).toMatchObject({ valid: true, document: { title: 'Archivvertrag' }, timestamps: [{ intact: true, coversPrevious: true }] })
    if (HAS_PDFSIG) {
      // pdfsig (poppler 22.12) validates the seal over its revision, and reads each document
      // timestamp's field, authority and range (it cannot validate their type: openssl does below).
      const [seal, firstStamp, secondStamp] = pdfsig(renewed.bytes).split(/Signature #\d/).slice(1)
      expect(seal).toContain('Signature Validation: Signature is Valid.')
      expect(firstStamp).toContain('Signature Field Name: Document timestamp')
      expect(firstStamp).toContain('Signer Certificate Common Name: short-lived TSA')
      expect(firstStamp).not.toContain('Total document signed')
      expect(secondStamp).toContain('Signature Field Name: Document timestamp 2')
      expect(secondStamp).toContain('Signer Certificate Common Name: long-lived TSA')
      expect(secondStamp).toContain('Total document signed')
    }
    if (HAS_OPENSSL) {
      const { cms: token, covered } = extractSignature(renewed.bytes)
      expect(opensslTsVerify(token, sha256(covered), tsaCa.certificatePem)).toContain('Verification: OK')
    }

    // The audit log records it, and its chain holds.
    const [entry] = await host.db.query<{ data: Record<string, string> }>(`select data from audit_logs where envelope_id = $1 and type = 'DOCUMENT_ARCHIVE_RENEWED'`, [envelopeId])
    expect(entry!.data).toMatchObject({ itemId, oldSha256: first.sha256, newSha256: renewed.sha256, timestampAt: res.timestamps[1].time })
    expect((await checkAuditChain(host.db, envelopeId)).ok).toBe(true)

    // Again: the new timestamp's authority is good for years, so nothing is due and nothing changes.
    const [relisted] = (await archivesDue(host.db, clock.now(), host.config.archive)).filter((a) => a.itemId === itemId)
    expect(relisted).toMatchObject({ sha256: renewed.sha256, due: false })
    clock.advance(2 * DAY)
    await host.queue.drain()
    expect(await renewals(itemId)).toHaveLength(1)
    expect((await servedFile(itemId)).sha256).toBe(renewed.sha256)

    // The operator's list: through the running server's admin endpoint (embedded), or on the database.
    const env: Record<string, string> = host.config.databaseUrl ? { DATABASE_URL: host.config.databaseUrl } : { DATA_DIR: host.config.dataDir }
    const out = await runCli(env, 'archive', 'due')
    expect(out.code, out.stderr).toBe(0)
    expect(out.stdout).toMatch(new RegExp(`^${itemId}\t${envelopeId}\tArchivvertrag\ttimestamped ${res.timestamps[1].time}\tauthority until \\S+\tdue \\S+$`, 'm'))
    expect(out.stdout).toMatch(/^0 of \d+ B-LTA file\(s\) due now$/m)

    // A team's retention purges the file a renewal replaced along with the one it serves.
    await host.db.query('update teams set retention_days = 1 where id = (select team_id from envelopes where id = $1)', [envelopeId])
    try {
      expect(await host.db.transaction((tx) => purgeEnvelope(tx, envelopeId, clock.now()))).not.toBeNull()
    } finally {
      await host.db.query('update teams set retention_days = null where id = (select team_id from envelopes where id = $1)', [envelopeId])
    }
    expect(await host.db.query('select 1 from document_data where sha256 = any($1)', [[first.sha256, renewed.sha256]])).toEqual([])
    expect(await renewals(itemId)).toEqual([{ old_sha256: first.sha256, new_sha256: renewed.sha256 }])
  }, 180_000)

  it.skipIf(skip)('refuses a renewal whose bytes do not extend the sealed file, in the domain and in the database', async () => {
    const { itemId } = await completeOneSigner(host, client, { title: 'Nicht verlängert' })
    const sealedFile = await servedFile(itemId)
    const facts = (await archiveFacts(sealedFile.bytes))!
    expect(facts).not.toBeNull()
    // Same length plus a byte, but one byte of the sealed revision changed.
    const forged = Buffer.concat([Buffer.from(sealedFile.bytes), Buffer.from('\n')])
    forged[100] = forged[100]! ^ 1
    const [item] = await host.db.query<{ signed_document_data_id: string; team_id: string }>(
      'select i.signed_document_data_id, e.team_id from envelope_items i join envelopes e on e.id = i.envelope_id where i.id = $1',
      [itemId],
    )
    await expect(
      host.db.transaction((tx) => recordRenewal(tx, { itemId, oldFileId: item!.signed_document_data_id, oldBytes: sealedFile.bytes, newBytes: forged, facts })),
    ).rejects.toThrow(/does not begin with the bytes/)

    // The database refuses the same (a file row that holds its bytes), and a move of the sealed file without a renewal.
    const tryRenewal = (bytes: Uint8Array) =>
      host.db.transaction(async (tx) => {
        const file = await storeFile(tx, item!.team_id, bytes, 1)
        await tx.query(
          'insert into archive_renewals (item_id, old_document_data_id, new_document_data_id, old_sha256, new_sha256, timestamp_at) values ($1, $2, $3, $4, $5, now())',
          [itemId, item!.signed_document_data_id, file.id, sealedFile.sha256, file.sha256],
        )
        await tx.query('update envelope_items set signed_document_data_id = $2 where id = $1', [itemId, file.id])
      })
    if (!host.db.files) await expect(tryRenewal(forged)).rejects.toThrow(/does not begin with the bytes/)
    await expect(
      host.db.transaction(async (tx) => {
        const file = await storeFile(tx, item!.team_id, Buffer.concat([Buffer.from(sealedFile.bytes), Buffer.from('\n% appended\n')]), 1)
        await tx.query('update envelope_items set signed_document_data_id = $2 where id = $1', [itemId, file.id])
      }),
    ).rejects.toThrow(/never changes/)
    expect((await servedFile(itemId)).sha256).toBe(sealedFile.sha256)
    expect(sha256Hex((await servedFile(itemId)).bytes)).toBe(sealedFile.sha256)
  }, 120_000)
})

describe('archive renewal settings', () => {
  it('renews at once a timestamp whose digest is retired, else in the window before its authority ends', () => {
    const facts = { timestampAt: new Date('2026-01-01T00:00:00Z'), tsaValidTo: new Date('2030-01-01T00:00:00Z'), digests: ['sha256'] }
    const now = new Date('2026-06-01T00:00:00Z')
    expect(renewalDue(facts, now, { renewDays: 90, retiredDigests: ['sha1'] }).toISOString()).toBe('2029-10-03T00:00:00.000Z')
    expect(renewalDue(facts, now, { renewDays: 90, retiredDigests: ['sha256'] })).toEqual(now)
    expect(configFromEnv({}).archive).toMatchObject({ renewDays: 90, retiredDigests: ['md5', 'sha1'] })
    expect(configFromEnv({ ARCHIVE_RENEW_DAYS: '30', ARCHIVE_RETIRED_DIGESTS: 'SHA-1 sha224' }).archive).toMatchObject({ renewDays: 30, retiredDigests: ['sha1', 'sha224'] })
    expect(() => configFromEnv({ ARCHIVE_RETIRED_DIGESTS: 'sha3' })).toThrow(/ARCHIVE_RETIRED_DIGESTS/)
    expect(() => configFromEnv({ ARCHIVE_RENEW_DAYS: '-1' })).toThrow(/ARCHIVE_RENEW_DAYS/)
  })
})
