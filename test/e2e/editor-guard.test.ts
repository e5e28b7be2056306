// The editor guards the work: what the service would refuse is said inline, in the user's
// language, before Create; Create is stopped only by that; a refusal keeps everything.
import { afterAll, describe, expect } from 'vitest'
import { pdfFile } from './support/pdf.js'
import { callback, createEnvelope, events, mount, shot, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { editor } from './support/ui.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const callbackCount = async (page: import('playwright-core').Page, name: string) => (await events(page)).filter((e) => e.name === name).length
const count = async () => (await stack.api<{ data: unknown[] }>('GET', '/envelope?perPage=100')).data.length

async function toFields(type: 'DOCUMENT' | 'TEMPLATE', o: { language?: string; email?: string } = {}) {
  const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type, language: o.language, style: { height: '860px' } })
  const ui = editor(page, frame)
  await callback(page, 'onReady')
  await ui.addFiles([await pdfFile('Consulting agreement.pdf', 2)])
  await expect.poll(() => frame.getByTestId('file-row').count()).toBe(1)
  await frame.locator('.step-footer .btn-secondary').click()
  await ui.addRecipient('Sam Signer', o.email ?? 'sam@example.com')
  await frame.locator('.step-footer .btn-secondary').click()
  await ui.page(0, 1).waitFor()
  return { page, frame, ui }
}

describe('the editor guards the work', () => {
  test('a signer without a signature field is marked as the user works, and Create waits for it', async () => {
    const before = await count()
    const { page, frame, ui } = await toFields('DOCUMENT')
    const chip = frame.locator('.recipient-chip', { hasText: 'Sam Signer' })
    await expect.poll(() => chip.textContent()).toContain('No signature field yet')
    await ui.placeByClick('Date', 0, 1, 0.6, 0.8)
    await shot(page, 'guard-01-unsigned')
    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const alert = frame.getByRole('alert')
    await expect.poll(() => alert.textContent()).toContain('Every signer needs a signature field')
    expect(await frame.getByRole('heading', { level: 2 }).textContent()).toBe('Fields')
    expect(await count()).toBe(before)
    // Fixing it clears the mark and the message, and Create goes through with everything kept.
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.8)
    await expect.poll(() => chip.textContent()).not.toContain('No signature field yet')
    await expect.poll(() => alert.count()).toBe(0)
    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const { envelopeId } = await callback(page, 'onEnvelopeCreated')
    const env = await stack.api('GET', `/envelope/${envelopeId}`)
    expect(env.fields.map((f: any) => f.type).sort()).toEqual(['DATE', 'SIGNATURE'])
    // What was created can be sent.
    await stack.api('POST', '/envelope/distribute', { envelopeId })
    await page.close()
  })

  test('in the user\'s language, also when editing a stored draft', async () => {
    const env = await createEnvelope(stack, {
      type: 'DOCUMENT', title: 'Vertrag', files: [await pdfFile('Vertrag.pdf', 1)],
      recipients: [{ name: 'Sam Signer', email: 'sam@example.com', role: 'SIGNER', fields: [{ identifier: 0, type: 'DATE', page: 1, positionX: 60, positionY: 80, width: 16, height: 4 }] }],
    })
    const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
    const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, onlyEditFields: true, language: 'de', style: { height: '860px' } })
    await callback(page, 'onReady')
    await expect.poll(() => frame.locator('.recipient-chip', { hasText: 'Sam Signer' }).textContent()).toContain('Noch kein Signaturfeld')
    await frame.locator('.topbar .btn-primary').click()
    await expect.poll(() => frame.getByRole('alert').textContent()).toContain('Jede unterzeichnende Person braucht ein Signaturfeld')
    expect(await callbackCount(page, 'onEnvelopeUpdated')).toBe(0)
    await page.close()
  })

  test('a template is not blocked: its signature fields can come before it is used', async () => {
    const { page, frame } = await toFields('TEMPLATE')
    await expect.poll(() => frame.locator('.recipient-chip', { hasText: 'Sam Signer' }).textContent()).toContain('No signature field yet')
    await frame.getByRole('button', { name: 'Create template' }).first().click()
    const { envelopeId } = await callback(page, 'onEnvelopeCreated')
    expect((await stack.api('GET', `/envelope/${envelopeId}`)).type).toBe('TEMPLATE')
    await page.close()
  })

  test('a refusal by the service keeps the draft, with a short message', async () => {
    const before = await count()
    // An address the page's check lets through and the service refuses.
    const { page, frame, ui } = await toFields('DOCUMENT', { email: 'sam@example..com' })
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.8)
    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const alert = frame.getByRole('alert')
    await expect.poll(() => alert.textContent()).toMatch(/^The service did not accept it \([A-Z_]+\)\. Your work is kept/)
    // In view, under the top bar, and the step it concerns is marked.
    const box = (await alert.boundingBox())!
    expect(box.y).toBeGreaterThan((await frame.locator('.topbar').boundingBox())!.y + 40)
    expect(await frame.getByRole('navigation').getByRole('button', { name: /Recipients/ }).getAttribute('data-invalid')).toBe('true')
    await shot(page, 'guard-02-refused')
    // Nothing is lost: the file, the recipient and the field are all there, nothing was stored.
    expect(await frame.getByTestId('field-box').count()).toBe(1)
    await frame.getByRole('navigation').getByRole('button', { name: /Recipients/ }).click()
    expect(await frame.getByTestId('recipient-row').getByLabel('E-mail').inputValue()).toBe('sam@example..com')
    await frame.getByRole('navigation').getByRole('button', { name: /Files/ }).click()
    expect(await frame.getByTestId('file-row').count()).toBe(1)
    expect(await count()).toBe(before)
    await page.close()
  })
})

describe('the fields step at embed widths', () => {
  for (const width of [1280, 800, 640, 390]) {
    test(`${width} px: the page is in view beside the tools (a compact tool bar on phones)`, async () => {
      const env = await createEnvelope(stack, {
        type: 'DOCUMENT', title: 'Widths', files: [await pdfFile('Widths.pdf', 2)],
        recipients: [
          { name: 'Sam Signer', email: 'sam@example.com', role: 'SIGNER', fields: [{ identifier: 0, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 12, width: 24, height: 7 }] },
          { name: 'Ann Approver', email: 'ann@example.com', role: 'APPROVER', fields: [] },
        ],
      })
      const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
      const height = width < 640 ? 844 : 800
      // The frame is `width` wide: the parent page pads it by 16 px on each side.
      const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, style: { height: `${height}px` } }, { width: width + 32, height: height + 32 })
      const ui = editor(page, frame)
      await callback(page, 'onReady')
      await ui.step(/Fields/).click()
      const first = ui.page(0, 1)
      await first.locator('canvas').waitFor()
      const [tools, pdf, iframe] = [(await frame.locator('.tools').boundingBox())!, (await first.boundingBox())!, (await page.locator('iframe').boundingBox())!]
      expect(Math.round(iframe.width)).toBe(width)
      if (width >= 640) {
        // Beside: the page starts right of the tools, at the same height, and is at least 300 px wide.
        expect(pdf.x).toBeGreaterThanOrEqual(tools.x + tools.width)
        expect(pdf.width).toBeGreaterThan(300)
      } else {
        // A compact bar: a few rows, the page right under it.
        expect(tools.height).toBeLessThan(200)
        expect(pdf.width).toBeGreaterThan(300)
      }
      // Without scrolling inside the frame, a good part of the page is visible.
      expect(iframe.y + iframe.height - pdf.y).toBeGreaterThan(250)
      // Placing a field works at this width.
      await ui.fieldsFor('Ann Approver')
      await ui.placeByClick('Text', 0, 1, 0.6, 0.3)
      await expect.poll(() => frame.getByTestId('field-box').count()).toBe(2)
      await shot(page, `fields-${width}`)
      await page.close()
    })
  }
})
