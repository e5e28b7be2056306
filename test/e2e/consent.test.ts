// Consent to sign electronically before the first action, on every signing surface: the signing
// page, EmbedSignDocument, a template's direct link and EmbedMultiSignDocument; on a phone too.
// Until the recipient agrees, a field does not open and the action does not start.
import type { FrameLocator, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { axeReport, axeViolations } from './support/axe.js'
import { makePdf } from './support/pdf.js'
import { openPage, PHONE, sendDocument, sig, signing, signShot } from './support/sign.js'
import { mount, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const one = (title: string, email: string, name = 'Casey Consent') => sendDocument(stack, { title, recipients: [{ email, name, role: 'SIGNER', fields: [sig(10, 80)] }] })

const consents = async (envelopeId: string) =>
  (await stack.host.db.query<{ data: any }>(`select data from audit_logs where envelope_id = $1 and type = 'RECIPIENT_CONSENT_GIVEN'`, [envelopeId])).map((r) => r.data)

/**
 * The notice is there before anything else can be done: the signature field does not open, the
 * action only points back to the notice; then the recipient reads the disclosure and agrees.
 */
async function blockedThenAgree(page: Page, scope: Page | FrameLocator) {
  const s = signing(page, scope)
  await s.ready({ consent: false })
  const notice = scope.getByTestId('consent-notice')
  await notice.waitFor()
  expect(await notice.getByRole('heading', { name: 'Consent to sign electronically' }).count()).toBe(1)
  await s.field('Signature').click()
  expect(await scope.getByRole('dialog').count()).toBe(0)
  await expect.poll(() => scope.getByTestId('notice').textContent()).toContain('First agree to sign electronically')
  await s.action('Complete signing').click()
  expect(await scope.getByRole('dialog').count()).toBe(0)
  // The disclosure is there to read: paper copies, withdrawing, what is needed, the copy.
  await notice.getByText('Read the disclosure').click()
  const text = await notice.getByTestId('consent-disclosure').textContent()
  for (const part of ['paper copy', 'withdraw your consent', 'web browser', 'signed document as a PDF']) expect(text).toContain(part)
  await scope.getByTestId('consent-agree').click()
  await notice.waitFor({ state: 'detached' })
  return s
}

describe('consent to sign electronically', () => {
  test('the signing page: blocked until agreed, recorded once, not asked again, then signed', async () => {
    const doc = await one('Consent lease', 'casey@example.com')
    const { page, context, errors } = await openPage(stack, doc.recipient('casey@example.com').signingUrl)
    try {
      // The notice, its disclosure open, meets WCAG 2.2 AA as the rest of the page does.
      await signing(page).ready({ consent: false })
      await page.getByTestId('consent-notice').getByText('Read the disclosure').click()
      expect(axeReport('the consent notice', await axeViolations(page))).toBe('')
      await page.getByTestId('consent-notice').getByText('Read the disclosure').click()
      const s = await blockedThenAgree(page, page)
      await page.getByTestId('consent-agreed').waitFor()
      await expect.poll(() => consents(doc.id)).toHaveLength(1)
      expect((await consents(doc.id))[0]).toMatchObject({ disclosureVersion: 0, recipientId: doc.recipient('casey@example.com').id })
      // Back later: the service remembers.
      await page.reload()
      await s.ready({ consent: false })
      await page.getByTestId('consent-agreed').waitFor()
      expect(await page.getByTestId('consent-notice').count()).toBe(0)
      await (await s.drawSignature()).adopt()
      await s.complete()
      await expect.poll(() => s.heading().textContent()).toBe('You signed “Consent lease”')
      expect(await consents(doc.id)).toHaveLength(1)
      expect(errors).toEqual([])
    } finally {
      await context.close()
    }
  })

  test('withdrawing consent declines the document', async () => {
    const doc = await one('Consent withdrawn', 'wes@example.com', 'Wes Withdraw')
    const { page, context } = await openPage(stack, doc.recipient('wes@example.com').signingUrl)
    try {
      const s = signing(page)
      await s.ready()
      await page.getByTestId('consent-withdraw').click()
      const dialog = page.getByRole('dialog', { name: 'Withdraw your consent?' })
      await dialog.getByRole('button', { name: 'Withdraw consent and decline' }).click()
      await expect.poll(() => s.heading().textContent()).toBe('You rejected “Consent withdrawn”')
      const [r] = await stack.host.db.query<{ rejection_reason: string }>('select rejection_reason from recipients where id = $1', [doc.recipient('wes@example.com').id])
      expect(r!.rejection_reason).toBe('Consent to sign electronically withdrawn')
    } finally {
      await context.close()
    }
  })

  test('EmbedSignDocument: the same notice inside the frame, at 390 px', async () => {
    const doc = await one('Consent embed', 'emma@example.com', 'Emma Embed')
    const { page, frame } = await mount(stack, 'EmbedSignDocument', { token: doc.recipient('emma@example.com').token }, PHONE)
    const s = signing(page, frame)
    await s.ready({ consent: false })
    await frame.getByTestId('consent-notice').waitFor()
    // On a phone the notice fits the width: its agree button is within the frame's viewport width.
    const box = (await frame.getByTestId('consent-agree').boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
    await signShot(page, 'consent-embed-phone')
    await blockedThenAgree(page, frame)
    await (await s.drawSignature()).adopt()
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Consent embed”')
    expect(await consents(doc.id)).toHaveLength(1)
    await page.close()
  })

  test("a template's direct link: the visitor agrees, and the document made records it", async () => {
    const form = new FormData()
    form.append('payload', JSON.stringify({ type: 'TEMPLATE', title: 'Consent walk-in', recipients: [{ email: 'walkin@example.com', name: 'Walk In', role: 'SIGNER', fields: [sig(10, 80)] }] }))
    form.append('files', new Blob([new Uint8Array(await makePdf('Consent walk-in', 1))], { type: 'application/pdf' }), 'walkin.pdf')
    const { id } = await stack.api<{ id: string }>('POST', '/envelope/create', form)
    const t = await stack.api('GET', `/envelope/${id}`)
    const link = await stack.api('POST', '/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: t.recipients[0].id })
    const { page, context } = await openPage(stack, `${stack.host.url}/d/${link.token}`, PHONE)
    try {
      const s = await blockedThenAgree(page, page)
      await (await s.drawSignature()).adopt()
      await s.action('Complete signing').click()
      const dialog = page.getByRole('dialog', { name: 'Sign the document?' })
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Vic Visitor')
      await dialog.getByRole('textbox', { name: 'E-mail' }).fill('vic@example.com')
      await dialog.getByRole('button', { name: 'Complete signing', exact: true }).click()
      await expect.poll(() => s.heading().textContent()).toBe('You signed “Consent walk-in”')
      const [made] = await stack.host.db.query<{ id: string }>(`select id from envelopes where template_id = $1 and type = 'DOCUMENT'`, [id])
      expect(await consents(made!.id)).toEqual([expect.objectContaining({ disclosureVersion: 0 })])
    } finally {
      await context.close()
    }
  })

  test('EmbedMultiSignDocument: each document asks before its first action', async () => {
    const a = await one('Consent multi A', 'mia@example.com', 'Mia Multi')
    const b = await one('Consent multi B', 'mia@example.com', 'Mia Multi')
    const tokens = [a.recipient('mia@example.com').token, b.recipient('mia@example.com').token]
    const { page, frame } = await mount(stack, 'EmbedMultiSignDocument', { tokens, name: 'Mia Multi' })
    const list = frame.getByTestId('multi-list')
    await list.waitFor()
    await list.getByRole('listitem').filter({ hasText: 'Consent multi A' }).getByRole('button', { name: 'Sign' }).click()
    const s = await blockedThenAgree(page, frame)
    await (await s.drawSignature()).adopt()
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Consent multi A”')
    expect(await consents(a.id)).toHaveLength(1)
    expect(await consents(b.id)).toHaveLength(0)
    await page.close()
  })
})
