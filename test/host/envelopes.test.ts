/**
 * Envelopes through API v2: the broad round trip of the API's resources (create, get, list,
 * update, delete, items, recipients, fields, templates, numbering, events).
 * Databases: both (the round trip of every resource through each driver's types), on the
 * worker's shared hosts, in teams of their own.
 */
import { api, createEnvelope, form, makePdf, VARIANTS, type Api, type TestHost } from './support.js'
import { describe, expect, newTeam, test } from './fixtures.js'

describe.each(VARIANTS)('envelopes on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let teamId: string

  test.beforeAll(async ({ hosts }) => {
    if (skip) return
    host = await hosts.on(variant)
    ;({ id: teamId, client } = await newTeam(host, { name: 'Acme' }))
  })

  test.skipIf(skip)('creates, gets, lists, updates and deletes an envelope', async () => {
    const pdf = await makePdf(2)
    const created = await client.post(
      '/envelope/create',
      form(
        {
          type: 'DOCUMENT',
          title: 'Lease',
          externalId: 'ext-1',
          meta: { subject: 'Please sign', signingOrder: 'SEQUENTIAL' },
          recipients: [
            {
              email: 'Ann@Example.com',
              name: 'Ann',
              role: 'SIGNER',
              signingOrder: 1,
              fields: [
                { identifier: 0, type: 'SIGNATURE', page: 2, positionX: 10, positionY: 80, width: 30, height: 5 },
                { identifier: 'annex.pdf', type: 'DATE', page: 1, positionX: 0, positionY: 0, width: 100, height: 100 },
              ],
            },
            { email: 'bob@example.com', name: 'Bob', role: 'CC' },
          ],
        },
        [
          { bytes: pdf, name: 'lease.pdf' },
          { bytes: await makePdf(1), name: 'annex.pdf' },
        ],
      ),
    )
    expect(created.status).toBe(200)
    expect(Object.keys(created.body)).toEqual(['id'])
    expect(created.body.id).toMatch(/^envelope_[a-z0-9]{16}$/)

    const got = await client.get(`/envelope/${created.body.id}`)
    expect(got.status).toBe(200)
    const e = got.body
    expect(e).toMatchObject({
      id: created.body.id,
      secondaryId: 'document_1',
      type: 'DOCUMENT',
      status: 'DRAFT',
      source: 'DOCUMENT',
      title: 'Lease',
      externalId: 'ext-1',
      completedAt: null,
      deletedAt: null,
    })
    expect(e.documentMeta).toEqual({
      subject: 'Please sign',
      message: null,
      timezone: 'Etc/UTC',
      dateFormat: 'yyyy-MM-dd hh:mm a',
      redirectUrl: null,
      signingOrder: 'SEQUENTIAL',
      allowDictateNextSigner: false,
      typedSignatureEnabled: true,
      uploadSignatureEnabled: true,
      drawSignatureEnabled: true,
      language: 'en',
      distributionMethod: 'EMAIL',
      emailSettings: null,
      envelopeExpirationPeriod: null,
      reminderSettings: null,
      includeSigningCertificate: true,
      includeAuditLog: false,
      // What the deployed clients' models require (docs/api-notes.md): the settings live on the envelope.
      id: e.id,
      emailId: null,
      emailReplyTo: null,
    })
    expect(new Date(e.createdAt).toISOString()).toBe(e.createdAt)
    expect(e.envelopeItems.map((i: any) => [i.title, i.order, i.pageCount])).toEqual([
      ['lease.pdf', 1, 2],
      ['annex.pdf', 2, 1],
    ])
    expect(e.envelopeItems[0].id).toMatch(/^envelope_item_/)
    expect(e.recipients).toHaveLength(2)
    expect(e.recipients[0]).toMatchObject({
      envelopeId: e.id,
      documentId: 1,
      templateId: null,
      email: 'ann@example.com',
      name: 'Ann',
      role: 'SIGNER',
      readStatus: 'NOT_OPENED',
      signingStatus: 'NOT_SIGNED',
      sendStatus: 'NOT_SENT',
      signingOrder: 1,
      signedAt: null,
      authOptions: { accessAuth: [], actionAuth: [] },
    })
    expect(typeof e.recipients[0].id).toBe('number')
    expect(e.recipients[0].token).not.toBe(e.recipients[1].token)
    expect(e.fields).toEqual([
      {
        id: expect.any(Number),
        envelopeId: e.id,
        envelopeItemId: e.envelopeItems[0].id,
        recipientId: e.recipients[0].id,
        type: 'SIGNATURE',
        page: 2,
        positionX: 10,
        positionY: 80,
        width: 30,
        height: 5,
        fieldMeta: null,
        inserted: false,
        customText: '',
        secondaryId: `field_${e.fields[0].id}`,
      },
      expect.objectContaining({ envelopeItemId: e.envelopeItems[1].id, type: 'DATE' }),
    ])

    // The stored file is the uploaded one, byte for byte.
    const dl = await client.get(`/envelope/item/${e.envelopeItems[0].id}/download`)
    expect(dl.status).toBe(200)
    expect(dl.headers.get('content-type')).toBe('application/pdf')
    expect(Buffer.from(dl.body).equals(Buffer.from(pdf))).toBe(true)

    const list = await client.get('/envelope')
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ count: 1, currentPage: 1, perPage: 20, totalPages: 1 })
    expect(list.body.data[0].id).toBe(e.id)
    expect(list.body.data[0].fields).toBeUndefined()
    expect(list.body.data[0].recipients).toHaveLength(2)

    const updated = await client.post('/envelope/update', {
      envelopeId: e.id,
      data: { title: 'Lease 2026', externalId: null, visibility: 'ADMIN' },
      meta: { message: 'Thanks', language: 'de' },
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ id: e.id, title: 'Lease 2026', externalId: null, visibility: 'ADMIN' })
    expect(updated.body.documentMeta).toMatchObject({ subject: 'Please sign', message: 'Thanks', language: 'de', signingOrder: 'SEQUENTIAL' })
    expect(updated.body.fields).toHaveLength(2)
    expect(Date.parse(updated.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(e.updatedAt))

    expect((await client.post('/envelope/delete', { envelopeId: e.id })).body).toEqual({ success: true })
    expect((await client.get(`/envelope/${e.id}`)).status).toBe(404)
    expect((await client.get(`/envelope/item/${e.envelopeItems[0].id}/download`)).status).toBe(404)
    expect((await client.post('/envelope/delete', { envelopeId: e.id })).status).toBe(404)

    // Created and deleted are recorded as events, the deletion with the last state.
    const events = await host.db.query<{ event: string; payload: any }>(
      'select event, payload from events where envelope_id = $1 order by id',
      [e.id],
    )
    expect(events.map((x) => x.event)).toEqual(['DOCUMENT_CREATED', 'DOCUMENT_CANCELLED'])
    expect(events[1]!.payload).toMatchObject({ id: 1, envelopeId: e.id, title: 'Lease 2026', status: 'DRAFT', templateId: null })
    expect(events[1]!.payload.recipients).toHaveLength(2)
  })

  test.skipIf(skip)('keeps recipients and fields as given, in order, whatever their text holds', async () => {
    // Recipients and fields are written in one statement each, from arrays: text that array
    // literals quote or escape must come back unchanged, and the order must hold.
    const own = (await host.createTeam({ name: 'Texts', plan: 'team' })).id
    const client = api(host.apiUrl, (await host.createApiToken({ name: 'texts', teamId: own })).token)
    const names = ['NULL', 'a "quoted", {braced} \\ name', "O'Brien; drop table recipients", 'Zoë 鍵 🔑', 'back\\slash\\ and quote"']
    const meta = { label: 'NULL', text: 'say "hi", {x} \\ y', nested: { list: [1, 'two', null] } }
    const created = await client.post(
      '/envelope/create',
      form(
        {
          type: 'TEMPLATE',
          title: 'Text',
          recipients: names.map((name, i) => ({
            email: `p${i}@example.com`,
            name,
            role: i % 2 ? 'CC' : 'SIGNER',
            ...(i === 2 ? { signingOrder: 7 } : {}),
            fields: i % 2 ? [] : [
              { type: 'TEXT', page: 1, positionX: i + 0.125, positionY: 2, width: 3, height: 4, fieldMeta: { ...meta, label: name } },
              { type: 'SIGNATURE', page: 1, positionX: i, positionY: 50, width: 10, height: 5 },
            ],
          })),
        },
        [{ bytes: await makePdf(1), name: 'one.pdf' }],
      ),
    )
    expect(created.status).toBe(200)
    const e = (await client.get(`/envelope/${created.body.id}`)).body
    expect(e.recipients.map((r: { name: string }) => r.name)).toEqual(names)
    expect(e.recipients[2].signingOrder).toBe(7)
    expect(e.recipients[1].signingOrder).toBeNull()
    const signers = e.recipients.filter((_: unknown, i: number) => i % 2 === 0)
    expect(e.fields.map((f: { recipientId: number; type: string; positionX: number; fieldMeta: unknown }) => [f.recipientId, f.type, f.positionX, f.fieldMeta])).toEqual(
      signers.flatMap((r: { id: number; name: string }) => {
        const i = names.indexOf(r.name)
        return [
          // As given, with the `type` the deployed clients need added.
          [r.id, 'TEXT', i + 0.125, { type: 'text', ...meta, label: r.name }],
          [r.id, 'SIGNATURE', i, null],
        ]
      }),
    )
  })

  test.skipIf(skip)('announces a created envelope exactly as it reads it back', async () => {
    // createEnvelope builds the DOCUMENT_CREATED payload from the rows it wrote, not by reading them again.
    const own = (await host.createTeam({ name: 'Announcing', plan: 'free' })).id
    const client = api(host.apiUrl, (await host.createApiToken({ name: 'announcing', teamId: own })).token)
    const created = await client.post(
      '/envelope/create',
      form(
        {
          type: 'DOCUMENT',
          title: 'Announced',
          externalId: 'ext-announced',
          visibility: 'ADMIN',
          meta: { subject: 'Hello', timezone: 'Europe/Paris' },
          recipients: [
            { email: 'Cy@Example.com', name: 'Cy', role: 'SIGNER', signingOrder: 2, fields: [{ type: 'TEXT', page: 1, positionX: 5, positionY: 6, width: 7, height: 8, fieldMeta: { label: 'Name', required: true } }] },
            { email: 'dee@example.com', name: 'Dee', role: 'APPROVER', fields: [{ identifier: 1, type: 'SIGNATURE', page: 2, positionX: 1.5, positionY: 2.25, width: 30, height: 5 }] },
          ],
        },
        [
          { bytes: await makePdf(1), name: 'one.pdf' },
          { bytes: await makePdf(2), name: 'two.pdf' },
        ],
      ),
    )
    expect(created.status).toBe(200)
    const read = (await client.get(`/envelope/${created.body.id}`)).body
    const [event] = await host.db.query<{ payload: Record<string, unknown> }>(`select payload from events where envelope_id = $1 and event = 'DOCUMENT_CREATED'`, [created.body.id])
    const { eventPayload } = await import('../../host/server/events/index.js')
    expect(event!.payload).toEqual(JSON.parse(JSON.stringify(eventPayload('DOCUMENT_CREATED', read))))
    expect(event!.payload).toMatchObject({ title: 'Announced', externalId: 'ext-announced', visibility: 'ADMIN', documentMeta: { subject: 'Hello', timezone: 'Europe/Paris' } })
  })

  test.skipIf(skip)('numbers documents and templates per team and type, and finds them by legacy id', async () => {
    const t1 = await createEnvelope(client, { type: 'TEMPLATE', title: 'T1' })
    const d2 = await createEnvelope(client, { title: 'D2' })
    const t2 = await createEnvelope(client, { type: 'TEMPLATE', title: 'T2' })
    expect([t1.secondaryId, d2.secondaryId, t2.secondaryId]).toEqual(['template_1', 'document_2', 'template_2'])
    expect(t1).toMatchObject({ source: 'TEMPLATE', type: 'TEMPLATE' })

    // Another team starts at 1.
    const other = (await newTeam(host)).client
    expect((await createEnvelope(other)).secondaryId).toBe('document_1')

    const byTemplate = await client.post('/envelope/get-many', { ids: { type: 'templateId', ids: [2, 1, 99] } })
    expect(byTemplate.status).toBe(200)
    expect(byTemplate.body.data.map((x: any) => x.id)).toEqual([t2.id, t1.id])
    expect(byTemplate.body.data[0].fields).toEqual([])
    const byDocument = await client.post('/envelope/get-many', { ids: { type: 'documentId', ids: [2] } })
    expect(byDocument.body.data.map((x: any) => x.id)).toEqual([d2.id])
    const byEnvelope = await client.post('/envelope/get-many', { ids: { type: 'envelopeId', ids: [d2.id, t1.id] } })
    expect(byEnvelope.body.data.map((x: any) => x.id)).toEqual([d2.id, t1.id])
    const wrongKind = await client.post('/envelope/get-many', { ids: { type: 'documentId', ids: ['x'] } })
    expect(wrongKind.status).toBe(400)
    expect(wrongKind.body.issues[0].path).toBe('ids.ids.0')

    const templates = await client.get('/envelope?type=TEMPLATE')
    expect(templates.body.data.map((x: any) => x.id)).toEqual([t2.id, t1.id])
    const page2 = await client.get('/envelope?perPage=2&page=2')
    expect(page2.body).toMatchObject({ count: 3, currentPage: 2, perPage: 2, totalPages: 2 })
    expect(page2.body.data.map((x: any) => x.id)).toEqual([t1.id])
    const tooMany = await client.get('/envelope?perPage=101')
    expect(tooMany.status).toBe(400)
    expect(tooMany.body).toMatchObject({ code: 'INVALID_REQUEST', issues: [{ path: 'perPage' }] })

    // Templates announce their changes.
    await client.post('/envelope/update', { envelopeId: t1.id, data: { title: 'T1 renamed' } })
    await client.post('/envelope/delete', { envelopeId: t1.id })
    const events = await host.db.query<{ event: string }>('select event from events where envelope_id = $1 order by id', [t1.id])
    expect(events.map((x) => x.event)).toEqual(['TEMPLATE_CREATED', 'TEMPLATE_UPDATED', 'TEMPLATE_DELETED'])
  })

  test.skipIf(skip)('adds, renames, reorders, downloads and deletes items', async () => {
    const e = await createEnvelope(client, {
      recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ type: 'TEXT', page: 1, positionX: 1, positionY: 1, width: 5, height: 5 }] }],
    })
    const three = await makePdf(3)
    const added = await client.post('/envelope/item/create-many', form({ envelopeId: e.id }, [{ bytes: three, name: 'extra.pdf' }]))
    expect(added.status).toBe(200)
    expect(added.body.data).toEqual([
      { id: expect.stringMatching(/^envelope_item_/), envelopeId: e.id, title: 'extra.pdf', order: 2, documentDataId: expect.any(String), pageCount: 3 },
    ])
    const extra = added.body.data[0]
    const first = e.envelopeItems[0]

    const updated = await client.post('/envelope/item/update-many', {
      envelopeId: e.id,
      data: [
        { envelopeItemId: extra.id, order: 1, title: 'Cover' },
        { envelopeItemId: first.id, order: 2 },
      ],
    })
    expect(updated.status).toBe(200)
    expect(updated.body.data.map((i: any) => [i.id, i.order, i.title])).toEqual([
      [extra.id, 1, 'Cover'],
      [first.id, 2, first.title],
    ])
    const after = (await client.get(`/envelope/${e.id}`)).body
    expect(after.envelopeItems.map((i: any) => i.id)).toEqual([extra.id, first.id])

    for (const bad of [
      { data: [] },
      { data: [{ envelopeItemId: extra.id, title: '' }] },
      { data: [{ envelopeItemId: extra.id, title: 'x'.repeat(256) }] },
      { data: [{ envelopeItemId: extra.id, order: 0 }] },
      { data: [{ envelopeItemId: extra.id, order: 1.5 }] },
      { data: [{ envelopeItemId: 'envelope_item_nope' }] },
    ]) {
      const res = await client.post('/envelope/item/update-many', { envelopeId: e.id, ...bad })
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.code).toBe('INVALID_REQUEST')
      expect(res.body.issues.length).toBeGreaterThan(0)
    }

    const dl = await client.get(`/envelope/item/${extra.id}/download`)
    expect(Buffer.from(dl.body).equals(Buffer.from(three))).toBe(true)

    // Deleting an item takes its fields with it; the last item stays.
    expect((await client.post('/envelope/item/delete', { envelopeItemId: first.id })).body).toEqual({ success: true })
    const left = (await client.get(`/envelope/${e.id}`)).body
    expect(left.envelopeItems.map((i: any) => i.id)).toEqual([extra.id])
    expect(left.fields).toEqual([])
    const last = await client.post('/envelope/item/delete', { envelopeItemId: extra.id })
    expect(last.status).toBe(400)
    expect(last.body.code).toBe('LAST_ENVELOPE_ITEM')
  })

  test.skipIf(skip)('manages recipients', async () => {
    const e = await createEnvelope(client)
    const created = await client.post('/envelope/recipient/create-many', {
      envelopeId: e.id,
      data: [
        { email: 'x@example.com', name: 'X', role: 'SIGNER' },
        { email: 'y@example.com', name: 'Y', role: 'APPROVER', signingOrder: 2 },
      ],
    })
    expect(created.status).toBe(200)
    const [x, y] = created.body.data
    expect(x).toMatchObject({ envelopeId: e.id, email: 'x@example.com', role: 'SIGNER', documentId: Number(e.secondaryId.split('_')[1]) })
    expect((await client.get(`/envelope/recipient/${y.id}`)).body).toEqual({ ...y, fields: [] })

    const updated = await client.post('/envelope/recipient/update-many', {
      envelopeId: e.id,
      data: [{ id: x.id, name: 'Xavier', role: 'VIEWER', signingOrder: 3 }],
    })
    expect(updated.body.data[0]).toMatchObject({ id: x.id, name: 'Xavier', role: 'VIEWER', signingOrder: 3, email: 'x@example.com' })

    const invalid = await client.post('/envelope/recipient/create-many', {
      envelopeId: e.id,
      data: [{ email: 'ok@example.com', role: 'SIGNER' }, { email: 'not-an-email', name: 'N', role: 'BOSS' }],
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body.issues.map((i: any) => i.path).sort()).toEqual(['data.1.email', 'data.1.role'])

    // A field of the deleted recipient goes with it.
    await client.post('/envelope/field/create-many', {
      envelopeId: e.id,
      data: [{ recipientId: y.id, type: 'NAME', page: 1, positionX: 1, positionY: 1, width: 10, height: 3 }],
    })
    expect((await client.post('/envelope/recipient/delete', { recipientId: y.id })).body).toEqual({ success: true })
    expect((await client.get(`/envelope/recipient/${y.id}`)).status).toBe(404)
    const after = (await client.get(`/envelope/${e.id}`)).body
    expect(after.recipients.map((r: any) => r.id)).toEqual([x.id])
    expect(after.fields).toEqual([])
    expect((await client.get('/envelope/recipient/abc')).status).toBe(404)
  })

  test.skipIf(skip)('places fields by coordinates within the page and its bounds', async () => {
    const e = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER' }] })
    const rid = e.recipients[0].id
    const base = { recipientId: rid, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 10, width: 20, height: 5 }
    // A field from pixel 6 to the right edge of a 612pt page: 6/612*100 + 606/612*100 is
    // 100.00000000000001 in floating point, and still fits.
    const created = await client.post('/envelope/field/create-many', {
      envelopeId: e.id,
      data: [base, { ...base, type: 'CHECKBOX', page: 2, positionX: (6 / 612) * 100, width: (606 / 612) * 100, fieldMeta: { type: 'checkbox', label: 'Agree', required: true, options: ['yes'] } }],
    })
    expect(created.status).toBe(200)
    expect(created.body.data).toHaveLength(2)
    expect(created.body.data[0].envelopeItemId).toBe(e.envelopeItems[0].id) // the first item by default
    expect(created.body.data[1].fieldMeta).toEqual({ type: 'checkbox', label: 'Agree', required: true, options: ['yes'] })
    const f = created.body.data[1]
    expect((await client.get(`/envelope/field/${f.id}`)).body).toEqual(f)

    const other = await createEnvelope(client, { recipients: [{ email: 'b@example.com', name: 'B', role: 'SIGNER' }] })
    const cases: [object, string][] = [
      [{ page: 3 }, 'data.0.page'],
      [{ page: 0 }, 'data.0.page'],
      [{ positionX: 101 }, 'data.0.positionX'],
      [{ positionY: -1 }, 'data.0.positionY'],
      [{ positionX: 90, width: 20 }, 'data.0.width'],
      [{ positionY: 99, height: 2 }, 'data.0.height'],
      [{ type: 'STAMP' }, 'data.0.type'],
      [{ recipientId: other.recipients[0].id }, 'data.0.recipientId'],
      [{ envelopeItemId: other.envelopeItems[0].id }, 'data.0.envelopeItemId'],
    ]
    for (const [patch, path] of cases) {
      const res = await client.post('/envelope/field/create-many', { envelopeId: e.id, data: [{ ...base, ...patch }] })
      expect(res.status, JSON.stringify(patch)).toBe(400)
      expect(res.body.code).toBe('INVALID_REQUEST')
      expect(res.body.issues.map((i: any) => i.path)).toContain(path)
    }

    const moved = await client.post('/envelope/field/update-many', { envelopeId: e.id, data: [{ id: f.id, positionX: 0, page: 1 }] })
    expect(moved.status).toBe(200)
    expect(moved.body.data[0]).toMatchObject({ id: f.id, positionX: 0, page: 1, type: 'CHECKBOX', width: (606 / 612) * 100 })
    const offPage = await client.post('/envelope/field/update-many', { envelopeId: e.id, data: [{ id: f.id, positionX: 2 }] })
    expect(offPage.status).toBe(400)
    expect((await client.post('/envelope/field/delete', { fieldId: f.id })).body).toEqual({ success: true })
    expect((await client.get(`/envelope/field/${f.id}`)).status).toBe(404)
    expect((await client.get(`/envelope/${e.id}`)).body.fields).toHaveLength(1)
  })

  test.skipIf(skip)('places fields at placeholder text and covers the text', async () => {
    const pdf = await makePdf(2, [
      { text: 'Sign here: {{sig}}', x: 72, y: 700 },
      { text: '{{sig}}', x: 300, y: 100, page: 2 },
    ])
    const e = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER' }] }, [{ bytes: pdf, name: 'p.pdf' }])
    const rid = e.recipients[0].id
    const one = await client.post('/envelope/field/create-many', {
      envelopeId: e.id,
      data: [
        { recipientId: rid, type: 'SIGNATURE', placeholder: '{{sig}}' },
        { recipientId: rid, type: 'DATE', page: 1, positionX: 1, positionY: 1, width: 5, height: 5 },
      ],
    })
    expect(one.status).toBe(200)
    const [sig, date] = one.body.data
    expect(date.type).toBe('DATE')
    expect(sig).toMatchObject({ type: 'SIGNATURE', page: 1 })
    // "Sign here: " precedes it at x=72pt on a 612pt page; the baseline is 92pt below the top.
    expect(sig.positionX).toBeGreaterThan(72 / 6.12)
    expect(sig.positionX).toBeLessThan(40)
    expect(sig.positionY).toBeGreaterThan(5)
    expect(sig.positionY).toBeLessThan(12)
    expect(sig.width).toBeGreaterThan(0)
    expect(sig.height).toBeGreaterThan(0)

    const all = await client.post('/envelope/field/create-many', {
      envelopeId: e.id,
      data: [{ recipientId: rid, type: 'INITIALS', placeholder: '{{sig}}', matchAll: true, width: 10, height: 4 }],
    })
    expect(all.body.data.map((f: any) => [f.page, f.width, f.height])).toEqual([
      [1, 10, 4],
      [2, 10, 4],
    ])
    const stored = await client.get(`/envelope/item/${e.envelopeItems[0].id}/download`)
    expect(Buffer.from(stored.body).equals(Buffer.from(pdf))).toBe(false) // white-out drawn into the stored file

    const missing = await client.post('/envelope/field/create-many', {
      envelopeId: e.id,
      data: [{ recipientId: rid, type: 'SIGNATURE', placeholder: '{{nowhere}}' }],
    })
    expect(missing.status).toBe(400)
    expect(missing.body.issues).toEqual([{ path: 'data.0.placeholder', message: expect.stringContaining('not found') }])
  })

  test.skipIf(skip)('manages link attachments', async () => {
    const e = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER' }] })
    const created = await client.post('/envelope/attachment/create', { envelopeId: e.id, data: { label: 'Terms', data: 'https://example.com/terms' } })
    expect(created.status).toBe(200)
    expect(created.body.id).toMatch(/^attachment_/)
    const found = await client.get(`/envelope/attachment?envelopeId=${e.id}`)
    expect(found.body).toEqual({ data: [{ id: created.body.id, type: 'link', label: 'Terms', data: 'https://example.com/terms' }] })
    expect((await client.get(`/envelope/attachment?envelopeId=${e.id}&token=${e.recipients[0].token}`)).body.data).toHaveLength(1)
    expect((await client.get(`/envelope/attachment?envelopeId=${e.id}&token=wrong`)).status).toBe(404)

    const upd = await client.post('/envelope/attachment/update', { id: created.body.id, data: { label: 'Terms v2', data: 'https://example.com/v2' } })
    expect(upd.body).toEqual({ success: true })
    expect((await client.get(`/envelope/attachment?envelopeId=${e.id}`)).body.data[0]).toMatchObject({ label: 'Terms v2', data: 'https://example.com/v2' })

    for (const data of [{ label: '', data: 'https://example.com' }, { label: 'x', data: 'not a uri' }, { label: 'x', data: 'javascript:alert(1)' }]) {
      const res = await client.post('/envelope/attachment/create', { envelopeId: e.id, data })
      expect(res.status, JSON.stringify(data)).toBe(400)
      expect(res.body.issues[0].path).toMatch(/^data\./)
    }
    expect((await client.get('/envelope/attachment')).status).toBe(400)
    expect((await client.post('/envelope/attachment/delete', { id: created.body.id })).body).toEqual({ success: true })
    expect((await client.get(`/envelope/attachment?envelopeId=${e.id}`)).body.data).toEqual([])
    expect((await client.post('/envelope/attachment/delete', { id: created.body.id })).status).toBe(404)
  })

  test.skipIf(skip)('serves the same API under /api/v2-beta', async () => {
    const e = await createEnvelope(client)
    const beta = api(`${host.url}/api/v2-beta`, (await host.createApiToken({ name: 'beta', teamId })).token)
    expect((await beta.get(`/envelope/${e.id}`)).body.id).toBe(e.id)
  })
})
