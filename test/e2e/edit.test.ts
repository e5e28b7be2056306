import { afterAll, describe, expect } from 'vitest'
import { callback, createEnvelope, mount, shot, startStack, tallShot, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { pdfFile } from './support/pdf.js'
import { editor } from './support/ui.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

async function contract() {
  return createEnvelope(stack, {
    type: 'DOCUMENT',
    title: 'Lease contract',
    files: [await pdfFile('Lease.pdf', 2)],
    meta: { subject: 'Your lease', signingOrder: 'SEQUENTIAL' },
    recipients: [
      {
        name: 'Tenant', email: 'tenant@example.com', role: 'SIGNER', signingOrder: 1,
        fields: [
          { identifier: 0, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 24, height: 7, fieldMeta: { type: 'signature', label: 'Tenant signs', required: true } },
          { identifier: 0, type: 'DATE', page: 2, positionX: 60, positionY: 70, width: 16, height: 4 },
        ],
      },
      { name: 'Landlord', email: 'landlord@example.com', role: 'APPROVER', signingOrder: 2, fields: [] },
    ],
  })
}

describe('edit an envelope', () => {
  test('prefills everything and saves only what changed', async () => {
    const env = await contract()
    const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
    const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, externalId: 'crm-7', style: { height: '860px' } })
    const ui = editor(page, frame)
    await callback(page, 'onReady')
    await frame.getByText('Edit document').waitFor()
    expect(await frame.getByLabel('File name').inputValue()).toBe('Lease.pdf')
    // Rename the stored file and add a second one.
    await frame.getByLabel('File name').fill('Lease')
    await ui.addFiles([await pdfFile('Annex.pdf', 1)])
    await expect.poll(() => frame.getByTestId('file-row').count()).toBe(2)
    await shot(page, 'edit-01-files')

    // Recipients are prefilled in signing order; rename one, add one.
    await ui.step(/Recipients/).click()
    expect(await frame.getByLabel('One after another, in the order listed').isChecked()).toBe(true)
    expect(await frame.getByLabel('E-mail').nth(1).inputValue()).toBe('landlord@example.com')
    await frame.getByLabel('Name').first().fill('Tenant Smith')
    await ui.addRecipient('Witness', 'witness@example.com', 'CC')
    await shot(page, 'edit-02-recipients')

    // Fields: the stored ones are on their pages; move one with the keyboard, delete another, add one.
    await ui.step(/Fields/).click()
    await expect.poll(() => frame.getByTestId('field-box').count()).toBe(2)
    const signature = frame.getByRole('button', { name: /Tenant signs for Tenant Smith, page 1/ })
    await signature.focus()
    await page.keyboard.press('Shift+ArrowUp')
    await page.keyboard.press('Alt+ArrowRight')
    await frame.getByRole('button', { name: /Date for Tenant Smith, page 2/ }).focus()
    await page.keyboard.press('Delete')
    await ui.fieldsFor('Landlord')
    await ui.placeByClick('Initials', 0, 2, 0.5, 0.9)
    await ui.placeByClick('Text', 1, 1, 0.5, 0.5)
    await tallShot(page, 'edit-03-fields')
    // The inspector shows the Landlord's new field; choosing another recipient lets go of it.
    expect(await frame.locator('#field-recipient option:checked').textContent()).toBe('Landlord')
    await ui.fieldsFor('Tenant Smith')
    await expect.poll(() => frame.locator('#field-recipient').count()).toBe(0)

    await ui.step(/Settings/).click()
    expect(await frame.getByLabel('E-mail subject').inputValue()).toBe('Your lease')
    await frame.getByLabel('Title').fill('Lease contract (signed copy)')

    await frame.getByRole('button', { name: 'Save changes' }).first().click()
    expect(await callback(page, 'onEnvelopeUpdated')).toEqual({ envelopeId: env.id, externalId: 'crm-7' })
    await frame.getByText('Changes saved').waitFor()

    const after = await stack.api('GET', `/envelope/${env.id}`)
    expect(after.title).toBe('Lease contract (signed copy)')
    expect(after.documentMeta.subject).toBe('Your lease')
    expect(after.recipients.map((r: any) => [r.name, r.email, r.role, r.signingOrder])).toEqual([
      ['Tenant Smith', 'tenant@example.com', 'SIGNER', 1],
      ['Landlord', 'landlord@example.com', 'APPROVER', 2],
      ['Witness', 'witness@example.com', 'CC', 3],
    ])
    // Same recipient and field ids where they were kept.
    expect(after.recipients[0].id).toBe(env.recipients[0].id)
    const sig = env.fields.find((f: any) => f.type === 'SIGNATURE')
    expect(after.envelopeItems.map((i: any) => [i.title, i.order])).toEqual([['Lease', 1], ['Annex', 2]])
    expect(after.envelopeItems[0].id).toBe(env.envelopeItems[0].id)
    expect(after.fields.find((f: any) => f.type === 'TEXT')).toMatchObject({ envelopeItemId: after.envelopeItems[1].id, page: 1 })
    expect(after.fields).toHaveLength(3)
    expect(after.fields.find((f: any) => f.type === 'SIGNATURE')).toMatchObject({ id: sig.id, positionX: 10, positionY: 65, width: 24.5, height: 7 })
    const landlord = after.recipients.find((r: any) => r.name === 'Landlord')
    expect(after.fields.find((f: any) => f.type === 'INITIALS')).toMatchObject({ recipientId: landlord.id, page: 2 })
    await page.close()
  })

  test('onlyEditFields opens on the fields step with recipients locked', async () => {
    const env = await contract()
    const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
    const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, onlyEditFields: true, style: { height: '860px' } })
    const ui = editor(page, frame)
    await callback(page, 'onReady')
    expect(await frame.getByRole('heading', { level: 2 }).textContent()).toBe('Fields')
    expect(await ui.step(/Recipients/).count()).toBe(0)
    expect(await ui.step(/Files/).count()).toBe(0)
    expect(await frame.getByRole('button', { name: 'Add recipient' }).count()).toBe(0)
    await frame.getByText('Only the fields of this envelope can be changed here.').waitFor()
    await ui.fieldsFor('Landlord')
    await ui.placeByClick('Signature', 0, 1, 0.7, 0.85)
    await shot(page, 'only-fields')
    await frame.getByRole('button', { name: 'Save changes' }).click()
    expect(await callback(page, 'onEnvelopeUpdated')).toEqual({ envelopeId: env.id })
    const after = await stack.api('GET', `/envelope/${env.id}`)
    expect(after.recipients.map((r: any) => r.email)).toEqual(env.recipients.map((r: any) => r.email))
    expect(after.title).toBe(env.title)
    expect(after.fields).toHaveLength(3)
    // Keep editing reloads the envelope as stored now.
    await frame.getByRole('button', { name: 'Keep editing' }).click()
    await expect.poll(() => frame.getByTestId('field-box').count()).toBe(3)
    expect(await frame.getByRole('heading', { level: 2 }).textContent()).toBe('Fields')
    await page.close()
  })

  test('an envelope sent while it is being edited: Save shows it as sent, with nothing left to save', async () => {
    const env = await contract()
    const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
    const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, style: { height: '860px' } })
    const ui = editor(page, frame)
    await callback(page, 'onReady')
    await ui.step(/Settings/).click()
    // A refusal names the step and the field to fix.
    await frame.getByLabel('Title').fill('L'.repeat(300))
    await frame.getByRole('button', { name: 'Save changes' }).first().click()
    await expect.poll(() => frame.getByRole('alert').textContent()).toContain('Settings, title:')
    expect(await ui.step(/Settings/).getAttribute('data-invalid')).toBe('true')
    await frame.getByLabel('Title').fill('Lease contract v2')
    await stack.api('POST', '/envelope/distribute', { envelopeId: env.id })
    await frame.getByRole('button', { name: 'Save changes' }).first().click()
    await frame.getByTestId('sent-envelope').waitFor()
    expect(await frame.getByTestId('sent-envelope').textContent()).toContain('“Lease contract” was sent')
    expect(await frame.getByRole('button', { name: 'Save changes' }).count()).toBe(0)
    expect((await stack.api('GET', `/envelope/${env.id}`)).title).toBe('Lease contract')
    await shot(page, 'edit-sent')
    await page.close()
    // Opened again, it is shown as sent at once.
    const again = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, style: { height: '860px' } })
    await again.frame.getByTestId('sent-envelope').waitFor()
    expect(await again.frame.getByRole('button', { name: 'Save changes' }).count()).toBe(0)
    await again.page.close()
  })

  test('an envelope that does not exist, or another one than the token allows: NOT_FOUND', async () => {
    const env = await contract()
    const other = await contract()
    const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
    const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: other.id })
    expect(await callback(page, 'onError')).toEqual({ code: 'NOT_FOUND', message: expect.any(String) })
    expect(await frame.getByTestId('error-screen').getAttribute('data-code')).toBe('NOT_FOUND')
    await shot(page, 'error-not-found')
    // The page never says it is ready.
    expect(await page.evaluate(() => window.messages.some((m: any) => m.data?.type === 'embed-ready'))).toBe(false)
    await page.close()
  })
})
