import { Documenso } from '@documenso/sdk-typescript'
import { describe, expect, newTeam, test } from '../host/fixtures.js'
import { makePdf, SIGNATURE, until, type TestHost } from '../host/support.js'
import { step } from './support.js'

/**
 * The deployed service's TypeScript SDK, as a customer uses it: `serverURL` set to our `/api/v2`,
 * `apiKey` an API token. The SDK checks every response against its own models and throws
 * (ResponseValidationError) when one does not match, so each call resolving is the test.
 * Not here (docs/api-notes.md, "Compatibility with the deployed clients"): `envelopes.items.download`,
 * which in SDK 0.9.1 accepts only a JSON answer where API v2 answers the PDF itself.
 * Database: the embedded one (the clients' view of the API; SQL is held on both in test/host).
 */
describe('@documenso/sdk-typescript against the host', () => {
  let host: TestHost
  let sdk: Documenso
  let pdf: Uint8Array

  // Shared through the lifecycle, in order.
  let envelopeId = ''
  let itemId = ''
  let recipientIds: number[] = []
  let fieldIds: number[] = []
  let attachmentId = ''
  let templateId = ''
  let templateRecipientId = 0

  // The worker's host: everything here is the team's own.
  test.beforeAll(async ({ hosts }) => {
    host = await hosts.on('pglite')
    const { token } = await newTeam(host, { name: 'Customer', plan: 'enterprise' })
    sdk = new Documenso({ serverURL: host.apiUrl, apiKey: token })
    pdf = await makePdf(2)
  })

  step('envelopes.create (multipart, one PDF)', async () => {
    const res = await sdk.envelopes.create({
      payload: { title: 'SDK contract', type: 'DOCUMENT', externalId: 'ext-1' },
      files: [{ fileName: 'contract.pdf', content: new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }) }],
    })
    expect(res.id).toMatch(/^envelope_/)
    envelopeId = res.id
  })

  step('envelopes.get', async () => {
    const e = await sdk.envelopes.get({ envelopeId })
    expect(e.id).toBe(envelopeId)
    expect(e.title).toBe('SDK contract')
    expect(typeof e.userId).toBe('number')
    expect(typeof e.teamId).toBe('number')
    expect(e.envelopeItems).toHaveLength(1)
    itemId = e.envelopeItems[0]!.id
  })

  step('envelope.envelopeFind (paginated list)', async () => {
    const page = await sdk.envelope.envelopeFind({ page: 1, perPage: 10 })
    expect(page.count).toBe(1)
    expect(page.currentPage).toBe(1)
    expect(page.perPage).toBe(10)
    expect(page.totalPages).toBe(1)
    expect(page.data.map((e) => e.id)).toEqual([envelopeId])
  })

  step('envelopes.update', async () => {
    const e = await sdk.envelopes.update({ envelopeId, data: { title: 'SDK contract v2' }, meta: { subject: 'Please sign' } })
    expect(e.title).toBe('SDK contract v2')
  })

  step('envelopes.recipients.createMany', async () => {
    const res = await sdk.envelopes.recipients.createMany({
      envelopeId,
      data: [
        { email: 'ana@example.com', name: 'Ana', role: 'SIGNER' },
        { email: 'bo@example.com', name: 'Bo', role: 'SIGNER' },
      ],
    })
    expect(res.data).toHaveLength(2)
    recipientIds = res.data.map((r) => r.id)
  })

  step('envelopes.recipients.get', async () => {
    const r = await sdk.envelopes.recipients.get({ recipientId: recipientIds[0]! })
    expect(r.email).toBe('ana@example.com')
  })

  step('envelopes.recipients.updateMany', async () => {
    const res = await sdk.envelopes.recipients.updateMany({ envelopeId, data: [{ id: recipientIds[0]!, name: 'Ana Lima' }] })
    expect(res.data[0]!.name).toBe('Ana Lima')
  })

  step('envelopes.recipients.delete', async () => {
    await sdk.envelopes.recipients.delete({ recipientId: recipientIds[1]! })
    recipientIds = recipientIds.slice(0, 1)
  })

  step('envelopes.fields.createMany', async () => {
    const res = await sdk.envelopes.fields.createMany({
      envelopeId,
      data: [
        { type: 'SIGNATURE', recipientId: recipientIds[0]!, envelopeItemId: itemId, page: 1, positionX: 10, positionY: 10, width: 20, height: 5 },
        { type: 'TEXT', recipientId: recipientIds[0]!, envelopeItemId: itemId, page: 1, positionX: 10, positionY: 30, width: 20, height: 5, fieldMeta: { type: 'text', label: 'Note' } },
      ],
    })
    expect(res.data).toHaveLength(2)
    fieldIds = res.data.map((f) => f.id)
  })

  step('envelopes.fields.get', async () => {
    const f = await sdk.envelopes.fields.get({ fieldId: fieldIds[0]! })
    expect(f.type).toBe('SIGNATURE')
    expect(typeof f.secondaryId).toBe('string')
  })

  step('envelopes.fields.updateMany', async () => {
    const res = await sdk.envelopes.fields.updateMany({ envelopeId, data: [{ type: 'SIGNATURE', id: fieldIds[0]!, positionX: 15 }] })
    expect(res.data[0]!.positionX).toBe(15)
  })

  step('envelopes.fields.delete', async () => {
    await sdk.envelopes.fields.delete({ fieldId: fieldIds[1]! })
    fieldIds = fieldIds.slice(0, 1)
  })

  step('envelopes.items.createMany (multipart)', async () => {
    const res = await sdk.envelopes.items.createMany({
      payload: { envelopeId },
      files: [{ fileName: 'annex.pdf', content: new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }) }],
    })
    expect(res.data).toHaveLength(1)
  })

  step('envelopes.items.updateMany', async () => {
    const res = await sdk.envelopes.items.updateMany({ envelopeId, data: [{ envelopeItemId: itemId, title: 'Main contract' }] })
    expect(res.data.find((i) => i.id === itemId)?.title).toBe('Main contract')
  })

  step('envelopes.attachments create, find, update, delete', async () => {
    await sdk.envelopes.attachments.create({ envelopeId, data: { label: 'Terms', data: 'https://example.com/terms' } })
    const found = await sdk.envelopes.attachments.find({ envelopeId })
    expect(found.data).toHaveLength(1)
    attachmentId = found.data[0]!.id
    await sdk.envelopes.attachments.update({ id: attachmentId, data: { label: 'Terms v2', data: 'https://example.com/terms2' } })
    await sdk.envelopes.attachments.delete({ id: attachmentId })
    expect((await sdk.envelopes.attachments.find({ envelopeId })).data).toHaveLength(0)
  })

  step('envelopes.distribute', async () => {
    const res = await sdk.envelopes.distribute({ envelopeId })
    expect(res.success).toBe(true)
  })

  step('envelopes.redistribute', async () => {
    const res = await sdk.envelopes.redistribute({ envelopeId, recipients: recipientIds })
    expect(res.success).toBe(true)
    // The message's job enters EMAIL_SENT once it has sent it: before the document is cancelled below.
    await until(async () => (await host.db.query(`select 1 from audit_logs where envelope_id = $1 and type = 'EMAIL_SENT'`, [envelopeId])).length > 0)
  })

  step('envelope.envelopeGetMany', async () => {
    const res = await sdk.envelope.envelopeGetMany({ ids: { type: 'envelopeId', ids: [envelopeId] } })
    expect(res.data.map((e) => e.id)).toEqual([envelopeId])
  })

  step('envelopes.duplicate', async () => {
    const res = await sdk.envelopes.duplicate({ envelopeId })
    expect(res.id).toMatch(/^envelope_/)
    expect(res.id).not.toBe(envelopeId)
  })

  step('envelopes.use (from a template)', async () => {
    const t = await sdk.envelopes.create({
      payload: { title: 'SDK template', type: 'TEMPLATE', recipients: [{ email: 'role@example.com', name: 'Signer', role: 'SIGNER' }] },
      files: [{ fileName: 'template.pdf', content: new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }) }],
    })
    templateId = t.id
    const tpl = await sdk.envelopes.get({ envelopeId: templateId })
    templateRecipientId = tpl.recipients[0]!.id
    const res = await sdk.envelopes.use({
      payload: { envelopeId: templateId, recipients: [{ id: templateRecipientId, email: 'cy@example.com', name: 'Cy' }] },
    })
    expect(res.id).toMatch(/^envelope_/)
  })

  step('envelope.envelopeCancel', async () => {
    await sdk.envelope.envelopeCancel({ envelopeId, reason: 'changed our minds' })
    expect((await sdk.envelopes.get({ envelopeId })).status).toBe('CANCELLED')
  })

  step('envelope.envelopeAuditLogFind (sent, resent, cancelled; and a signed, completed document)', async () => {
    const log = await sdk.envelope.envelopeAuditLogFind({ envelopeId, perPage: 100 })
    expect(log.data.map((x) => x.type)).toEqual(expect.arrayContaining(['DOCUMENT_CREATED', 'DOCUMENT_TITLE_UPDATED', 'DOCUMENT_SENT', 'EMAIL_SENT', 'DOCUMENT_CANCELLED']))

    // A second document, opened, signed and completed through the signing pages' API.
    const { id } = await sdk.envelopes.create({
      payload: {
        title: 'Signed through the pages',
        type: 'DOCUMENT',
        recipients: [{ email: 'sig@example.com', name: 'Sig', role: 'SIGNER', fields: [{ identifier: 0, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 10, width: 20, height: 5 }] }],
      },
      files: [{ fileName: 'signed.pdf', content: new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }) }],
    })
    const { recipients } = await sdk.envelopes.distribute({ envelopeId: id })
    const signing = (path: string, body?: unknown) =>
      fetch(`${host.url}/api/signing${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${recipients[0]!.token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>)
    await signing('/open', {})
    const { fields } = await signing('/session')
    // The recipient consents to sign electronically first, as the signing page has them do.
    await signing('/consent', { version: (await signing('/consent')).disclosure.version })
    expect((await signing('/complete', { fields: [{ id: fields[0].id, value: SIGNATURE }] })).status).toBe('COMPLETED')
    const signed = await sdk.envelope.envelopeAuditLogFind({ envelopeId: id })
    // EMAIL_SENT entries come from the mail jobs, whenever they ran.
    expect(signed.data.map((x) => x.type).filter((t) => t !== 'EMAIL_SENT')).toEqual(['DOCUMENT_CREATED', 'DOCUMENT_SENT', 'DOCUMENT_OPENED', 'DOCUMENT_RECIPIENT_COMPLETED', 'DOCUMENT_COMPLETED'])
  })

  step('envelopes.create with authOptions and globalAccessAuth; recipients.createMany and envelopes.update with methods', async () => {
    const { id } = await sdk.envelopes.create({
      payload: {
        title: 'Verified signers',
        type: 'DOCUMENT',
        globalAccessAuth: ['TWO_FACTOR_AUTH'],
        globalActionAuth: ['PASSWORD'],
        recipients: [
          { email: 'vi@example.com', name: 'Vi', role: 'SIGNER', actionAuth: ['PASSKEY', 'TWO_FACTOR_AUTH'] },
          { email: 'no@example.com', name: 'No', role: 'SIGNER', actionAuth: ['EXPLICIT_NONE'] },
        ],
      },
      files: [{ fileName: 'verified.pdf', content: new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }) }],
    })
    const e = await sdk.envelopes.get({ envelopeId: id })
    expect(e.authOptions).toEqual({ globalAccessAuth: ['TWO_FACTOR_AUTH'], globalActionAuth: ['PASSWORD'] })
    expect(e.recipients.map((r) => r.authOptions)).toEqual([
      { accessAuth: [], actionAuth: ['PASSKEY', 'TWO_FACTOR_AUTH'] },
      { accessAuth: [], actionAuth: ['EXPLICIT_NONE'] },
    ])
    const added = await sdk.envelopes.recipients.createMany({ envelopeId: id, data: [{ email: 'ac@example.com', name: 'Ac', role: 'SIGNER', accessAuth: ['ACCOUNT'] }] })
    expect(added.data[0]!.authOptions).toEqual({ accessAuth: ['ACCOUNT'], actionAuth: [] })
    const updated = await sdk.envelopes.update({ envelopeId: id, data: { globalAccessAuth: [], globalActionAuth: ['ACCOUNT'] } })
    expect(updated.authOptions).toEqual({ globalAccessAuth: [], globalActionAuth: ['ACCOUNT'] })
  })

  step('envelopes.delete', async () => {
    const res = await sdk.envelopes.delete({ envelopeId: templateId })
    expect(res.success).toBe(true)
  })

  step('embedding.embeddingPresignCreateEmbeddingPresignToken', async () => {
    const res = await sdk.embedding.embeddingPresignCreateEmbeddingPresignToken({ expiresIn: 60, scope: `envelopeId:${envelopeId}` })
    expect(typeof res.token).toBe('string')
  })
})
