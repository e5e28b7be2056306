/**
 * The review before sending, in Chromium with a real SMTP inbox: "Send for signing" on a draft
 * opens a dialog listing each recipient (role, signing order, delivery, what they must prove), the
 * e-mail as the service renders it for each who acts (From, subject and text), the links' expiry
 * and the reminders; the subject and message are edited there, one Send sends, and the mail
 * received carries the edited subject and message. A draft whose signer has no signature field is
 * refused: the dialog names the signer, marks their row, and nothing is sent. In Hebrew and German
 * on a phone the review speaks the console's language and nothing spills over.
 * axe-core and screenshots at 1280 and 390 px.
 * On the embedded database only: the preview's rules are held in test/host/send-review.test.ts.
 */
import { join } from 'node:path'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { makeUser } from '../support/console-client.js'
import { axeReport, axeViolations } from './support/axe.js'
import { startInbox, type Inbox } from './support/inbox.js'
import { makePdf } from './support/pdf.js'
import { sig, type RecipientIn } from './support/sign.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { consoleSignIn } from './support/ui.js'

describe('the review before sending', () => {
  let inbox: Inbox
  let stack: Stack
  let lease: string
  let unfinished: string
  let sublease: string

  /** A draft made through the API, not sent. */
  const draft = async (title: string, recipients: RecipientIn[], meta: Record<string, unknown> = {}) => {
    const form = new FormData()
    form.append('payload', JSON.stringify({ type: 'DOCUMENT', title, recipients, meta }))
    form.append('files', new Blob([new Uint8Array(await makePdf(title, 1))], { type: 'application/pdf' }), `${title}.pdf`)
    return (await stack.api<{ id: string }>('POST', '/envelope/create', form)).id
  }

  test.beforeAll(async ({ browser }) => {
    inbox = await startInbox()
    stack = await startStack(browser, { host: { smtpUrl: inbox.url, mailbox: false, queuePollMs: 100 } })
    const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
    lease = await draft(
      'Lease 12',
      [
        // Ann proves herself with a one-time code before she opens it (her own requirement).
        { email: 'ann@example.com', name: 'Ann Tenant', role: 'SIGNER', signingOrder: 1, fields: [sig(10, 80)], accessAuth: ['TWO_FACTOR_AUTH'] } as RecipientIn,
        { email: 'bob@example.com', name: 'Bob Guarantor', role: 'APPROVER', signingOrder: 2 },
        { email: 'carla@example.com', name: 'Carla Agent', role: 'CC', signingOrder: 3 },
      ],
      {
        signingOrder: 'SEQUENTIAL',
        envelopeExpirationPeriod: { unit: 'day', amount: 30 },
        reminderSettings: { sendAfter: { unit: 'day', amount: 3 }, repeatEvery: { unit: 'day', amount: 2 } },
      },
    )
    unfinished = await draft('Unsigned offer', [{ email: 'dan@example.com', name: 'Dan Draft', role: 'SIGNER' }])
    sublease = await draft(
      'Sublease',
      [
        { email: 'eve@example.com', name: 'Eve Subtenant', role: 'SIGNER', fields: [sig(10, 80)] },
        { email: 'frank@example.com', name: 'Frank Landlord', role: 'CC' },
      ],
      { reminderSettings: { sendAfter: { unit: 'week', amount: 1 }, repeatEvery: { disabled: true } } },
    )
  })
  afterAll(async () => {
    await stack?.close()
    await inbox?.close()
  })

  /** Ada signed in, the team E2E chosen; the console then in `language` when given, as if she picked it. */
  async function signIn(language?: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await consoleSignIn(page, stack.host.url, 'ada@example.com', 'E2E')
    if (language) await page.evaluate((l) => localStorage.setItem('console.language', l), language)
    return { context, page, errors }
  }
  /**
   * axe at both widths, and screenshots of what the reader sees while the dialog covers the page:
   * its top, and its end (the dialog's body scrolls on its own).
   */
  const check = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle')
    const body = page.getByRole('dialog').locator('.dialog-body')
    const shots = async (width: number) => {
      const at = await body.evaluate((el) => el.scrollTop)
      await page.screenshot({ path: join(SCREENSHOTS, `console-send-review-${name}-${width}.png`) })
      await body.evaluate((el) => (el.scrollTop = el.scrollHeight))
      await page.screenshot({ path: join(SCREENSHOTS, `console-send-review-${name}-end-${width}.png`) })
      await body.evaluate((el, top) => (el.scrollTop = top), at)
    }
    await shots(1280)
    expect(axeReport(`${name} at 1280`, await axeViolations(page))).toBe('')
    await page.setViewportSize({ width: 390, height: 844 })
    // Nothing scrolls sideways on a phone.
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true)
    expect(await body.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    await shots(390)
    expect(axeReport(`${name} at 390`, await axeViolations(page))).toBe('')
    await page.setViewportSize({ width: 1280, height: 900 })
  }
  const person = (dialog: Locator, name: string) => dialog.getByTestId('send-person').filter({ hasText: name })
  const open = async (page: Page, id: string, title: string) => {
    await page.goto(`${stack.host.url}/console/documents/${id}`)
    await page.getByRole('heading', { name: title, level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Send for signing' }).click()
    const dialog = page.getByRole('dialog', { name: `Review and send “${title}”` })
    await dialog.waitFor()
    return dialog
  }

  test('shows each recipient and the rendered e-mail; the edited subject and message are what the mail carries', async () => {
    const { context, page, errors } = await signIn()
    const dialog = await open(page, lease, 'Lease 12')

    // Each recipient in their signing order: role, turn, delivery, what they must prove.
    await expect.poll(() => dialog.getByTestId('send-person').allTextContents()).toHaveLength(3)
    expect((await dialog.getByTestId('send-person').locator('strong').allTextContents())).toEqual(['Ann Tenant', 'Bob Guarantor', 'Carla Agent'])
    const ann = (await person(dialog, 'Ann Tenant').textContent())!
    for (const fact of ['ann@example.com', 'Signs', 'Signing order1', 'By e-mail', "To openOne-time code (this recipient's own)", 'To signNothing asked']) expect(ann).toContain(fact)
    expect(await person(dialog, 'Bob Guarantor').textContent()).toContain('Approves')
    expect(await person(dialog, 'Carla Agent').textContent()).toContain('Gets a copy')
    await dialog.getByText('In this order: each receives the request once the one before has finished.').waitFor()

    // The e-mail as Ann gets it, from the team, and the deadlines.
    const preview = dialog.getByTestId('send-preview')
    await expect.poll(() => preview.textContent()).toContain('Hello Ann Tenant,')
    expect(await preview.textContent()).toContain('Subject Please sign “Lease 12”')
    expect(await preview.textContent()).toContain('E2E has sent you “Lease 12” to sign.')
    expect(await dialog.getByText(/E2E via Envelope/).count()).toBe(1)
    await dialog.getByText('Expire 30 days after sending').waitFor()
    await dialog.getByText('3 days after the request, then every 2 days').waitFor()
    await check(page, 'review')

    // Bob's, as an approver.
    await dialog.getByLabel('Show the e-mail to').selectOption({ label: 'Bob Guarantor' })
    await expect.poll(() => preview.textContent()).toContain('Hello Bob Guarantor,')
    expect(await preview.textContent()).toContain('Please approve “Lease 12”')
    await dialog.getByLabel('Show the e-mail to').selectOption({ label: 'Ann Tenant' })

    // Edited: the preview follows, then one Send sends it.
    await dialog.getByLabel('Subject').fill('Lease 12: your signature by Friday')
    await dialog.getByLabel('Message').fill('Dear Ann,\nthe keys are ready once you sign.')
    await expect.poll(() => preview.locator('.send-mail-subject').textContent()).toBe('Subject Lease 12: your signature by Friday')
    await expect.poll(() => preview.textContent()).toContain('E2E writes:\n\nDear Ann,\nthe keys are ready once you sign.')
    await check(page, 'edited')
    await dialog.getByRole('button', { name: 'Send', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => page.locator('.docs-status').first().textContent()).toBe('Waiting for signatures')
    await page.getByText('Sent: the recipients have their links.').waitFor()

    await expect.poll(() => inbox.to('ann@example.com').length, { timeout: SAFETY_NET }).toBe(1)
    const mail = inbox.to('ann@example.com')[0]!
    expect(mail.subject).toBe('Lease 12: your signature by Friday')
    expect(mail.text).toContain('Dear Ann,\nthe keys are ready once you sign.')
    const sent = await stack.api('GET', `/envelope/${lease}`)
    expect([sent.status, sent.documentMeta.subject]).toEqual(['PENDING', 'Lease 12: your signature by Friday'])
    // Bob's turn has not come; Carla gets a copy at the end.
    expect(inbox.to('bob@example.com')).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  test('a refused send names the signer without a signature field and sends nothing', async () => {
    const { context, page, errors } = await signIn()
    const dialog = await open(page, unfinished, 'Unsigned offer')
    await dialog.getByLabel('Subject').fill('Never sent')
    await dialog.getByRole('button', { name: 'Send', exact: true }).click()
    const alert = dialog.getByRole('alert')
    await expect.poll(() => alert.textContent()).toBe('Not sent Every signer needs a signature field. Place one for Dan Draft in the editor, then send again.')
    expect(await person(dialog, 'Dan Draft').textContent()).toContain('No signature field yet')
    // The focus goes to the reason, so it is heard and seen.
    expect(await alert.evaluate((el) => el === document.activeElement)).toBe(true)
    await check(page, 'refused')

    const kept = await stack.api('GET', `/envelope/${unfinished}`)
    expect([kept.status, kept.documentMeta.subject]).toEqual(['DRAFT', null])
    // Closed with Escape: nothing changes, the draft stays a draft.
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await page.locator('.docs-status').first().textContent()).toBe('Draft')
    expect(inbox.to('dan@example.com')).toEqual([])
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([])
    await context.close()
  })

  // Hebrew reads right to left; German has long words. The e-mail itself is in the document's language (English here).
  for (const language of ['he', 'de'] as const) {
    test(`in ${language}, on a phone: the review in the console's language, nothing spills over`, async () => {
      const words = (await import(`../../host/shared/words/${language}/console-send.ts`)).default as Record<string, string>
      const { context, page, errors } = await signIn(language)
      await page.setViewportSize({ width: 390, height: 844 })
      await page.goto(`${stack.host.url}/console/documents/${sublease}`)
      await page.locator('button[aria-haspopup="dialog"]').click()
      const dialog = page.getByRole('dialog', { name: words['send.title']!.replace('{title}', 'Sublease') })
      await dialog.getByTestId('send-preview').getByText('Hello Eve Subtenant,').waitFor()
      expect(await dialog.textContent()).toContain(words['send.reminders.once']!.replace('{after}', new Intl.NumberFormat(language, { style: 'unit', unit: 'week', unitDisplay: 'long' }).format(1)))
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true)
      const body = dialog.locator('.dialog-body')
      expect(await body.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
      await page.screenshot({ path: join(SCREENSHOTS, `console-send-review-${language}-390.png`) })
      await body.evaluate((el) => (el.scrollTop = el.scrollHeight))
      await page.screenshot({ path: join(SCREENSHOTS, `console-send-review-${language}-end-390.png`) })
      expect(axeReport(`${language} at 390`, await axeViolations(page))).toBe('')
      expect(errors).toEqual([])
      await context.close()
    })
  }
})
