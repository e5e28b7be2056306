/**
 * Retention and purge (docs/operations.md, "Retention and purge"): a team's finished envelopes are
 * purged a number of days after they finished: files gone from the store (here an S3-compatible
 * bucket), personal data redacted with the audit chain still whole, downloads 410; drafts and
 * pending envelopes never. The queue's clock is driven: days pass without sleeping.
 * Databases: both (the redaction guards and the chain are database triggers). A host of its own:
 * a driven clock, its own bucket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkAuditChain } from '../../host/server/domain/evidence/audit-chain.js'
import { purgeDue, purgeEnvelope, retentionDue } from '../../host/server/domain/retention/retention.js'
import { createTeam } from '../../host/server/domain/team/teams.js'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { maintain } from '../../host/server/jobs/maintenance.js'
import { startS3Server, type S3Server } from '../support/s3-server.js'
import { api, completeOneSigner, createEnvelope, makePdf, startTestHost, until, VARIANTS, type Api, type TestHost } from './support.js'
import { runCli } from './host-process.js'

const DAY = 24 * 3600_000
const SWEEP = { jobsDays: 7, webhookCallsDays: 30, filesHours: 24, everyMs: 3600_000 }

describe.each(VARIANTS)('retention and purge ($variant)', ({ variant, skip }) => {
  let s3: S3Server
  let host: TestHost
  let client: Api
  const clock = drivenClock()

  /** A team of its own with an API token: `retentionDays` set when given. */
  const team = async (name: string, retentionDays: number | null) => {
    const t = await host.db.transaction((tx) => createTeam(tx, { name, plan: 'enterprise' }))
    const c = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name, teamId: t.id })).token}`)
    if (retentionDays !== null) expect((await c.post('/team/update', { retentionDays })).status).toBe(200)
    return { id: t.id, client: c }
  }
  const sent = async (c: Api, title: string) => {
    const e = await createEnvelope(c, { title, recipients: [{ name: 'Pat Doe', email: 'pat@example.com', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] })
    const res = await c.post('/envelope/distribute', { envelopeId: e.id })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return { id: e.id as string, token: res.body.recipients[0].token as string }
  }
  const files = async (envelopeId: string) =>
    host.db.query<{ id: string; sha256: string }>(
      `select d.id, d.sha256 from envelope_items i join document_data d on d.id in (i.document_data_id, i.signed_document_data_id) where i.envelope_id = $1`,
      [envelopeId],
    )
  const purgedAt = async (envelopeId: string) =>
    ((await host.db.query<{ purged_at: Date | null }>('select purged_at from envelopes where id = $1', [envelopeId]))[0]?.purged_at ?? null)
  /** When the envelope finished, as the database recorded it. */
  const finished = async (envelopeId: string): Promise<number> => {
    const [row] = await host.db.query<{ at: Date }>(
      `select coalesce(e.completed_at, (select max(a.created_at) from audit_logs a where a.envelope_id = e.id and a.type in ('DOCUMENT_RECIPIENT_REJECTED', 'DOCUMENT_CANCELLED'))) as at
       from envelopes e where e.id = $1`,
      [envelopeId],
    )
    return new Date(row!.at).getTime()
  }

  beforeAll(async () => {
    if (skip) return
    s3 = await startS3Server()
    // The periodic job comes due only after a month of the driven clock: until then only the test purges.
    host = await startTestHost(variant, { storageUrl: s3.storageUrl(`retention-${variant}`), clock, retention: { ...SWEEP, everyMs: 30 * DAY } })
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'retention' })).token}`)
  })
  afterAll(async () => {
    await host?.stop()
    await s3?.close()
  })

  it.skipIf(skip)('the team setting: null by default, 1 to 36500 days, shown with what falls due', async () => {
    expect((await client.get('/team')).body).toMatchObject({ retentionDays: null, retention: null })
    for (const bad of [0, 36501, 1.5, '10']) {
      const res = await client.post('/team/update', { retentionDays: bad })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', issues: [expect.objectContaining({ path: 'retentionDays' })] })
    }
    const set = await client.post('/team/update', { retentionDays: 10 })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ retentionDays: 10, retention: { dueWithin7Days: 0, nextPurgeAt: null }, embedOrigins: null })
  })

  it.skipIf(skip)('purges exactly the finished envelopes past the cut-off: files gone, personal data redacted, chain whole, downloads 410', async () => {
    // Before the cut-off: completed, cancelled, rejected. Never: pending, draft. After: completed later.
    // A PDF of its own: the original is no other envelope's file, so the purge removes it with the sealed one.
    const own = [{ bytes: await makePdf(2, [{ text: 'Lease 4B', x: 72, y: 700 }]), name: 'lease.pdf' }]
    const completed = await completeOneSigner(host, client, { title: 'Lease 4B', signer: { name: 'Jana Novak', email: 'jana@example.com' }, files: own }, { 'user-agent': 'Retention Browser' })
    const cancelled = await sent(client, 'Cancelled')
    expect((await client.post('/envelope/cancel', { envelopeId: cancelled.id, reason: 'changed my mind' })).status).toBe(200)
    const rejected = await sent(client, 'Rejected')
    expect((await api(`${host.url}/api/signing`, `Bearer ${rejected.token}`).post('/reject', { reason: 'Not my contract' })).status).toBe(200)
    const pending = await sent(client, 'Pending')
    const draft = await createEnvelope(client, { title: 'Draft' })
    const early = [completed.id, cancelled.id, rejected.id]
    const cut = Math.max(...(await Promise.all(early.map(finished))))
    const later = await completeOneSigner(host, client, { title: 'Later lease' })
    const laterAt = await finished(later.id)
    expect(laterAt).toBeGreaterThan(cut)

    const outlook = (await client.get('/team')).body.retention
    expect(outlook.dueWithin7Days).toBe(0)
    expect(new Date(outlook.nextPurgeAt).getTime()).toBe(Math.min(...(await Promise.all(early.map(finished)))) + 10 * DAY)

    const completedFiles = await files(completed.id)
    expect(completedFiles).toHaveLength(2)
    const laterFiles = await files(later.id)
    const chainBefore = await checkAuditChain(host.db, completed.id)
    expect(chainBefore.ok).toBe(true)
    expect((await host.db.query(`select 1 from audit_logs where envelope_id = $1 and (email is not null or ip_address is not null or data::text like '%jana@example.com%')`, [completed.id])).length).toBeGreaterThan(0)

    // Ten days on, between the two: the early ones are due, the later one is not.
    // (The direct calls take that moment; the API reads the driven clock, which runs on from it.)
    const at = new Date(cut + 10 * DAY + (laterAt - cut) / 2)
    clock.set(at)
    const due = await retentionDue(host.db, { before: at })
    expect(due.map((d) => d.envelopeId).sort()).toEqual([...early].sort())
    expect((await client.get('/team')).body.retention.dueWithin7Days).toBe(4)

    const purged = await purgeDue(host.db, at)
    expect(purged.map((p) => p.envelopeId).sort()).toEqual([...early].sort())
    for (const id of early) expect(await purgedAt(id)).not.toBeNull()
    for (const id of [pending.id, draft.id, later.id]) expect(await purgedAt(id)).toBeNull()

    // Files: rows gone, and their objects too once the sweep has run; the later envelope's stay.
    expect(await files(completed.id)).toEqual([])
    expect(await host.db.query('select 1 from document_data where id = any($1)', [completedFiles.map((f) => f.id)])).toEqual([])
    await maintain(host.db, host.db.files, at, SWEEP)
    for (const f of completedFiles) expect(await host.db.files!.modified(f.sha256), f.sha256).toBeNull()
    for (const f of laterFiles) expect(await host.db.files!.modified(f.sha256), f.sha256).not.toBeNull()

    // Downloads: 410 with the error shape; the later envelope's still 200.
    for (const path of [`/envelope/item/${completed.itemId}/download`, `/envelope/item/${completed.itemId}/download?version=original`, `/envelope/${completed.id}/certificate/download`, `/envelope/${completed.id}/audit-log/download`]) {
      const res = await client.get(path)
      expect(res.status, path).toBe(410)
      expect(res.body, path).toEqual({ message: expect.any(String), code: 'DOCUMENT_PURGED' })
    }
    expect((await client.get(`/envelope/item/${later.itemId}/download`)).status).toBe(200)
    // The recipient's link still opens (the document's state, and when it was purged: the page says so), its PDF is gone.
    const [{ token }] = (await host.db.query<{ token: string }>('select token from recipients where envelope_id = $1', [completed.id])) as [{ token: string }]
    const signer = api(`${host.url}/api/signing`, `Bearer ${token}`)
    const session = await signer.get('/session')
    expect([session.status, session.body.state, session.body.envelope.purgedAt]).toEqual([200, 'COMPLETED', at.toISOString()])
    expect((await api(`${host.url}/api/signing`, `Bearer ${pending.token}`).get('/session')).body.envelope).not.toHaveProperty('purgedAt')
    const page = await signer.get(`/item/${completed.itemId}`)
    expect([page.status, page.body.code]).toEqual([410, 'DOCUMENT_PURGED'])
    const copy = await client.post('/envelope/duplicate', { envelopeId: completed.id })
    expect([copy.status, copy.body.code]).toEqual([410, 'DOCUMENT_PURGED'])

    // Metadata stays; personal data goes.
    const e = (await client.get(`/envelope/${completed.id}`)).body
    expect(e).toMatchObject({ id: completed.id, title: 'Lease 4B', status: 'COMPLETED', purgedAt: expect.any(String) })
    expect(e.recipients[0]).toMatchObject({ name: '', email: '' })
    expect(e.envelopeItems[0]).toMatchObject({ id: completed.itemId, documentDataId: null })
    expect(await host.db.query('select 1 from fields where envelope_id = $1 and custom_text is not null', [completed.id])).toEqual([])
    for (const id of early) {
      const left = await host.db.query(
        `select id from audit_logs where envelope_id = $1 and (name is not null or email is not null or ip_address is not null or user_agent is not null
           or (data not in ('{}'::jsonb, '{"redacted": true}'::jsonb) and type <> 'DOCUMENT_PURGED'))`,
        [id],
      )
      expect(left, id).toEqual([])
      expect(JSON.stringify(await host.db.query('select * from recipients where envelope_id = $1', [id]))).not.toMatch(/example\.com|Pat Doe|Not my contract/)
    }
    expect(await host.db.query('select 1 from mails where envelope_id = $1', [completed.id])).toEqual([])
    expect(await host.db.query('select 1 from events where envelope_id = any($1)', [early])).toEqual([])
    expect((await host.db.query('select 1 from events where envelope_id = $1', [later.id])).length).toBeGreaterThan(0)

    // The chain holds as it did, the redacted entries counted, and one entry follows its head:
    // DOCUMENT_PURGED, which names no one and counts what went.
    const chainAfter = await checkAuditChain(host.db, completed.id)
    expect(chainAfter).toMatchObject({ ok: true, entries: chainBefore.entries + 1, redacted: expect.any(Number) })
    expect((chainAfter as { redacted: number }).redacted).toBeGreaterThan(0)
    const [purgeEntry] = await host.db.query<{ prev_hash: string; hash: string; name: string | null; data: Record<string, unknown> }>(
      `select prev_hash, hash, name, data from audit_logs where envelope_id = $1 order by id desc limit 1`,
      [completed.id],
    )
    expect(purgeEntry).toMatchObject({ prev_hash: chainBefore.ok ? chainBefore.head : null, hash: chainAfter.ok ? chainAfter.head : null, name: null })
    expect(purgeEntry!.data).toMatchObject({ files: 2, auditEntriesRedacted: expect.any(Number), mails: expect.any(Number), webhookCalls: 0 })
    for (const id of early) expect((await checkAuditChain(host.db, id)).ok).toBe(true)

    // The evidence summary says so and keeps the documents' hashes.
    const evidence = (await client.get(`/envelope/${completed.id}/evidence`)).body
    expect(evidence).toMatchObject({ redacted: true, purgedAt: e.purgedAt, auditLog: { intact: true, head: chainAfter.ok ? chainAfter.head : null, redacted: expect.any(Number) } })
    expect(evidence.recipients[0]).toMatchObject({ name: '', email: '', ipAddress: null, userAgent: null, redacted: expect.arrayContaining(['name', 'email', 'ipAddress', 'userAgent', 'history']) })
    // Its steps remain, without what they named.
    expect(evidence.recipients[0].history.map((s: { kind: string }) => s.kind)).toEqual(expect.arrayContaining(['EMAIL_SENT', 'OPENED', 'CONSENTED', 'COMPLETED']))
    expect(JSON.stringify(evidence.recipients[0].history)).not.toContain('jana@example.com')
    expect(evidence.documents[0].originalSha256).toMatch(/^[0-9a-f]{64}$/)
    expect(completedFiles.map((f) => f.sha256)).toContain(evidence.documents[0].sealedSha256)

    // Idempotent: nothing more to do, nothing changes.
    expect(await purgeDue(host.db, at)).toEqual([])
    expect(await checkAuditChain(host.db, completed.id)).toEqual(chainAfter)

    // Past the later one's cut-off it goes too; the pending and the draft never do.
    clock.set(new Date(laterAt + 10 * DAY + 1000))
    expect((await purgeDue(host.db, clock.now())).map((p) => p.envelopeId)).toEqual([later.id])
    expect(await purgeDue(host.db, new Date(clock.now().getTime() + 365 * DAY))).toEqual([])
    for (const id of [pending.id, draft.id]) expect(await purgedAt(id)).toBeNull()
    expect((await client.get(`/envelope/item/${draft.envelopeItems[0].id}/download`)).status).toBe(200)
  })

  it.skipIf(skip)('the database refuses any change of an audit entry, a redaction too until the envelope is purged, and items keep their files until purged', async () => {
    const { client: own } = await team('Keeps everything', null)
    const done = await completeOneSigner(host, own, { title: 'Kept' }, { 'user-agent': 'Kept Browser' })
    const [entry] = await host.db.query<{ id: string }>(`select id::text as id from audit_logs where envelope_id = $1 and email is not null and name is not null order by id limit 1`, [done.id])
    const refused = [
      `update audit_logs set type = type || '_CHANGED' where id = $1`,
      `update audit_logs set name = null, name_hash = null where id = $1`,
      `update audit_logs set email = 'someone@example.org' where id = $1`,
      `update audit_logs set data = '{"kept": 1}' where id = $1`,
      `update audit_logs set email = null, salt = 'x' where id = $1`,
      `update audit_logs set created_at = created_at - interval '1 day' where id = $1`,
      `delete from audit_logs where id = $1`,
    ]
    for (const sql of refused) await expect(host.db.query(sql, [entry!.id]), sql).rejects.toThrow(/never changes/)
    await expect(host.db.query('update envelope_items set document_data_id = null where id = $1', [done.itemId])).rejects.toThrow(/keeps its file/)
    await expect(host.db.query('update envelope_items set signed_document_data_id = null where id = $1', [done.itemId])).rejects.toThrow(/never changes/)
    const before = await checkAuditChain(host.db, done.id)
    const redaction = `update audit_logs set name = null, email = null, ip_address = null, user_agent = null, data = '{"redacted": true}' where id = $1`
    await expect(host.db.query(redaction, [entry!.id])).rejects.toThrow(/redacted only once its envelope is purged/)
    expect(await checkAuditChain(host.db, done.id)).toEqual(before)
    expect(before).toMatchObject({ ok: true, redacted: 0 })
    // A team without a retention is never purged, however late.
    expect(await retentionDue(host.db, { before: new Date(clock.now().getTime() + 100_000 * DAY) })).not.toContainEqual(expect.objectContaining({ envelopeId: done.id }))
  })

  it.skipIf(skip)('`retention due` and `retention run` print what is due and what they purged', async () => {
    const own = await team('One day', 1)
    const done = await completeOneSigner(host, own.client, { title: 'Short-lived' })
    // Finished two days ago by the wall clock (the command run on PostgreSQL reads that one).
    await host.db.query(`update envelopes set completed_at = completed_at - interval '2 days' where id = $1`, [done.id])
    const cli = (...args: string[]) =>
      runCli({ DATA_DIR: host.config.dataDir, DATABASE_URL: host.config.databaseUrl ?? '' }, 'retention', ...args)
    const due = await cli('due', '--team', own.id)
    expect(due.code, due.stderr).toBe(0)
    expect(due.stdout).toMatch(new RegExp(`^${done.id}\\t${own.id}\\tCOMPLETED\\tfinished \\S+\\tdue \\S+$`, 'm'))
    expect(due.stdout).toContain('1 envelope(s) due')
    const run = await cli('run', '--team', own.id)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(new RegExp(`^${done.id}\\t${own.id}\\tpurged \\S+\\t2 file\\(s\\) deleted\\t\\d+ audit entries redacted\\tcopies: webhookCalls \\d+, jobs \\d+, mails \\d+, .*$`, 'm'))
    expect(run.stdout).toContain('1 envelope(s) purged')
    expect(await purgedAt(done.id)).not.toBeNull()
    const again = await cli('run', '--team', own.id)
    expect(again.stdout).toContain('0 envelope(s) purged')
    expect((await cli('due', '--team', own.id)).stdout).toContain('0 envelope(s) due')
    expect((await cli('due', '--days', 'soon')).code).toBe(1)
  })

  it.skipIf(skip)('a purge cut short leaves the envelope whole; the periodic job on the queue takes it up', async () => {
    const own = await team('Periodic', 1)
    const done = await completeOneSigner(host, own.client, { title: 'Periodic' })
    const stored = await files(done.id)
    const later = new Date(clock.now().getTime() + 2 * DAY)
    await expect(
      host.db.transaction(async (tx) => {
        expect(await purgeEnvelope(tx, done.id, later)).toMatchObject({ envelopeId: done.id })
        throw new Error('cut short')
      }),
    ).rejects.toThrow('cut short')
    expect(await purgedAt(done.id)).toBeNull()
    expect(await files(done.id)).toEqual(stored)
    expect((await checkAuditChain(host.db, done.id)).ok).toBe(true)
    // A month on the maintenance job comes due and purges it.
    clock.advance(31 * DAY)
    await until(async () => (await purgedAt(done.id)) !== null, 120_000)
    expect(await files(done.id)).toEqual([])
    expect((await checkAuditChain(host.db, done.id)).ok).toBe(true)
  })
})
