// Every action of the editor without a mouse: focus and keys only.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { callback, mount, shot, startStack, type Stack } from './support/stack.js'
import { pdfFile } from './support/pdf.js'
import { editor } from './support/ui.js'

let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(() => stack?.close())

test('create a document with the keyboard alone', async () => {
  const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT', style: { height: '860px' } })
  const ui = editor(page, frame)
  const press = async (locator: ReturnType<typeof frame.locator>, key = 'Enter') => {
    await locator.focus()
    await page.keyboard.press(key)
  }
  await callback(page, 'onReady')

  // The file picker opens from a button; the chosen files arrive as from the dialog.
  const chooser = page.waitForEvent('filechooser')
  await press(frame.getByRole('button', { name: 'Choose files' }))
  await (await chooser).setFiles([await pdfFile('First.pdf', 1), await pdfFile('Second.pdf', 1)])
  await expect.poll(() => frame.getByTestId('file-row').count()).toBe(2)
  await press(frame.getByRole('button', { name: 'Move “Second” up' }))
  expect(await frame.getByLabel('File name').first().inputValue()).toBe('Second')
  await press(frame.getByRole('button', { name: 'Remove “First”' }), ' ')
  await expect.poll(() => frame.getByTestId('file-row').count()).toBe(1)
  // The envelope was named after its first file; that file is gone, so is the name.
  expect(await frame.locator('.doc-title').textContent()).toBe('Second')

  await press(frame.getByRole('button', { name: 'Continue' }))
  await press(frame.getByRole('button', { name: 'Add recipient' }))
  // The new row's name field has the focus.
  await page.keyboard.type('Kim Keys')
  await page.keyboard.press('Tab')
  await page.keyboard.type('kim@example.com')
  await page.keyboard.press('Tab')
  await page.keyboard.press('ArrowDown') // role: the next option after "Needs to sign"
  await press(frame.getByLabel('One after another, in the order listed'), ' ')

  await press(ui.step(/Fields/))
  await ui.page(0, 1).waitFor()
  await ui.page(0, 1).focus()
  await press(frame.getByRole('button', { name: 'Signature', exact: true }))
  const field = frame.getByRole('button', { name: /^Signature for Kim Keys, page 1/ })
  await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true)
  for (let n = 0; n < 4; n++) await page.keyboard.press('Shift+ArrowDown')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('Alt+ArrowRight')
  // A second field, removed again with Delete.
  await press(frame.getByRole('button', { name: 'Date', exact: true }))
  await page.keyboard.press('Delete')
  await expect.poll(() => frame.getByTestId('field-box').count()).toBe(1)
  // Set the label and required flag of the remaining field from the inspector.
  await field.focus()
  await frame.getByLabel('Label').focus()
  await page.keyboard.type('Sign here')
  await press(frame.getByLabel('Required'), ' ')
  await shot(page, 'keyboard-fields')

  await press(ui.step(/Settings/))
  await frame.getByLabel('Title').focus()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type('Typed without a mouse')
  await press(frame.getByRole('button', { name: 'Create document' }).first())
  const { envelopeId } = await callback(page, 'onEnvelopeCreated')

  const env = await stack.api('GET', `/envelope/${envelopeId}`)
  expect(env.title).toBe('Typed without a mouse')
  expect(env.documentMeta.signingOrder).toBe('SEQUENTIAL')
  expect(env.envelopeItems.map((i: any) => i.title)).toEqual(['Second'])
  expect(env.recipients).toEqual([expect.objectContaining({ name: 'Kim Keys', email: 'kim@example.com', role: 'APPROVER', signingOrder: 1 })])
  // Added at the centre (24 x 7 at 50 %, 15 %), then 4 x 5 % down, 0.5 % left, 0.5 % wider.
  expect(env.fields).toEqual([
    expect.objectContaining({ type: 'SIGNATURE', page: 1, positionX: 37.5, positionY: 31.5, width: 24.5, height: 7, fieldMeta: expect.objectContaining({ label: 'Sign here', required: false }) }),
  ])
  await page.close()
})
