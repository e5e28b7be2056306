/**
 * Correcting a recipient of a sent document before they act (domain/recipient/corrections.ts),
 * through API v2's update-many (and the deprecated door): a name alone keeps the link; a new address
 * gets a new link (the old one is refused), its own signing request, and must consent again; the
 * audit log keeps old -> new. Anything beyond a name or e-mail, or a recipient who has acted, is
 * refused and nothing changes.
 * Database: the embedded one (API rules), on the worker's shared host, in a team of its own.
 */
import { describe, expect, newTeam, test } from './fixtures.js'
import { api, createEnvelope, mailed, until, type Api, type TestHost } from './support.js'

const signature = { type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }

describe('correcting a recipient of a sent document on pglite', () => {
  let host: TestHost
  let client: Api

  test.beforeAll(async ({ hosts }) => {
    host = await hosts.on('pglite')
    client = (await newTeam(host, { name: 'Acme' })).client
  })

  /** A sent document: Ann and Bob sign, in parallel. */
  async function sent() {
    const e = await createEnvelope(client, {
      title: 'Lease',
      recipients: [
        { email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [signature] },
        { email: 'bob@example.com', name: 'Bob', role: 'SIGNER', fields: [{ ...signature, positionY: 40 }] },
      ],
    })
    const res = await client.post('/envelope/distribute', { envelopeId: e.id })
    expect(res.status).toBe(200)
    await mailed(host, e.id, 120_000)
    const [ann, bob] = res.body.recipients as { id: number; token: string }[]
    return { id: e.id as string, ann: ann!, bob: bob! }
  }
  const signing = (token: string) => api(`${host.url}/api/signing`, `Bearer ${token}`)
  const mailsTo = async (to: string, envelopeId: string) =>
    (await host.db.query<{ template: string; text: string }>('select template, text from mails where to_address = $1 and envelope_id = $2 order by id', [to, envelopeId]))
  const recipientsOf = async (id: string) => (await client.get(`/envelope/${id}`)).body.recipients as any[]

  test('a corrected name keeps the link; a corrected address gets a new one, its request, and the old link dies', async () => {
    const { id, ann } = await sent()
    // Ann opened and consented at her old address.
    expect((await signing(ann.token).post('/open', {})).status).toBe(200)
    const consent = await signing(ann.token).get('/consent')
    expect((await signing(ann.token).post('/consent', { version: consent.body.disclosure.version })).status).toBe(200)

    const named = await client.post('/envelope/recipient/update-many', { envelopeId: id, data: [{ id: ann.id, name: 'Ann Smith' }] })
    expect(named.status).toBe(200)
    expect(named.body.data[0]).toMatchObject({ name: 'Ann Smith', email: 'ann@example.com', token: ann.token, readStatus: 'OPENED' })
    expect((await signing(ann.token).get('/session')).status).toBe(200)

    const moved = await client.post('/envelope/recipient/update-many', { envelopeId: id, data: [{ id: ann.id, email: 'Ann.Smith@Example.com' }] })
    expect(moved.status).toBe(200)
    const now = moved.body.data[0]
    expect(now).toMatchObject({ name: 'Ann Smith', email: 'ann.smith@example.com', readStatus: 'NOT_OPENED', signingStatus: 'NOT_SIGNED' })
    expect(now.token).not.toBe(ann.token)
    expect((await recipientsOf(id)).find((r) => r.id === ann.id).token).toBe(now.token)

    // The old link opens nothing; the new one does, and its holder consents for themselves.
    expect((await signing(ann.token).get('/session')).status).toBeGreaterThanOrEqual(400)
    expect((await signing(ann.token).get('/session')).status).toBeLessThan(500)
    expect((await signing(now.token).get('/session')).status).toBe(200)
    expect((await signing(now.token).get('/consent')).body.given).toBe(false)

    // The new address gets the signing request with the new link; the old one got nothing more.
    await until(async () => (await mailsTo('ann.smith@example.com', id)).length > 0, 120_000)
    const [request] = await mailsTo('ann.smith@example.com', id)
    expect(request!.template).toBe('signing-request')
    expect(request!.text).toContain(now.token)
    expect((await mailsTo('ann@example.com', id)).map((m) => m.template)).toEqual(['signing-request'])

    // The audit log: both corrections, old -> new, by the team.
    const log = (await client.get(`/envelope/${id}/audit-log?perPage=100`)).body.data.filter((a: any) => a.type === 'RECIPIENT_UPDATED')
    expect(log.map((a: any) => a.data.changes)).toEqual([
      [{ type: 'NAME', from: 'Ann', to: 'Ann Smith' }],
      [{ type: 'EMAIL', from: 'ann@example.com', to: 'ann.smith@example.com' }],
    ])
    expect(log[1].data).toMatchObject({ recipientId: ann.id, recipientEmail: 'ann.smith@example.com' })
  })

  test('the deprecated door follows the same rule, and the audit entry says where the change came from', async () => {
    const { id, bob } = await sent()
    const documentId = Number((await client.get(`/envelope/${id}`)).body.secondaryId.split('_')[1])
    const named = await client.post('/document/recipient/update', { documentId, recipient: { id: bob.id, name: 'Robert' } }, { 'User-Agent': 'Corrector/1.0' })
    expect(named.status, JSON.stringify(named.body)).toBe(200)
    expect(named.body).toMatchObject({ name: 'Robert', email: 'bob@example.com' })
    const role = await client.post('/document/recipient/update', { documentId, recipient: { id: bob.id, role: 'VIEWER' } })
    expect([role.status, role.body.code]).toEqual([400, 'ENVELOPE_NOT_EDITABLE'])
    const [entry] = (await client.get(`/envelope/${id}/audit-log?perPage=100`)).body.data.filter((a: any) => a.type === 'RECIPIENT_UPDATED')
    expect(entry).toMatchObject({ userAgent: 'Corrector/1.0', data: { changes: [{ type: 'NAME', from: 'Bob', to: 'Robert' }] } })
  })

  test('refuses more than a correction, and a recipient who has acted, changing nothing', async () => {
    const { id, ann, bob } = await sent()
    expect((await signing(bob.token).post('/reject', { reason: 'Wrong rent' })).status).toBe(200)
    // Rejected: the document is no longer pending, so nothing can be corrected at all.
    const after = await client.post('/envelope/recipient/update-many', { envelopeId: id, data: [{ id: ann.id, name: 'Other' }] })
    expect(after.status).toBe(400)
    expect(after.body.code).toBe('ENVELOPE_NOT_EDITABLE')

    const other = await sent()
    const before = await recipientsOf(other.id)
    const role = await client.post('/envelope/recipient/update-many', { envelopeId: other.id, data: [{ id: other.ann.id, name: 'Ann B', role: 'VIEWER' }] })
    expect(role.status).toBe(400)
    expect(role.body).toMatchObject({ code: 'ENVELOPE_NOT_EDITABLE', issues: [{ path: 'data.0.role' }] })
    // The same role as stored is no change: a client that sends the whole recipient may correct its name.
    const same = await client.post('/envelope/recipient/update-many', { envelopeId: other.id, data: [{ id: other.ann.id, name: 'Ann B', role: 'SIGNER' }] })
    expect(same.status).toBe(200)

    // Ann signs; then neither she nor (in the same request) Bob may be corrected.
    const s = signing(other.ann.token)
    const session = (await s.get('/session')).body
    await s.post('/open', {})
    expect((await s.post('/complete', { fields: session.fields.map((f: any) => ({ id: f.id, value: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' })) })).status).toBe(200)
    const signed = await client.post('/envelope/recipient/update-many', {
      envelopeId: other.id,
      data: [
        { id: other.bob.id, email: 'robert@example.com' },
        { id: other.ann.id, email: 'ann.b@example.com' },
      ],
    })
    expect(signed.status).toBe(400)
    expect(signed.body).toMatchObject({ code: 'RECIPIENT_NOT_EDITABLE', issues: [{ path: 'data.1.id' }] })
    const now = await recipientsOf(other.id)
    expect(now.find((r) => r.id === other.bob.id)).toMatchObject({ email: 'bob@example.com', token: before.find((r: any) => r.id === other.bob.id).token })
    expect(now.find((r) => r.id === other.ann.id)).toMatchObject({ email: 'ann@example.com', name: 'Ann B', signingStatus: 'SIGNED' })
  })
})
