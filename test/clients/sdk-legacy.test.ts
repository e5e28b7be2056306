import { Documenso } from '@documenso/sdk-typescript'
import { describe, expect, newTeam, test } from '../host/fixtures.js'
import { makePdf, type TestHost } from '../host/support.js'
import { step } from './support.js'

/**
 * The deployed service's TypeScript SDK on the deprecated v2 routes: legacy documents and
 * templates (`/document/...`, `/template/...`, numeric ids, `pageNumber`/`pageX`/`pageY`), driven
 * through a lifecycle as a customer's older integration would. Each call resolving without the
 * SDK's ResponseValidationError is the test.
 * Not here (docs/api-notes.md, "Compatibility with the deployed clients"):
 * - `documents.download` (GET /document/{id}/download): SDK 0.9.1 accepts only a JSON answer, while
 *   the download is the PDF itself, as its replacement's is in API v2.
 * - `documents.createV0` (POST /document/create/beta) and `template.templateCreateTemplateTemporary`
 *   (POST /template/create/beta): JSON without a file, answered with an upload URL; this host has
 *   no upload URLs, so both take the multipart form and refuse JSON (400).
 * Database: the embedded one (the clients' view of the API; SQL is held on both in test/host).
 */
describe('@documenso/sdk-typescript legacy documents and templates against the host', () => {
  let host: TestHost
  let sdk: Documenso
  let pdf: Uint8Array
  const file = (name: string) => ({ fileName: name, content: new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }) })

  // Shared through the lifecycle, in order.
  let documentId = 0
  let envelopeId = ''
  let recipientIds: number[] = []
  let fieldIds: number[] = []
  let attachmentId = ''
  let templateId = 0
  let templateRecipientIds: number[] = []
  let templateFieldIds: number[] = []

  // The worker's host: everything here is the team's own.
  test.beforeAll(async ({ hosts }) => {
    host = await hosts.on('pglite')
    const { token } = await newTeam(host, { name: 'Legacy customer', plan: 'enterprise' })
    sdk = new Documenso({ serverURL: host.apiUrl, apiKey: token })
    pdf = await makePdf(2)
  })

  // ---- documents ---------------------------------------------------------------------------

  step('documents.create (multipart payload + file, legacy field names)', async () => {
    const res = await sdk.documents.create({
      payload: {
        title: 'Legacy contract',
        externalId: 'legacy-1',
        recipients: [
          { email: 'ana@example.com', name: 'Ana', role: 'SIGNER', fields: [{ type: 'SIGNATURE', pageNumber: 1, pageX: 10, pageY: 10, width: 20, height: 5 }] },
        ],
      },
      file: file('contract.pdf'),
    })
    expect(typeof res.id).toBe('number')
    expect(res.envelopeId).toMatch(/^envelope_/)
    documentId = res.id
    envelopeId = res.envelopeId
  })

  step('documents.get', async () => {
    const d = await sdk.documents.get({ documentId })
    expect(d.id).toBe(documentId)
    expect(d.envelopeId).toBe(envelopeId)
    expect(d.title).toBe('Legacy contract')
    expect(d.recipients).toHaveLength(1)
    expect(d.fields).toHaveLength(1)
    expect(d.fields[0]!.page).toBe(1)
    expect(d.documentData.data).toBe(`/api/v2/envelope/item/${d.envelopeItems[0]!.id}/download`)
    recipientIds = d.recipients.map((r) => r.id)
    fieldIds = d.fields.map((f) => f.id)
  })

  step('documents.find', async () => {
    const page = await sdk.documents.find({ page: 1, perPage: 10 })
    expect(page.count).toBe(1)
    expect(page.totalPages).toBe(1)
    expect(page.data.map((d) => d.id)).toEqual([documentId])
  })

  step('document.documentGetMany', async () => {
    const res = await sdk.document.documentGetMany({ documentIds: [documentId] })
    expect(res.data.map((d) => d.id)).toEqual([documentId])
  })

  step('documents.update', async () => {
    const d = await sdk.documents.update({ documentId, data: { title: 'Legacy contract v2' }, meta: { subject: 'Please sign' } })
    expect(d.title).toBe('Legacy contract v2')
  })

  step('documents.recipients.create', async () => {
    const r = await sdk.documents.recipients.create({ documentId, recipient: { email: 'bo@example.com', name: 'Bo', role: 'SIGNER' } })
    expect(r.email).toBe('bo@example.com')
    recipientIds.push(r.id)
  })

  step('documents.recipients.createMany', async () => {
    const res = await sdk.documents.recipients.createMany({
      documentId,
      recipients: [
        { email: 'cy@example.com', name: 'Cy', role: 'APPROVER' },
        { email: 'di@example.com', name: 'Di', role: 'CC' },
      ],
    })
    expect(res.recipients.map((r) => r.email)).toEqual(['cy@example.com', 'di@example.com'])
    recipientIds.push(...res.recipients.map((r) => r.id))
  })

  step('documents.recipients.get', async () => {
    const r = await sdk.documents.recipients.get({ recipientId: recipientIds[0]! })
    expect(r.email).toBe('ana@example.com')
  })

  step('documents.recipients.update', async () => {
    const r = await sdk.documents.recipients.update({ documentId, recipient: { id: recipientIds[1]!, name: 'Bo Lima' } })
    expect(r.name).toBe('Bo Lima')
  })

  step('documents.recipients.updateMany', async () => {
    const res = await sdk.documents.recipients.updateMany({ documentId, recipients: [{ id: recipientIds[2]!, name: 'Cy Rocha' }] })
    expect(res.recipients[0]!.name).toBe('Cy Rocha')
  })

  step('documents.recipients.delete', async () => {
    await sdk.documents.recipients.delete({ recipientId: recipientIds[3]! })
    recipientIds = recipientIds.slice(0, 3)
  })

  step('documents.fields.create (pageNumber, pageX, pageY)', async () => {
    const f = await sdk.documents.fields.create({
      documentId,
      field: { type: 'SIGNATURE', recipientId: recipientIds[1]!, pageNumber: 1, pageX: 10, pageY: 30, width: 20, height: 5 },
    })
    expect(f.page).toBe(1)
    expect(f.recipientId).toBe(recipientIds[1])
    fieldIds.push(f.id)
  })

  step('documents.fields.createMany', async () => {
    const res = await sdk.documents.fields.createMany({
      documentId,
      fields: [
        { type: 'TEXT', recipientId: recipientIds[0]!, pageNumber: 2, pageX: 10, pageY: 50, width: 20, height: 5, fieldMeta: { type: 'text', label: 'Note' } },
        { type: 'DATE', recipientId: recipientIds[0]!, pageNumber: 1, pageX: 40, pageY: 50, width: 20, height: 5 },
      ],
    })
    expect(res.fields.map((f) => f.page)).toEqual([2, 1])
    fieldIds.push(...res.fields.map((f) => f.id))
  })

  step('documents.fields.get', async () => {
    const f = await sdk.documents.fields.get({ fieldId: fieldIds[0]! })
    expect(f.type).toBe('SIGNATURE')
    expect(typeof f.secondaryId).toBe('string')
  })

  step('documents.fields.update', async () => {
    const f = await sdk.documents.fields.update({ documentId, field: { type: 'SIGNATURE', id: fieldIds[1]!, pageX: 15 } })
    expect(Number(f.positionX)).toBe(15)
  })

  step('documents.fields.updateMany', async () => {
    const res = await sdk.documents.fields.updateMany({ documentId, fields: [{ type: 'TEXT', id: fieldIds[2]!, pageNumber: 1 }] })
    expect(res.fields[0]!.page).toBe(1)
  })

  step('documents.fields.delete', async () => {
    await sdk.documents.fields.delete({ fieldId: fieldIds[3]! })
    fieldIds = fieldIds.slice(0, 3)
  })

  step('documents.attachments create, find, update, delete', async () => {
    const { id } = await sdk.documents.attachments.create({ documentId, data: { label: 'Terms', data: 'https://example.com/terms' } })
    const found = await sdk.documents.attachments.find({ documentId })
    expect(found.data.map((a) => a.id)).toEqual([id])
    attachmentId = id
    await sdk.documents.attachments.update({ id: attachmentId, data: { label: 'Terms v2', data: 'https://example.com/terms2' } })
    expect((await sdk.documents.attachments.find({ documentId })).data[0]!.label).toBe('Terms v2')
    await sdk.documents.attachments.delete({ id: attachmentId })
    expect((await sdk.documents.attachments.find({ documentId })).data).toHaveLength(0)
  })

  step('documents.duplicate', async () => {
    const res = await sdk.documents.duplicate({ documentId })
    expect(res.id).toMatch(/^envelope_/)
    expect(res.documentId).not.toBe(documentId)
  })

  step('documents.distribute', async () => {
    const d = await sdk.documents.distribute({ documentId, meta: { subject: 'Sign, please' } })
    expect(d.status).toBe('PENDING')
  })

  step('documents.redistribute', async () => {
    const res = await sdk.documents.redistribute({ documentId, recipients: [recipientIds[0]!] })
    expect(res.success).toBe(true)
  })

  step('document.documentDownload (download-beta: a URL)', async () => {
    const res = await sdk.document.documentDownload({ documentId, version: 'original' })
    expect(res.contentType).toBe('application/pdf')
    expect(res.downloadUrl).toMatch(/\/envelope\/item\/.+\/download\?version=original$/)
  })

  // ---- templates ---------------------------------------------------------------------------

  step('templates.create (multipart payload + file)', async () => {
    const res = await sdk.templates.create({ payload: { title: 'Legacy template', externalId: 'tpl-1' }, file: file('template.pdf') })
    expect(typeof res.id).toBe('number')
    expect(res.envelopeId).toMatch(/^envelope_/)
    templateId = res.id
  })

  step('templates.recipients.create, createMany', async () => {
    const r = await sdk.templates.recipients.create({ templateId, recipient: { email: 'role1@example.com', name: 'First', role: 'SIGNER' } })
    const many = await sdk.templates.recipients.createMany({
      templateId,
      recipients: [
        { email: 'role2@example.com', name: 'Second', role: 'SIGNER' },
        { email: 'role3@example.com', name: 'Third', role: 'CC' },
      ],
    })
    templateRecipientIds = [r.id, ...many.recipients.map((x) => x.id)]
    expect(templateRecipientIds).toHaveLength(3)
  })

  step('templates.recipients.get, update, updateMany, delete', async () => {
    expect((await sdk.templates.recipients.get({ recipientId: templateRecipientIds[0]! })).name).toBe('First')
    expect((await sdk.templates.recipients.update({ templateId, recipient: { id: templateRecipientIds[0]!, name: 'Primary' } })).name).toBe('Primary')
    const res = await sdk.templates.recipients.updateMany({ templateId, recipients: [{ id: templateRecipientIds[1]!, name: 'Secondary' }] })
    expect(res.recipients[0]!.name).toBe('Secondary')
    await sdk.templates.recipients.delete({ recipientId: templateRecipientIds[2]! })
    templateRecipientIds = templateRecipientIds.slice(0, 2)
  })

  step('templates.fields.create, createMany', async () => {
    const f = await sdk.templates.fields.create({
      templateId,
      field: { type: 'SIGNATURE', recipientId: templateRecipientIds[0]!, pageNumber: 1, pageX: 10, pageY: 10, width: 20, height: 5 },
    })
    const many = await sdk.templates.fields.createMany({
      templateId,
      fields: [
        { type: 'SIGNATURE', recipientId: templateRecipientIds[1]!, pageNumber: 1, pageX: 10, pageY: 40, width: 20, height: 5 },
        { type: 'TEXT', recipientId: templateRecipientIds[1]!, pageNumber: 2, pageX: 10, pageY: 60, width: 20, height: 5, fieldMeta: { type: 'text', label: 'Company' } },
      ],
    })
    templateFieldIds = [f.id, ...many.fields.map((x) => x.id)]
    expect(many.fields.map((x) => x.page)).toEqual([1, 2])
  })

  step('templates.fields.get, update, updateMany, delete', async () => {
    expect((await sdk.templates.fields.get({ fieldId: templateFieldIds[0]! })).type).toBe('SIGNATURE')
    expect(Number((await sdk.templates.fields.update({ templateId, field: { type: 'SIGNATURE', id: templateFieldIds[0]!, pageY: 12 } })).positionY)).toBe(12)
    const res = await sdk.templates.fields.updateMany({ templateId, fields: [{ type: 'SIGNATURE', id: templateFieldIds[1]!, pageX: 11 }] })
    expect(Number(res.fields[0]!.positionX)).toBe(11)
    await sdk.templates.fields.delete({ fieldId: templateFieldIds[2]! })
    templateFieldIds = templateFieldIds.slice(0, 2)
  })

  step('templates.get', async () => {
    const t = await sdk.templates.get({ templateId })
    expect(t.id).toBe(templateId)
    expect(t.title).toBe('Legacy template')
    expect(t.recipients.map((r) => r.id)).toEqual(templateRecipientIds)
    expect(t.fields).toHaveLength(2)
    expect(t.type).toBe('PRIVATE')
    expect(t.templateMeta.templateId).toBe(templateId)
    expect(t.directLink ?? null).toBeNull()
  })

  step('templates.find', async () => {
    const page = await sdk.templates.find({ page: 1, perPage: 10 })
    expect(page.count).toBe(1)
    expect(page.data.map((t) => t.id)).toEqual([templateId])
  })

  step('template.templateGetMany', async () => {
    const res = await sdk.template.templateGetMany({ templateIds: [templateId] })
    expect(res.data.map((t) => t.id)).toEqual([templateId])
  })

  step('templates.update', async () => {
    const t = await sdk.templates.update({ templateId, data: { title: 'Legacy template v2' }, meta: { subject: 'From the template' } })
    expect(t.title).toBe('Legacy template v2')
  })

  step('templates.duplicate', async () => {
    const t = await sdk.templates.duplicate({ templateId })
    expect(t.id).not.toBe(templateId)
    expect(t.title).toBe('Legacy template v2 (copy)')
  })

  step('templates.directLink create, toggle, delete', async () => {
    const link = await sdk.templates.directLink.create({ templateId, directRecipientId: templateRecipientIds[0]! })
    expect(link.templateId).toBe(templateId)
    expect(link.directTemplateRecipientId).toBe(templateRecipientIds[0])
    expect(link.enabled).toBe(true)
    expect((await sdk.templates.get({ templateId })).directLink?.token).toBe(link.token)
    const off = await sdk.templates.directLink.toggle({ templateId, enabled: false })
    expect(off.enabled).toBe(false)
    expect((await sdk.templates.directLink.delete({ templateId })).success).toBe(true)
  })

  step('templates.use', async () => {
    const d = await sdk.templates.use({
      templateId,
      externalId: 'from-template',
      recipients: [
        { id: templateRecipientIds[0]!, email: 'eve@example.com', name: 'Eve' },
        { id: templateRecipientIds[1]!, email: 'fay@example.com', name: 'Fay' },
      ],
      distributeDocument: true,
    })
    expect(d.status).toBe('PENDING')
    expect(d.recipients.map((r) => r.email)).toEqual(['eve@example.com', 'fay@example.com'])
    expect(d.templateId).toBe(templateId)
  })

  step('templates.delete', async () => {
    expect((await sdk.templates.delete({ templateId })).success).toBe(true)
    expect((await sdk.templates.find({})).data.map((t) => t.id)).not.toContain(templateId)
  })

  step('documents.delete', async () => {
    expect((await sdk.documents.delete({ documentId })).success).toBe(true)
    expect((await sdk.documents.find({})).data.map((d) => d.id)).not.toContain(documentId)
  })
})
