/**
 * The audit log's hash chain on both databases: every entry of a whole signing follows the one
 * before it; an operator's direct edit of a row (its guard switched off, as the owner of the
 * tables can) is found by checkAuditChain, by `audit check` and by /verify of the sealed file;
 * writers racing on one envelope leave one unbroken chain; rows written before the chain existed
 * are chained by its migration.
 * Databases: both (the chain's triggers and guards, racing writers, the migration). A host of its
 * own: the guard is switched off, and `audit check` reads every envelope.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audit } from '../../host/server/domain/evidence/audit.js'
import { checkAuditChain } from '../../host/server/domain/evidence/audit-chain.js'
import { pdfText } from '../support/pdf-signature.js'
import { MIGRATIONS } from '../../host/server/db/migrations/index.js'
import type { Queryable } from '../../host/server/db/index.js'
import { api, completeOneSigner, freshSchema, pgReason, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'
import { runCli } from './host-process.js'

const nobody = { name: null, email: null, recipientId: null, tokenId: null, ipAddress: null, userAgent: null }

describe.each(VARIANTS)('the audit chain on $variant', { timeout: 120_000 }, ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let envelopeId: string
  let sealedPdf: Uint8Array

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant)
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'tests' })).token}`)
    const done = await completeOneSigner(host, client, { title: 'Lease 4B' }, { 'user-agent': 'Audit Test Browser' })
    envelopeId = done.id
    sealedPdf = (await client.get(`/envelope/item/${done.itemId}/download`)).body
  }, 120_000)
  afterAll(async () => {
    await host?.stop()
  })

  /** `audit check` as the operator runs it, on this host's database (through the server when embedded). */
  const auditCheck = (...args: string[]) =>
    runCli({ DATA_DIR: host.config.dataDir, DATABASE_URL: host.config.databaseUrl ?? '' }, 'audit', 'check', ...args)

  /** What an operator with the database could do: switch the guard off, change a row, switch it on. */
  const operatorEdit = async (sql: string, params: unknown[]) => {
    await host.db.exec('alter table audit_logs disable trigger audit_logs_immutable')
    try {
      await host.db.query(sql, params)
    } finally {
      await host.db.exec('alter table audit_logs enable trigger audit_logs_immutable')
    }
  }

  it.skipIf(skip)('chains every entry of a whole signing, each after the one before it', async () => {
    const rows = await host.db.query<{ id: string; type: string; prev_hash: string | null; hash: string }>(
      'select id::text as id, type, prev_hash, hash from audit_logs a where envelope_id = $1 order by a.id',
      [envelopeId],
    )
    expect(rows.map((r) => r.type)).toEqual(expect.arrayContaining(['DOCUMENT_CREATED', 'DOCUMENT_SENT', 'DOCUMENT_OPENED', 'DOCUMENT_RECIPIENT_COMPLETED', 'DOCUMENT_COMPLETED']))
    expect(rows[0]!.prev_hash).toBeNull()
    rows.slice(1).forEach((r, i) => expect(r.prev_hash).toBe(rows[i]!.hash))
    expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length)
    expect(await checkAuditChain(host.db, envelopeId)).toEqual({ ok: true, envelopeId, entries: rows.length, head: rows.at(-1)!.hash, redacted: 0 })
    const cli = await auditCheck('--envelope', envelopeId)
    expect(cli.code, cli.stderr).toBe(0)
    expect(cli.stdout).toContain(`${envelopeId}\tok\t${rows.length} entries\thead ${rows.at(-1)!.hash}`)
    expect((await client.get(`/envelope/${envelopeId}/audit-log?page=2&perPage=2`)).body.chainHead).toBe(rows.at(-1)!.hash)
    expect((await api(host.apiUrl).post('/verify', sealedPdf, { 'content-type': 'application/pdf' })).body.auditLog).toEqual({ intact: true, head: rows.at(-1)!.hash })
  })

  it.skipIf(skip)("names the chain's head on the certificate and the audit log PDF", async () => {
    const hashes = (await host.db.query<{ hash: string }>('select hash from audit_logs a where envelope_id = $1 order by a.id', [envelopeId])).map((r) => r.hash)
    const text = async (pdf: Uint8Array) => (await pdfText(pdf)).join('').replace(/\s+/g, '')
    // The certificate names the head as it was when the document was sealed: an entry of the chain.
    const certificate = /Auditchainhead([0-9a-f]{64})/.exec(await text(sealedPdf))
    expect(hashes).toContain(certificate?.[1])
    for (const path of [`/envelope/${envelopeId}/certificate/download`, `/envelope/${envelopeId}/audit-log/download`]) {
      const res = await client.get(path)
      expect(res.status).toBe(200)
      expect(await text(res.body)).toContain(`Auditchainhead${hashes.at(-1)}`)
    }
  })

  it.skipIf(skip)('refuses to change or remove an entry', async () => {
    await expect(host.db.query("update audit_logs set type = 'DOCUMENT_CANCELLED' where envelope_id = $1", [envelopeId])).rejects.toThrow(/never changes/)
    await expect(host.db.query('delete from audit_logs where envelope_id = $1', [envelopeId])).rejects.toThrow(/never changes/)
  })

  it.skipIf(skip)('finds the entry an operator changed directly: checkAuditChain, audit check and /verify', async () => {
    const [opened] = await host.db.query<{ id: string }>("select id::text as id from audit_logs where envelope_id = $1 and type = 'DOCUMENT_OPENED'", [envelopeId])
    // A value changed alone no longer matches its hash.
    await operatorEdit('update audit_logs set user_agent = $2 where id = $1', [opened!.id, 'Someone Else'])
    expect(await checkAuditChain(host.db, envelopeId)).toMatchObject({ ok: false, broken: { id: opened!.id, reason: 'user_agent does not match its hash' } })
    // The value and its hash changed together: the entry no longer matches its own hash.
    await operatorEdit("update audit_logs set user_agent_hash = encode(sha256(convert_to(salt || user_agent, 'UTF8')), 'hex') where id = $1", [opened!.id])
    expect(await checkAuditChain(host.db, envelopeId)).toMatchObject({ ok: false, broken: { id: opened!.id, reason: 'does not match its hash' } })
    // And its hash too: the next entry no longer follows it.
    await operatorEdit('update audit_logs a set hash = audit_entry_hash(a) where id = $1', [opened!.id])
    const check = await checkAuditChain(host.db, envelopeId)
    expect(check).toMatchObject({ ok: false, broken: { reason: 'does not follow the entry before it' } })

    const cli = await auditCheck('--envelope', envelopeId)
    expect(cli.code).toBe(1)
    expect(cli.stdout).toContain(`${envelopeId}\tBROKEN\tentry ${(check as { broken: { id: string } }).broken.id}\tdoes not follow the entry before it`)
    const all = await auditCheck()
    expect(all.code).toBe(1)
    expect(all.stdout).toContain(`${envelopeId}\tBROKEN`)
    const verified = (await api(host.apiUrl).post('/verify', sealedPdf, { 'content-type': 'application/pdf' })).body
    expect(verified).toMatchObject({ valid: true, document: { title: 'Lease 4B' }, auditLog: { intact: false } })
  })

  it.skipIf(skip)('a redaction of an envelope that was not purged is a break (test/host/audit-redaction.test.ts has the purged one)', async () => {
    const e = { id: `envelope_redacted_${variant}`, team_id: 'team_redacted' }
    await host.db.transaction((tx) => audit(tx, e, 'DOCUMENT_OPENED', { ...nobody, name: 'Jana', email: 'jana@example.com', ipAddress: '203.0.113.9' }))
    await audit(host.db, e, 'DOCUMENT_CANCELLED', nobody, { reason: 'late' })
    expect(await checkAuditChain(host.db, e.id)).toMatchObject({ ok: true, entries: 2, redacted: 0 })
    await operatorEdit('update audit_logs set name = null, email = null, ip_address = null where envelope_id = $1', [e.id])
    expect(await checkAuditChain(host.db, e.id)).toMatchObject({ ok: false, entries: 2, broken: { reason: 'name, email, ip_address redacted although the envelope was not purged' } })
  })

  it.skipIf(skip)('writers racing on one envelope leave one unbroken chain', async () => {
    const e = { id: `envelope_race_${variant}`, team_id: 'team_race' }
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        host.db.transaction(async (tx) => {
          await audit(tx, e, 'DOCUMENT_OPENED', { ...nobody, userAgent: `writer ${i}` })
          await audit(tx, e, 'DOCUMENT_META_UPDATED', nobody, { writer: i })
        }),
      ),
    )
    expect(await checkAuditChain(host.db, e.id)).toMatchObject({ ok: true, entries: 24 })
  })
})

describe.skipIf(pgReason !== null)('the migration that starts the chain', () => {
  it('chains the entries written before it, per envelope in the order of their ids', async () => {
    const schema = freshSchema('audit_chain_migration')
    const client = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, '') })
    await client.connect()
    try {
      const name = new URL(schema.url).searchParams.get('schema')!
      await client.query(`create schema ${name}`)
      await client.query(`set search_path to ${name}`)
      const db = {
        query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows,
        exec: async (sql: string) => void (await client.query(sql)),
      } as unknown as Queryable
      const chain = MIGRATIONS.findIndex((m) => m.sql.includes('audit_entry_hash'))
      for (const m of MIGRATIONS.slice(0, chain)) await db.exec(m.sql)
      for (const [envelope, type] of [['a', 'DOCUMENT_CREATED'], ['b', 'DOCUMENT_CREATED'], ['a', 'DOCUMENT_SENT'], ['b', 'DOCUMENT_SENT'], ['a', 'DOCUMENT_OPENED']]) {
        await db.query(`insert into audit_logs (envelope_id, team_id, type, email, data) values ($1, 't', $2, 'x@example.com', '{"k": [1, "é"]}')`, [envelope, type])
      }
      for (const m of MIGRATIONS.slice(chain)) await db.exec(m.sql)
      expect(await checkAuditChain(db, 'a')).toMatchObject({ ok: true, entries: 3 })
      expect(await checkAuditChain(db, 'b')).toMatchObject({ ok: true, entries: 2 })
    } finally {
      await client.end()
      await schema.drop()
    }
  })
})
