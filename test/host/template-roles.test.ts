/**
 * Templates built on roles: a recipient with a role name and no address ("Client"), filled in
 * when the template is used (API v2, the deprecated routes, a direct link), refused at sending
 * while any role is still empty, read by the deployed SDK as it is.
 * Databases: both (a role is a stored recipient with an empty address; use and send write rows).
 */
import { Documenso } from '@documenso/sdk-typescript'
import { describe, expect, newTeam, test as it, type Team } from './fixtures.js'
import { api, createEnvelope, form, makePdf, SIGNATURE, VARIANTS, type TestHost } from './support.js'

const box = { page: 1, width: 20, height: 5 }

describe.each(VARIANTS)('templates on roles on $variant', ({ variant, skip }) => {
  let host: TestHost
  let team: Team

  it.beforeAll(async ({ hosts }) => {
    if (skip) return
    host = await hosts.on(variant)
    team = await newTeam(host, { plan: 'team' })
  })

  /** Two roles (a client who signs first, then a witness) and a fixed counter-signer. */
  async function template() {
    return createEnvelope(
      team.client,
      {
        type: 'TEMPLATE',
        title: 'Service agreement',
        meta: { signingOrder: 'SEQUENTIAL' },
        recipients: [
          { email: '', name: 'Client', role: 'SIGNER', signingOrder: 1, fields: [{ ...box, type: 'SIGNATURE', positionX: 10, positionY: 70 }] },
          { email: '', name: 'Witness', role: 'SIGNER', signingOrder: 2, fields: [{ ...box, type: 'SIGNATURE', positionX: 40, positionY: 70 }] },
          { email: 'boss@example.com', name: 'Boss', role: 'SIGNER', signingOrder: 3, fields: [{ ...box, type: 'SIGNATURE', positionX: 70, positionY: 70 }] },
        ],
      },
      [{ bytes: await makePdf(1), name: 'agreement.pdf' }],
    )
  }
  const use = (payload: object) => team.client.post('/envelope/use', form(payload, []))
  const rows = async (envelopeId: string) => (await host.db.query<{ n: number }>('select count(*)::int as n from envelopes where team_id = (select team_id from envelopes where id = $1)', [envelopeId]))[0]!.n

  it.skipIf(skip)('keeps roles on a template, as the API and the deployed SDK read them', async () => {
    const t = await template()
    expect(t.recipients.map((r: any) => [r.name, r.email])).toEqual([['Client', ''], ['Witness', ''], ['Boss', 'boss@example.com']])
    // The SDK parses every answer that holds a role's empty address.
    const sdk = new Documenso({ serverURL: host.apiUrl, apiKey: team.token })
    const got = await sdk.envelopes.get({ envelopeId: t.id })
    expect(got.recipients.map((r) => r.email)).toEqual(['', '', 'boss@example.com'])
    const one = await sdk.envelopes.recipients.get({ recipientId: t.recipients[0].id })
    expect([one.name, one.email]).toEqual(['Client', ''])
    const number = Number(t.secondaryId.split('_')[1])
    expect((await sdk.templates.get({ templateId: number })).recipients.map((r) => r.email)).toEqual(['', '', 'boss@example.com'])
    // A role added later, and a role turned into a fixed person and back.
    const added = await team.client.post('/envelope/recipient/create-many', { envelopeId: t.id, data: [{ email: '', name: 'Guarantor', role: 'APPROVER' }] })
    expect([added.status, added.body.data[0].email]).toEqual([200, ''])
    const updated = await team.client.post('/envelope/recipient/update-many', { envelopeId: t.id, data: [{ id: added.body.data[0].id, email: 'g@example.com' }] })
    expect(updated.body.data[0].email).toBe('g@example.com')
    // Anything else that is not an address is still refused.
    const bad = await team.client.post('/envelope/recipient/create-many', { envelopeId: t.id, data: [{ email: 'not-an-address', name: 'X', role: 'SIGNER' }] })
    expect([bad.status, bad.body.code, bad.body.issues[0].path]).toEqual([400, 'INVALID_REQUEST', 'data.0.email'])
  })

  it.skipIf(skip)('makes a document with the people filled in and sends it', async () => {
    const t = await template()
    const [client, witness] = t.recipients
    const used = await use({
      envelopeId: t.id,
      recipients: [
        { id: client.id, name: 'Carla Client', email: 'Carla@Example.com' },
        { id: witness.id, name: 'Walt Witness', email: 'walt@example.com' },
      ],
      distributeDocument: true,
    })
    expect(used.body).toMatchObject({ id: expect.any(String) })
    const d = (await team.client.get(`/envelope/${used.body.id}`)).body
    expect(d.status).toBe('PENDING')
    expect(d.recipients.map((r: any) => [r.name, r.email, r.sendStatus])).toEqual([
      ['Carla Client', 'carla@example.com', 'SENT'],
      ['Walt Witness', 'walt@example.com', 'SENT'],
      ['Boss', 'boss@example.com', 'SENT'],
    ])
    // The template keeps its roles.
    expect((await team.client.get(`/envelope/${t.id}`)).body.recipients.map((r: any) => r.email)).toEqual(['', '', 'boss@example.com'])
  })

  it.skipIf(skip)('refuses to send while a role has no person, naming the role, and writes nothing when sending at once', async () => {
    const t = await template()
    const [client] = t.recipients
    const before = await rows(t.id)
    const atOnce = await use({ envelopeId: t.id, recipients: [{ id: client.id, name: 'Carla', email: 'carla@example.com' }], distributeDocument: true })
    expect([atOnce.status, atOnce.body.code]).toEqual([400, 'RECIPIENT_WITHOUT_ADDRESS'])
    expect(atOnce.body.message).toContain('Witness has no e-mail address yet')
    expect(atOnce.body.issues).toEqual([{ path: 'recipients.1.email', message: 'Witness has no e-mail address yet' }])
    expect(await rows(t.id)).toBe(before)

    // Made as a draft, the role waits for its person; once given, the document goes out.
    const draft = await use({ envelopeId: t.id, recipients: [{ id: client.id, name: 'Carla', email: 'carla@example.com' }] })
    expect(draft.status).toBe(200)
    const d = (await team.client.get(`/envelope/${draft.body.id}`)).body
    expect(d.recipients.map((r: any) => [r.name, r.email])).toEqual([['Carla', 'carla@example.com'], ['Witness', ''], ['Boss', 'boss@example.com']])
    const refused = await team.client.post('/envelope/distribute', { envelopeId: d.id })
    expect([refused.status, refused.body.code, refused.body.issues]).toEqual([400, 'RECIPIENT_WITHOUT_ADDRESS', [{ path: 'recipients.1.email', message: 'Witness has no e-mail address yet' }]])
    expect((await team.client.get(`/envelope/${d.id}`)).body.status).toBe('DRAFT')
    await team.client.post('/envelope/recipient/update-many', { envelopeId: d.id, data: [{ id: d.recipients[1].id, name: 'Walt', email: 'walt@example.com' }] })
    expect((await team.client.post('/envelope/distribute', { envelopeId: d.id })).status).toBe(200)
    // A sent document's recipient cannot lose their address.
    const cleared = await team.client.post('/envelope/recipient/update-many', { envelopeId: d.id, data: [{ id: d.recipients[0].id, email: '' }] })
    expect([cleared.status, cleared.body.issues]).toEqual([400, [{ path: 'data.0.email', message: 'A recipient of a sent document needs an e-mail address' }]])
  })

  it.skipIf(skip)('fills roles through the deprecated template route too', async () => {
    const t = await template()
    const number = Number(t.secondaryId.split('_')[1])
    const [client, witness] = t.recipients
    const made = await team.client.post(`/template/use`, {
      templateId: number,
      recipients: [
        { id: client.id, name: 'Carla', email: 'carla@example.com' },
        { id: witness.id, name: 'Walt', email: 'walt@example.com' },
      ],
      distributeDocument: true,
    })
    expect(made.status).toBe(200)
    expect(made.body.recipients.map((r: any) => r.email)).toEqual(['carla@example.com', 'walt@example.com', 'boss@example.com'])
  })

  it.skipIf(skip)("a direct link's visitor names the people of the other roles", async () => {
    const t = await template()
    const [client, witness] = t.recipients
    const link = (await team.client.post('/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: client.id })).body
    const visitor = api(`${host.url}/api/signing`, `Bearer ${link.token}`)
    const session = (await visitor.get('/direct/session')).body
    // Only the roles still to fill: not the visitor's own, not the fixed counter-signer.
    expect(session.roles).toEqual([{ id: witness.id, name: 'Witness', role: 'SIGNER' }])
    const [sig] = session.fields
    const signer = { name: 'Carla', email: 'carla@example.com' }
    const without = await visitor.post('/direct/complete', { signer, fields: [{ id: sig.id, value: SIGNATURE }] })
    expect([without.status, without.body.code]).toEqual([400, 'RECIPIENT_WITHOUT_ADDRESS'])
    const notARole = await visitor.post('/direct/complete', { signer, roles: [{ id: t.recipients[2].id, name: 'X', email: 'x@example.com' }], fields: [{ id: sig.id, value: SIGNATURE }] })
    expect([notARole.status, notARole.body.issues]).toEqual([400, [{ path: 'roles.0.id', message: 'Not a role of this template to fill in' }]])
    const done = await visitor.post('/direct/complete', { signer, roles: [{ id: witness.id, name: 'Walt', email: 'Walt@example.com' }], fields: [{ id: sig.id, value: SIGNATURE }] })
    expect(done.status).toBe(200)
    const d = (await team.client.get(`/envelope/${done.body.envelopeId}`)).body
    expect(d.recipients.map((r: any) => [r.name, r.email, r.signingStatus])).toEqual([
      ['Carla', 'carla@example.com', 'SIGNED'],
      ['Walt', 'walt@example.com', 'NOT_SIGNED'],
      ['Boss', 'boss@example.com', 'NOT_SIGNED'],
    ])
  })
})
