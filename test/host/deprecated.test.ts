/**
 * The deprecated v2 routes: every row of the table (docs/api-notes.md, "Deprecated routes") answers, marked deprecated.
 * Database: the embedded one (API rules).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, makePdf, startTestHost, type Api, type Res, type TestHost } from './support.js'

const SUNSET = 'Sun, 01 Mar 2027 00:00:00 GMT'

describe('deprecated v2 endpoints', () => {
  let host: TestHost
  let client: Api

  beforeAll(async () => {
    host = await startTestHost('pglite')
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests' })).token)
  })
  afterAll(async () => {
    await host?.stop()
  })

  const marked = (res: Res, successor: string) => {
    expect(res.headers.get('deprecation')).toBe('true')
    expect(res.headers.get('sunset')).toBe(SUNSET)
    expect(res.headers.get('link')).toBe(`</api/v2${successor}>; rel="successor-version"`)
  }
  const count = async (table: string) => (await host.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n

  /** A legacy create: multipart `payload` + the single `file` part, fields with the old names. */
  async function legacyCreate(kind: 'document' | 'template', title: string, path = `/${kind}/create`) {
    const fd = new FormData()
    fd.set(
      'payload',
      JSON.stringify({
        title,
        recipients: [
          {
            email: 'ann@example.com',
            name: 'Ann',
            role: 'SIGNER',
            accessAuth: [],
            fields: [{ type: 'SIGNATURE', pageNumber: 1, pageX: 10, pageY: 80, width: 30, height: 6 }],
          },
        ],
      }),
    )
    fd.set('file', new Blob([(await makePdf(2)) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), `${title}.pdf`)
    const res = await client.post(path, fd)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/create')
    return res.body as { envelopeId: string; id: number }
  }

  it('creates, reads, lists and changes documents and templates by legacy number', async () => {
    const doc = await legacyCreate('document', 'Lease')
    expect(doc.envelopeId).toMatch(/^envelope_/)
    const env = (await client.get(`/envelope/${doc.envelopeId}`)).body
    expect(env.secondaryId).toBe(`document_${doc.id}`)
    expect(env.fields[0]).toMatchObject({ page: 1, positionX: 10, positionY: 80 })
    const beta = await legacyCreate('document', 'Beta', '/document/create/beta')
    const tpl = await legacyCreate('template', 'Tpl')
    await legacyCreate('template', 'Tpl beta', '/template/create/beta')

    let res = await client.get(`/document/${doc.id}`)
    expect(res.status).toBe(200)
    marked(res, '/envelope/{envelopeId}')
    expect(res.body).toMatchObject({ id: doc.id, envelopeId: doc.envelopeId, documentId: doc.id, templateId: null, title: 'Lease' })
    expect(res.body.fields[0]).toMatchObject({ pageNumber: 1, pageX: 10, pageY: 80, documentId: doc.id })

    res = await client.get(`/template/${tpl.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: tpl.id, envelopeId: tpl.envelopeId, templateId: tpl.id })

    res = await client.get('/document?perPage=1&page=1')
    marked(res, '/envelope')
    expect(res.body).toMatchObject({ count: 2, currentPage: 1, perPage: 1, totalPages: 2 })
    expect(res.body.data).toHaveLength(1)
    res = await client.get('/template')
    marked(res, '/envelope?type=TEMPLATE')
    expect(res.body.count).toBe(2)

    res = await client.post('/document/get-many', { documentIds: [beta.id, doc.id, 999] })
    marked(res, '/envelope/get-many')
    expect(res.body.data.map((d: any) => d.envelopeId)).toEqual([beta.envelopeId, doc.envelopeId])
    res = await client.post('/template/get-many', { templateIds: [tpl.id] })
    expect(res.body.data.map((d: any) => d.envelopeId)).toEqual([tpl.envelopeId])

    res = await client.post('/document/update', { documentId: doc.id, data: { title: 'Lease 2' }, meta: { subject: 'Sign' } })
    expect(res.status).toBe(200)
    marked(res, '/envelope/update')
    expect(res.body).toMatchObject({ title: 'Lease 2', documentMeta: { subject: 'Sign' } })
    res = await client.post('/template/update', { templateId: tpl.id, data: { title: 'Tpl 2' } })
    expect(res.body.title).toBe('Tpl 2')

    res = await client.post('/document/duplicate', { documentId: doc.id })
    marked(res, '/envelope/duplicate')
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^envelope_/), documentId: 3 })
    res = await client.post('/template/duplicate', { templateId: tpl.id })
    expect(res.body).toMatchObject({ templateId: 3 })

    res = await client.post('/document/delete', { documentId: 3 })
    marked(res, '/envelope/delete')
    expect(res.body).toEqual({ success: true })
    expect((await client.get('/document/3')).status).toBe(404)
    res = await client.post('/template/delete', { templateId: 3 })
    expect(res.body).toEqual({ success: true })
  })

  it('a document number on a template route (and the reverse) is 404', async () => {
    const doc = await legacyCreate('document', 'Only a document')
    const tplCount = (await client.get('/template')).body.count
    const res = await client.get(`/template/${tplCount + 50}`)
    expect(res.status).toBe(404)
    marked(res, '/envelope/{envelopeId}')
    const fieldId = (await client.get(`/document/${doc.id}`)).body.fields[0].id
    expect((await client.get(`/template/field/${fieldId}`)).status).toBe(404)
    expect((await client.get(`/document/field/${fieldId}`)).status).toBe(200)
    const before = await count('fields')
    expect((await client.post('/template/field/delete', { fieldId })).status).toBe(404)
    expect(await count('fields')).toBe(before)
    // A template's number is not a document's.
    const tpl = await legacyCreate('template', 'Numbered')
    const { body: docs } = await client.get('/document?perPage=100')
    if (!docs.data.some((d: any) => d.id === tpl.id)) expect((await client.get(`/document/${tpl.id}`)).status).toBe(404)
  })

  it('fields and recipients with the old names and legacy numbers', async () => {
    for (const kind of ['document', 'template'] as const) {
      const key = kind === 'document' ? 'documentId' : 'templateId'
      const env = await legacyCreate(kind, `Parts ${kind}`)
      let res = await client.post(`/${kind}/recipient/create`, { [key]: env.id, recipient: { email: 'bob@example.com', name: 'Bob', role: 'SIGNER', actionAuth: [] } })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      marked(res, '/envelope/recipient/create-many')
      const bob = res.body
      expect(bob).toMatchObject({ email: 'bob@example.com', [key]: env.id })
      res = await client.post(`/${kind}/recipient/create-many`, { [key]: env.id, recipients: [{ email: 'cc@example.com', name: 'Cc', role: 'CC' }] })
      expect(res.body.recipients).toHaveLength(1)
      const cc = res.body.recipients[0]
      res = await client.get(`/${kind}/recipient/${bob.id}`)
      marked(res, '/envelope/recipient/{recipientId}')
      expect(res.body.name).toBe('Bob')
      res = await client.post(`/${kind}/recipient/update`, { [key]: env.id, recipient: { id: bob.id, name: 'Robert' } })
      marked(res, '/envelope/recipient/update-many')
      expect(res.body.name).toBe('Robert')
      res = await client.post(`/${kind}/recipient/update-many`, { [key]: env.id, recipients: [{ id: cc.id, name: 'Carbon' }] })
      expect(res.body.recipients[0].name).toBe('Carbon')

      res = await client.post(`/${kind}/field/create`, { [key]: env.id, field: { type: 'SIGNATURE', recipientId: bob.id, pageNumber: 2, pageX: 5, pageY: 5, width: 20, height: 5 } })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      marked(res, '/envelope/field/create-many')
      expect(res.body).toMatchObject({ page: 2, pageNumber: 2, positionX: 5, pageX: 5, pageY: 5, [key]: env.id })
      const field = res.body
      res = await client.post(`/${kind}/field/create-many`, { [key]: env.id, fields: [{ type: 'TEXT', recipientId: bob.id, pageNumber: 1, pageX: 50, pageY: 50, width: 10, height: 5 }] })
      expect(res.body.fields[0]).toMatchObject({ type: 'TEXT', page: 1, positionX: 50 })
      const text = res.body.fields[0]
      res = await client.post(`/${kind}/field/update`, { [key]: env.id, field: { id: field.id, type: 'SIGNATURE', pageX: 60 } })
      marked(res, '/envelope/field/update-many')
      expect(res.body).toMatchObject({ id: field.id, positionX: 60, pageX: 60, page: 2 })
      res = await client.post(`/${kind}/field/update-many`, { [key]: env.id, fields: [{ id: text.id, pageY: 70 }] })
      expect(res.body.fields[0]).toMatchObject({ positionY: 70 })
      res = await client.get(`/${kind}/field/${text.id}`)
      marked(res, '/envelope/field/{fieldId}')
      expect(res.body).toMatchObject({ id: text.id, pageY: 70 })
      res = await client.post(`/${kind}/field/delete`, { fieldId: text.id })
      marked(res, '/envelope/field/delete')
      expect(res.body).toEqual({ success: true })
      res = await client.post(`/${kind}/recipient/delete`, { recipientId: cc.id })
      marked(res, '/envelope/recipient/delete')
      expect(res.body).toEqual({ success: true })
      const after = (await client.get(`/envelope/${env.envelopeId}`)).body
      expect(after.recipients.map((r: any) => r.name)).toEqual(['Ann', 'Robert'])
      expect(after.fields.map((f: any) => f.id)).not.toContain(text.id)
    }
  })

  it('attachments, distribute, redistribute, download and use', async () => {
    const doc = await legacyCreate('document', 'Sendable')
    let res = await client.post('/document/attachment/create', { documentId: doc.id, data: { label: 'Terms', data: 'https://example.com/terms' } })
    expect(res.status).toBe(200)
    marked(res, '/envelope/attachment/create')
    const attachment = res.body.id
    res = await client.post('/document/attachment/update', { id: attachment, data: { label: 'Terms 2', data: 'https://example.com/t2' } })
    marked(res, '/envelope/attachment/update')
    expect(res.body).toEqual({ success: true })
    res = await client.get(`/document/attachment?documentId=${doc.id}`)
    marked(res, '/envelope/attachment')
    expect(res.body.data).toEqual([{ id: attachment, type: 'link', label: 'Terms 2', data: 'https://example.com/t2' }])
    res = await client.post('/document/attachment/delete', { id: attachment })
    marked(res, '/envelope/attachment/delete')
    expect((await client.get(`/document/attachment?documentId=${doc.id}`)).body.data).toEqual([])

    res = await client.get(`/document/${doc.id}/download`)
    expect(res.status).toBe(200)
    marked(res, '/envelope/item/{envelopeItemId}/download')
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(Buffer.from(res.body).subarray(0, 5).toString()).toBe('%PDF-')
    res = await client.get(`/document/${doc.id}/download-beta`)
    marked(res, '/envelope/item/{envelopeItemId}/download')
    expect(res.body).toMatchObject({ downloadUrl: expect.stringMatching(/\/api\/v2\/envelope\/item\/envelope_item_\w+\/download$/), contentType: 'application/pdf' })

    res = await client.post('/document/distribute', { documentId: doc.id, meta: { subject: 'Please sign' } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/distribute')
    expect(res.body).toMatchObject({ id: doc.id, status: 'PENDING' })
    const ann = res.body.recipients[0].id
    res = await client.post('/document/redistribute', { documentId: doc.id, recipients: [ann] })
    marked(res, '/envelope/redistribute')
    expect(res.body).toEqual({ success: true })

    const tpl = await legacyCreate('template', 'Usable')
    const tplRecipient = (await client.get(`/template/${tpl.id}`)).body.recipients[0].id
    res = await client.post('/template/use', { templateId: tpl.id, recipients: [{ id: tplRecipient, email: 'zoe@example.com', name: 'Zoe' }], override: { title: 'From template' } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/use')
    expect(res.body).toMatchObject({ title: 'From template', type: 'DOCUMENT', status: 'DRAFT', source: 'TEMPLATE' })
    expect(res.body.recipients[0].email).toBe('zoe@example.com')
    // A document is not a template.
    expect((await client.post('/template/use', { templateId: 99999, recipients: [] })).status).toBe(404)
  })

  it('refuses bad input with the error shape, marked, writing nothing', async () => {
    const envelopes = await count('envelopes')
    const fields = await count('fields')
    let res = await client.post('/document/create', { title: 'JSON only' })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('INVALID_REQUEST')
    marked(res, '/envelope/create')
    const fd = new FormData()
    fd.set('payload', JSON.stringify({ title: 'Bad field', recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ type: 'SIGNATURE', pageNumber: 9, pageX: 10, pageY: 10, width: 5, height: 5 }] }] }))
    fd.set('file', new Blob([(await makePdf(1)) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'one.pdf')
    res = await client.post('/document/create', fd)
    expect(res.status).toBe(400)
    expect(res.body.issues[0].path).toBe('payload.recipients.0.fields.0.page')
    expect(await count('envelopes')).toBe(envelopes)

    const doc = (await client.get('/document?perPage=100')).body.data.find((d: any) => d.status === 'DRAFT')
    res = await client.post('/document/field/create-many', { documentId: doc.id, fields: [{ type: 'SIGNATURE', recipientId: doc.recipients[0].id, pageNumber: 1, pageX: 10, pageY: 10, width: 5, height: 5 }, { type: 'NOPE' }] })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', issues: expect.any(Array) })
    marked(res, '/envelope/field/create-many')
    expect(await count('fields')).toBe(fields)
    res = await client.post('/document/update', { data: { title: 'no id' } })
    expect(res.status).toBe(400)
    expect(res.body.issues).toEqual([{ path: 'documentId', message: 'Expected a positive integer' }])
    res = await client.post('/document/get-many', { documentIds: ['x'] })
    expect(res.status).toBe(400)
    // Unknown deprecated paths are marked too.
    res = await client.post('/template/nope/create', { templateId: 1 })
    expect(res.status).toBe(404)
    marked(res, '/envelope')
  })

  it('answers under /api/v2-beta with that prefix in the Link', async () => {
    const beta = api(host.apiUrl.replace(/\/api\/v2$/, '/api/v2-beta'), (await host.createApiToken({ name: 'beta' })).token)
    const res = await beta.get('/document')
    expect(res.status).toBe(200)
    expect(res.headers.get('link')).toBe('</api/v2-beta/envelope>; rel="successor-version"')
  })
})
