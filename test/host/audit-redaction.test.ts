/**
 * Only a purge redacts (docs/security.md; migration 032): the database refuses the redaction form
 * of an audit entry while its envelope is not purged, and the purge mark is set once, on a
 * finished document. An operator who switches the guard off and redacts a live envelope's entries
 * is found: the chain check calls it a break (and `audit check` prints it), the evidence says the
 * log is not intact and marks the emptied fields as redacted. A purged envelope's redactions hold,
 * counted, and its evidence names each redacted field.
 * Databases: both (the redaction guards are database triggers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkAuditChain } from '../../host/server/domain/evidence/audit-chain.js'
import { purgeEnvelope } from '../../host/server/domain/retention/retention.js'
import { createTeam } from '../../host/server/domain/team/teams.js'
import { api, completeOneSigner, createEnvelope, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'
import { runCli } from './host-process.js'

const DAY = 24 * 3600_000
const REDACTION = `update audit_logs set name = null, email = null, ip_address = null, user_agent = null, data = '{"redacted": true}' where envelope_id = $1 and (ip_address is not null or name is not null)`

describe.each(VARIANTS)('audit redaction only by a purge ($variant)', { timeout: 120_000 }, ({ variant, skip }) => {
  let host: TestHost
  let client: Api

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant)
    const team = await host.db.transaction((tx) => createTeam(tx, { name: 'Redaction', plan: 'enterprise' }))
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'redaction', teamId: team.id })).token}`)
    expect((await client.post('/team/update', { retentionDays: 1 })).status).toBe(200)
  }, 120_000)
  afterAll(async () => {
    await host?.stop()
  })

  /** What an operator with the database could do: switch the guard off, change rows, switch it on (one transaction). */
  const operatorEdit = (sql: string, params: unknown[]) =>
    host.db.transaction(async (tx) => {
      await tx.exec('alter table audit_logs disable trigger audit_logs_immutable')
      await tx.query(sql, params)
      await tx.exec('alter table audit_logs enable trigger audit_logs_immutable')
    })

  it.skipIf(skip)("refuses a live envelope's redaction; one forced past the guard is a break the check, the CLI and the evidence show", async () => {
    const done = await completeOneSigner(host, client, { title: 'Live' }, { 'user-agent': 'Live Browser' })
    await expect(host.db.query(REDACTION, [done.id])).rejects.toThrow(/redacted only once its envelope is purged/)
    // The purge mark is set once, on a finished document: not on a pending one, never moved or removed.
    const pending = await createEnvelope(client, { recipients: [{ name: 'P', email: 'p@example.com', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] })
    expect((await client.post('/envelope/distribute', { envelopeId: pending.id })).status).toBe(200)
    await expect(host.db.query('update envelopes set purged_at = now() where id = $1', [pending.id])).rejects.toThrow(/purged once/)

    const before = await checkAuditChain(host.db, done.id)
    expect(before).toMatchObject({ ok: true, redacted: 0 })
    expect((await client.get(`/envelope/${done.id}/evidence`)).body.recipients[0]).toMatchObject({ ipAddress: expect.any(String), userAgent: 'Live Browser' })
    expect((await client.get(`/envelope/${done.id}/evidence`)).body.recipients[0].redacted).toBeUndefined()

    await operatorEdit(REDACTION, [done.id])
    const after = await checkAuditChain(host.db, done.id)
    expect(after).toMatchObject({ ok: false, broken: { reason: expect.stringMatching(/redacted although the envelope was not purged$/) } })
    const cli = await runCli({ DATA_DIR: host.config.dataDir, DATABASE_URL: host.config.databaseUrl ?? '' }, 'audit', 'check', '--envelope', done.id)
    expect(cli.code).toBe(1)
    expect(cli.stdout).toMatch(new RegExp(`^${done.id}\\tBROKEN\\tentry \\d+\\t.*redacted although the envelope was not purged$`, 'm'))
    const evidence = (await client.get(`/envelope/${done.id}/evidence`)).body
    expect(evidence.redacted).toBeUndefined()
    expect(evidence.auditLog).toMatchObject({ intact: false, redacted: expect.any(Number) })
    expect(evidence.recipients[0]).toMatchObject({ ipAddress: null, userAgent: null, redacted: expect.arrayContaining(['ipAddress', 'userAgent']) })
    expect(evidence.recipients[0].redacted).not.toContain('name')
  })

  it.skipIf(skip)("a purged envelope's redactions hold, counted, and its evidence names each redacted field", async () => {
    const done = await completeOneSigner(host, client, { title: 'Purged', signer: { name: 'Ola Nordmann', email: 'ola@example.com' } }, { 'user-agent': 'Purged Browser' })
    const purged = await host.db.transaction((tx) => purgeEnvelope(tx, done.id, new Date(Date.now() + 2 * DAY)))
    expect(purged!.auditEntries).toBeGreaterThan(0)
    expect(await checkAuditChain(host.db, done.id)).toMatchObject({ ok: true, redacted: purged!.auditEntries })
    // Purged stays purged.
    await expect(host.db.query('update envelopes set purged_at = null where id = $1', [done.id])).rejects.toThrow(/purged once/)
    const evidence = (await client.get(`/envelope/${done.id}/evidence`)).body
    expect(evidence).toMatchObject({ redacted: true, auditLog: { intact: true, redacted: purged!.auditEntries } })
    expect(evidence.recipients[0]).toMatchObject({ name: '', email: '', ipAddress: null, userAgent: null })
    expect(evidence.recipients[0].redacted).toEqual(expect.arrayContaining(['name', 'email', 'ipAddress', 'userAgent', 'proofs']))
  })
})
