import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refuseAuthOptions } from '../../host/server/api/auth-options.js'
import { api, createEnvelope, makePdf, startTestHost, type Api, type TestHost } from './support.js'

/**
 * Recipient authentication is taken where a route reads it (API v2 envelope create and update,
 * recipient create-many and update-many) and kept on copies; every other door refuses a request
 * that asks for a method rather than drop it, and accepts one that asks for nothing.
 * Database: the embedded one (which route takes a method is an API rule).
 */
describe('recipient authentication is taken or refused, never dropped', () => {
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
  /** Every way the deployed clients and the typed client ask for a method, and what the envelope then shows. */
  const none = { accessAuth: [], actionAuth: [] }
  const noGlobal = { globalAccessAuth: [], globalActionAuth: [] }
  const ASKING: [string, (o: object) => object, { recipient: object; envelope: object }][] = [
    ['recipient accessAuth', (o) => ({ ...o, recipients: [{ ...signer, accessAuth: ['ACCOUNT'] }] }), { recipient: { accessAuth: ['ACCOUNT'], actionAuth: [] }, envelope: noGlobal }],
    ['recipient actionAuth', (o) => ({ ...o, recipients: [{ ...signer, actionAuth: ['PASSKEY'] }] }), { recipient: { accessAuth: [], actionAuth: ['PASSKEY'] }, envelope: noGlobal }],
    [
      'recipient actionAuth with EXPLICIT_NONE and a method',
      (o) => ({ ...o, recipients: [{ ...signer, actionAuth: ['EXPLICIT_NONE', 'PASSWORD'] }] }),
      { recipient: { accessAuth: [], actionAuth: ['EXPLICIT_NONE', 'PASSWORD'] }, envelope: noGlobal },
    ],
    [
      'recipient authOptions',
      (o) => ({ ...o, recipients: [{ ...signer, authOptions: { accessAuth: [], actionAuth: ['TWO_FACTOR_AUTH'] } }] }),
      { recipient: { accessAuth: [], actionAuth: ['TWO_FACTOR_AUTH'] }, envelope: noGlobal },
    ],
    ['globalAccessAuth', (o) => ({ ...o, globalAccessAuth: ['ACCOUNT'] }), { recipient: none, envelope: { globalAccessAuth: ['ACCOUNT'], globalActionAuth: [] } }],
    ['globalActionAuth', (o) => ({ ...o, globalActionAuth: ['PASSKEY', 'PASSWORD'] }), { recipient: none, envelope: { globalAccessAuth: [], globalActionAuth: ['PASSKEY', 'PASSWORD'] } }],
    [
      'envelope authOptions',
      (o) => ({ ...o, authOptions: { globalAccessAuth: ['TWO_FACTOR_AUTH'], globalActionAuth: [] } }),
      { recipient: none, envelope: { globalAccessAuth: ['TWO_FACTOR_AUTH'], globalActionAuth: [] } },
    ],
  ]
  const refused = (res: { status: number; body: any }, what: string) => {
    expect([res.status, res.body.code], what).toEqual([400, 'AUTH_METHOD_NOT_SUPPORTED'])
    expect(res.body.message, what).toMatch(/not taken on this route/)
    expect(res.body.issues?.[0]?.path, what).toMatch(/Auth$/)
  }

  it('API v2 envelope create takes every form and shows it back; unknown methods are a 400 that writes nothing', async () => {
    for (const [what, ask, shown] of ASKING) {
      const res = await client.post('/envelope/create', await form(ask({ type: 'DOCUMENT', title: 'A', recipients: [signer] })))
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(200)
      const e = (await client.get(`/envelope/${res.body.id}`)).body
      expect(e.authOptions, what).toEqual(shown.envelope)
      expect(e.recipients[0].authOptions, what).toEqual(shown.recipient)
    }
    const before = await count('envelopes')
    for (const bad of [
      { recipients: [{ ...signer, accessAuth: 'ACCOUNT' }] },
      { recipients: [{ ...signer, accessAuth: ['PASSKEY'] }] },
      { globalActionAuth: ['EXPLICIT_NONE'] },
      { globalAccessAuth: ['SMS'] },
    ]) {
      const res = await client.post('/envelope/create', await form({ type: 'DOCUMENT', title: 'Bad', ...bad }))
      expect([res.status, res.body.code], JSON.stringify(bad)).toEqual([400, 'INVALID_REQUEST'])
      expect(res.body.issues[0].path, JSON.stringify(bad)).toMatch(/^payload\./)
    }
    expect(await count('envelopes')).toBe(before)
    const nothing = {
      type: 'DOCUMENT',
      title: 'Nothing asked',
      globalAccessAuth: [],
      globalActionAuth: [],
      authOptions: { globalAccessAuth: null, globalActionAuth: [] },
      recipients: [{ ...signer, accessAuth: [], actionAuth: ['EXPLICIT_NONE'], authOptions: { accessAuth: null, actionAuth: [] } }],
    }
    const ok = await client.post('/envelope/create', await form(nothing))
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    // Customer keys in free JSON are theirs.
    const free = await client.post('/envelope/create', await form({ type: 'DOCUMENT', title: 'Free', formValues: { accessAuth: 'yes' } }))
    expect(free.status, JSON.stringify(free.body)).toBe(200)
  })

  it('API v2 recipients and envelope update take methods; a template\'s are kept by use; the other doors refuse', async () => {
    const doc = await createEnvelope(client, { type: 'DOCUMENT', recipients: [signer] })
    const tpl = await createEnvelope(client, { type: 'TEMPLATE', recipients: [signer] })
    const legacy = (e: any) => Number(e.secondaryId.split('_')[1])
    const r = doc.recipients[0].id
    // API v1 sees the documents made through the legacy doors only.
    const old = (await client.post('/document/create', await form({ title: 'Old', recipients: [signer] }))).body
    const oldRecipient = (await v1.get(`/documents/${old.id}`)).body.recipients[0].id
    const added = await client.post('/envelope/recipient/create-many', { envelopeId: doc.id, data: [{ ...signer, email: 't@example.com', accessAuth: ['ACCOUNT'] }] })
    expect(added.body.data[0].authOptions).toEqual({ accessAuth: ['ACCOUNT'], actionAuth: [] })
    const changed = await client.post('/envelope/recipient/update-many', { envelopeId: doc.id, data: [{ id: r, actionAuth: ['PASSKEY'] }] })
    expect(changed.body.data[0].authOptions).toEqual({ accessAuth: [], actionAuth: ['PASSKEY'] })
    const updated = await client.post('/envelope/update', { envelopeId: doc.id, data: { globalAccessAuth: ['TWO_FACTOR_AUTH'] } })
    expect(updated.body.authOptions).toEqual({ globalAccessAuth: ['TWO_FACTOR_AUTH'], globalActionAuth: [] })
    // A template's methods, its own and its recipients', are the document's made from it.
    await client.post('/envelope/update', { envelopeId: tpl.id, data: { globalActionAuth: ['PASSWORD'] } })
    await client.post('/envelope/recipient/update-many', { envelopeId: tpl.id, data: [{ id: tpl.recipients[0].id, accessAuth: ['TWO_FACTOR_AUTH'] }] })
    const made = await client.post('/envelope/use', await form({ envelopeId: tpl.id }))
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const fromTemplate = (await client.get(`/envelope/${made.body.id}`)).body
    expect(fromTemplate.authOptions).toEqual({ globalAccessAuth: [], globalActionAuth: ['PASSWORD'] })
    expect(fromTemplate.recipients[0].authOptions).toEqual({ accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: [] })

    // The deprecated routes and API v1 take them where the deployed clients send them.
    const tr = tpl.recipients[0].id
    const taken: [string, () => Promise<{ status: number; body: any }>, () => Promise<unknown>, unknown][] = [
      [
        'document recipient create (deprecated)',
        () => client.post('/document/recipient/create', { documentId: legacy(doc), recipient: { ...signer, email: 'dep@example.com', accessAuth: ['ACCOUNT'] } }),
        async () => (await client.get(`/envelope/${doc.id}`)).body.recipients.find((x: any) => x.email === 'dep@example.com').authOptions,
        { accessAuth: ['ACCOUNT'], actionAuth: [] },
      ],
      [
        'template recipient update-many (deprecated)',
        () => client.post('/template/recipient/update-many', { templateId: legacy(tpl), recipients: [{ id: tr, actionAuth: ['PASSKEY'] }] }),
        async () => (await client.get(`/envelope/${tpl.id}`)).body.recipients[0].authOptions,
        { accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: ['PASSKEY'] },
      ],
      [
        'document update (deprecated)',
        () => client.post('/document/update', { documentId: legacy(doc), data: { globalActionAuth: ['PASSKEY'] } }),
        async () => (await client.get(`/envelope/${doc.id}`)).body.authOptions,
        { globalAccessAuth: ['TWO_FACTOR_AUTH'], globalActionAuth: ['PASSKEY'] },
      ],
      [
        'v1 recipients',
        () => v1.post(`/documents/${old.id}/recipients`, { ...signer, email: 'v1@example.com', authOptions: { accessAuth: ['ACCOUNT'] } }),
        async () => (await v1.get(`/documents/${old.id}`)).body.recipients.find((x: any) => x.email === 'v1@example.com').authOptions,
        { accessAuth: ['ACCOUNT'], actionAuth: [] },
      ],
      [
        'v1 recipient update',
        () => v1.send('PATCH', `/documents/${old.id}/recipients/${oldRecipient}`, { actionAuth: ['ACCOUNT'] }),
        async () => (await v1.get(`/documents/${old.id}`)).body.recipients.find((x: any) => x.id === oldRecipient).authOptions,
        { accessAuth: [], actionAuth: ['ACCOUNT'] },
      ],
    ]
    for (const [what, send, read, expected] of taken) {
      const res = await send()
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(200)
      expect(await read(), what).toEqual(expected)
    }
    const created = await client.post('/document/create', await form({ title: 'L', globalAccessAuth: ['ACCOUNT'], recipients: [{ ...signer, actionAuth: ['ACCOUNT'] }] }))
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const legacyDoc = (await client.get(`/envelope/${created.body.envelopeId}`)).body
    expect([legacyDoc.authOptions.globalAccessAuth, legacyDoc.recipients[0].authOptions.actionAuth]).toEqual([['ACCOUNT'], ['ACCOUNT']])

    // Recipients named when a template is used keep the template's methods: these doors take none.
    const cases: [string, () => Promise<{ status: number; body: any }>][] = [
      ['envelope use', async () => client.post('/envelope/use', await form({ envelopeId: tpl.id, recipients: [{ id: tr, email: 'x@example.com', actionAuth: ['ACCOUNT'] }] }))],
      ['template use (deprecated)', () => client.post('/template/use', { templateId: legacy(tpl), recipients: [{ id: tr, email: 'x@example.com', name: 'X', accessAuth: ['ACCOUNT'] }] })],
      ['a field', () => client.post('/envelope/field/create-many', { envelopeId: doc.id, data: [{ recipientId: r, type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 5, height: 5, accessAuth: ['ACCOUNT'] }] })],
    ]
    const recipients = await count('recipients')
    const envelopes = await count('envelopes')
    for (const [what, send] of cases) refused(await send(), what)
    expect([await count('recipients'), await count('envelopes')]).toEqual([recipients, envelopes])
    expect((await client.get(`/envelope/${doc.id}`)).body.recipients[0].authOptions).toEqual({ accessAuth: [], actionAuth: ['PASSKEY'] })

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
