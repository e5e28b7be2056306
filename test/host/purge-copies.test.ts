/**
 * A retention purge leaves no copy of the personal data it covers (docs/operations.md, "Retention
 * and purge"; domain/retention/purge-copies.ts): after a signing with an e-mailed code, a wrong attempt, a
 * webhook that logged every call (its receiver echoing what it got) and the mails, the recipient's
 * name, address and signing token are in the delivery log, the jobs, the mailbox, the outbox, the
 * failure counts (and, on a shared PostgreSQL, the rate-limit counts); after the purge, no column
 * of any table the schema has (read from the catalog, so a table added later is walked too) holds
 * them, except the recipient's token where it is the link itself; a delivery that ends after the
 * purge logs its call without a body. The audit entry DOCUMENT_PURGED says what went, with counts.
 * Databases: both (PostgreSQL keeps rate-limit counters in a table that the purge must clear).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { purgeEnvelope } from '../../host/server/domain/retention/retention.js'
import { createTeam } from '../../host/server/domain/team/teams.js'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { api, createEnvelope, mailed, sealed, SIGNATURE, startTestHost, until, VARIANTS, type TestHost } from './support.js'

const DAY = 24 * 3600_000
const NAME = 'Zelda Purgewell'
const EMAIL = 'zelda.purgewell@example.net'

describe.each(VARIANTS)('a purge leaves no copy of personal data ($variant)', ({ variant, skip }) => {
  let host: TestHost
  const clock = drivenClock()
  // A receiver that answers with what it was sent: the logged answer holds the data too.
  const receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat(chunks))
  })

  beforeAll(async () => {
    if (skip) return
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    // The periodic job stays a month away: only the test purges. Counts shared quickly on PostgreSQL.
    host = await startTestHost(variant, { clock, webhookAllowPrivateUrls: true, queuePollMs: 20, rateLimitSyncMs: 50, retention: { jobsDays: 7, webhookCallsDays: 30, filesHours: 24, everyMs: 30 * DAY } })
  }, 60_000)
  afterAll(async () => {
    await host?.stop()
    await new Promise<void>((r) => receiver.close(() => r()))
  })

  /** Every text-like column of every table of the schema, as (table, column, value) rows holding `needle`. */
  const holders = async (needles: string[]): Promise<string[]> => {
    const columns = await host.db.query<{ table_name: string; column_name: string }>(
      `select c.table_name, c.column_name from information_schema.columns c join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.data_type <> 'bytea' order by 1, 2`,
    )
    const tables = [...new Set(columns.map((c) => c.table_name))]
    expect(tables).toEqual(expect.arrayContaining(['webhook_calls', 'jobs', 'mails', 'events', 'auth_throttle', 'rate_limit_counts', 'recipients', 'audit_logs', 'envelopes', 'recipient_auth_codes']))
    const found: string[] = []
    for (const table of tables) {
      for (const { column_name: column } of columns.filter((c) => c.table_name === table)) {
        const rows = await host.db.query<{ v: string }>(`select lower("${column}"::text) as v from "${table}" where "${column}" is not null`)
        for (const needle of needles) if (rows.some((r) => r.v.includes(needle.toLowerCase()))) found.push(`${table}.${column}:${needle}`)
      }
    }
    return found
  }

  it.skipIf(skip)('removes or redacts every copy, and its audit entry counts them', async () => {
    const team = await host.db.transaction((tx) => createTeam(tx, { name: 'Purging', plan: 'enterprise' }))
    const client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'purge', teamId: team.id })).token}`)
    expect((await client.post('/team/update', { retentionDays: 1 })).status).toBe(200)
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    expect((await client.post('/webhook/create', { url, events: ['DOCUMENT_SENT', 'DOCUMENT_OPENED', 'DOCUMENT_SIGNED', 'DOCUMENT_COMPLETED'] })).status).toBe(200)

    const e = await createEnvelope(client, {
      title: 'Lease 9',
      recipients: [{ name: NAME, email: EMAIL, role: 'SIGNER', accessAuth: ['TWO_FACTOR_AUTH'], fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
    })
    const token: string = (await client.post('/envelope/distribute', { envelopeId: e.id })).body.recipients[0].token
    const signer = api(`${host.url}/api/signing`, `Bearer ${token}`)
    expect((await signer.post('/auth/code', { purpose: 'access' })).status).toBe(200)
    let code = ''
    await until(async () => {
      const [m] = await host.db.query<{ text: string }>(`select text from mails where to_address = $1 and template = 'recipient-code' order by id desc limit 1`, [EMAIL])
      code = m ? /\b(\d{6})\b/.exec(m.text)![1]! : ''
      return code !== ''
    })
    // A wrong code first: the address's failure count is kept.
    expect((await signer.post('/auth/access', { method: 'TWO_FACTOR_AUTH', code: code === '000000' ? '111111' : '000000' })).status).toBe(401)
    const grant = (await signer.post('/auth/access', { method: 'TWO_FACTOR_AUTH', code })).body.grant
    const auth = { 'x-recipient-auth': grant }
    await signer.post('/open', {}, auth)
    const session = (await signer.get('/session', auth)).body
    const done = await signer.post('/complete', { fields: session.fields.map((f: { id: number }) => ({ id: f.id, value: SIGNATURE })) }, auth)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    await sealed(host, e.id)
    await mailed(host, e.id)
    // Every delivery made and logged, none under way.
    await until(async () => {
      const calls = await host.db.query(`select 1 from webhook_calls where event = 'DOCUMENT_COMPLETED' and request_body like $1`, [`%${e.id}%`])
      const open = await host.db.query(`select 1 from jobs where kind = 'webhook' and status in ('pending', 'running')`)
      return calls.length > 0 && open.length === 0
    })
    const rateKey = createHash('sha256').update(`recipient:${token}`).digest('base64url').slice(0, 22)
    if (variant === 'postgres') await until(async () => (await host.db.query('select 1 from rate_limit_counts where key = $1', [rateKey])).length > 0)

    // Before: the copies exist in the delivery log, the jobs and the rest.
    const needles = ['purgewell', EMAIL, token, rateKey]
    const before = await holders(needles)
    for (const where of ['webhook_calls.request_body:purgewell', 'webhook_calls.request_body:' + token, 'webhook_calls.response_body:' + EMAIL, 'jobs.payload:' + EMAIL, 'mails.to_address:' + EMAIL, 'events.payload:' + EMAIL, 'auth_throttle.key:' + EMAIL, 'recipients.token:' + token]) {
      expect(before, where).toContain(where)
    }
    if (variant === 'postgres') expect(before).toContain(`rate_limit_counts.key:${rateKey}`)

    const [logged] = await host.db.query<{ webhook_id: string; event_id: number }>(`select webhook_id, event_id from webhook_calls where request_body like $1 limit 1`, [`%${e.id}%`])
    const at = new Date(Date.now() + 2 * DAY)
    const purged = await host.db.transaction((tx) => purgeEnvelope(tx, e.id, at))
    expect(purged).toMatchObject({ envelopeId: e.id })
    // A delivery under way while the purge ran logs its call after it, as its job's end does: without the body.
    await host.db.query(
      `insert into webhook_calls (id, webhook_id, event_id, event, attempt, url, request_body, response_body, duration_ms) values ('webhook_call_late', $1, $2, 'DOCUMENT_COMPLETED', 2, $3, $4, $4, 5)`,
      [logged!.webhook_id, logged!.event_id, url, JSON.stringify({ event: 'DOCUMENT_COMPLETED', payload: { envelopeId: e.id, recipients: [{ name: NAME, email: EMAIL, token }] } })],
    )
    const [late] = await host.db.query<{ request_body: string; response_body: string | null }>(`select request_body, response_body from webhook_calls where id = 'webhook_call_late'`)
    expect([JSON.parse(late!.request_body), late!.response_body]).toEqual([{ event: 'DOCUMENT_COMPLETED', redacted: true, payload: { envelopeId: e.id, title: null } }, null])

    // After: the link itself is all that is left of the recipient.
    expect(await holders(needles)).toEqual(['recipients.token:' + token])
    // The delivery log keeps its calls, redacted, with the document they were about.
    const calls = (await client.get(`/webhook/${(await client.get('/webhook')).body.data[0].id}/calls?perPage=50`)).body.data
    expect(calls.length).toBeGreaterThan(0)
    for (const c of calls) expect(c).toMatchObject({ requestBody: { redacted: true, payload: { envelopeId: e.id } } })
    expect(calls.filter((c: { requestBody: { payload: { title: string } } }) => c.requestBody.payload.title === 'Lease 9')).toHaveLength(calls.length - 1)

    const copies = purged!.copies
    for (const kind of ['webhookCalls', 'jobs', 'mails', 'events', 'throttleKeys'] as const) expect(copies[kind], kind).toBeGreaterThan(0)
    if (variant === 'postgres') expect(copies.rateLimitKeys).toBeGreaterThan(0)
    const [entry] = await host.db.query<{ name: string | null; email: string | null; data: Record<string, unknown> }>(
      `select name, email, data from audit_logs where envelope_id = $1 and type = 'DOCUMENT_PURGED'`,
      [e.id],
    )
    expect(entry).toMatchObject({ name: null, email: null, data: { ...copies, files: purged!.files, auditEntriesRedacted: purged!.auditEntries, redacted: expect.arrayContaining(['webhookCalls', 'jobs', 'mails', 'audit_logs']) } })
  })

  it.skipIf(skip)("a bulk send's rows: the purged document's row, and the refused rows of its send, keep no address", async () => {
    const team = await host.db.transaction((tx) => createTeam(tx, { name: 'Bulk purging', plan: 'team' }))
    const client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'bulk-purge', teamId: team.id })).token}`)
    const t = await createEnvelope(client, { type: 'TEMPLATE', title: 'Lease', recipients: [{ name: 'Client', email: '', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] })
    const fd = new FormData()
    fd.set('payload', JSON.stringify({ templateId: t.id, mapping: { recipients: [{ recipientId: t.recipients[0].id, email: 'E-mail', name: 'Name' }] } }))
    fd.set('file', new Blob([`Name,E-mail\nBulk Sentperson,bulk.sent@example.net\nBulk Refusedperson,bulk.refused@@example.net\n`], { type: 'text/csv' }), 'people.csv')
    const started = await client.post('/envelope/bulk-send', fd)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    await until(async () => (await client.get(`/envelope/bulk-send/${started.body.id}`)).body.status === 'DONE')
    const needles = ['bulk.sent@example.net', 'bulk.refused@@example.net', 'Sentperson', 'Refusedperson']
    expect((await holders(needles)).filter((h) => h.startsWith('bulk_send_rows.'))).toEqual(['bulk_send_rows.input:bulk.sent@example.net', 'bulk_send_rows.input:bulk.refused@@example.net', 'bulk_send_rows.input:Sentperson', 'bulk_send_rows.input:Refusedperson', 'bulk_send_rows.reason:bulk.refused@@example.net'])

    const [row] = await host.db.query<{ envelope_id: string }>('select envelope_id from bulk_send_rows where bulk_send_id = $1 and status = $2', [started.body.id, 'SENT'])
    // Ended (its signer declines) and past the team's retention.
    expect((await client.post('/team/update', { retentionDays: 1 })).status).toBe(200)
    const token = (await client.get(`/envelope/${row!.envelope_id}`)).body.recipients[0].token
    expect((await api(`${host.url}/api/signing`, `Bearer ${token}`).post('/reject', { reason: 'No' })).status).toBe(200)
    const purged = await host.db.transaction((tx) => purgeEnvelope(tx, row!.envelope_id, new Date(Date.now() + 400 * DAY)))
    expect(purged!.copies.bulkRows).toBe(2)
    expect((await holders(needles)).filter((h) => h.startsWith('bulk_send_rows.'))).toEqual([])
    // The report still lists both rows, their fate without their people.
    const report = Buffer.from((await client.get(`/envelope/bulk-send/${started.body.id}/report`)).body).toString('utf8').trim().split('\r\n')
    expect(report.slice(1)).toEqual([`"2","SENT","","${row!.envelope_id}",""`, '"3","REFUSED","","",""'])
  })
})
