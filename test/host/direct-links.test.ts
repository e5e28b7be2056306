/**
 * Template direct links: managed through the deprecated routes, published by unscoped tokens only,
 * bad requests refused; a visitor signs a document made from the template, which is then sent on.
 * Database: the embedded one (API rules). A host of its own: it counts whole tables and runs the
 * queue itself (queueConcurrency 0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createEnvelope, makePdf, startTestHost, SIGNATURE, type Api, type TestHost } from './support.js'

const box = { page: 1, width: 20, height: 5 }

describe('template direct links on pglite', () => {
  let host: TestHost
  let client: Api
  let signing: (token: string) => Api

  beforeAll(async () => {
    host = await startTestHost('pglite', { queueConcurrency: 0 })
    const team = await host.createTeam({ name: 'Acme', plan: 'team' })
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId: team.id })).token)
    signing = (token) => api(`${host.url}/api/signing`, `Bearer ${token}`)
  })
  afterAll(async () => {
    await host?.stop()
  })

  const count = async (table: string) => (await host.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n
  const events = async (id: string) => (await host.db.query<{ event: string; payload: any }>('select event, payload from events where envelope_id = $1 order by id', [id]))

  /** Sequential: a landlord (first in the template's order) and the tenant the link is for. */
  async function template() {
    return createEnvelope(
      client,
      {
        type: 'TEMPLATE',
        title: 'Lease',
        meta: { signingOrder: 'SEQUENTIAL' },
        recipients: [
          { email: 'landlord@example.com', name: 'Landlord', role: 'SIGNER', signingOrder: 1, fields: [{ ...box, type: 'SIGNATURE', positionX: 50, positionY: 80 }] },
          {
            email: 'tenant@example.com',
            name: 'Tenant',
            role: 'SIGNER',
            signingOrder: 2,
            fields: [
              { ...box, type: 'NAME', positionX: 10, positionY: 10 },
              { ...box, type: 'TEXT', positionX: 10, positionY: 30, fieldMeta: { type: 'text', label: 'Flat', required: true } },
              { ...box, type: 'SIGNATURE', positionX: 10, positionY: 80 },
            ],
          },
        ],
      },
      [{ bytes: await makePdf(1), name: 'lease.pdf' }],
    )
  }
  const templateNumber = (t: any) => Number(t.secondaryId.split('_')[1])

  it('manages a template link through the deprecated routes and shows it on the envelope', async () => {
    const t = await template()
    const tenant = t.recipients.find((r: any) => r.email === 'tenant@example.com')
    const made = await client.post('/template/direct/create', { templateId: templateNumber(t), directRecipientId: tenant.id })
    expect(made.status).toBe(200)
    expect(made.body).toEqual({
      id: expect.stringMatching(/^direct_link_/),
      envelopeId: t.id,
      templateId: templateNumber(t),
      token: expect.any(String),
      createdAt: expect.any(String),
      enabled: true,
      directTemplateRecipientId: tenant.id,
    })
    // Deprecated with no replacement yet: no successor link.
    expect(made.headers.get('deprecation')).toBe('true')
    expect(made.headers.get('sunset')).toBe('Sun, 01 Mar 2027 00:00:00 GMT')
    expect(made.headers.get('link')).toBeNull()
    expect((await client.get(`/envelope/${t.id}`)).body.directLink).toEqual(made.body)
    expect((await client.get(`/template/${templateNumber(t)}`)).body.directLink).toEqual(made.body)

    expect((await client.post('/template/direct/create', { templateId: templateNumber(t) })).body.code).toBe('DIRECT_LINK_EXISTS')
    const off = await client.post('/template/direct/toggle', { templateId: templateNumber(t), enabled: false })
    expect(off.body).toMatchObject({ enabled: false, token: made.body.token })
    expect((await signing(made.body.token).get('/direct/session')).status).toBe(404)
    await client.post('/template/direct/toggle', { templateId: templateNumber(t), enabled: true })
    expect((await signing(made.body.token).get('/direct/session')).status).toBe(200)

    expect((await client.post('/template/direct/delete', { templateId: templateNumber(t) })).body).toEqual({ success: true })
    expect((await client.get(`/envelope/${t.id}`)).body.directLink).toBeNull()
    expect((await signing(made.body.token).get('/direct/session')).status).toBe(404)
    expect((await client.post('/template/direct/delete', { templateId: templateNumber(t) })).status).toBe(404)

    // Without a recipient: a placeholder signer is added for the author to give fields.
    const recipients = await count('recipients')
    const placeholder = await client.post('/template/direct/create', { templateId: templateNumber(t) })
    expect(await count('recipients')).toBe(recipients + 1)
    const added = (await client.get(`/envelope/${t.id}`)).body.recipients.find((r: any) => r.id === placeholder.body.directTemplateRecipientId)
    expect(added).toMatchObject({ role: 'SIGNER', name: 'Direct link recipient' })
  })

  it('leaves publishing to unscoped tokens: a scoped presign token may not create, toggle or delete a link', async () => {
    const team = await host.createTeam({ name: 'Publisher', plan: 'enterprise' })
    const owner = api(host.apiUrl, (await host.createApiToken({ name: 'publisher', teamId: team.id })).token)
    const t = await createEnvelope(owner, { type: 'TEMPLATE', title: 'Scoped', recipients: [{ email: 's@example.com', name: 'S', role: 'SIGNER' }] })
    const n = templateNumber(t)
    const presign = async (scope?: string) => api(host.apiUrl, (await owner.post('/embedding/create-presign-token', scope ? { scope } : {})).body.token)
    const links = await count('template_direct_links')
    for (const scope of [`templateId:${n}`, `envelopeId:${t.id}`]) {
      const scoped = await presign(scope)
      for (const [path, body] of [['create', { templateId: n }], ['toggle', { templateId: n, enabled: false }], ['delete', { templateId: n }]] as const) {
        const res = await scoped.post(`/template/direct/${path}`, body)
        expect([res.status, res.body.code], `${scope} ${path}`).toEqual([403, 'FORBIDDEN'])
      }
      expect(await count('template_direct_links')).toBe(links)
    }
    // Unscoped, the same team's presign token may.
    const made = await (await presign()).post('/template/direct/create', { templateId: n })
    expect(made.status).toBe(200)
    const scoped = await presign(`templateId:${n}`)
    expect((await scoped.post('/template/direct/toggle', { templateId: n, enabled: false })).status).toBe(403)
    expect((await scoped.post('/template/direct/delete', { templateId: n })).status).toBe(403)
    expect((await signing(made.body.token).get('/direct/session')).status).toBe(200)
  })

  it('refuses bad requests with the error shape and writes nothing', async () => {
    const t = await template()
    const links = await count('template_direct_links')
    const cases: [object, number, string][] = [
      [{}, 400, 'INVALID_REQUEST'],
      [{ templateId: 'x' }, 400, 'INVALID_REQUEST'],
      [{ templateId: 999999 }, 404, 'NOT_FOUND'],
      [{ templateId: templateNumber(t), directRecipientId: 999999 }, 400, 'INVALID_RECIPIENT'],
    ]
    for (const [body, status, code] of cases) {
      const res = await client.post('/template/direct/create', body)
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code])
      expect(res.body.message).toEqual(expect.any(String))
    }
    expect((await client.post('/template/direct/toggle', { templateId: templateNumber(t) })).status).toBe(400)
    expect((await client.post('/template/direct/toggle', { templateId: templateNumber(t), enabled: true })).status).toBe(404)
    expect(await count('template_direct_links')).toBe(links)
    // Another team never sees the link's template.
    const other = await host.createTeam({ name: 'Other', plan: 'team' })
    const stranger = api(host.apiUrl, (await host.createApiToken({ name: 'x', teamId: other.id })).token)
    expect((await stranger.post('/template/direct/create', { templateId: templateNumber(t) })).status).toBe(404)
  })

  it('a visitor signs through the link: a document from the template, signed first by them, then sent on', async () => {
    const t = await template()
    const tenant = t.recipients.find((r: any) => r.email === 'tenant@example.com')
    const link = (await client.post('/template/direct/create', { templateId: templateNumber(t), directRecipientId: tenant.id })).body
    const visitor = signing(link.token)

    const session = (await visitor.get('/direct/session')).body
    expect(session).toMatchObject({ state: 'READY', direct: true, waitingFor: [], recipient: { id: tenant.id, name: '', email: '', role: 'SIGNER' } })
    expect(session.envelope).toMatchObject({ id: t.id, title: 'Lease' })
    expect(session.fields.map((f: any) => f.type)).toEqual(['NAME', 'TEXT', 'SIGNATURE'])
    const pdf = await visitor.get(`/direct/item/${t.envelopeItems[0].id}`)
    expect([pdf.status, Buffer.from(pdf.body.slice(0, 5)).toString()]).toEqual([200, '%PDF-'])
    expect((await visitor.post('/direct/open', {})).body).toEqual({ success: true })
    // The other items of the team are not reachable through the link.
    const doc = await createEnvelope(client)
    expect((await visitor.get(`/direct/item/${doc.envelopeItems[0].id}`)).status).toBe(404)

    const [name, text, sig] = session.fields
    const envelopes = await count('envelopes')
    // Missing the required text: refused, nothing made.
    const refused = await visitor.post('/direct/complete', { signer: { name: 'Vera Visitor', email: 'Vera@Example.com' }, fields: [{ id: name.id, value: 'Vera Visitor' }, { id: sig.id, value: SIGNATURE }] })
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_REQUEST'])
    expect((await visitor.post('/direct/complete', { fields: [] })).status).toBe(400)
    expect(await count('envelopes')).toBe(envelopes)

    const done = await visitor.post('/direct/complete', {
      signer: { name: 'Vera Visitor', email: 'Vera@Example.com' },
      externalId: 'crm-7',
      fields: [
        { id: name.id, value: 'Vera Visitor' },
        { id: text.id, value: 'Flat 3' },
        { id: sig.id, value: SIGNATURE },
      ],
    })
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ status: 'PENDING', redirectUrl: null, token: expect.any(String), documentId: expect.any(Number), recipientId: expect.any(Number), envelopeId: expect.stringMatching(/^envelope_/) })
    const d = (await client.get(`/envelope/${done.body.envelopeId}`)).body
    expect(d).toMatchObject({ type: 'DOCUMENT', status: 'PENDING', source: 'TEMPLATE_DIRECT_LINK', externalId: 'crm-7', title: 'Lease' })
    // The visitor acted first although the template put the tenant second; the landlord is next.
    const me = d.recipients.find((r: any) => r.id === done.body.recipientId)
    expect(me).toMatchObject({ email: 'vera@example.com', name: 'Vera Visitor', signingStatus: 'SIGNED', readStatus: 'OPENED', signingOrder: 1 })
    expect(d.recipients.find((r: any) => r.email === 'landlord@example.com')).toMatchObject({ signingStatus: 'NOT_SIGNED', sendStatus: 'SENT', signingOrder: 2 })
    expect(d.fields.filter((f: any) => f.recipientId === me.id).map((f: any) => [f.type, f.inserted, f.customText])).toEqual([
      ['NAME', true, 'Vera Visitor'],
      ['TEXT', true, 'Flat 3'],
      ['SIGNATURE', true, expect.stringMatching(/^data:image\/png/)],
    ])
    expect((await events(d.id)).map((e) => e.event)).toEqual(['DOCUMENT_CREATED', 'TEMPLATE_USED', 'DOCUMENT_SENT', 'DOCUMENT_OPENED', 'DOCUMENT_SIGNED', 'DOCUMENT_RECIPIENT_COMPLETED'])
    expect((await events(d.id))[1]!.payload).toMatchObject({ source: 'TEMPLATE_DIRECT_LINK', templateId: templateNumber(t) })
    // The document remembers its template: every later event names it too.
    expect(d.templateId).toBe(templateNumber(t))
    expect((await events(d.id))[2]!.payload).toMatchObject({ templateId: templateNumber(t), userId: d.userId, teamId: d.teamId })
    // The visitor's new token is a normal signing link; the template keeps its blank recipient.
    expect((await signing(done.body.token).get('/session')).body).toMatchObject({ state: 'ALREADY_COMPLETED' })
    expect((await client.get(`/envelope/${t.id}`)).body.recipients.find((r: any) => r.id === tenant.id)).toMatchObject({ email: 'tenant@example.com', signingStatus: 'NOT_SIGNED' })
    // Only the landlord, whose turn it is now, gets a signing request.
    await host.queue.drain()
    const mails = await host.db.query<{ to_address: string }>('select to_address from mails where envelope_id = $1 order by id', [d.id])
    expect(mails.map((m) => m.to_address)).toEqual([expect.stringContaining('landlord@example.com')])

    // The landlord signs: the document completes like any other.
    const landlord = d.recipients.find((r: any) => r.email === 'landlord@example.com')
    const lsig = d.fields.find((f: any) => f.recipientId === landlord.id)
    const last = await signing(landlord.token).post('/complete', { fields: [{ id: lsig.id, value: SIGNATURE }] })
    expect(last.body.status).toBe('COMPLETED')
  })

  it('refuses a link whose template has gone, and a disabled one', async () => {
    const t = await template()
    const link = (await client.post('/template/direct/create', { templateId: templateNumber(t), directRecipientId: t.recipients[1].id })).body
    await client.post('/envelope/delete', { envelopeId: t.id })
    const res = await signing(link.token).post('/direct/complete', { signer: { name: 'A', email: 'a@example.com' }, fields: [] })
    expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND'])
    expect((await signing('nope').get('/direct/session')).status).toBe(404)
  })
})
