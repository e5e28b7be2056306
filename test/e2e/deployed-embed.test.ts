// The deployed service's own embed library, `@documenso/embed-react`, unmodified, on a customer's
// page (another origin) against our host: what a customer who never switched libraries sees.
// That library sends the nested `features` form, keys such as `user` and `folderId`, no
// `parentOrigin` (so our pages post to '*'), and does not check event.origin.
import type { FrameLocator, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { pdfFile } from './support/pdf.js'
import { sendDocument, sig, signing } from './support/sign.js'
import { callback, createEnvelope, events, mountDeployed, shot, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { editor } from './support/ui.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const hostOrigin = () => new URL(stack.host.url).origin
const wire = (page: Page) => page.evaluate(() => window.messages.map((m) => ({ origin: m.origin, data: m.data as any })))

/** The options the frame was opened with, decoded from its address's hash. */
async function frameOptions(page: Page): Promise<Record<string, unknown>> {
  const url = new URL(page.frames().find((f) => f !== page.mainFrame())!.url())
  return JSON.parse(decodeURIComponent(atob(url.hash.slice(1))))
}

/** The editor is up once its first step's heading is there. */
const editorReady = (frame: FrameLocator) => frame.getByRole('heading', { level: 2 }).waitFor()

describe('@documenso/embed-react against our authoring pages', () => {
  test('EmbedCreateEnvelopeV2 with a presign token: the user creates a document, onEnvelopeCreated({envelopeId})', async () => {
    const { page, frame } = await mountDeployed(stack, 'EmbedCreateEnvelopeV2', {
      presignToken: await stack.presign(),
      type: 'DOCUMENT',
      externalId: 'crm-77',
      user: { name: 'Ann Author', email: 'ann@example.com' },
      folderId: 'folder_1',
    })
    await editorReady(frame)
    const sent = await frameOptions(page)
    expect(sent).toMatchObject({ type: 'DOCUMENT', externalId: 'crm-77', folderId: 'folder_1' })
    expect(sent).not.toHaveProperty('parentOrigin')

    const ui = editor(page, frame)
    await ui.addFiles([await pdfFile('Lease.pdf', 1)])
    await expect.poll(() => frame.getByTestId('file-row').count()).toBe(1)
    await ui.step(/Recipients/).click()
    await ui.addRecipient('Tom Tenant', 'tom@example.com')
    await ui.step(/Fields/).click()
    await ui.placeByClick('Signature', 0, 1, 0.4, 0.85)
    await ui.step(/Settings/).click()
    await frame.getByLabel('Title').fill('Lease 2026')
    await frame.getByRole('button', { name: 'Create document' }).first().click()

    const created = await callback(page, 'onEnvelopeCreated')
    expect(created).toEqual({ envelopeId: expect.stringMatching(/^envelope_/), externalId: 'crm-77' })
    await frame.getByText('Document created').waitFor()
    await shot(page, 'deployed-create-done')

    // Without a parentOrigin our page posts to '*': the messages reach this other origin.
    const messages = await wire(page)
    expect(new Set(messages.map((m) => m.origin))).toEqual(new Set([hostOrigin()]))
    expect(messages.map((m) => m.data.type)).toEqual(expect.arrayContaining(['embed-ready', 'envelope-created']))

    const env = await stack.api('GET', `/envelope/${created.envelopeId}`)
    expect(env).toMatchObject({ type: 'DOCUMENT', title: 'Lease 2026', externalId: 'crm-77' })
    expect(env.recipients.map((r: any) => r.email)).toEqual(['tom@example.com'])
    expect(env.fields).toHaveLength(1)
    await page.close()
  })

  test('nested features on create hide what they turn off; unknown groups and keys are ignored', async () => {
    const { page, frame } = await mountDeployed(stack, 'EmbedCreateEnvelopeV2', {
      presignToken: await stack.presign(),
      type: 'DOCUMENT',
      features: {
        general: { allowConfigureEnvelopeTitle: false, allowPreviewStep: false, minimizeLeftSidebar: true },
        settings: {
          allowConfigureLanguage: false,
          allowConfigureTimezone: false,
          allowConfigureDistribution: false,
          allowConfigureExpirationPeriod: false,
          allowConfigureEmailSender: false,
        },
        actions: { allowAttachments: false },
        envelopeItems: { allowUpload: false, allowDelete: false, allowConfigureOrder: false, allowConfigureTitle: false, allowReplace: false },
        recipients: { allowConfigureSigningOrder: false, allowViewerRole: false, allowCCerRole: false },
        somethingNew: { anything: [1, 2] },
      },
    })
    await editorReady(frame)
    expect(await frame.getByRole('alert').count()).toBe(0)
    const ui = editor(page, frame)

    // Files: the first file can still be uploaded (a new envelope needs one), then no more;
    // it cannot be removed, moved or renamed.
    expect(await frame.locator('input[type=file]').getAttribute('multiple')).toBeNull()
    await ui.addFiles([await pdfFile('Policy.pdf', 1)])
    await expect.poll(() => frame.getByTestId('file-row').count()).toBe(1)
    expect(await frame.locator('.dropzone').count()).toBe(0)
    expect(await frame.getByRole('button', { name: 'Remove “Policy”' }).count()).toBe(0)
    expect(await frame.getByRole('button', { name: 'Move “Policy” up' }).count()).toBe(0)
    expect(await frame.getByLabel('File name').getAttribute('readonly')).not.toBeNull()

    // Recipients: no signing order; only the roles left allowed.
    await ui.step(/Recipients/).click()
    await ui.addRecipient('Rita Reader', 'rita@example.com')
    expect(await frame.getByText('Signing order').count()).toBe(0)
    const roles = await frame.getByTestId('recipient-row').getByLabel('Role').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))
    expect(roles).toEqual(['SIGNER', 'APPROVER', 'ASSISTANT'])
    await ui.step(/Fields/).click()
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.8)

    // Settings: the title is shown but read-only; language, time zone, e-mail and links are gone.
    await ui.step(/Settings/).click()
    const title = frame.getByLabel('Title')
    expect(await title.inputValue()).toBe('Policy')
    expect(await title.getAttribute('readonly')).not.toBeNull()
    expect(await frame.getByLabel('Language for recipients').count()).toBe(0)
    expect(await frame.getByLabel('Time zone').count()).toBe(0)
    expect(await frame.getByText('Communication').count()).toBe(0)
    expect(await frame.getByLabel('E-mail subject').count()).toBe(0)
    expect(await frame.getByRole('button', { name: 'Add link' }).count()).toBe(0)
    // What was left on is still offered.
    expect(await frame.getByLabel('Date format').count()).toBe(1)
    expect(await frame.getByText('Allowed signature types').count()).toBe(1)
    expect(await frame.getByLabel('Redirect after signing').count()).toBe(1)
    await shot(page, 'deployed-features-settings')

    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const { envelopeId } = await callback(page, 'onEnvelopeCreated')
    const env = await stack.api('GET', `/envelope/${envelopeId}`)
    expect(env.title).toBe('Policy')
    expect(env.recipients.map((r: any) => r.role)).toEqual(['SIGNER'])
    await page.close()
  })

  test('EmbedUpdateEnvelopeV2: no upload and recipient step, settings and recipients null; saving fires onEnvelopeUpdated', async () => {
    const created = await createEnvelope(stack, {
      type: 'DOCUMENT',
      title: 'Supply contract',
      files: [await pdfFile('Supply.pdf', 1)],
      recipients: [{ email: 'sam@example.com', name: 'Sam Supplier', role: 'SIGNER' }],
    })
    const { page, frame } = await mountDeployed(stack, 'EmbedUpdateEnvelopeV2', {
      presignToken: await stack.presign({ scope: { kind: 'envelopeId', id: created.id } }),
      envelopeId: created.id,
      externalId: 'crm-88',
      features: { general: { allowUploadAndRecipientStep: false }, settings: null, recipients: null, envelopeItems: null },
    })
    await editorReady(frame)
    const ui = editor(page, frame)
    const steps = await frame.getByRole('navigation').getByRole('button').allTextContents()
    expect(steps.map((s) => s.replace(/^\d/, '').split(/(?=[A-Z])/)[0])).toEqual(['Fields', 'Settings'])
    await ui.fieldsFor('Sam Supplier')
    await ui.placeByClick('Signature', 0, 1, 0.5, 0.8)
    await ui.step(/Settings/).click()
    // settings: null -> none of the configurable settings; the title (general) is still editable.
    for (const label of ['Language for recipients', 'Date format', 'Time zone', 'Redirect after signing', 'E-mail subject'])
      expect(await frame.getByLabel(label).count(), label).toBe(0)
    expect(await frame.getByText('Allowed signature types').count()).toBe(0)
    await frame.getByLabel('Title').fill('Supply contract v2')
    await frame.getByRole('button', { name: 'Save changes' }).first().click()
    expect(await callback(page, 'onEnvelopeUpdated')).toEqual({ envelopeId: created.id, externalId: 'crm-88' })
    const env = await stack.api('GET', `/envelope/${created.id}`)
    expect(env.title).toBe('Supply contract v2')
    expect(env.fields).toHaveLength(1)
    await page.close()
  })

  test('EmbedSignDocument with a recipient token: onDocumentReady, then signing fires onDocumentCompleted({token, documentId, recipientId})', async () => {
    const doc = await sendDocument(stack, {
      title: 'Deployed NDA',
      recipients: [{ email: 'dana@example.com', name: 'Dana', role: 'SIGNER', fields: [sig(10, 80)] }],
    })
    const dana = doc.recipient('dana@example.com')
    const { page, frame } = await mountDeployed(stack, 'EmbedSignDocument', { token: dana.token, name: 'Dana Deployed' })
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    const s = signing(page, frame)
    await s.ready()
    await callback(page, 'onDocumentReady')
    await (await s.drawSignature()).adopt()
    await s.complete()
    const completed = await callback(page, 'onDocumentCompleted')
    expect(completed).toMatchObject({ token: dana.token, documentId: doc.documentId, recipientId: dana.id })
    const names = (await events(page)).map((e) => e.name)
    expect(names.indexOf('onDocumentReady')).toBeLessThan(names.indexOf('onDocumentCompleted'))
    expect(names).not.toContain('onDocumentError')
    expect(new Set((await wire(page)).map((m) => m.origin))).toEqual(new Set([hostOrigin()]))
    expect((await stack.api('GET', `/envelope/${doc.id}`)).status).toBe('COMPLETED')
    expect(errors).toEqual([])
    await page.close()
  })

  test('EmbedCreateDocumentV1 (flat features): onDocumentCreated({documentId, externalId})', async () => {
    const { page, frame } = await mountDeployed(stack, 'EmbedCreateDocumentV1', {
      presignToken: await stack.presign(),
      externalId: 'v1-deployed',
      features: { allowConfigureLanguage: false, allowConfigureCommunication: false },
    })
    await editorReady(frame)
    expect(page.frames()[1]!.url()).toContain('/embed/v1/authoring/document/create')
    const ui = editor(page, frame)
    await ui.addFiles([await pdfFile('Offer.pdf', 1)])
    await ui.step(/Recipients/).click()
    await ui.addRecipient('Client', 'client@example.com')
    // A document's signer needs a signature field before Create.
    await ui.step(/Fields/).click()
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.8)
    await ui.step(/Settings/).click()
    expect(await frame.getByLabel('Language for recipients').count()).toBe(0)
    expect(await frame.getByLabel('E-mail subject').count()).toBe(0)
    expect(await frame.getByLabel('Time zone').count()).toBe(1)
    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const { documentId, externalId } = await callback(page, 'onDocumentCreated')
    expect(externalId).toBe('v1-deployed')
    expect(Number.isSafeInteger(documentId) && documentId > 0).toBe(true)
    const { data } = await stack.api('POST', '/envelope/get-many', { ids: { type: 'documentId', ids: [documentId] } })
    expect(data).toHaveLength(1)
    expect(data[0]).toMatchObject({ type: 'DOCUMENT', title: 'Offer', externalId: 'v1-deployed' })
    await page.close()
  })
  test('EmbedCreateTemplateV1: onTemplateCreated({templateId})', async () => {
    const { page, frame } = await mountDeployed(stack, 'EmbedCreateTemplateV1', { presignToken: await stack.presign(), externalId: 'tpl-deployed' })
    await editorReady(frame)
    expect(page.frames()[1]!.url()).toContain('/embed/v1/authoring/template/create')
    const ui = editor(page, frame)
    await ui.addFiles([await pdfFile('Offer template.pdf', 1)])
    await ui.step(/Recipients/).click()
    await ui.addRecipient('Client', 'client@example.com')
    await ui.step(/Settings/).click()
    await frame.getByRole('button', { name: 'Create template' }).first().click()
    const { templateId, externalId } = await callback(page, 'onTemplateCreated')
    expect(externalId).toBe('tpl-deployed')
    const { data } = await stack.api('POST', '/envelope/get-many', { ids: { type: 'templateId', ids: [templateId] } })
    expect(data[0]).toMatchObject({ type: 'TEMPLATE', externalId: 'tpl-deployed' })
    await page.close()
  })

  for (const type of ['DOCUMENT', 'TEMPLATE'] as const) {
    const [component, kind, done] =
      type === 'DOCUMENT'
        ? (['EmbedUpdateDocumentV1', 'documentId', 'onDocumentUpdated'] as const)
        : (['EmbedUpdateTemplateV1', 'templateId', 'onTemplateUpdated'] as const)
    test(`${component}: ${done}({${kind}})`, async () => {
      const env = await createEnvelope(stack, {
        type,
        title: 'Old title',
        files: [await pdfFile('Form.pdf', 1)],
        recipients: [{ name: 'Ann', email: 'ann@example.com', role: 'SIGNER', fields: [{ identifier: 0, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 80, width: 24, height: 7 }] }],
      })
      const id = Number(env.secondaryId.split('_')[1])
      const { page, frame } = await mountDeployed(stack, component, { presignToken: await stack.presign({ scope: { kind, id } }), [kind]: id })
      await editorReady(frame)
      expect(page.frames()[1]!.url()).toContain(`/embed/v1/authoring/${type.toLowerCase()}/edit/${id}`)
      const ui = editor(page, frame)
      await ui.step(/Settings/).click()
      await frame.getByLabel('Title').fill('New title')
      await frame.getByRole('button', { name: 'Save changes' }).first().click()
      expect(await callback(page, done)).toMatchObject({ [kind]: id })
      expect((await stack.api('GET', `/envelope/${env.id}`)).title).toBe('New title')
      await page.close()
    })
  }
})
