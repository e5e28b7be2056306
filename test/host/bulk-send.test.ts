/**
 * Bulk send through API v2: a template with two roles, a CSV table (and an XLSX one) mapped to them; the preview,
 * every refusal (a missing column, a malformed or oversized file, a role left unmapped, more rows
 * than the plan allows: nothing starts), the sending on the durable queue with each bad row refused
 * and the others sent once, the report safe to open in a spreadsheet. Both databases for the
 * sending (its rows and jobs are SQL of their own); the refusals on the embedded one.
 */
import { expectTypeOf } from 'vitest'
import type { BulkSendAnswer } from '../../host/server/contract/answers.js'
import { BulkSendAnswer as BulkSendSchema, BulkSendPreviewAnswer, BulkTableAnswer } from '../../host/server/contract/bulk-answers.js'
import type { BulkSendStatus } from '../../host/server/domain/template/bulk-send.js'
import { BULK_MAX_BYTES } from '../../host/server/domain/template/bulk-table.js'
import { describe, expect, newTeam, test, type Team } from './fixtures.js'
import { createEnvelope, until, type TestHost } from './support.js'
import { inlineRow, LIBREOFFICE_WORKBOOK, markedEncrypted, workbook } from './tables/workbooks.js'

/** A template on roles: Client signs and has a reference to fill in ahead; Witness signs. */
async function template(team: Team) {
  const sig = (positionY: number) => ({ type: 'SIGNATURE', page: 1, positionX: 10, positionY, width: 30, height: 8 })
  const t = await createEnvelope(team.client, {
    type: 'TEMPLATE',
    title: 'Lease',
    recipients: [
      { email: '', name: 'Client', role: 'SIGNER', fields: [sig(60), { type: 'TEXT', page: 1, positionX: 10, positionY: 10, width: 30, height: 5, fieldMeta: { label: 'Reference' } }] },
      { email: '', name: 'Witness', role: 'SIGNER', fields: [sig(80)] },
    ],
  })
  const [client, witness] = t.recipients
  const reference = t.fields.find((f: any) => f.type === 'TEXT')
  const mapping = {
    recipients: [
      { recipientId: client.id, email: 'Client e-mail', name: 'Client name' },
      { recipientId: witness.id, email: 'Witness e-mail' },
    ],
    prefill: [{ fieldId: reference.id, column: 'Reference' }],
    title: 'Title',
  }
  return { id: t.id as string, mapping }
}

const HEADER = 'Client name,Client e-mail,Witness e-mail,Reference,Title'
const row = (i: number) => `Client ${i},client${i}@example.com,witness${i}@example.com,REF-${i},Lease ${i}`

function bulk(team: Team, payload: Record<string, unknown>, csv: string | Uint8Array) {
  const fd = new FormData()
  fd.set('payload', JSON.stringify(payload))
  fd.set('file', new Blob([typeof csv === 'string' ? new TextEncoder().encode(csv) : (csv as Uint8Array<ArrayBuffer>)], { type: 'text/csv' }), 'people.csv')
  return team.client.post('/envelope/bulk-send', fd)
}

const documents = async (team: Team) => (await team.client.get('/envelope?type=DOCUMENT&perPage=100')).body.count as number

/** Waits until a bulk send is done, draining the queue of a host that does not run it in the background. */
async function done(host: TestHost, team: Team, id: string): Promise<BulkSendStatus> {
  let status: BulkSendStatus | undefined
  await until(async () => {
    if (host.config.queueConcurrency === 0) await host.queue.drain()
    status = (await team.client.get(`/envelope/bulk-send/${id}`)).body
    return status!.status === 'DONE'
  })
  return status!
}

describe('bulk send', () => {
  test('the answers are the declared ones', () => {
    expectTypeOf<BulkSendStatus>().toEqualTypeOf<BulkSendAnswer>()
  })

  test('a preview: every row as it would go, the bad and the repeated ones said, nothing sent; a BOM and Windows-1252 read', async ({ team }) => {
    const t = await template(team)
    const csv = `\ufeff${HEADER}\n${row(1)}\nClient 2,not-an-address,witness2@example.com,REF-2,Lease 2\n${row(1)}\n\n${row(3)}\n`
    const res = await bulk(team, { templateId: t.id, mapping: t.mapping, dryRun: true }, csv)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(BulkSendPreviewAnswer.parse(res.body)).toEqual(res.body)
    expect(res.body).toMatchObject({ columns: HEADER.split(','), encoding: 'utf-8', total: 4, sendable: 2 })
    expect(res.body.rows[0]).toEqual({
      row: 2,
      recipients: [
        { id: t.mapping.recipients[0]!.recipientId, email: 'client1@example.com', name: 'Client 1' },
        { id: t.mapping.recipients[1]!.recipientId, email: 'witness1@example.com' },
      ],
      prefillFields: [{ id: t.mapping.prefill[0]!.fieldId, type: 'text', value: 'REF-1' }],
      title: 'Lease 1',
      problems: [],
    })
    expect(res.body.problems).toEqual([
      { row: 3, problems: [{ code: 'NOT_AN_ADDRESS', column: 'Client e-mail', value: 'not-an-address', message: '"not-an-address" in Client e-mail is not an e-mail address' }] },
      { row: 4, problems: [{ code: 'SAME_AS_ROW', row: 2, message: 'the same as row 2' }] },
    ])
    expect(await documents(team)).toBe(0)

    // Windows-1252, as older spreadsheets save it: "Müller" is one byte 0xFC.
    const latin = Uint8Array.from(Buffer.from(`${HEADER}\nJana M\u00fcller,jana@example.com,w@example.com,R,Lease\n`, 'latin1'))
    const read = await bulk(team, { templateId: t.id, mapping: t.mapping, dryRun: true }, latin)
    expect(read.body.encoding).toBe('windows-1252')
    expect(read.body.rows[0].recipients[0].name).toBe('Jana Müller')
  })

  test('an XLSX workbook: its columns asked before a mapping, then previewed as a CSV would be; a workbook that cannot be read refused', async ({ team }) => {
    const t = await template(team)
    const sheet = [HEADER.split(','), ...[1, 2].map((i) => row(i).split(','))].map((cells, i) => inlineRow(i + 1, cells)).join('')
    const file = (bytes: Uint8Array) => {
      const fd = new FormData()
      fd.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'people.xlsx')
      return fd
    }
    const columns = await team.client.post('/envelope/bulk-send/columns', file(workbook({ sheet })))
    expect(columns.status, JSON.stringify(columns.body)).toBe(200)
    expect(BulkTableAnswer.parse(columns.body)).toEqual({ columns: HEADER.split(','), format: 'xlsx', encoding: 'utf-8', total: 2 })
    const csvColumns = await team.client.post('/envelope/bulk-send/columns', file(new TextEncoder().encode(`${HEADER}\n${row(1)}\n`)))
    expect(csvColumns.body).toEqual({ columns: HEADER.split(','), format: 'csv', encoding: 'utf-8', total: 1 })

    const preview = await bulk(team, { templateId: t.id, mapping: t.mapping, dryRun: true }, workbook({ sheet }))
    expect(preview.status, JSON.stringify(preview.body)).toBe(200)
    expect(preview.body).toMatchObject({ format: 'xlsx', total: 2, sendable: 2, problems: [] })
    expect(preview.body.rows[1]).toMatchObject({ row: 3, title: 'Lease 2', recipients: [{ email: 'client2@example.com', name: 'Client 2' }, { email: 'witness2@example.com' }] })

    for (const bad of [markedEncrypted(workbook({ sheet })), LIBREOFFICE_WORKBOOK.subarray(0, 2000)]) {
      const refused = await team.client.post('/envelope/bulk-send/columns', file(bad))
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ code: 'INVALID_TABLE', issues: [{ path: 'file' }] })
    }
    expect(await documents(team)).toBe(0)
  })

  test('refused before anything starts: a missing column, a malformed or oversized file, a role left unmapped, more rows than the plan allows', async ({ team, host }) => {
    const t = await template(team)
    const missing = await bulk(team, { templateId: t.id, mapping: { ...t.mapping, title: 'Subject' } }, `${HEADER}\n${row(1)}\n`)
    expect(missing.status).toBe(400)
    expect(missing.body.issues[0]).toMatchObject({ path: 'payload.mapping.title' })
    expect(missing.body.issues[0].message).toContain('The table has no column "Subject"')

    const malformed = await bulk(team, { templateId: t.id, mapping: t.mapping }, `${HEADER}\n"Client 1,client1@example.com\n`)
    expect(malformed.status).toBe(400)
    expect(malformed.body.code).toBe('INVALID_TABLE')

    const huge = await bulk(team, { templateId: t.id, mapping: t.mapping }, new Uint8Array(BULK_MAX_BYTES + 1).fill(0x61))
    expect(huge.status).toBe(413)

    const unmapped = await bulk(team, { templateId: t.id, mapping: { ...t.mapping, recipients: [t.mapping.recipients[0]] } }, `${HEADER}\n${row(1)}\n`)
    expect(unmapped.status).toBe(400)
    expect(unmapped.body.message).toContain('The role "Witness"')

    const noFile = await team.client.post('/envelope/bulk-send', (() => { const fd = new FormData(); fd.set('payload', JSON.stringify({ templateId: t.id, mapping: t.mapping })); return fd })())
    expect(noFile.status).toBe(400)
    expect(noFile.body.issues[0].path).toBe('file')

    // The free plan: what is left of its month's documents (5).
    const free = await newTeam(host, { plan: 'free' })
    const ft = await template(free)
    const over = await bulk(free, { templateId: ft.id, mapping: ft.mapping }, [HEADER, ...[1, 2, 3, 4, 5, 6].map(row)].join('\n'))
    expect(over.status).toBe(400)
    expect(over.body.code).toBe('BULK_OVER_PLAN')
    expect(await documents(free)).toBe(0)
    expect(await documents(team)).toBe(0)
  })

  for (const variant of ['pglite', 'postgres'] as const) {
    describe(`on ${variant}`, () => {
      test.override({ variant })

      test('50 rows, 3 of them bad: 47 documents sent once each with their values, 3 refused saying why, a report a spreadsheet opens safely', async ({ team, host }) => {
        const t = await template(team)
        const rows = Array.from({ length: 50 }, (_, i) => row(i + 1))
        rows[9] = 'Client 10,=1+1,witness10@example.com,REF-10,Lease 10'
        rows[19] = 'Client 20,client20@example.com,,REF-20,Lease 20'
        rows[29] = row(1)
        const started = await bulk(team, { templateId: t.id, mapping: t.mapping }, [HEADER, ...rows].join('\r\n'))
        expect(started.status, JSON.stringify(started.body)).toBe(200)
        expect(started.body).toMatchObject({ status: 'RUNNING', total: 50, refused: 3, encoding: 'utf-8' })

        const status = await done(host, team, started.body.id)
        expect(BulkSendSchema.parse(status)).toEqual(status)
        expect(status).toMatchObject({ status: 'DONE', total: 50, sent: 47, refused: 3, pending: 0 })
        const { data } = (await team.client.get('/envelope?type=DOCUMENT&perPage=100')).body
        expect(data).toHaveLength(47)
        expect(new Set(data.map((e: any) => e.title)).size).toBe(47)
        expect(data.every((e: any) => e.status === 'PENDING')).toBe(true)
        const one = (await team.client.get(`/envelope/${data.find((e: any) => e.title === 'Lease 7').id}`)).body
        expect(one.recipients.map((r: any) => [r.name, r.email])).toEqual([
          ['Client 7', 'client7@example.com'],
          ['Witness', 'witness7@example.com'],
        ])
        expect(one.fields.find((f: any) => f.type === 'TEXT')).toMatchObject({ inserted: true, customText: 'REF-7' })

        const report = await team.client.get(`/envelope/bulk-send/${started.body.id}/report`)
        expect(report.headers.get('content-type')).toContain('text/csv')
        const lines = Buffer.from(report.body).toString('utf8').trim().split('\r\n')
        expect(lines).toHaveLength(51)
        expect(lines[0]).toBe('"row","status","recipients","document","reason"')
        expect(lines[10]).toBe(`"11","REFUSED","'=1+1 witness10@example.com","","""=1+1"" in Client e-mail is not an e-mail address"`)
        expect(lines[20]).toContain('"REFUSED"')
        expect(lines[30]).toContain('the same as row 2')
        expect(lines[7]).toMatch(/^"8","SENT","client7@example.com witness7@example.com","envelope_[a-z0-9]+",""$/)
      })
    })
  }
})
