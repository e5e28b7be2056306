// axe-core (WCAG 2.2 A and AA, target size included) finds no serious or critical violation on
// the signing page in each of its states, the authoring steps in their frame, /verify and the
// landing page, on a desktop and a phone.
import { afterAll, expect } from 'vitest'
import { makeUser, TEST_PASSWORD } from '../support/console-client.js'
import { axeReport, axeViolations } from './support/axe.js'
import { pdfFile } from './support/pdf.js'
import { apiBytes, checkbox, DESKTOP, openPage, PHONE, sendDocument, sig, signing, signShot, text } from './support/sign.js'
import { callback, mount, SAFETY_NET, type Stack, startStack, tallShot } from './support/stack.js'
import { test } from './support/fixtures.js'
import { editor } from './support/ui.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const sizes = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const

/** Every state's violations, by state, so one run lists all there are to fix. */
function recorder() {
  const found: string[] = []
  return {
    check: async (state: string, target: Parameters<typeof axeViolations>[0]) => {
      const report = axeReport(state, await axeViolations(target))
      if (report) found.push(report)
    },
    found,
  }
}

const choice = (type: 'RADIO' | 'DROPDOWN', label: string, options: string[], x: number, y: number) => ({
  type, page: 1, positionX: x, positionY: y, width: 30, height: 6, fieldMeta: { type: type.toLowerCase(), label, required: false, options },
})

/** The file the signing test had sealed, for /verify. */
let sealed: Buffer

for (const [size, viewport] of sizes) {
  test(`signing page, each dialog and the completed screen (${size})`, async () => {
    const email = `ada-${size}@example.com`
    const doc = await sendDocument(stack, {
      title: `Lease ${size}`,
      recipients: [{
        email, name: 'Ada Lovelace', role: 'SIGNER',
        fields: [sig(10, 70), text('City', 10, 10), checkbox('Extras', ['Parking'], 10, 20), choice('RADIO', 'Floor', ['Ground', 'First'], 10, 30), choice('DROPDOWN', 'Term', ['One year', 'Two years'], 10, 40)],
      }],
    })
    const { page, context } = await openPage(stack, doc.recipient(email).signingUrl, viewport)
    const { check, found } = recorder()
    const s = signing(page)
    await s.ready()
    await check('first view', page)

    await s.field('Signature').click()
    const sigDialog = page.getByRole('dialog', { name: 'Your signature' })
    await sigDialog.getByRole('tab', { name: 'Draw', selected: true }).waitFor()
    await check('signature dialog, Draw', page)
    await sigDialog.getByRole('tab', { name: 'Type' }).click()
    await check('signature dialog, Type', page)
    await signShot(page, `a11y-signature-type-${size}`)
    await sigDialog.getByRole('tab', { name: 'Upload' }).click()
    await check('signature dialog, Upload', page)
    await sigDialog.getByRole('tab', { name: 'Type' }).click()
    await sigDialog.getByRole('button', { name: 'Adopt and sign' }).click()
    await sigDialog.waitFor({ state: 'detached' })

    for (const label of ['City', 'Extras', 'Floor', 'Term']) {
      await s.field(label).click()
      const dialog = page.getByRole('dialog', { name: label })
      await dialog.waitFor()
      await check(`${label} dialog`, page)
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'detached' })
    }
    await s.typeText('City', 'Leeds')

    await s.rejectButton().click()
    const reject = page.getByRole('dialog', { name: 'Reject the document?' })
    await reject.waitFor()
    await check('reject dialog', page)
    // Without a reason it says what is missing, in the dialog.
    await reject.getByRole('button', { name: 'Reject document' }).click()
    await reject.getByText('Say why you reject the document.').waitFor()
    await check('reject dialog with its error', page)
    await reject.getByRole('button', { name: 'Cancel' }).click()

    await s.action('Complete signing').click()
    const confirm = page.getByRole('dialog', { name: 'Sign the document?' })
    await confirm.waitFor()
    await check('complete dialog', page)
    await confirm.getByRole('button', { name: 'Complete signing', exact: true }).click()
    await expect.poll(() => s.heading().textContent()).toBe(`You signed “Lease ${size}”`)
    await check('completed screen', page)
    // Once sealed, the screen offers the signed file.
    await page.getByTestId('downloads').waitFor({ timeout: SAFETY_NET })
    await check('completed screen with the signed file', page)
    await signShot(page, `a11y-signed-${size}`)
    await context.close()

    sealed = (await apiBytes(stack, `/envelope/item/${doc.itemId}/download`)).bytes
    expect(found.join('\n')).toBe('')
  })

  test(`/verify, empty and with a result, and the landing page (${size})`, async () => {
    const { check, found } = recorder()
    const page = await stack.browser.newPage({ viewport })
    await page.goto(`${stack.host.url}/verify`)
    await check('/verify', page)
    await page.getByTestId('verify-file').setInputFiles({ name: 'lease.pdf', mimeType: 'application/pdf', buffer: sealed })
    await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('The seal is intact')
    await check('/verify with a result', page)
    await page.goto(`${stack.host.url}/`)
    await check('landing page', page)
    await page.close()
    expect(found.join('\n')).toBe('')
  })

  test(`verified signer: the access code step and the password dialog (${size})`, async () => {
    const email = `vera-${size}@example.com`
    await makeUser(stack.host.db, email)
    const gated = await sendDocument(stack, {
      title: `Deed ${size}`,
      recipients: [{ email, name: 'Vera Verified', role: 'SIGNER', fields: [sig(10, 80)], accessAuth: ['TWO_FACTOR_AUTH'] } as never],
    })
    const confirmed = await sendDocument(stack, {
      title: `Loan ${size}`,
      recipients: [
        { email, name: 'Vera Verified', role: 'SIGNER', fields: [sig(10, 80)], actionAuth: ['PASSWORD'] } as never,
        { email: `otto-${size}@example.com`, name: 'Otto Other', role: 'SIGNER', fields: [sig(50, 80)] },
      ],
    })
    const { check, found } = recorder()
    const { page, context } = await openPage(stack, gated.recipient(email).signingUrl, viewport)
    await page.getByTestId('auth-gate').waitFor()
    await check('access code step', page)
    await page.goto(confirmed.recipient(email).signingUrl)
    const s = signing(page)
    await s.ready()
    await s.typeSignature()
    await s.complete()
    await page.getByTestId('auth-action').getByTestId('auth-password').waitFor()
    await check('password dialog', page)
    await signShot(page, `a11y-password-${size}`)
    await page.getByTestId('auth-password').fill(TEST_PASSWORD)
    await page.getByTestId('auth-action').getByTestId('auth-confirm').click()
    // Signed while another signer is still to act: the screen offers the original.
    await page.getByTestId('sign-done').waitFor()
    await check('signed, waiting for others', page)
    await context.close()
    expect(found.join('\n')).toBe('')
  })

  test(`authoring steps in the frame (${size})`, async () => {
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT', style: { height: '860px' } }, viewport)
    const ui = editor(page, frame)
    const { check, found } = recorder()
    await callback(page, 'onReady')
    await check('files step', frame)
    await ui.addFiles([await pdfFile('Lease.pdf', 1)])
    await frame.getByTestId('file-row').waitFor()
    await check('files step with a file', frame)
    await frame.getByRole('button', { name: 'Continue' }).click()
    await ui.addRecipient('Kim Keys', 'kim@example.com')
    await check('recipients step', frame)
    await ui.step(/Fields/).click()
    await ui.page(0, 1).waitFor()
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.3)
    await frame.getByLabel('Label').waitFor()
    await check('fields step, a field selected', frame)
    await tallShot(page, `a11y-fields-${size}`)
    await ui.step(/Settings/).click()
    await check('settings step', frame)
    await frame.getByRole('button', { name: 'Create document' }).first().click()
    await callback(page, 'onEnvelopeCreated')
    await check('done screen', frame)
    expect(found.join('\n')).toBe('')
    await page.close()
  })
}
