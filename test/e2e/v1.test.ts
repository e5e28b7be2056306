import { afterAll, describe, expect } from 'vitest'
import { callback, createEnvelope, events, frameShot, mount, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { pdfFile } from './support/pdf.js'
import { editor } from './support/ui.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const legacy = (secondaryId: string) => Number(secondaryId.split('_')[1])

async function fill(page: import('playwright-core').Page, frame: import('playwright-core').FrameLocator) {
  const ui = editor(page, frame)
  await ui.addFiles([await pdfFile('Offer.pdf', 1)])
  await ui.step(/Recipients/).click()
  await ui.addRecipient('Client', 'client@example.com')
  await ui.step(/Fields/).click()
  await ui.placeByClick('Signature', 0, 1, 0.4, 0.85)
}

async function stored(kind: 'documentId' | 'templateId', id: number) {
  const { data } = await stack.api('POST', '/envelope/get-many', { ids: { type: kind, ids: [id] } })
  expect(data).toHaveLength(1)
  return stack.api('GET', `/envelope/${data[0].id}`)
}

describe('the v1 routes answer with legacy numeric ids', () => {
  test('EmbedCreateDocumentV1 -> onDocumentCreated({documentId})', async () => {
    const { page, frame } = await mount(stack, 'EmbedCreateDocumentV1', { presignToken: await stack.presign(), externalId: 'v1-doc' })
    await callback(page, 'onReady')
    expect(page.frames()[1]!.url()).toContain('/embed/v1/authoring/document/create')
    await fill(page, frame)
    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const { documentId, externalId } = await callback(page, 'onDocumentCreated')
    expect(externalId).toBe('v1-doc')
    expect(Number.isSafeInteger(documentId) && documentId > 0).toBe(true)
    const env = await stored('documentId', documentId)
    expect(env).toMatchObject({ type: 'DOCUMENT', title: 'Offer', externalId: 'v1-doc' })
    expect(env.fields).toHaveLength(1)
    await page.close()
  })

  test('EmbedCreateTemplateV1 -> onTemplateCreated({templateId})', async () => {
    const { page, frame } = await mount(stack, 'EmbedCreateTemplateV1', { presignToken: await stack.presign() })
    await callback(page, 'onReady')
    await frame.getByText('New template').waitFor()
    await fill(page, frame)
    await frame.getByRole('button', { name: 'Create template' }).first().click()
    const { templateId } = await callback(page, 'onTemplateCreated')
    const env = await stored('templateId', templateId)
    expect(env.type).toBe('TEMPLATE')
    expect(legacy(env.secondaryId)).toBe(templateId)
    await page.close()
  })

  for (const type of ['DOCUMENT', 'TEMPLATE'] as const) {
    const [component, kind, done] =
      type === 'DOCUMENT'
        ? (['EmbedUpdateDocumentV1', 'documentId', 'onDocumentUpdated'] as const)
        : (['EmbedUpdateTemplateV1', 'templateId', 'onTemplateUpdated'] as const)
    test(`${component} -> ${done}({${kind}})`, async () => {
      const env = await createEnvelope(stack, {
        type,
        title: 'Old title',
        files: [await pdfFile('Form.pdf', 1)],
        recipients: [{ name: 'Ann', email: 'ann@example.com', role: 'APPROVER', fields: [] }],
      })
      const id = legacy(env.secondaryId)
      const token = await stack.presign({ scope: { kind, id } })
      const { page, frame } = await mount(stack, component, { presignToken: token, [kind]: id })
      const ui = editor(page, frame)
      await callback(page, 'onReady')
      expect(page.frames()[1]!.url()).toContain(`/embed/v1/authoring/${type.toLowerCase()}/edit/${id}`)
      await ui.step(/Fields/).click()
      await ui.placeByClick('E-mail', 0, 1, 0.5, 0.5)
      await ui.step(/Settings/).click()
      expect(await frame.getByLabel('Title').inputValue()).toBe('Old title')
      await frame.getByLabel('Title').fill('New title')
      await frame.getByRole('button', { name: 'Save changes' }).first().click()
      expect(await callback(page, done)).toEqual({ [kind]: id })
      const after = await stack.api('GET', `/envelope/${env.id}`)
      expect(after.title).toBe('New title')
      expect(after.fields).toEqual([expect.objectContaining({ type: 'EMAIL' })])
      await frameShot(page, `v1-${type.toLowerCase()}-updated`)
      expect((await events(page)).filter((e) => e.name === 'onError')).toEqual([])
      await page.close()
    })
  }

  test('a legacy id of the other kind is NOT_FOUND', async () => {
    const env = await createEnvelope(stack, { type: 'TEMPLATE', title: 'T', files: [await pdfFile('T.pdf', 1)], recipients: [] })
    const id = legacy(env.secondaryId)
    const { page } = await mount(stack, 'EmbedUpdateDocumentV1', { presignToken: await stack.presign(), documentId: id + 1000 })
    expect((await callback(page, 'onError')).code).toBe('NOT_FOUND')
    await page.close()
  })
})
