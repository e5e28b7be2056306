import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refuseAuthOptions } from '../../host/server/api/auth-options.js'
import { api, createEnvelope, makePdf, startTestHost, type Api, type TestHost } from './support.js'

/** Recipient authentication is not built: every door refuses a request that asks for it, and accepts one that asks for nothing. */
describe('recipient authentication is refused, never dropped', () => {
  let host: TestHost
  let client: Api
  let v1: Api

  beforeAll(async () => {
    host = await startTestHost('pglite', { queueConcurrency: 0 })
    const { token } = await host.createApiToken({ name: 'auth' })
    client = api(host.apiUrl, token)
    v1 = api(`${host.url}/api/v1`, token)
  })
  afterAll(() => host?.stop())

  const count = async (table: string) => (await host.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n
  const form = async (payload: object) => {
    const f = new FormData()
    f.append('payload', JSON.stringify(payload))
    f.append('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'a.pdf')
    return f
  }
  const signer = { email: 's@example.com', name: 'S', role: 'SIGNER' }
  /** Every way the deployed clients and the typed client ask for a method. */
  const ASKING: [string, (o: object) => object][] = [
    ['recipient accessAuth', (o) => ({ ...o, recipients: [{ ...signer, accessAuth: ['ACCOUNT'] }] })],
    ['recipient actionAuth', (o) => ({ ...o, recipients: [{ ...signer, actionAuth: ['PASSKEY'] }] })],
    ['recipient actionAuth with EXPLICIT_NONE and a method', (o) => ({ ...o, recipients: [{ ...signer, actionAuth: ['EXPLICIT_NONE', 'PASSWORD'] }] })],
    ['recipient authOptions', (o) => ({ ...o, recipients: [{ ...signer, authOptions: { accessAuth: [], actionAuth: ['TWO_FACTOR_AUTH'] } }] })],
    ['recipient accessAuth as a string', (o) => ({ ...o, recipients: [{ ...signer, accessAuth: 'ACCOUNT' }] })],
    ['globalAccessAuth', (o) => ({ ...o, globalAccessAuth: ['ACCOUNT'] })],
    ['globalActionAuth', (o) => ({ ...o, globalActionAuth: ['PASSKEY'] })],
    ['envelope authOptions', (o) => ({ ...o, authOptions: { globalAccessAuth: ['TWO_FACTOR_AUTH'], globalActionAuth: [] } })],
  ]
  const refused = (res: { status: number; body: any }, what: string) => {
    expect([res.status, res.body.code], what).toEqual([400, 'AUTH_METHOD_NOT_SUPPORTED'])
    expect(res.body.message, what).toMatch(/not supported/)
    expect(res.body.issues?.[0]?.path, what).toMatch(/Auth$/)
  }

  it('API v2 envelope create: every form is a 400 and writes nothing; asking for nothing passes', async () => {
    const before = await count('envelopes')
    for (const [what, ask] of ASKING) refused(await client.post('/envelope/create', await form(ask({ type: 'DOCUMENT', title: 'A' }))), what)
    const template = ASKING[0]![1]({ type: 'TEMPLATE', title: 'T' })
    refused(await client.post('/envelope/create', await form(template)), 'template')
    expect(await count('envelopes')).toBe(before)
    const nothing = {
      type: 'DOCUMENT',
      title: 'Nothing asked',
      globalAccessAuth: [],
      globalActionAuth: ['EXPLICIT_NONE'],
      authOptions: { globalAccessAuth: null, globalActionAuth: [] },
      recipients: [{ ...signer, accessAuth: [], actionAuth: ['EXPLICIT_NONE'], authOptions: { accessAuth: null, actionAuth: [] } }],
    }
    const ok = await client.post('/envelope/create', await form(nothing))
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    // Customer keys in free JSON are theirs.
    const free = await client.post('/envelope/create', await form({ type: 'DOCUMENT', title: 'Free', formValues: { accessAuth: 'yes' } }))
    expect(free.status, JSON.stringify(free.body)).toBe(200)
  })

  it('API v2 recipients, envelope update, template use; the deprecated routes; API v1', async () => {
    const doc = await createEnvelope(client, { type: 'DOCUMENT', recipients: [signer] })
    const tpl = await createEnvelope(client, { type: 'TEMPLATE', recipients: [signer] })
    const legacy = (e: any) => Number(e.secondaryId.split('_')[1])
    const r = doc.recipients[0].id
    // API v1 sees the documents made through the legacy doors only.
    const old = (await client.post('/document/create', await form({ title: 'Old', recipients: [signer] }))).body
    const oldRecipient = (await v1.get(`/documents/${old.id}`)).body.recipients[0].id
    const cases: [string, () => Promise<{ status: number; body: any }>][] = [
      ['recipient create-many', () => client.post('/envelope/recipient/create-many', { envelopeId: doc.id, data: [{ ...signer, accessAuth: ['ACCOUNT'] }] })],
      ['recipient update-many', () => client.post('/envelope/recipient/update-many', { envelopeId: doc.id, data: [{ id: r, actionAuth: ['PASSKEY'] }] })],
      ['envelope update', () => client.post('/envelope/update', { envelopeId: doc.id, data: { globalAccessAuth: ['ACCOUNT'] } })],
      ['envelope use', async () => client.post('/envelope/use', await form({ envelopeId: tpl.id, recipients: [{ id: tpl.recipients[0].id, email: 'x@example.com', actionAuth: ['ACCOUNT'] }] }))],
      ['template use (deprecated)', () => client.post('/template/use', { templateId: legacy(tpl), recipients: [{ id: tpl.recipients[0].id, email: 'x@example.com', name: 'X', accessAuth: ['ACCOUNT'] }] })],
      ['document recipient create (deprecated)', () => client.post('/document/recipient/create', { documentId: legacy(doc), recipient: { ...signer, accessAuth: ['ACCOUNT'] } })],
      ['template recipient update-many (deprecated)', () => client.post('/template/recipient/update-many', { templateId: legacy(tpl), recipients: [{ id: tpl.recipients[0].id, actionAuth: ['PASSKEY'] }] })],
      ['document update (deprecated)', () => client.post('/document/update', { documentId: legacy(doc), data: { globalActionAuth: ['PASSKEY'] } })],
      ['document create (deprecated)', async () => client.post('/document/create', await form({ title: 'L', recipients: [{ ...signer, actionAuth: ['ACCOUNT'] }] }))],
      ['v1 recipients', () => v1.post(`/documents/${old.id}/recipients`, { ...signer, authOptions: { accessAuth: 'ACCOUNT' } })],
      ['v1 recipient update', () => v1.send('PATCH', `/documents/${old.id}/recipients/${oldRecipient}`, { actionAuth: ['ACCOUNT'] })],
      ['v1 documents', async () => v1.post('/documents', await form({ title: 'V1', recipients: [{ ...signer, accessAuth: ['ACCOUNT'] }] }))],
    ]
    const recipients = await count('recipients')
    const envelopes = await count('envelopes')
    for (const [what, send] of cases) refused(await send(), what)
    expect([await count('recipients'), await count('envelopes')]).toEqual([recipients, envelopes])
    expect((await client.get(`/envelope/${doc.id}`)).body.recipients[0].authOptions).toEqual({ accessAuth: [], actionAuth: [] })

    // Asking for nothing passes on the strict schemas too.
    expect((await client.post('/envelope/recipient/update-many', { envelopeId: doc.id, data: [{ id: r, name: 'Same', accessAuth: [], actionAuth: ['EXPLICIT_NONE'] }] })).status).toBe(200)
    expect((await client.post('/envelope/update', { envelopeId: doc.id, data: { title: 'Same', globalAccessAuth: [], globalActionAuth: null } })).status).toBe(200)
    expect((await client.post('/document/recipient/update', { documentId: legacy(doc), recipient: { id: r, actionAuth: [] } })).status).toBe(200)
  })

  it('finds a method wherever it is, under any nesting, and names each', () => {
    expect(() => refuseAuthOptions({ a: [{ b: { actionAuth: ['X'] } }] })).toThrow(/a\.0\.b\.actionAuth/)
    try {
      refuseAuthOptions({ recipients: [{ accessAuth: ['A'] }, { actionAuth: ['B'] }] }, ['payload'])
    } catch (err: any) {
      expect(err.issues.map((i: any) => i.path)).toEqual(['payload.recipients.0.accessAuth', 'payload.recipients.1.actionAuth'])
    }
    expect(() => refuseAuthOptions({ fieldMeta: { accessAuth: ['free'] }, accessAuth: [], actionAuth: ['EXPLICIT_NONE'] })).not.toThrow()
  })
})
