/**
 * API v1 (deprecated): every row of the v1 table answers, marked deprecated, on legacy documents only.
 * Database: the embedded one (API rules). A host of its own: it counts whole tables to show a
 * refused call changed nothing, with a token of the default team.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createEnvelope, makePdf, SIGNATURE, startTestHost, until, type Api, type Res, type TestHost } from './support.js'

const SUNSET = 'Sun, 01 Mar 2027 00:00:00 GMT'

/** API v1: every row of the v1 table (docs/api-notes.md, "API v1") answers, marked deprecated, on legacy documents only. */
describe('API v1 (deprecated)', () => {
  let host: TestHost
  let token: string
  let v1: Api
  let v2: Api

  beforeAll(async () => {
    host = await startTestHost('pglite')
    token = (await host.createApiToken({ name: 'tests' })).token
    v1 = api(`${host.url}/api/v1`, token)
    v2 = api(host.apiUrl, `Bearer ${token}`)
  })
  afterAll(async () => {
    await host?.stop()
  })

  const marked = (res: Res, successor: string) => {
    expect(res.headers.get('deprecation')).toBe('true')
    expect(res.headers.get('sunset')).toBe(SUNSET)
    expect(res.headers.get('link')).toBe(`</api/v2${successor}>; rel="successor-version"`)
  }
  const del = (p: string) => v1.send('DELETE', p)
  const patch = (p: string, body: object) => v1.send('PATCH', p, body)

  /** Everything a refusal must leave as it was. */
  const state = async () =>
    host.db.query(
      `select (select count(*)::int from envelopes) as envelopes, (select count(*)::int from recipients) as recipients,
        (select count(*)::int from fields) as fields, (select count(*)::int from events) as events,
        (select count(*)::int from audit_logs) as audit, (select max(updated_at) from envelopes) as updated,
        (select json_agg(r order by r.id) from recipients r) as rs, (select json_agg(f order by f.id) from fields f) as fs`,
    )

  async function v1Create(kind: 'documents' | 'templates', title: string, fields = true) {
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
            ...(fields ? { fields: [{ type: 'SIGNATURE', pageNumber: 1, pageX: 10, pageY: 80, pageWidth: 30, pageHeight: 6 }] } : {}),
          },
        ],
      }),
    )
    fd.set('file', new Blob([(await makePdf(2)) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), `${title}.pdf`)
    const res = await v1.post(`/${kind}`, fd)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/create')
    return res
  }

  it('creates, sends, signs and downloads a legacy document through v1', async () => {
    const created = await v1Create('documents', 'Lease')
    const n = created.body.documentId as number
    expect(n).toBeGreaterThan(0)
    expect(created.body.recipients[0]).toMatchObject({ email: 'ann@example.com', recipientId: expect.any(Number), signingUrl: expect.stringContaining('/sign/') })
    const env = (await v2.get(`/envelope/${created.body.envelopeId}`)).body
    expect(env).toMatchObject({ internalVersion: 1, secondaryId: `document_${n}` })

    let res = await v1.get(`/documents/${n}`)
    expect(res.status).toBe(200)
    marked(res, '/envelope/{envelopeId}')
    expect(res.body).toMatchObject({ id: n, documentId: n, envelopeId: env.id, title: 'Lease', status: 'DRAFT' })
    expect(res.body.fields[0]).toMatchObject({ pageNumber: 1, pageX: 10, pageY: 80, pageWidth: 30, pageHeight: 6, documentId: n })

    res = await v1.get('/documents')
    marked(res, '/envelope')
    expect(res.body.documents.map((d: any) => d.id)).toContain(n)

    // Recipients and fields through v1.
    res = await v1.post(`/documents/${n}/recipients`, { email: 'bob@example.com', name: 'Bob', role: 'SIGNER', accessAuth: [] })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/recipient/create-many')
    const bob = res.body
    expect(bob).toMatchObject({ email: 'bob@example.com', documentId: n })
    res = await patch(`/documents/${n}/recipients/${bob.id}`, { name: 'Robert' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/recipient/update-many')
    expect(res.body.name).toBe('Robert')

    res = await v1.post(`/documents/${n}/fields`, { recipientId: bob.id, type: 'SIGNATURE', pageNumber: 2, pageX: 5, pageY: 5, pageWidth: 20, pageHeight: 5 })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/field/create-many')
    expect(res.body).toMatchObject({ pageNumber: 2, pageX: 5, pageWidth: 20, recipientId: bob.id, documentId: n })
    const bobField = res.body
    res = await v1.post(`/documents/${n}/fields`, [{ recipientId: bob.id, type: 'TEXT', pageNumber: 1, pageX: 50, pageY: 50, pageWidth: 10, pageHeight: 5 }])
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.fields).toHaveLength(1)
    const textField = res.body.fields[0]
    res = await patch(`/documents/${n}/fields/${bobField.id}`, { pageX: 7 })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/field/update-many')
    expect(res.body).toMatchObject({ id: bobField.id, pageX: 7, positionX: 7 })
    res = await del(`/documents/${n}/fields/${textField.id}`)
    expect(res.status).toBe(200)
    marked(res, '/envelope/field/delete')
    expect(res.body.id).toBe(textField.id)
    // Bob goes again (with his field): Ann alone signs.
    res = await del(`/documents/${n}/recipients/${bob.id}`)
    expect(res.status).toBe(200)
    marked(res, '/envelope/recipient/delete')
    expect(res.body).toMatchObject({ id: bob.id, name: 'Robert' })
    expect((await v1.get(`/documents/${n}`)).body.recipients).toHaveLength(1)

    // Send, then sign as Ann through the signing API.
    res = await v1.post(`/documents/${n}/send`, {})
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/distribute')
    expect(res.body).toMatchObject({ id: n, status: 'PENDING' })
    const ann = res.body.recipients[0]
    expect(ann.token).toEqual(expect.any(String))

    res = await v1.post(`/documents/${n}/resend`, { recipients: [ann.id] })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/redistribute')

    const signing = api(`${host.url}/api/signing`, `Bearer ${ann.token}`)
    const session = (await signing.get('/session')).body
    expect(session.state).toBe('READY')
    const done = await signing.post('/complete', { fields: session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body.status).toBe('COMPLETED')

    // The download waits a while for the seal, then answers 409: a busy machine may take longer.
    await until(async () => (res = await v1.get(`/documents/${n}/download`)).status !== 409)
    expect(res.status).toBe(200)
    marked(res, '/envelope/item/{envelopeItemId}/download')
    expect(res.headers.get('content-type')).toBe('application/pdf')
    const original = await v1.get(`/documents/${n}/download?version=original`)
    expect(original.body.byteLength).toBeLessThan(res.body.byteLength)
    expect((await v1.get(`/documents/${n}`)).body.status).toBe('COMPLETED')
  })

  it('answers the template rows and makes legacy documents from legacy templates', async () => {
    const created = await v1Create('templates', 'Tpl')
    const t = created.body.templateId as number
    let res = await v1.get('/templates')
    marked(res, '/envelope?type=TEMPLATE')
    expect(res.body.templates.map((x: any) => x.id)).toContain(t)
    res = await v1.get(`/templates/${t}`)
    marked(res, '/envelope/{envelopeId}')
    expect(res.body).toMatchObject({ id: t, templateId: t, type: 'TEMPLATE' })
    const recipient = res.body.recipients[0]

    res = await v1.post(`/templates/${t}/create-document`, { title: 'From tpl', recipients: [{ email: 'zoe@example.com', name: 'Zoe' }] })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/use')
    expect(res.body.recipients[0]).toMatchObject({ email: 'zoe@example.com', name: 'Zoe' })
    const doc = (await v1.get(`/documents/${res.body.documentId}`)).body
    expect(doc).toMatchObject({ title: 'From tpl', internalVersion: 1, source: 'TEMPLATE' })

    res = await v1.post(`/templates/${t}/generate-document`, { recipients: [{ id: recipient.id, email: 'yan@example.com' }], distributeDocument: true })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    marked(res, '/envelope/use')
    expect((await v1.get(`/documents/${res.body.documentId}`)).body).toMatchObject({ status: 'PENDING', internalVersion: 1 })

    res = await del(`/templates/${t}`)
    expect(res.status).toBe(200)
    marked(res, '/envelope/delete')
    expect(res.body).toMatchObject({ id: t })
    expect((await v1.get(`/templates/${t}`)).status).toBe(404)

    const d = (await v1Create('documents', 'Gone', false)).body.documentId
    res = await del(`/documents/${d}`)
    expect(res.status).toBe(200)
    marked(res, '/envelope/delete')
    expect(res.body).toMatchObject({ id: d, title: 'Gone' })
    res = await v1.get(`/documents/${d}`)
    expect(res.status).toBe(404)
    marked(res, '/envelope/{envelopeId}')
  })

  it('serves legacy documents only: v2 envelopes and the other kind are 404; deprecated v2 creations are legacy', async () => {
    const env = await createEnvelope(v2, { recipients: [{ email: 'x@example.com', name: 'X', role: 'SIGNER' }] })
    expect(env.internalVersion).toBe(2)
    const n = Number(env.secondaryId.split('_')[1])
    for (const [method, p] of [
      ['GET', `/documents/${n}`],
      ['DELETE', `/documents/${n}`],
      ['POST', `/documents/${n}/send`],
      ['GET', `/documents/${n}/download`],
      ['POST', `/documents/${n}/recipients`],
      ['GET', `/templates/${n}`],
    ] as const) {
      const res = await v1.send(method, p, method === 'POST' ? { email: 'y@example.com', name: 'Y', role: 'SIGNER' } : undefined)
      expect(res.status, `${method} ${p}`).toBe(404)
      expect(res.body).toMatchObject({ code: 'NOT_FOUND' })
      expect(res.headers.get('deprecation')).toBe('true')
    }
    expect((await v2.get(`/envelope/${env.id}`)).body.status).toBe('DRAFT')
    expect((await v1.get('/documents?perPage=100')).body.documents.map((d: any) => d.envelopeId)).not.toContain(env.id)

    // A document made by the deprecated v2 /document/create is legacy, so v1 serves it.
    const fd = new FormData()
    fd.set('payload', JSON.stringify({ title: 'Old' }))
    fd.set('file', new Blob([(await makePdf(1)) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'old.pdf')
    const old = await v2.post('/document/create', fd)
    expect(old.status).toBe(200)
    expect((await v2.get(`/envelope/${old.body.envelopeId}`)).body.internalVersion).toBe(1)
    expect((await v1.get(`/documents/${old.body.id}`)).body).toMatchObject({ id: old.body.id, title: 'Old' })
  })

  it('refuses bad input with the error shape, marked, writing nothing', async () => {
    const created = await v1Create('documents', 'Strict')
    const n = created.body.documentId
    const rid = created.body.recipients[0].id
    const fid = (await v1.get(`/documents/${n}`)).body.fields[0].id
    const other = (await v1Create('documents', 'Other')).body
    const before = await state()
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/documents', JSON.stringify({ title: 'json' }), 400, '/envelope/create'],
      ['POST', `/documents/${n}/recipients`, { email: 'not-an-email', role: 'SIGNER' }, 400, '/envelope/recipient/create-many'],
      ['PATCH', `/documents/${n}/recipients/${rid}`, { role: 'KING' }, 400, '/envelope/recipient/update-many'],
      ['PATCH', `/documents/${n}/recipients/${other.recipients[0].id}`, { name: 'Z' }, 404, '/envelope/recipient/update-many'],
      ['DELETE', `/documents/${n}/recipients/${other.recipients[0].id}`, undefined, 404, '/envelope/recipient/delete'],
      ['POST', `/documents/${n}/fields`, { recipientId: rid, type: 'SIGNATURE', pageNumber: 9, pageX: 1, pageY: 1, pageWidth: 5, pageHeight: 5 }, 400, '/envelope/field/create-many'],
      ['POST', `/documents/${n}/fields`, [{ recipientId: rid, type: 'SIGNATURE', pageNumber: 1, pageX: 99, pageY: 1, pageWidth: 5, pageHeight: 5 }], 400, '/envelope/field/create-many'],
      ['PATCH', `/documents/${n}/fields/${fid}`, { pageX: 'far' }, 400, '/envelope/field/update-many'],
      ['PATCH', `/documents/${n}/fields/${fid}`, { colour: 'red' }, 400, '/envelope/field/update-many'],
      ['DELETE', `/documents/${other.documentId}/fields/${fid}`, undefined, 404, '/envelope/field/delete'],
      ['POST', `/documents/${n}/resend`, { recipients: [rid] }, 400, '/envelope/redistribute'],
      ['POST', `/documents/${n}/send`, { sendEmail: 'yes' }, 400, '/envelope/distribute'],
      ['GET', `/documents/abc`, undefined, 404, '/envelope/{envelopeId}'],
      ['GET', `/documents?perPage=1000`, undefined, 400, '/envelope'],
      ['POST', `/templates/${n}/create-document`, {}, 404, '/envelope/use'],
      ['GET', `/documents/${n}/download?version=signed`, undefined, 400, '/envelope/item/{envelopeItemId}/download'],
    ]
    for (const [method, p, body, status, successor] of cases) {
      const res = await v1.send(method, p, body as object)
      expect(res.status, `${method} ${p} ${JSON.stringify(res.body)}`).toBe(status)
      expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String) })
      marked(res, successor)
    }
    expect(await state()).toEqual(before)

    // The gate: no token is 401, still marked; preflights allow v1's methods.
    const anon = await api(`${host.url}/api/v1`).get('/documents')
    expect(anon.status).toBe(401)
    marked(anon, '/envelope')
    expect(anon.headers.get('access-control-allow-origin')).toBe('*')
    const pre = await fetch(`${host.url}/api/v1/documents/1`, { method: 'OPTIONS' })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-methods')).toContain('DELETE')
    const unknown = await v1.get('/nothing-here')
    expect(unknown.status).toBe(404)
    marked(unknown, '/envelope')
    expect(await state()).toEqual(before)
  })
})
