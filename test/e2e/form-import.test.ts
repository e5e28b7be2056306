/**
 * A PDF's own form fields in the authoring editor (EmbedCreateEnvelope) in Chromium: two form PDFs
 * (pdf-lib's, LibreOffice's) added, the fields step asks once per file; one file's fields are
 * used for a recipient, one given to another in the inspector, the other file's ignored; what the
 * API stores is what was offered. axe-core and screenshots of the question at 1280 and 390 px.
 * On the embedded database only: the fields are written by the create every other test holds.
 */
import { readFile } from 'node:fs/promises'
import { afterAll, describe, expect } from 'vitest'
import { axeReport, axeViolations } from './support/axe.js'
import { callback, frameShot, mount, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { editor } from './support/ui.js'
import { everyKind, LIBREOFFICE_FORM } from '../host/form-files/forms.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const pdf = (name: string, bytes: Uint8Array) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) })

describe('form fields in the editor', () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    test(`asked once per file, used for one recipient, one given to another, the other file ignored (${viewport.width} px)`, async () => {
      const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT', style: { height: '860px' } }, viewport)
      const ui = editor(page, frame)
      await callback(page, 'onReady')
      await ui.addFiles([pdf('Order.pdf', await everyKind()), pdf('Supplier.pdf', await readFile(LIBREOFFICE_FORM))])
      await expect.poll(() => frame.getByTestId('file-row').count()).toBe(2)
      await frame.getByRole('button', { name: 'Continue' }).click()
      await ui.addRecipient('Alice Example', 'alice@example.com')
      await ui.addRecipient('Bob Example', 'bob@example.com', 'APPROVER')
      await frame.getByRole('button', { name: 'Continue' }).click()

      // The first file's question, for the recipient fields are placed for.
      const question = frame.getByRole('region', { name: 'Order has 5 form fields of its own.' })
      await question.waitFor()
      await frameShot(page, `form-import-01-question-${viewport.width}`)
      expect(axeReport(`the form fields question at ${viewport.width}`, await axeViolations(frame))).toBe('')
      await question.getByRole('button', { name: 'Use them for Alice Example' }).click()
      await expect.poll(() => frame.getByTestId('field-box').count()).toBe(5)
      // Then the second file's; ignored, nothing is added and nothing more is asked.
      const second = frame.getByRole('region', { name: 'Supplier has 4 form fields of its own.' })
      await second.getByRole('button', { name: 'Ignore' }).click()
      await expect.poll(() => frame.getByRole('region', { name: /form fields? of its own/ }).count()).toBe(0)
      expect(await frame.getByTestId('field-box').count()).toBe(5)

      // The text field goes to Bob, who approves; Alice signs.
      await frame.getByRole('button', { name: /^Company name for Alice Example, page 1/ }).click()
      await frame.getByLabel('Recipient').selectOption({ label: 'Bob Example' })
      await expect.poll(() => frame.getByRole('button', { name: /^Company name for Bob Example, page 1/ }).count()).toBe(1)
      await ui.fieldsFor('Alice Example')
      await ui.placeByClick('Signature', 0, 1, 0.5, 0.6)
      await frameShot(page, `form-import-02-used-${viewport.width}`)

      await frame.getByRole('button', { name: 'Create document' }).first().click()
      const { envelopeId } = await callback(page, 'onEnvelopeCreated')
      const env = await stack.api('GET', `/envelope/${envelopeId}`)
      const [alice, bob] = env.recipients.map((r: any) => r.id)
      const formFields = env.fields.filter((f: any) => f.type !== 'SIGNATURE')
      expect(Object.fromEntries(formFields.map((f: any) => [f.fieldMeta.label, [f.type, f.recipientId]]))).toEqual({
        'Company name': ['TEXT', bob],
        'I agree': ['CHECKBOX', alice],
        Size: ['RADIO', alice],
        Country: ['DROPDOWN', alice],
        Colours: ['DROPDOWN', alice],
      })
      expect(formFields.find((f: any) => f.type === 'RADIO').fieldMeta.options).toEqual(['Small', 'Large'])
      expect(formFields.find((f: any) => f.type === 'TEXT')).toMatchObject({ page: 1, positionX: 10, positionY: 5, width: 50, height: 5, fieldMeta: { required: true } })
      // Only the first file's fields: the second file's were ignored.
      expect(new Set(env.fields.map((f: any) => f.envelopeItemId))).toEqual(new Set([env.envelopeItems.find((i: any) => i.title === 'Order').id]))
    })
  }
})
