/**
 * The envelope's lifecycle through the API: distributed, signed in turn or at once, completed and
 * sealed; refused, cancelled, rejected, sent again, its next signer named.
 * Databases: both (the broad lifecycle through both drivers); its refusals on the embedded one.
 */
import { verifyPdfSignature, pdfText } from '../support/pdf-signature.js'
import { describe, expect, newTeam, test as it } from './fixtures.js'
import { api, createEnvelope, sealed, until, VARIANTS, type Api, SIGNATURE, type TestHost } from './support.js'

const box = { page: 1, width: 20, height: 5 }

/** The signing pages' API, as a recipient holding `token`. */
function signer(host: TestHost, token: string) {
  const client = api(`${host.url}/api/signing`, `Bearer ${token}`)
  return {
    session: () => client.get('/session', { 'User-Agent': 'SignerBrowser/1.0' }),
    open: () => client.post('/open', undefined, { 'User-Agent': 'SignerBrowser/1.0' }),
    complete: (body: object) => client.post('/complete', body, { 'User-Agent': 'SignerBrowser/1.0' }),
    /** Consents to sign electronically, as the signing page has the recipient do before acting. */
    consent: async () => client.post('/consent', { version: (await client.get('/consent')).body.disclosure.version }, { 'User-Agent': 'SignerBrowser/1.0' }),
    reject: (reason: string) => client.post('/reject', { reason }),
    item: (id: string, version?: string) => client.get(`/item/${id}${version ? `?version=${version}` : ''}`),
  }
}

const eventsOf = async (host: TestHost, id: string) =>
  (await host.db.query<{ event: string; payload: any }>('select event, payload from events where envelope_id = $1 order by id', [id]))

/** Everything a refusal must leave as it was. */
async function snapshot(host: TestHost, id: string) {
  const [e] = await host.db.query('select status, document_meta, completed_at from envelopes where id = $1', [id])
  const recipients = await host.db.query('select * from recipients where envelope_id = $1 order by id', [id])
  const fields = await host.db.query('select id, inserted, custom_text from fields where envelope_id = $1 order by id', [id])
  const counts = await host.db.query(
    `select (select count(*)::int from events where envelope_id = $1) as events, (select count(*)::int from audit_logs where envelope_id = $1) as audit`,
    [id],
  )
  return { e, recipients, fields, counts }
}

describe.each(VARIANTS)('the envelope lifecycle on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api

  it.beforeAll(async ({ hosts }) => {
    if (skip) return
    host = await hosts.on(variant)
    client = (await newTeam(host, { plan: 'team' })).client
  })

  /** A sequential document: Ann signs (signature, text, checkbox, date), then Bob approves. */
  async function sequentialDocument(meta: object = {}) {
    const e = await createEnvelope(client, {
      title: 'Lease',
      meta: { signingOrder: 'SEQUENTIAL', dateFormat: 'yyyy-MM-dd', timezone: 'Europe/Berlin', ...meta },
      recipients: [
        {
          email: 'ann@example.com',
          name: 'Ann',
          role: 'SIGNER',
          signingOrder: 1,
          fields: [
            { ...box, type: 'SIGNATURE', positionX: 10, positionY: 80 },
            { ...box, type: 'TEXT', positionX: 10, positionY: 10, fieldMeta: { type: 'text', label: 'City', required: true } },
            { ...box, type: 'CHECKBOX', positionX: 10, positionY: 30, fieldMeta: { type: 'checkbox', options: ['Pets', 'Garden'] } },
            { ...box, type: 'DATE', positionX: 10, positionY: 50 },
          ],
        },
        { email: 'bob@example.com', name: 'Bob', role: 'APPROVER', signingOrder: 2 },
        { email: 'cc@example.com', name: 'Carla', role: 'CC', signingOrder: 3 },
      ],
    })
    const res = await client.post('/envelope/distribute', { envelopeId: e.id })
    expect(res.status).toBe(200)
    return { e, sent: res.body }
  }

  it.skipIf(skip)('distributes, lets each recipient act in turn, completes and seals', async () => {
    const { e, sent } = await sequentialDocument()
    expect(sent).toMatchObject({ success: true, id: e.id })
    expect(sent.recipients.map((r: any) => [r.name, r.role, r.signingOrder])).toEqual([
      ['Ann', 'SIGNER', 1],
      ['Bob', 'APPROVER', 2],
      ['Carla', 'CC', 3],
    ])
    for (const r of sent.recipients) expect(r.signingUrl).toBe(`${host.url}/sign/${r.token}`)
    const [ann, bob, carla] = sent.recipients.map((r: any) => signer(host, r.token))

    const pending = (await client.get(`/envelope/${e.id}`)).body
    expect(pending.status).toBe('PENDING')
    expect(pending.recipients.map((r: any) => r.sendStatus)).toEqual(['SENT', 'SENT', 'SENT'])

    // Bob waits for Ann.
    const bobFirst = (await bob!.session()).body
    expect(bobFirst.state).toBe('NOT_YOUR_TURN')
    expect(bobFirst.waitingFor).toEqual([{ name: 'Ann', email: 'ann@example.com' }])
    expect((await bob!.complete({ fields: [] })).body.code).toBe('NOT_YOUR_TURN')
    // A wait screen is not the document: opening it now records no view (the event list below has one).
    await bob!.open()

    // Ann opens twice: one OPENED, one event.
    await ann!.open()
    await ann!.open()
    const annSession = (await ann!.session()).body
    expect(annSession).toMatchObject({ state: 'READY', recipient: { name: 'Ann', readStatus: 'OPENED', role: 'SIGNER' } })
    expect(annSession.fields.map((f: any) => f.type)).toEqual(['TEXT', 'CHECKBOX', 'DATE', 'SIGNATURE'])
    const [text, checkbox, , signature] = annSession.fields

    // Refusals write nothing: a missing required field, an unknown option, a bad image, someone else's field.
    expect((await ann!.consent()).status).toBe(200)
    const before = await snapshot(host, e.id)
    for (const body of [
      { fields: [{ id: signature.id, value: SIGNATURE }] },
      { fields: [{ id: signature.id, value: SIGNATURE }, { id: text.id, value: 'Berlin' }, { id: checkbox.id, value: ['Pool'] }] },
      { fields: [{ id: signature.id, value: 'data:image/png;base64,AAAA' }, { id: text.id, value: 'Berlin' }] },
      { fields: [{ id: signature.id, value: SIGNATURE }, { id: text.id, value: 'Berlin' }, { id: 999999, value: 'x' }] },
      { fields: 'nope' },
    ]) {
      const res = await ann!.complete(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', message: expect.any(String) })
      expect(res.body.issues.length).toBeGreaterThan(0)
    }
    expect(await snapshot(host, e.id)).toEqual(before)

    const done = await ann!.complete({
      fields: [
        { id: signature.id, value: SIGNATURE },
        { id: text.id, value: 'Zürich' },
        { id: checkbox.id, value: ['Garden'] },
      ],
    })
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ status: 'PENDING', redirectUrl: null })
    expect((await ann!.session()).body.state).toBe('ALREADY_COMPLETED')
    expect((await ann!.complete({ fields: [] })).body.code).toBe('ALREADY_COMPLETED')

    const annFields = (await ann!.session()).body.fields
    expect(annFields.find((f: any) => f.type === 'DATE').customText).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(annFields.find((f: any) => f.type === 'CHECKBOX').customText).toBe('["Garden"]')

    // The CC recipient has nothing to do; the approver completes the document.
    expect((await carla!.complete({ fields: [] })).body.code).toBe('CC_CANNOT_ACT')
    expect((await bob!.session()).body.state).toBe('READY')
    const approved = await bob!.complete({ fields: [] })
    expect(approved.body).toEqual({ status: 'COMPLETED', redirectUrl: null })

    const completed = (await client.get(`/envelope/${e.id}`)).body
    expect(completed).toMatchObject({ status: 'COMPLETED', completedAt: expect.any(String) })
    expect(completed.recipients.map((r: any) => r.signingStatus)).toEqual(['SIGNED', 'SIGNED', 'NOT_SIGNED'])
    expect((await carla!.session()).body.state).toBe('COMPLETED')

    // DOCUMENT_COMPLETED follows once the sealing job has stored the sealed files.
    await sealed(host, e.id)
    expect((await eventsOf(host, e.id)).map((x) => x.event)).toEqual([
      'DOCUMENT_CREATED',
      'DOCUMENT_SENT',
      'DOCUMENT_OPENED',
      'DOCUMENT_SIGNED',
      'DOCUMENT_RECIPIENT_COMPLETED',
      'DOCUMENT_RECIPIENT_COMPLETED',
      'DOCUMENT_COMPLETED',
    ])

    // The signed PDF (the default once completed) verifies and holds the values; the original stays.
    const itemId = completed.envelopeItems[0].id
    const signed = await client.get(`/envelope/item/${itemId}/download`)
    expect(signed.status).toBe(200)
    expect(signed.headers.get('content-type')).toBe('application/pdf')
    const check = verifyPdfSignature(signed.body)
    expect(check).toMatchObject({ signed: true, digestOk: true, signatureOk: true })
    const text2 = (await pdfText(signed.body)).join('\n')
    expect(text2).toContain('Zürich')
    expect(text2).toContain('ann@example.com')
    expect(text2).toContain('bob@example.com')
    const original = await client.get(`/envelope/item/${itemId}/download?version=original`)
    expect(original.body.byteLength).toBeLessThan(signed.body.byteLength)
    expect((await pdfText(original.body)).join('')).not.toContain('Zürich')
    expect((await ann!.item(itemId, 'signed')).body).toEqual(signed.body)

    const certificate = await client.get(`/envelope/${e.id}/certificate/download`)
    expect(certificate.status).toBe(200)
    expect((await pdfText(certificate.body)).join('\n')).toContain('SignerBrowser/1.0')

    // Each message's EMAIL_SENT comes with its job's end, in the background: the requests, then the completion mails.
    const readLog = async () => (await client.get(`/envelope/${e.id}/audit-log?perPage=100&include=all`)).body
    await until(async () => (await readLog()).data.filter((x: any) => x.type === 'EMAIL_SENT').length === 5, 30_000)
    const log = await readLog()
    expect(log).toMatchObject({ currentPage: 1, perPage: 100, totalPages: 1 })
    const actions = log.data.filter((x: any) => x.type !== 'EMAIL_SENT')
    expect(actions.map((x: any) => x.type)).toEqual([
      'DOCUMENT_CREATED',
      'DOCUMENT_SENT',
      'DOCUMENT_OPENED',
      'RECIPIENT_CONSENT_GIVEN',
      'DOCUMENT_RECIPIENT_COMPLETED',
      'RECIPIENT_CONSENT_GIVEN',
      'DOCUMENT_RECIPIENT_COMPLETED',
      'DOCUMENT_COMPLETED',
    ])
    const mails = log.data.filter((x: any) => x.type === 'EMAIL_SENT').map((x: any) => `${x.data.recipientEmail} ${x.data.emailType}`)
    expect(mails.sort()).toEqual([
      'ann@example.com DOCUMENT_COMPLETED',
      'ann@example.com SIGNING_REQUEST',
      'bob@example.com APPROVE_REQUEST',
      'bob@example.com DOCUMENT_COMPLETED',
      'cc@example.com DOCUMENT_COMPLETED',
    ])
    expect(log.count).toBe(13)
    const opened = actions[2]
    expect(opened).toMatchObject({ email: 'ann@example.com', name: 'Ann', userAgent: 'SignerBrowser/1.0', ipAddress: expect.stringMatching(/127\.0\.0\.1/) })
    const paged = (await client.get(`/envelope/${e.id}/audit-log?perPage=5&page=3&orderByDirection=desc&include=all`)).body
    expect(paged).toMatchObject({ count: 13, currentPage: 3, perPage: 5, totalPages: 3 })
    expect(paged.data.map((x: any) => x.id)).toEqual(log.data.slice(0, 3).reverse().map((x: any) => x.id))
    // By default the page lists only the deployed service's types, which its clients read as a closed list.
    const service = (await client.get(`/envelope/${e.id}/audit-log?perPage=100`)).body
    expect(service.count).toBe(11)
    expect(service.data.map((x: any) => x.id)).toEqual(log.data.filter((x: any) => x.type !== 'RECIPIENT_CONSENT_GIVEN').map((x: any) => x.id))
    expect(service.chainHead).toBe(log.chainHead)
  })

  it.skipIf(skip)('lets everyone act at once in parallel order', async () => {
    const e = await createEnvelope(client, {
      recipients: [
        { email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 1, positionY: 1 }] },
        { email: 'b@example.com', name: 'B', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 1, positionY: 20 }] },
        { email: 'v@example.com', name: 'V', role: 'VIEWER' },
      ],
    })
    const { recipients } = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    const [a, b, v] = recipients.map((r: any) => signer(host, r.token))
    for (const s of [a, b, v]) expect((await s!.session()).body.state).toBe('READY')
    const sign = async (s: ReturnType<typeof signer>) => {
      const { fields } = (await s.session()).body
      return s.complete({ fields: fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) })
    }
    expect((await sign(b!)).body.status).toBe('PENDING')
    expect((await v!.complete({ fields: [] })).body.status).toBe('PENDING')
    expect((await sign(a!)).body.status).toBe('COMPLETED')
    await sealed(host, e.id)
    const events = (await eventsOf(host, e.id)).map((x) => x.event)
    expect(events.filter((x) => x === 'DOCUMENT_SIGNED')).toHaveLength(2)
    expect(events.filter((x) => x === 'DOCUMENT_RECIPIENT_COMPLETED')).toHaveLength(3)
    expect(events.at(-1)).toBe('DOCUMENT_COMPLETED')
  })
})

describe('lifecycle refusals and end states', () => {
  let host: TestHost
  let client: Api

  it.beforeAll(async ({ hosts }) => {
    host = await hosts.on('pglite')
    client = (await newTeam(host, { plan: 'team' })).client
  })

  const signerWith = (fields: Record<string, unknown>[] = [{ ...box, type: 'SIGNATURE', positionX: 5, positionY: 5 }]) => ({
    email: 'ann@example.com',
    name: 'Ann',
    role: 'SIGNER',
    fields,
  })

  it('refuses to distribute what cannot be signed, and writes nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ type: 'TEMPLATE', recipients: [signerWith()] }, 400, 'INVALID_STATUS_TRANSITION'],
      [{ recipients: [] }, 400, 'NO_RECIPIENTS'],
      [{ recipients: [{ email: 'cc@example.com', name: 'C', role: 'CC' }] }, 400, 'NO_RECIPIENTS'],
      [{ recipients: [signerWith([{ ...box, type: 'TEXT', positionX: 1, positionY: 1 }])] }, 400, 'MISSING_SIGNATURE_FIELD'],
    ]
    for (const [payload, status, code] of cases) {
      const e = await createEnvelope(client, payload)
      const before = await snapshot(host, e.id)
      const res = await client.post('/envelope/distribute', { envelopeId: e.id })
      expect([res.status, res.body.code], JSON.stringify(payload)).toEqual([status, code])
      expect(res.body.message).toEqual(expect.any(String))
      expect(await snapshot(host, e.id)).toEqual(before)
    }
    const e = await createEnvelope(client, { recipients: [signerWith()] })
    expect((await client.post('/envelope/distribute', { envelopeId: e.id, meta: { signingOrder: 'RANDOM' } })).body.code).toBe('INVALID_REQUEST')
    expect((await client.post('/envelope/distribute', { envelopeId: 'envelope_nope' })).status).toBe(404)
    expect((await client.post('/envelope/distribute', {})).status).toBe(400)
    expect((await client.post('/envelope/distribute', { envelopeId: e.id, meta: { subject: 'Sign', redirectUrl: 'https://example.com/done' } })).status).toBe(200)
    expect((await client.get(`/envelope/${e.id}`)).body.documentMeta).toMatchObject({ subject: 'Sign', redirectUrl: 'https://example.com/done' })
    const again = await client.post('/envelope/distribute', { envelopeId: e.id })
    expect([again.status, again.body.code]).toEqual([400, 'INVALID_STATUS_TRANSITION'])
    // A sent document is frozen.
    const edit = await client.post('/envelope/update', { envelopeId: e.id, data: { title: 'Changed' } })
    expect([edit.status, edit.body.code]).toEqual([400, 'ENVELOPE_NOT_EDITABLE'])
  })

  it('stops every link once cancelled', async () => {
    const e = await createEnvelope(client, { recipients: [signerWith()] })
    expect((await client.post('/envelope/cancel', { envelopeId: e.id })).status).toBe(400) // still a draft
    const { recipients } = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    const ann = signer(host, recipients[0].token)
    expect((await client.post('/envelope/cancel', { envelopeId: e.id, reason: 'Wrong file' })).body).toEqual({ success: true })
    expect((await client.get(`/envelope/${e.id}`)).body.status).toBe('CANCELLED')
    expect((await ann.session()).body.state).toBe('CANCELLED')
    const { fields } = (await ann.session()).body
    const late = await ann.complete({ fields: [{ id: fields[0].id, value: SIGNATURE }] })
    expect([late.status, late.body.code]).toEqual([400, 'CANCELLED'])
    expect((await eventsOf(host, e.id)).map((x) => x.event).at(-1)).toBe('DOCUMENT_CANCELLED')
    expect((await client.post('/envelope/cancel', { envelopeId: e.id })).body.code).toBe('INVALID_STATUS_TRANSITION')
  })

  it('ends the document when a recipient rejects, for them or on their behalf', async () => {
    const make = async () => {
      const e = await createEnvelope(client, { recipients: [signerWith(), { email: 'b@example.com', name: 'B', role: 'APPROVER' }] })
      const { recipients } = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
      return { e, recipients }
    }
    const first = await make()
    const ann = signer(host, first.recipients[0].token)
    expect((await ann.reject('')).status).toBe(400)
    expect((await ann.reject('The rent is wrong')).body).toEqual({ success: true })
    const got = (await client.get(`/envelope/${first.e.id}`)).body
    expect(got.status).toBe('REJECTED')
    expect(got.recipients[0]).toMatchObject({ signingStatus: 'REJECTED', rejectionReason: 'The rent is wrong' })
    expect((await signer(host, first.recipients[1].token).session()).body.state).toBe('REJECTED')
    const events = await eventsOf(host, first.e.id)
    expect(events.at(-1)!.event).toBe('DOCUMENT_REJECTED')
    expect(events.at(-1)!.payload).toMatchObject({ status: 'PENDING' })
    expect(events.at(-1)!.payload.recipients[0]).toMatchObject({ signingStatus: 'REJECTED', rejectionReason: 'The rent is wrong' })

    const second = await make()
    const bobId = second.recipients[1].id
    const res = await client.post(`/envelope/recipient/${bobId}/reject`, { envelopeId: second.e.id, reason: 'Left the company' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: bobId, signingStatus: 'REJECTED', rejectionReason: 'Left the company' })
    expect((await client.get(`/envelope/${second.e.id}`)).body.status).toBe('REJECTED')
    const again = await client.post(`/envelope/recipient/${bobId}/reject`, { envelopeId: second.e.id, reason: 'x' })
    expect([again.status, again.body.code]).toEqual([400, 'INVALID_STATUS_TRANSITION'])
    expect((await client.post('/envelope/recipient/999999/reject', { reason: 'x' })).status).toBe(404)
    expect((await client.post('/envelope/recipient/abc/reject', { reason: 'x' })).status).toBe(404)
  })

  it('sends again to those who have not completed', async () => {
    const e = await createEnvelope(client, { recipients: [signerWith(), { email: 'b@example.com', name: 'B', role: 'VIEWER' }] })
    const early = await client.post('/envelope/redistribute', { envelopeId: e.id, recipients: [1] })
    expect([early.status, early.body.code]).toEqual([400, 'INVALID_STATUS_TRANSITION'])
    const { recipients } = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    await signer(host, recipients[1].token).complete({ fields: [] })
    const ids = recipients.map((r: any) => r.id)
    const res = await client.post('/envelope/redistribute', { envelopeId: e.id, recipients: ids })
    expect(res.status).toBe(200)
    expect(res.body.recipients.map((r: any) => r.id)).toEqual([ids[0]])
    const unknown = await client.post('/envelope/redistribute', { envelopeId: e.id, recipients: [ids[0], 999999] })
    expect([unknown.status, unknown.body.issues[0].path]).toEqual([400, 'recipients.1'])
  })

  it('lets the signer name the next signer where the document allows it', async () => {
    const e = await createEnvelope(client, {
      meta: { signingOrder: 'SEQUENTIAL', allowDictateNextSigner: true },
      recipients: [
        { ...signerWith(), signingOrder: 1 },
        { email: 'next@example.com', name: 'Next', role: 'SIGNER', signingOrder: 2, fields: [{ ...box, type: 'SIGNATURE', positionX: 50, positionY: 50 }] },
      ],
    })
    const { recipients } = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    const ann = signer(host, recipients[0].token)
    const s = (await ann.session()).body
    expect(s.nextSigner).toEqual({ id: recipients[1].id, name: 'Next', email: 'next@example.com' })
    const bad = await ann.complete({ fields: [{ id: s.fields[0].id, value: SIGNATURE }], nextSigner: { name: 'X', email: 'not-an-email' } })
    expect(bad.status).toBe(400)
    const ok = await ann.complete({ fields: [{ id: s.fields[0].id, value: SIGNATURE }], nextSigner: { name: 'Dana', email: 'Dana@Example.com' } })
    expect(ok.status).toBe(200)
    const got = (await client.get(`/envelope/${e.id}`)).body
    expect(got.recipients[1]).toMatchObject({ name: 'Dana', email: 'dana@example.com' })
    const log = (await client.get(`/envelope/${e.id}/audit-log`)).body
    expect(log.data.find((x: any) => x.type === 'RECIPIENT_UPDATED')).toMatchObject({
      email: 'ann@example.com',
      data: { recipientEmail: 'dana@example.com', changes: [{ type: 'NAME', from: 'Next', to: 'Dana' }, { type: 'EMAIL', from: 'next@example.com', to: 'dana@example.com' }] },
    })
  })

  it('refuses what a recipient token cannot do', async () => {
    expect((await api(`${host.url}/api/signing`).get('/session')).status).toBe(401)
    const unknown = await signer(host, 'not-a-token').session()
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND'])
    const draft = await createEnvelope(client, { recipients: [signerWith()] })
    const s = signer(host, draft.recipients[0].token)
    expect((await s.session()).body.state).toBe('NOT_SENT')
    expect((await s.complete({ fields: [] })).body.code).toBe('NOT_SENT')
    expect((await s.item(draft.envelopeItems[0].id)).status).toBe(200)
    expect((await s.item(draft.envelopeItems[0].id, 'signed')).body.code).toBe('DOCUMENT_NOT_COMPLETED')
    // Another envelope's item is not reachable with this token.
    const other = await createEnvelope(client, { recipients: [signerWith()] })
    expect((await s.item(other.envelopeItems[0].id)).status).toBe(404)
    // Deleting a pending document removes its links.
    await client.post('/envelope/distribute', { envelopeId: draft.id })
    await client.post('/envelope/delete', { envelopeId: draft.id })
    expect((await s.session()).status).toBe(404)
  })
})
