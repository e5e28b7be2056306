// Every action of the editor without a mouse: focus and keys only.
import type { Locator, Page } from 'playwright-core'
import { afterAll, expect } from 'vitest'
import { callback, mount, shot, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { pdfFile } from './support/pdf.js'
import { checkbox, openPage, sendDocument, sig, signing, signShot, text } from './support/sign.js'
import { editor } from './support/ui.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
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

/** Presses Tab until `target` has the focus (as a person tabs through the page), and checks its focus ring shows. */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let n = 0; n < max; n++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((el) => el === document.activeElement)) {
      expect(await target.evaluate((el) => el.matches(':focus-visible') && getComputedStyle(el).outlineStyle !== 'none')).toBe(true)
      return
    }
  }
  throw new Error(`${target} is not reached with Tab`)
}

const focused = (target: Locator) => target.evaluate((el) => el === document.activeElement)

test('sign a document with the keyboard alone', async () => {
  const email = 'kai@example.com'
  const doc = await sendDocument(stack, {
    title: 'Signed by keys',
    recipients: [{ email, name: 'Kai Keys', role: 'SIGNER', fields: [sig(10, 20), text('City', 10, 40), checkbox('Extras', ['Parking', 'Storage'], 10, 55)] }],
  })
  const { page, context, errors } = await openPage(stack, doc.recipient(email).signingUrl)
  const s = signing(page)
  await s.ready()

  // The signature: the dialog opens on its Draw tab; the arrow key moves to Type, where the name is typed.
  await tabTo(page, s.field('Signature'))
  await page.keyboard.press('Enter')
  const sigDialog = page.getByRole('dialog', { name: 'Your signature' })
  await expect.poll(() => focused(sigDialog.getByRole('tab', { name: 'Draw', selected: true }))).toBe(true)
  await page.keyboard.press('ArrowRight')
  await expect.poll(() => focused(sigDialog.getByRole('tab', { name: 'Type', selected: true }))).toBe(true)
  await page.keyboard.press('Tab')
  const name = sigDialog.getByRole('textbox', { name: 'Type your name' })
  expect(await focused(name)).toBe(true)
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type('Kai K. Keys')
  await tabTo(page, sigDialog.getByRole('button', { name: 'Adopt and sign' }))
  await signShot(page, 'keyboard-sign-signature')
  await page.keyboard.press('Enter')
  await sigDialog.waitFor({ state: 'detached' })
  // Focus goes back to the field that opened the dialog.
  expect(await focused(page.getByRole('button', { name: /^Signature, required, signed/ }))).toBe(true)

  // A text field: typed into the field the dialog focuses, Enter saves.
  await tabTo(page, s.field('City'))
  await page.keyboard.press('Enter')
  const city = page.getByRole('dialog', { name: 'City' })
  await expect.poll(() => focused(city.getByRole('textbox', { name: 'City' }))).toBe(true)
  await page.keyboard.type('Leeds')
  await page.keyboard.press('Enter')
  await city.waitFor({ state: 'detached' })

  // A checkbox: Escape closes the dialog without a change and gives focus back; Space ticks.
  await tabTo(page, s.field('Extras'))
  await page.keyboard.press('Enter')
  const extras = page.getByRole('dialog', { name: 'Extras' })
  await expect.poll(() => focused(extras.getByRole('checkbox', { name: 'Parking' }))).toBe(true)
  await page.keyboard.press('Escape')
  await extras.waitFor({ state: 'detached' })
  expect(await focused(s.field('Extras'))).toBe(true)
  await page.keyboard.press('Enter')
  await expect.poll(() => focused(extras.getByRole('checkbox', { name: 'Parking' }))).toBe(true)
  // Tab stays in the open dialog: the page behind is out of reach (past the last control the
  // browser's own bar has the focus, with nothing of the page focused).
  for (let n = 0; n < 6; n++) {
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement === document.body || !!document.activeElement?.closest('dialog[open]'))).toBe(true)
  }
  await tabTo(page, extras.getByRole('checkbox', { name: 'Parking' }))
  await page.keyboard.press('Space')
  await tabTo(page, extras.getByRole('button', { name: 'Save' }))
  await page.keyboard.press('Enter')
  await extras.waitFor({ state: 'detached' })

  await tabTo(page, s.action('Complete signing'))
  await page.keyboard.press('Enter')
  const confirm = page.getByRole('dialog', { name: 'Sign the document?' })
  // The confirming button has the focus: Enter signs.
  await expect.poll(() => focused(confirm.getByRole('button', { name: 'Complete signing', exact: true }))).toBe(true)
  await page.keyboard.press('Enter')
  await expect.poll(() => s.heading().textContent()).toBe('You signed “Signed by keys”')
  await signShot(page, 'keyboard-sign-done')

  const envelope = await stack.api('GET', `/envelope/${doc.id}`)
  expect(envelope.status).toBe('COMPLETED')
  const values = Object.fromEntries(envelope.fields.map((f: any) => [f.type, f]))
  expect(values.TEXT).toMatchObject({ inserted: true, customText: 'Leeds' })
  expect(JSON.parse(values.CHECKBOX.customText)).toEqual(['Parking'])
  expect(values.SIGNATURE.customText).toMatch(/^data:image\/png;base64,/)
  expect(errors).toEqual([])
  await context.close()
})
