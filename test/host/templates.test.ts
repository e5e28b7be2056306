/**
 * Templates: duplicated, used to make documents, and refused when they cannot be used. Its host is
 * its own: it counts every envelope.
 * Database: the embedded one (API rules; SQL is held on both in lifecycle.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pdfText } from '../support/pdf-signature.js'
import { api, createEnvelope, form, makePdf, startTestHost, type Api, SIGNATURE, type TestHost } from './support.js'

const box = { page: 1, width: 20, height: 5 }

describe('templates on pglite', () => {
  let host: TestHost
  let client: Api

  beforeAll(async () => {
    host = await startTestHost('pglite')
    const team = await host.createTeam({ name: 'Acme', plan: 'team' })
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId: team.id })).token)
  })
  afterAll(async () => {
    await host?.stop()
  })

  const events = async (id: string) =>
    (await host.db.query<{ event: string; payload: any }>('select event, payload from events where envelope_id = $1 order by id', [id]))
  const count = async () => (await host.db.query<{ n: number }>('select count(*)::int as n from envelopes'))[0]!.n

  /** A template: a tenant fills a text, a checkbox and signs; a landlord signs. Two files. */
  async function template() {
    const t = await createEnvelope(
      client,
      {
        type: 'TEMPLATE',
        title: 'Lease template',
        meta: { signingOrder: 'SEQUENTIAL', subject: 'Your lease' },
        recipients: [
          {
            email: 'tenant@example.com',
            name: 'Tenant',
            role: 'SIGNER',
            signingOrder: 1,
            fields: [
              { ...box, identifier: 0, type: 'TEXT', positionX: 10, positionY: 10, fieldMeta: { type: 'text', label: 'Rent', required: true } },
              { ...box, identifier: 0, type: 'CHECKBOX', positionX: 10, positionY: 30, fieldMeta: { type: 'checkbox', options: ['Pets', 'Garden'] } },
              { ...box, identifier: 1, type: 'SIGNATURE', positionX: 10, positionY: 80 },
            ],
          },
          { email: 'landlord@example.com', name: 'Landlord', role: 'SIGNER', signingOrder: 2, fields: [{ ...box, identifier: 0, type: 'SIGNATURE', positionX: 50, positionY: 80 }] },
        ],
      },
      [
        { bytes: await makePdf(1), name: 'lease.pdf' },
        { bytes: await makePdf(2), name: 'annex.pdf' },
      ],
    )
    await client.post('/envelope/attachment/create', { envelopeId: t.id, data: { label: 'House rules', data: 'https://example.com/rules' } })
    return t
  }

  it('duplicates documents and templates, with or without their recipients and fields', async () => {
    const t = await template()
    const copy = await client.post('/envelope/duplicate', { envelopeId: t.id })
    expect(copy.status).toBe(200)
    expect(Object.keys(copy.body)).toEqual(['id'])
    const d = (await client.get(`/envelope/${copy.body.id}`)).body
    expect(d).toMatchObject({ type: 'TEMPLATE', status: 'DRAFT', title: 'Lease template (copy)', secondaryId: expect.stringMatching(/^template_\d+$/) })
    expect(d.secondaryId).not.toBe(t.secondaryId)
    // Every setting but the id (each envelope's own: docs/api-notes.md).
    expect({ ...d.documentMeta, id: t.id }).toEqual(t.documentMeta)
    expect(d.envelopeItems.map((i: any) => [i.title, i.pageCount])).toEqual(t.envelopeItems.map((i: any) => [i.title, i.pageCount]))
    expect(d.recipients.map((r: any) => [r.email, r.role, r.signingOrder])).toEqual(t.recipients.map((r: any) => [r.email, r.role, r.signingOrder]))
    expect(d.recipients.map((r: any) => r.token)).not.toEqual(t.recipients.map((r: any) => r.token))
    expect(d.fields).toHaveLength(4)
    expect(d.fields.every((f: any) => d.recipients.some((r: any) => r.id === f.recipientId) && d.envelopeItems.some((i: any) => i.id === f.envelopeItemId))).toBe(true)
    expect((await client.get(`/envelope/attachment?envelopeId=${d.id}`)).body.data).toMatchObject([{ label: 'House rules' }])
    expect((await events(d.id)).map((x) => x.event)).toEqual(['TEMPLATE_CREATED'])

    const bare = (await client.post('/envelope/duplicate', { envelopeId: t.id, includeRecipients: false })).body
    const b = (await client.get(`/envelope/${bare.id}`)).body
    expect([b.recipients, b.fields]).toEqual([[], []])

    const doc = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER' }] })
    const docCopy = (await client.post('/envelope/duplicate', { envelopeId: doc.id, includeFields: false })).body
    expect((await client.get(`/envelope/${docCopy.id}`)).body).toMatchObject({ type: 'DOCUMENT', status: 'DRAFT', recipients: [{ email: 'a@example.com', sendStatus: 'NOT_SENT' }] })
    expect((await events(docCopy.id)).map((x) => x.event)).toEqual(['DOCUMENT_CREATED'])
    expect((await client.post('/envelope/duplicate', { envelopeId: 'envelope_nope' })).status).toBe(404)
    expect((await client.post('/envelope/duplicate', { envelopeId: doc.id, includeFields: 'yes' })).status).toBe(400)
  })

  it('makes a document from a template: recipients, replaced files, prefilled fields, sent at once', async () => {
    const t = await template()
    const [tenant] = t.recipients
    const rent = t.fields.find((f: any) => f.type === 'TEXT')
    const pets = t.fields.find((f: any) => f.type === 'CHECKBOX')
    const annex = t.envelopeItems.find((i: any) => i.title === 'annex.pdf')
    const newAnnex = await makePdf(3, [{ text: 'Annex 2027', x: 72, y: 700 }])
    const res = await client.post(
      '/envelope/use',
      form(
        {
          envelopeId: t.id,
          externalId: 'lease-42',
          recipients: [{ id: tenant.id, email: 'Jo@Example.com', name: 'Jo Tenant' }],
          customDocumentData: [{ identifier: 'annex-2027.pdf', envelopeItemId: annex.id }],
          prefillFields: [
            { id: rent.id, type: 'text', label: 'Rent', value: '1200 €' },
            { id: pets.id, type: 'checkbox', value: ['Garden'] },
          ],
          distributeDocument: true,
        },
        [{ bytes: newAnnex, name: 'annex-2027.pdf' }],
      ),
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.recipients.map((r: any) => [r.name, r.email, r.role, r.signingOrder])).toEqual([
      ['Jo Tenant', 'jo@example.com', 'SIGNER', 1],
      ['Landlord', 'landlord@example.com', 'SIGNER', 2],
    ])
    for (const r of res.body.recipients) expect(r.signingUrl).toBe(`${host.url}/sign/${r.token}`)

    const d = (await client.get(`/envelope/${res.body.id}`)).body
    expect(d).toMatchObject({ type: 'DOCUMENT', source: 'TEMPLATE', status: 'PENDING', title: 'Lease template', externalId: 'lease-42' })
    expect(d.documentMeta).toMatchObject({ signingOrder: 'SEQUENTIAL', subject: 'Your lease' })
    expect(d.envelopeItems.map((i: any) => [i.title, i.pageCount])).toEqual([['lease.pdf', 1], ['annex.pdf', 3]])
    const annexDownload = await client.get(`/envelope/item/${d.envelopeItems[1].id}/download`)
    expect((await pdfText(annexDownload.body))[0]).toContain('Annex 2027')
    const byType = (type: string) => d.fields.find((f: any) => f.type === type)
    expect(byType('TEXT')).toMatchObject({ inserted: true, customText: '1200 €' })
    expect(byType('CHECKBOX')).toMatchObject({ inserted: true, customText: '["Garden"]' })
    expect(byType('SIGNATURE')).toMatchObject({ inserted: false, envelopeItemId: d.envelopeItems[1].id })

    const evs = await events(d.id)
    expect(evs.map((x) => x.event)).toEqual(['DOCUMENT_CREATED', 'TEMPLATE_USED', 'DOCUMENT_SENT'])
    const templateNumber = Number(t.secondaryId.split('_')[1])
    expect(evs[0]!.payload).toMatchObject({ source: 'TEMPLATE', templateId: templateNumber, status: 'DRAFT' })
    expect(evs[1]!.payload).toMatchObject({ envelopeId: d.id, source: 'TEMPLATE', templateId: templateNumber })
    // The template itself is untouched.
    expect((await client.get(`/envelope/${t.id}`)).body.recipients[0]).toMatchObject({ email: 'tenant@example.com', name: 'Tenant' })

    // The tenant signs: the prefilled fields stay as they are, only the signature is asked for.
    const signing = api(`${host.url}/api/signing`, `Bearer ${res.body.recipients[0].token}`)
    const session = (await signing.get('/session')).body
    expect(session.fields.filter((f: any) => f.inserted).map((f: any) => f.customText)).toEqual(['1200 €', '["Garden"]'])
    const sig = session.fields.find((f: any) => f.type === 'SIGNATURE')
    const done = await signing.post('/complete', { fields: [{ id: sig.id, value: SIGNATURE }, { id: byType('TEXT').id, value: 'changed' }] })
    expect(done.body).toEqual({ status: 'PENDING', redirectUrl: null })
    expect((await client.get(`/envelope/${d.id}`)).body.fields.find((f: any) => f.type === 'TEXT').customText).toBe('1200 €')
  })

  it('refuses what it cannot use, and writes nothing', async () => {
    const t = await template()
    const doc = await createEnvelope(client)
    const rent = t.fields.find((f: any) => f.type === 'TEXT')
    const pets = t.fields.find((f: any) => f.type === 'CHECKBOX')
    const lease = t.envelopeItems.find((i: any) => i.title === 'lease.pdf')
    const before = await count()
    const cases: [Record<string, unknown>, { bytes: Uint8Array; name: string }[], string, string?][] = [
      [{ envelopeId: doc.id }, [], 'NOT_A_TEMPLATE'],
      [{ envelopeId: t.id, recipients: [{ id: 999999, email: 'x@example.com' }] }, [], 'INVALID_REQUEST', 'payload.recipients.0.id'],
      [{ envelopeId: t.id, prefillFields: [{ id: pets.id, type: 'checkbox', value: ['Pool'] }] }, [], 'INVALID_REQUEST', 'payload.prefillFields.0.value'],
      [{ envelopeId: t.id, prefillFields: [{ id: rent.id, type: 'number', value: '12' }] }, [], 'INVALID_REQUEST', 'payload.prefillFields.0.type'],
      [{ envelopeId: t.id, customDocumentData: [{ identifier: 'missing.pdf', envelopeItemId: lease.id }] }, [], 'INVALID_REQUEST', 'payload.customDocumentData.0.identifier'],
      [{ envelopeId: t.id, distributeDocument: 'yes' }, [], 'INVALID_REQUEST', 'payload.distributeDocument'],
    ]
    for (const [payload, files, code, path] of cases) {
      const res = await client.post('/envelope/use', form(payload, files))
      expect([res.status, res.body.code], JSON.stringify(payload)).toEqual([400, code])
      if (path) expect(res.body.issues[0].path).toBe(path)
    }
    // A shorter replacement is fine while every field on it still has its page (the annex's signature is on page 1)...
    const short = await client.post(
      '/envelope/use',
      form({ envelopeId: t.id, customDocumentData: [{ identifier: 'empty.pdf', envelopeItemId: t.envelopeItems[1].id }] }, [{ bytes: await makePdf(1), name: 'empty.pdf' }]),
    )
    expect(short.status).toBe(200)
    // ...and refused when a field's page is gone.
    const tooShort = await createEnvelope(client, {
      type: 'TEMPLATE',
      recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', page: 2, positionX: 1, positionY: 1 }] }],
    })
    const refusedCount = await count()
    const refused = await client.post(
      '/envelope/use',
      form({ envelopeId: tooShort.id, customDocumentData: [{ identifier: 'one.pdf', envelopeItemId: tooShort.envelopeItems[0].id }] }, [{ bytes: await makePdf(1), name: 'one.pdf' }]),
    )
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_REQUEST'])
    expect(await count()).toBe(refusedCount)
    expect(refusedCount).toBe(before + 2) // the document with the shorter annex, and the second template: nothing else

    // Multipart parts named files[] are accepted as files.
    const fd = new FormData()
    fd.set('payload', JSON.stringify({ envelopeId: t.id, customDocumentData: [{ identifier: 'x.pdf', envelopeItemId: lease.id }] }))
    fd.append('files[]', new Blob([(await makePdf(1)) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'x.pdf')
    expect((await client.post('/envelope/use', fd)).status).toBe(200)
  })
})
