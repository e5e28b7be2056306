/**
 * The totals of GET /envelope (kept as envelopes are written, migration 13) stay equal to the rows
 * they stand for through every way an envelope comes and goes, on both databases: create (both
 * types, the legacy routes), use, duplicate, a direct link, hard and soft deletion, and rows
 * written straight into the table.
 * Databases: both (the totals are kept by triggers of migration 13, so each engine keeps them).
 */
import { describe, expect, newTeam, test, unique } from './fixtures.js'
import { api, completeOneSigner, createEnvelope, makePdf, VARIANTS, type Api, type TestHost } from './support.js'

describe.each(VARIANTS)('envelope list totals on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let v1: Api
  let teamId: string

  test.beforeAll(async ({ hosts }) => {
    if (skip) return
    host = await hosts.on(variant)
    const team = await newTeam(host, { name: 'Counted', plan: 'enterprise' })
    teamId = team.id
    client = team.client
    v1 = api(`${host.url}/api/v1`, team.token)
  })

  /** Every total the list answers, beside a count of the rows themselves. */
  async function agree(step: string) {
    const real = async (extra: string) =>
      (await host.db.query<{ n: number }>(`select count(*)::int as n from envelopes where team_id = $1 and deleted_at is null ${extra}`, [teamId]))[0]!.n
    expect((await client.get('/envelope?perPage=1')).body.count, `${step}: all`).toBe(await real(''))
    expect((await client.get('/envelope?type=DOCUMENT&perPage=1')).body.count, `${step}: documents`).toBe(await real(`and type = 'DOCUMENT'`))
    expect((await client.get('/envelope?type=TEMPLATE&perPage=1')).body.count, `${step}: templates`).toBe(await real(`and type = 'TEMPLATE'`))
    expect((await client.get('/envelope?status=DRAFT&perPage=1')).body.count, `${step}: drafts`).toBe(await real(`and status = 'DRAFT'`))
    expect((await client.get('/document?perPage=1')).body.count, `${step}: deprecated documents`).toBe(await real(`and type = 'DOCUMENT'`))
    expect((await v1.get('/documents?perPage=1')).body.totalCount, `${step}: API v1 (legacy documents)`).toBe(await real(`and type = 'DOCUMENT' and internal_version = 1`))
  }

  test.skipIf(skip)('match the rows through create, use, duplicate, deletion and raw inserts', async () => {
    await agree('empty')
    const doc = await createEnvelope(client, { type: 'DOCUMENT' })
    const tpl = await createEnvelope(client, { type: 'TEMPLATE', recipients: [{ email: 'r@example.com', name: 'R', role: 'SIGNER' }] })
    const form = new FormData()
    form.append('payload', JSON.stringify({ title: 'Legacy' }))
    form.append('file', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'legacy.pdf')
    expect((await client.post('/document/create', form)).status).toBe(200)
    await agree('created')
    const used = new FormData()
    used.append('payload', JSON.stringify({ envelopeId: tpl.id }))
    expect((await client.post('/envelope/use', used)).status).toBe(200)
    expect((await client.post('/envelope/duplicate', { envelopeId: doc.id })).status).toBe(200)
    await agree('used and duplicated')
    // A draft's deletion is for good; a sent document's is soft.
    expect((await client.post('/envelope/delete', { envelopeId: doc.id })).status).toBe(200)
    const { id: sent } = await completeOneSigner(host, client, { title: 'Signed then deleted' })
    await agree('completed')
    expect((await client.post('/envelope/delete', { envelopeId: sent })).status).toBe(200)
    await agree('deleted')
    // Ids no other test's rows have: the host is shared.
    const raw = unique('envelope_raw').replace('-', '')
    await host.db.query(
      `insert into envelopes (id, team_id, type, secondary_number, status, source, visibility, template_type, title, document_meta)
       select $2 || g, $1, 'DOCUMENT', 1000 + g, 'DRAFT', 'DOCUMENT', 'EVERYONE', 'PRIVATE', 'Raw ' || g, '{}'::jsonb from generate_series(1, 25) g`,
      [teamId, raw],
    )
    await agree('raw inserts')
    await host.db.query(`delete from envelopes where team_id = $1 and id like $2 || '%'`, [teamId, raw])
    await agree('raw deletes')
  })
})
