// Conditional fields and formulas on the signing pages (host/shared/field-logic): fields a tick
// shows and makes required, a total computed live and stored, and a condition that reads what an
// earlier signer stored (the session's logicFields); a page whose request is rewritten (a forged
// total, a required field left out) refused by the host, and the sealed file stamping its values.
import { afterAll, describe, expect } from 'vitest'
import type { FrameLocator, Page } from 'playwright-core'
import { axeReport, axeViolations } from './support/axe.js'
import { apiBytes, checkbox, DESKTOP, openPage, PHONE, sendDocument, sig, signing, signShot, text, type FieldIn } from './support/sign.js'
import { callback, mountDeployed, startStack, type Stack } from './support/stack.js'
import { makePdf } from './support/pdf.js'
import { test } from './support/fixtures.js'
import { pdfText } from '../support/pdf-signature.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const number = (label: string, x: number, y: number, extra: Record<string, unknown> = {}): FieldIn => ({
  type: 'NUMBER', page: 1, positionX: x, positionY: y, width: 25, height: 4, fieldMeta: { type: 'number', label, required: true, ...extra },
})
const shownWhenChecked = (label: string) => ({ effect: 'show', match: 'all', rules: [{ field: label, test: 'checked' }] })
const withMeta = (f: FieldIn, meta: Record<string, unknown>): FieldIn => ({ ...f, fieldMeta: { ...f.fieldMeta, ...meta } })

const progress = (page: Page) => page.getByTestId('progress').textContent()
const total = (page: Page | FrameLocator) => page.getByRole('note', { name: /^Total, calculated automatically: / })
/** What the total shows ("= 7.5" on the page, "7.5" to a screen reader). */
const totalShown = async (page: Page | FrameLocator) => (await total(page).textContent())?.replace(/^=/, '')

/** Opens a checkbox field and sets its options to exactly these. */
async function tick(s: ReturnType<typeof signing>, label: string, on: boolean) {
  await s.field(label).click()
  const dialog = s.scope.getByRole('dialog', { name: label })
  await dialog.getByRole('checkbox', { name: 'Yes' }).setChecked(on)
  await dialog.getByRole('button', { name: 'Save' }).click()
  await dialog.waitFor({ state: 'detached' })
}

async function typeNumber(s: ReturnType<typeof signing>, label: string, value: string) {
  await s.field(label).click()
  const dialog = s.scope.getByRole('dialog', { name: label })
  await dialog.getByRole('textbox', { name: label }).fill(value)
  await dialog.getByRole('button', { name: 'Save' }).click()
  await dialog.waitFor({ state: 'detached' })
}

function companyOrder() {
  return sendDocument(stack, {
    title: 'Order with logic',
    recipients: [{
      email: 'cora@example.com', name: 'Cora Customer', role: 'SIGNER',
      fields: [
        checkbox('For a company', ['Yes'], 10, 12),
        withMeta(text('Company name', 50, 12), { condition: shownWhenChecked('For a company') }),
        number('Quantity', 10, 30),
        number('Price', 40, 30),
        number('Total', 70, 30, { required: false, formula: '{Quantity} * {Price}' }),
        number('Per item', 70, 40, { required: false, formula: '{Total} / {Quantity}' }),
        withMeta(text('Private reference', 10, 50, false), { condition: { effect: 'hide', match: 'all', rules: [{ field: 'For a company', test: 'checked' }] } }),
        sig(10, 80),
      ],
    }],
  })
}

describe('conditions and formulas on the signing page', () => {
  test('a tick shows a required field and unticking hides it; the total follows the quantities and is stored', async () => {
    const doc = await companyOrder()
    const { page, context, errors } = await openPage(stack, doc.recipient('cora@example.com').signingUrl)
    const s = signing(page)
    await s.ready()

    // Before the tick: no company name on the page, nor in the count; the total reads 0, the
    // average cannot be computed (division by zero) and says so. A private reference is typed.
    expect(await page.locator('[data-field]').count()).toBe(7)
    expect(await s.field('Company name').count()).toBe(0)
    expect(await progress(page)).toBe('Required fields: 0 of 3')
    expect(await totalShown(page)).toBe('0')
    expect(await total(page).getAttribute('aria-label')).toBe('Total, calculated automatically: 0')
    const perItem = page.getByRole('note', { name: /^Per item, calculated automatically: / })
    expect(await perItem.getAttribute('aria-label')).toBe('Per item, calculated automatically: Cannot divide by zero')
    expect(await perItem.getAttribute('data-computed')).toBe('error')

    await s.typeText('Private reference', 'REF-9')

    await tick(s, 'For a company', true)
    await expect.poll(() => s.field('Company name').count()).toBe(1)
    expect(await s.field('Company name').getAttribute('aria-label')).toBe('Company name, required, not filled in')
    expect(await s.field('Private reference').count()).toBe(0)
    expect(await progress(page)).toBe('Required fields: 0 of 4')
    await expect.poll(() => page.getByTestId('logic-news').textContent()).toBe('Company name is now shown and required. Private reference is no longer needed.')
    expect(await s.action('Complete signing').textContent()).toContain('4 left')
    await signShot(page, 'sign-logic-company-shown')
    expect(axeReport('a field a condition showed (1280)', await axeViolations(page))).toBe('')

    // Unticked: it goes again, and the count with it; ticked again, it comes back empty-handed.
    await tick(s, 'For a company', false)
    await expect.poll(() => s.field('Company name').count()).toBe(0)
    expect(await progress(page)).toBe('Required fields: 0 of 3')
    await expect.poll(() => page.getByTestId('logic-news').textContent()).toBe('Company name is no longer needed. Private reference is now shown.')
    // What was typed in it is still there; hidden again, it is not sent.
    expect(await s.field('Private reference').getAttribute('aria-label')).toBe('Private reference, optional, filled in: REF-9')
    await tick(s, 'For a company', true)
    await expect.poll(() => progress(page)).toBe('Required fields: 0 of 4')

    // The formula follows the quantities as they change; it is never opened for typing.
    await typeNumber(s, 'Quantity', '2')
    await typeNumber(s, 'Price', '2,5')
    await expect.poll(() => totalShown(page)).toBe('5')
    await typeNumber(s, 'Quantity', '3')
    await expect.poll(() => totalShown(page)).toBe('7.5')
    expect(await perItem.getAttribute('aria-label')).toBe('Per item, calculated automatically: 2.5')
    await total(page).click()
    expect(await page.getByRole('dialog').count()).toBe(0)
    expect(await page.getByRole('button', { name: /^Total, / }).count()).toBe(0)

    // The signature and the company are still to come: Complete leads to them rather than to the confirmation.
    await (await s.drawSignature()).adopt()
    expect(await progress(page)).toBe('Required fields: 3 of 4')
    await s.action('Complete signing').click()
    await expect.poll(() => page.getByTestId('notice').textContent()).toBe('Fill in 1 more required field first.')
    expect(await page.getByRole('dialog').count()).toBe(0)
    await s.typeText('Company name', 'Acme Ltd')
    await expect.poll(() => progress(page)).toBe('All required fields are filled')
    await signShot(page, 'sign-logic-filled')

    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Order with logic”')

    const after = await stack.api('GET', `/envelope/${doc.id}`)
    const stored = Object.fromEntries(after.fields.map((f: any) => [f.fieldMeta?.label ?? f.type, f]))
    expect(stored.Total).toMatchObject({ inserted: true, customText: '7.5' })
    expect(stored['Per item']).toMatchObject({ inserted: true, customText: '2.5' })
    expect(stored['Company name']).toMatchObject({ inserted: true, customText: 'Acme Ltd' })
    expect(stored.Quantity.customText).toBe('3')
    expect(JSON.parse(stored['For a company'].customText)).toEqual(['Yes'])
    expect(stored['Private reference']).toMatchObject({ inserted: false, customText: '' })

    expect(errors).toEqual([])
    await context.close()
  })

  test("a tampered page: the host refuses a forged total and a skipped required field; the sealed file shows the server's values", async () => {
    const doc = await companyOrder()
    const { page, context } = await openPage(stack, doc.recipient('cora@example.com').signingUrl)
    const s = signing(page)
    await s.ready()
    await tick(s, 'For a company', true)
    await expect.poll(() => s.field('Company name').count()).toBe(1)
    await typeNumber(s, 'Quantity', '3')
    await typeNumber(s, 'Price', '2,5')
    await s.typeText('Company name', 'Acme Ltd')
    await (await s.drawSignature()).adopt()
    await expect.poll(() => progress(page)).toBe('All required fields are filled')

    // The page's request rewritten on its way, as a signer editing the page would: the host decides.
    const session = await stack.api('GET', `/envelope/${doc.id}`)
    const idOf = (label: string) => session.fields.find((f: any) => f.fieldMeta?.label === label).id
    const tamper = async (change: (fields: { id: number; value: unknown }[]) => { id: number; value: unknown }[], refused: RegExp) => {
      await page.route('**/api/signing/complete', (route) => {
        const body = JSON.parse(route.request().postData()!)
        return route.continue({ postData: JSON.stringify({ ...body, fields: change(body.fields) }) })
      })
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/signing/complete'))
      await s.complete()
      const res = await answered
      expect(res.status()).toBe(400)
      expect(JSON.stringify(await res.json())).toMatch(refused)
      await expect.poll(async () => (await page.getByRole('alert').allTextContents()).join(' ')).toContain('This could not be completed')
      await page.unroute('**/api/signing/complete')
      await page.keyboard.press('Escape')
    }
    await tamper((fields) => fields.map((f) => (f.id === idOf('Total') ? { ...f, value: '100' } : f)), /"Total\\"\) is computed: its value is 7.5, not 100/)
    await tamper((fields) => fields.filter((f) => f.id !== idOf('Company name')), /is required/)
    expect((await stack.api('GET', `/envelope/${doc.id}`)).recipients[0].signingStatus).toBe('NOT_SIGNED')

    // The page as served: signed, and the sealed file stamps the server's total.
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Order with logic”')
    let sealed = await apiBytes(stack, `/envelope/item/${doc.itemId}/download`)
    await expect.poll(async () => (sealed = await apiBytes(stack, `/envelope/item/${doc.itemId}/download`)).status, { timeout: 120_000 }).toBe(200)
    const [first] = await pdfText(new Uint8Array(sealed.bytes))
    for (const shown of ['7.5', '2.5', 'Acme Ltd']) expect(first).toContain(shown)
    expect(first).not.toContain('100')
    await context.close()
  })

  test('on a phone: the shown field and the total fit, and axe finds nothing', async () => {
    const doc = await companyOrder()
    const { page, context, errors } = await openPage(stack, doc.recipient('cora@example.com').signingUrl, PHONE)
    const s = signing(page)
    await s.ready()
    await tick(s, 'For a company', true)
    await expect.poll(() => s.field('Company name').count()).toBe(1)
    await typeNumber(s, 'Quantity', '3')
    await typeNumber(s, 'Price', '2.5')
    await expect.poll(() => totalShown(page)).toBe('7.5')
    await s.field('Company name').scrollIntoViewIfNeeded()
    await signShot(page, 'sign-logic-phone')
    expect(axeReport('a field a condition showed (390)', await axeViolations(page))).toBe('')
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    expect(errors).toEqual([])
    await context.close()
  })

  test("a second signer's field follows what the first one stored, and learns nothing else of theirs", async () => {
    const doc = await sendDocument(stack, {
      title: 'Shipping form',
      meta: { signingOrder: 'SEQUENTIAL' },
      recipients: [
        {
          email: 'ana@example.com', name: 'Ana First', role: 'SIGNER', signingOrder: 1,
          fields: [checkbox('Ship abroad', ['Yes'], 10, 12), text('Private note', 50, 12), sig(10, 80)],
        },
        {
          email: 'ben@example.com', name: 'Ben Second', role: 'SIGNER', signingOrder: 2,
          fields: [
            withMeta(text('Customs number', 10, 30), { condition: shownWhenChecked('Ship abroad') }),
            withMeta(text('Local depot', 50, 30, false), { condition: { effect: 'hide', match: 'all', rules: [{ field: 'Ship abroad', test: 'checked' }] } }),
            sig(10, 60),
          ],
        },
      ],
    })
    const ana = doc.recipient('ana@example.com')
    const ben = doc.recipient('ben@example.com')
    const checkboxId = doc.envelope.fields.find((f: any) => f.fieldMeta?.label === 'Ship abroad').id

    const first = await openPage(stack, ana.signingUrl)
    const a = signing(first.page)
    await a.ready()
    await tick(a, 'Ship abroad', true)
    await a.typeText('Private note', 'Only for the sender')
    await (await a.drawSignature()).adopt()
    await a.complete()
    await expect.poll(() => a.heading().textContent()).toBe('You signed “Shipping form”')
    await first.context.close()

    // The second signer's session carries the first one's checkbox, and only it.
    const session = await (await fetch(`${stack.host.url}/api/signing/session`, { headers: { Authorization: `Bearer ${ben.token}` } })).json()
    expect(session.logicFields).toEqual([{ id: checkboxId, type: 'CHECKBOX', fieldMeta: { label: 'Ship abroad', options: ['Yes'] }, value: '["Yes"]' }])
    expect(JSON.stringify(session)).not.toContain('Only for the sender')

    const second = await openPage(stack, ben.signingUrl, DESKTOP)
    const b = signing(second.page)
    await b.ready()
    expect(await b.field('Customs number').getAttribute('aria-label')).toBe('Customs number, required, not filled in')
    expect(await b.field('Local depot').count()).toBe(0)
    expect(await progress(second.page)).toBe('Required fields: 0 of 2')
    await b.typeText('Customs number', 'CU-778')
    await (await b.drawSignature()).adopt()
    await b.field('Customs number').scrollIntoViewIfNeeded()
    await signShot(second.page, 'sign-logic-second-signer')
    await b.complete()
    await expect.poll(() => b.heading().textContent()).toBe('You signed “Shipping form”')

    const after = await stack.api('GET', `/envelope/${doc.id}`)
    const byLabel = Object.fromEntries(after.fields.map((f: any) => [f.fieldMeta?.label ?? f.type, f]))
    expect(byLabel['Customs number']).toMatchObject({ inserted: true, customText: 'CU-778' })
    expect(byLabel['Local depot'].inserted).toBe(false)
    expect(second.errors).toEqual([])
    await second.context.close()
  })

  test('a direct link: the visitor sees the same logic, and the made document stores the computed fee', async () => {
    const form = new FormData()
    form.append('payload', JSON.stringify({
      type: 'TEMPLATE',
      title: 'Club dinner',
      meta: { signingOrder: 'SEQUENTIAL' },
      recipients: [
        { email: 'host@example.com', name: 'Host', role: 'SIGNER', signingOrder: 2, fields: [number('Discount', 10, 60, { required: false }), sig(55, 80)] },
        {
          email: 'guest@example.com', name: 'Guest', role: 'SIGNER', signingOrder: 1,
          fields: [
            checkbox('Bring guests', ['Yes'], 10, 12),
            withMeta(number('Guests', 50, 12), { condition: shownWhenChecked('Bring guests') }),
            number('Total', 10, 30, { required: false, formula: '{Guests} * 10 - {Discount}' }),
            sig(10, 80),
          ],
        },
      ],
    }))
    form.append('files', new Blob([new Uint8Array(await makePdf('Club dinner', 1))], { type: 'application/pdf' }), 'Club dinner.pdf')
    const { id } = await stack.api<{ id: string }>('POST', '/envelope/create', form)
    const template = await stack.api('GET', `/envelope/${id}`)
    const guest = template.recipients.find((r: any) => r.email === 'guest@example.com')
    const link = await stack.api('POST', '/template/direct/create', { templateId: Number(template.secondaryId.split('_')[1]), directRecipientId: guest.id })

    // The other recipient's field the formula reads comes along, with no value yet.
    const session = await (await fetch(`${stack.host.url}/api/signing/direct/session`, { headers: { Authorization: `Bearer ${link.token}` } })).json()
    const discountId = template.fields.find((f: any) => f.fieldMeta?.label === 'Discount').id
    expect(session.logicFields).toEqual([{ id: discountId, type: 'NUMBER', fieldMeta: { label: 'Discount' }, value: null }])

    const { page, context, errors } = await openPage(stack, `${stack.host.url}/d/${link.token}`)
    const s = signing(page)
    await s.ready()
    expect(await s.field('Guests').count()).toBe(0)
    await tick(s, 'Bring guests', true)
    await expect.poll(() => s.field('Guests').count()).toBe(1)
    await typeNumber(s, 'Guests', '2')
    await expect.poll(() => totalShown(page)).toBe('20')
    await (await s.drawSignature()).adopt()
    await s.action('Complete signing').click()
    const dialog = page.getByRole('dialog', { name: 'Sign the document?' })
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Gina Guest')
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('gina@example.com')
    await dialog.getByRole('button', { name: 'Complete signing', exact: true }).click()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Club dinner”')

    const docs = await stack.api('GET', '/envelope?perPage=100')
    const made = docs.data.find((d: any) => d.source === 'TEMPLATE_DIRECT_LINK' && d.recipients.some((r: any) => r.email === 'gina@example.com'))
    const doc = await stack.api('GET', `/envelope/${made.id}`)
    const byLabel = Object.fromEntries(doc.fields.map((f: any) => [f.fieldMeta?.label ?? f.type, f]))
    expect(byLabel.Total).toMatchObject({ inserted: true, customText: '20' })
    expect(byLabel.Guests).toMatchObject({ inserted: true, customText: '2' })
    expect(errors).toEqual([])
    await context.close()
  })

  test('the multi-sign embed: the same page in its frame', async () => {
    const doc = await companyOrder()
    const { page, frame } = await mountDeployed(stack, 'unstable_EmbedMultiSignDocument', { tokens: [doc.recipient('cora@example.com').token], name: 'Cora Customer' })
    const list = frame.getByTestId('multi-list')
    await list.waitFor()
    await list.getByRole('button', { name: 'Sign' }).click()
    const s = signing(page, frame)
    await s.ready()
    expect(await s.field('Company name').count()).toBe(0)
    await tick(s, 'For a company', true)
    await expect.poll(() => s.field('Company name').count()).toBe(1)
    await s.typeText('Company name', 'Beta GmbH')
    await typeNumber(s, 'Quantity', '4')
    await typeNumber(s, 'Price', '1.25')
    await expect.poll(() => totalShown(frame)).toBe('5')
    await (await s.drawSignature()).adopt()
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Order with logic”')
    await callback(page, 'onDocumentCompleted')
    const after = await stack.api('GET', `/envelope/${doc.id}`)
    const byLabel = Object.fromEntries(after.fields.map((f: any) => [f.fieldMeta?.label ?? f.type, f]))
    expect(byLabel.Total).toMatchObject({ inserted: true, customText: '5' })
    expect(byLabel['Company name']).toMatchObject({ inserted: true, customText: 'Beta GmbH' })
  })
})
