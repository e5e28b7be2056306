/**
 * The console's envelope page as a sender lives on it, in Chromium, with a real
 * SMTP inbox: a pending two-page document with two recipients (one who must prove themselves to
 * sign) shows its pages as thumbnails that open larger; the admin copies a signing link, sends one
 * recipient the request again, corrects the other's address (the old link dies, the new address
 * gets the request); each download is there or disabled with its reason; a rejected document shows
 * the reason, and once purged every download says its files are gone; a member who did not create
 * the document finds cancel, delete and the links disabled, saying why. Cancelling and deleting
 * ask first in a dialog (Escape changes nothing); a cancellation's reason reaches the audit log; the
 * timeline says what changed (old -> new) and each recipient's card what they did, by role.
 * axe-core and screenshots at 1280 and 390 px.
 * On the embedded database only: the queries behind these pages run on both databases in test/host.
 */
import { join } from 'node:path'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { makeUser, TEST_PASSWORD } from '../support/console-client.js'
import { purgeEnvelope } from '../../host/server/domain/retention/retention.js'
import { axeReport, axeViolations } from './support/axe.js'
import { startInbox, type Inbox } from './support/inbox.js'
import { consentThroughApi, sendDocument, sig } from './support/sign.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'

describe(`the console's envelope page`, () => {
  let inbox: Inbox
  let stack: Stack
  let lease: Awaited<ReturnType<typeof sendDocument>>
  let quote: Awaited<ReturnType<typeof sendDocument>>

  test.beforeAll(async ({ browser }) => {
    inbox = await startInbox()
    stack = await startStack(browser, { host: { smtpUrl: inbox.url, mailbox: false, queuePollMs: 100 } })
    const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
    await makeUser(stack.host.db, 'mo@example.com', { teamId, role: 'MEMBER' })
    lease = await sendDocument(stack, {
      title: 'Lease',
      pages: 2,
      recipients: [
        { email: 'ann@example.com', name: 'Ann Tenant', role: 'SIGNER', fields: [sig(10, 80)] },
        // Bob proves himself with a one-time code before he signs (his own requirement).
        { email: 'bob@example.com', name: 'Bob Guarantor', role: 'SIGNER', fields: [sig(50, 80)], actionAuth: ['TWO_FACTOR_AUTH'] } as never,
      ],
    })
    quote = await sendDocument(stack, { title: 'Quote', recipients: [{ email: 'carl@example.com', name: 'Carl Client', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const carl = await fetch(`${stack.host.url}/api/signing/reject`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${quote.recipient('carl@example.com').token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason: 'The price is too high.' }),
    })
    expect(carl.status).toBe(200)
  })
  afterAll(async () => {
    await stack?.close()
    await inbox?.close()
  })

  async function signIn(email: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`${stack.host.url}/console`)
    await page.getByLabel('E-mail address').fill(email)
    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { name: 'Documents' }).waitFor()
    const team = page.getByRole('combobox', { name: 'Team' })
    if (await team.count()) await team.selectOption({ label: 'E2E' })
    return { context, page, errors }
  }
  /** axe and screenshots at both widths: the whole page, or what the reader sees while a modal dialog covers it. */
  const check = async (page: Page, name: string, fullPage = true) => {
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(SCREENSHOTS, `console-envelope-${name}-1280.png`), fullPage })
    expect(axeReport(`${name} at 1280`, await axeViolations(page))).toBe('')
    await page.setViewportSize({ width: 390, height: 844 })
    // Nothing scrolls sideways on a phone.
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true)
    await page.screenshot({ path: join(SCREENSHOTS, `console-envelope-${name}-390.png`), fullPage })
    expect(axeReport(`${name} at 390`, await axeViolations(page))).toBe('')
    await page.setViewportSize({ width: 1280, height: 900 })
  }
  const card = (page: Page, email: string): Locator => page.locator('.docs-recipient', { hasText: email })
  const describedBy = async (button: Locator) => {
    const ids = (await button.getAttribute('aria-describedby'))?.split(' ') ?? []
    return (await Promise.all(ids.map((id) => button.page().locator(`[id="${id}"]`).textContent()))).join(' ')
  }
  const linksIn = (text: string | undefined) => [...new Set(text?.match(/https?:\/\/[^\s<>()]+\/sign\/[^\s<>()]+/g) ?? [])]
  const sessionStatus = async (token: string) => (await fetch(`${stack.host.url}/api/signing/session`, { headers: { Authorization: `Bearer ${token}` } })).status

  test('the sender sees each recipient, copies a link, resends, corrects an address and downloads', async () => {
    await expect.poll(() => [inbox.to('ann@example.com').length, inbox.to('bob@example.com').length], { timeout: SAFETY_NET }).toEqual([1, 1])
    const { context, page, errors } = await signIn('ada@example.com')
    await page.goto(`${stack.host.url}/console/documents/${lease.id}`)
    await page.getByRole('heading', { name: 'Lease', level: 1 }).waitFor()

    // The pages: two thumbnails, drawn once near the screen; the first opens larger.
    await page.getByRole('heading', { name: 'Pages' }).scrollIntoViewIfNeeded()
    await expect.poll(() => page.locator('.docs-thumb [data-rendered]').count(), { timeout: SAFETY_NET }).toBe(2)
    // Each recipient: role, delivery, what they must prove (and whose requirement it is), where they stand.
    await expect.poll(() => card(page, 'bob@example.com').textContent()).toContain('One-time code (this recipient\'s own)')
    expect(await card(page, 'ann@example.com').textContent()).toContain('Nothing asked')
    expect(await card(page, 'ann@example.com').textContent()).toMatch(/Sent .+, not opened/)
    expect(await card(page, 'ann@example.com').textContent()).toContain('By e-mail')
    await check(page, 'pending')

    await page.getByRole('button', { name: 'Page 1 of 2 of Lease.pdf: show larger' }).click()
    const dialog = page.getByRole('dialog', { name: 'Lease.pdf, page 1 of 2' })
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Next page' }).click()
    await page.getByRole('dialog', { name: 'Lease.pdf, page 2 of 2' }).waitFor()
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true)
    await check(page, 'page-dialog')
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })

    // Copy Ann's signing link: the clipboard holds the link her e-mail carries.
    await card(page, 'ann@example.com').getByRole('button', { name: 'Copy signing link' }).click()
    await page.getByRole('status').filter({ hasText: 'The signing link of Ann Tenant is copied' }).waitFor()
    const annLink = linksIn(inbox.to('ann@example.com')[0]!.text)[0]!
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(annLink)
    expect(annLink).toBe(`${stack.host.url}/sign/${lease.recipient('ann@example.com').token}`)

    // Send Bob the request again: a second message reaches him.
    await card(page, 'bob@example.com').getByRole('button', { name: 'Send the request again' }).click()
    await page.getByRole('status').filter({ hasText: 'The signing request went to bob@example.com again.' }).waitFor()
    await expect.poll(() => inbox.to('bob@example.com').length, { timeout: SAFETY_NET }).toBe(2)

    // Correct Ann's address: the new one gets a new link, the old link opens nothing.
    await card(page, 'ann@example.com').getByRole('button', { name: 'Correct name or e-mail' }).click()
    await card(page, 'ann@example.com').getByLabel('E-mail address').fill('ann.tenant@example.com')
    await check(page, 'correct')
    await card(page, 'ann@example.com').getByRole('button', { name: 'Save' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved. ann.tenant@example.com gets a new signing link' }).waitFor()
    await expect.poll(() => inbox.to('ann.tenant@example.com').length, { timeout: SAFETY_NET }).toBe(1)
    const newLink = linksIn(inbox.to('ann.tenant@example.com')[0]!.text)[0]!
    expect(newLink).not.toBe(annLink)
    const oldToken = lease.recipient('ann@example.com').token
    expect(await sessionStatus(oldToken)).toBeGreaterThanOrEqual(400)
    expect(await sessionStatus(oldToken)).toBeLessThan(500)
    expect(await sessionStatus(newLink.split('/sign/')[1]!)).toBe(200)
    expect(inbox.to('ann@example.com')).toHaveLength(1)
    await expect.poll(() => card(page, 'ann.tenant@example.com').count()).toBe(1)
    // The timeline says so, old -> new.
    expect(await page.locator('.team-timeline li', { hasText: 'Recipient changed' }).textContent()).toContain('E-mail: ann@example.com → ann.tenant@example.com')

    // Downloads: the original and the audit log now; the signed PDF and the certificate later, saying why.
    const original = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Original' }).click()
    expect((await original).suggestedFilename()).toMatch(/^Lease.*\.pdf$/)
    const auditLog = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Audit log (PDF)' }).click()
    expect((await auditLog).suggestedFilename()).toMatch(/audit log\.pdf$/)
    for (const name of ['Signed PDF', 'Signing certificate']) {
      const button = page.getByRole('button', { name })
      expect(await button.isDisabled()).toBe(true)
      expect(await describedBy(button)).toBe('The signed PDF and the certificate exist once every recipient has signed.')
    }
    // The admin may cancel and delete what anyone made.
    // (Once the last download's reload is over: every button waits while an action runs.)
    await expect.poll(() => page.getByRole('button', { name: 'Cancel', exact: true }).isEnabled()).toBe(true)

    // The rejected quote: the reason, in the recipient's words.
    await page.goto(`${stack.host.url}/console/documents/${quote.id}`)
    await page.getByRole('heading', { name: 'Quote', level: 1 }).waitFor()
    await expect.poll(() => card(page, 'carl@example.com').textContent()).toContain('Reason: “The price is too high.”')
    expect(await card(page, 'carl@example.com').textContent()).toMatch(/Rejected /)
    expect(await describedBy(page.getByRole('button', { name: 'Signed PDF' }))).toBe('This document will not be signed: there is no signed PDF or certificate.')
    await check(page, 'rejected')

    // Past the team's retention the quote's files are gone: every download, and the copy, say so.
    await stack.host.db.query(`update teams set retention_days = 1 where name = 'E2E'`)
    expect(await stack.host.db.transaction((tx) => purgeEnvelope(tx, quote.id, new Date(Date.now() + 3 * 86_400_000)))).not.toBeNull()
    await page.reload()
    await page.getByRole('heading', { name: 'Quote', level: 1 }).waitFor()
    const purged = /^Its files were deleted on .+, at the end of the team's retention period: nothing can be downloaded\.$/
    for (const name of ['Original', 'Signed PDF', 'Signing certificate', 'Audit log (PDF)', 'Duplicate']) {
      const button = page.getByRole('button', { name, exact: true })
      expect(await button.isDisabled()).toBe(true)
      expect(await describedBy(button)).toMatch(purged)
    }
    expect(await page.locator('.docs-thumb').count()).toBe(0)
    expect(await page.locator('.docs-recipient h3').textContent()).toBe('Name and e-mail deleted with the files')
    await check(page, 'purged')

    expect(errors).toEqual([])
    await context.close()
  })

  test('a completed document: its signed pages, every download; in Hebrew, right to left', async () => {
    const deal = await sendDocument(stack, { title: 'Deal', recipients: [{ email: 'dana@example.com', name: 'Dana Doe', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const token = deal.recipient('dana@example.com').token
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
    const session = await (await fetch(`${stack.host.url}/api/signing/session`, { headers })).json()
    await consentThroughApi(stack.host.url, token)
    const value = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
    const done = await fetch(`${stack.host.url}/api/signing/complete`, { method: 'POST', headers, body: JSON.stringify({ fields: session.fields.map((f: { id: number }) => ({ id: f.id, value })) }) })
    expect(done.status).toBe(200)

    const { context, page, errors } = await signIn('ada@example.com')
    await page.goto(`${stack.host.url}/console/documents/${deal.id}`)
    await page.getByRole('heading', { name: 'Deal', level: 1 }).waitFor()
    await page.getByText('The signed version.').waitFor()
    await page.getByRole('heading', { name: 'Pages' }).scrollIntoViewIfNeeded()
    // The signed version: the page signed, and the certificate the sealed PDF ends with.
    await expect.poll(() => page.locator('.docs-thumb [data-rendered]').count(), { timeout: SAFETY_NET }).toBe(2)
    for (const [name, file] of [['Signed PDF', /^Deal.*\.pdf$/], ['Signing certificate', /certificate\.pdf$/]] as const) {
      const saved = page.waitForEvent('download')
      await page.getByRole('button', { name, exact: true }).click()
      expect((await saved).suggestedFilename()).toMatch(file)
    }
    expect(await page.getByRole('button', { name: 'Signed PDF', exact: true }).getAttribute('aria-describedby')).toBeNull()
    expect(await card(page, 'dana@example.com').locator('dl').textContent()).toMatch(/StatusSigned \S/)
    await check(page, 'completed')

    // The same page in Hebrew: right to left, every word translated.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('he')
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl')
    await page.getByText('הגרסה החתומה.').waitFor()
    await check(page, 'completed-he')
    expect(errors).toEqual([])
    await context.close()
  })

  test('cancelling and deleting ask first; the timeline says why, what changed and who approved', async () => {
    const offer = await sendDocument(stack, {
      title: 'Offer',
      recipients: [
        { email: 'eve@example.com', name: 'Eve Early', role: 'APPROVER' },
        { email: 'finn@example.com', name: 'Finn', role: 'SIGNER', fields: [sig(10, 80)] },
      ],
    })
    // Eve approves; Finn's name is corrected through the API.
    const eve = offer.recipient('eve@example.com').token
    await consentThroughApi(stack.host.url, eve)
    const approved = await fetch(`${stack.host.url}/api/signing/complete`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${eve}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ fields: [] }),
    })
    expect(approved.status).toBe(200)
    const finn = offer.recipient('finn@example.com')
    await stack.api('POST', '/envelope/recipient/update-many', { envelopeId: offer.id, data: [{ id: finn.id, name: 'Finn Final' }] })

    const { context, page, errors } = await signIn('ada@example.com')
    await page.goto(`${stack.host.url}/console/documents/${offer.id}`)
    await page.getByRole('heading', { name: 'Offer', level: 1 }).waitFor()
    // What Eve did, by her role, on her card and in the timeline; Finn's name old -> new.
    await expect.poll(() => card(page, 'eve@example.com').locator('dl').textContent()).toMatch(/StatusApproved \S/)
    const timeline = page.locator('.team-timeline')
    await timeline.locator('li', { hasText: 'Approved · Eve Early' }).waitFor()
    expect(await timeline.locator('li', { hasText: 'Recipient changed' }).textContent()).toContain('Name: Finn → Finn Final')

    // Cancel asks first, naming the document, the safe choice focused: Escape changes nothing and gives the focus back.
    const cancel = page.getByRole('button', { name: 'Cancel', exact: true })
    await expect.poll(() => cancel.isEnabled()).toBe(true)
    await cancel.click()
    const asked = page.getByRole('dialog', { name: 'Cancel “Offer”?' })
    await asked.getByText('Its signing links stop working').waitFor()
    expect(await asked.getByRole('button', { name: 'Don’t cancel' }).evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await asked.getByRole('button', { name: 'Cancel the document' }).getAttribute('class')).toContain('btn-danger')
    await asked.getByLabel('Reason (optional)').fill('The offer expired.')
    await check(page, 'cancel-dialog', false)
    await page.keyboard.press('Escape')
    await asked.waitFor({ state: 'detached' })
    await expect.poll(() => cancel.evaluate((el) => el === document.activeElement)).toBe(true)
    expect((await stack.api<{ status: string }>('GET', `/envelope/${offer.id}`)).status).toBe('PENDING')

    // Confirmed with a reason: cancelled, the reason in the audit log and in the timeline.
    await cancel.click()
    await asked.getByLabel('Reason (optional)').fill('The offer expired.')
    await asked.getByRole('button', { name: 'Cancel the document' }).click()
    await page.getByRole('status').filter({ hasText: 'Cancelled.' }).waitFor()
    expect((await stack.api<{ status: string }>('GET', `/envelope/${offer.id}`)).status).toBe('CANCELLED')
    const log = await stack.api<{ data: { type: string; data: { reason?: string } }[] }>('GET', `/envelope/${offer.id}/audit-log?include=all`)
    expect(log.data.find((a) => a.type === 'DOCUMENT_CANCELLED')?.data.reason).toBe('The offer expired.')
    await expect.poll(() => timeline.locator('li', { hasText: 'Cancelled' }).first().textContent()).toContain('Reason: “The offer expired.”')
    await check(page, 'cancelled')
    // In Hebrew the arrow points from the old value to the new one, right to left.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('he')
    await expect.poll(() => timeline.locator('.docs-changes li').textContent()).toContain('Finn ← Finn Final')
    await check(page, 'cancelled-he')
    await page.getByRole('combobox', { name: 'שפה' }).selectOption('en')
    await timeline.locator('li', { hasText: 'Recipient changed' }).waitFor()

    // Delete asks too: Escape keeps it; confirmed, it is gone and the list opens.
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    const deleting = page.getByRole('dialog', { name: 'Delete “Offer”?' })
    await deleting.getByText('It leaves the team’s documents').waitFor()
    await check(page, 'delete-dialog', false)
    await page.keyboard.press('Escape')
    await deleting.waitFor({ state: 'detached' })
    expect((await stack.host.db.query<{ deleted_at: Date | null }>('select deleted_at from envelopes where id = $1', [offer.id]))[0]!.deleted_at).toBeNull()
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    await deleting.getByRole('button', { name: 'Delete' }).click()
    await page.waitForURL(/\/console\/documents$/)
    expect((await stack.host.db.query<{ deleted_at: Date | null }>('select deleted_at from envelopes where id = $1', [offer.id]))[0]!.deleted_at).not.toBeNull()
    expect(errors).toEqual([])
    await context.close()
  })

  test('a member who did not create the document cannot cancel, delete or see links, and is told why', async () => {
    const { context, page, errors } = await signIn('mo@example.com')
    await page.goto(`${stack.host.url}/console/documents/${lease.id}`)
    await page.getByRole('heading', { name: 'Lease', level: 1 }).waitFor()
    for (const name of ['Cancel', 'Delete']) {
      const button = page.getByRole('button', { name, exact: true })
      expect(await button.isDisabled()).toBe(true)
      expect(await describedBy(button)).toBe('Only the member who created this document, managers and admins can cancel or delete it.')
    }
    const copy = card(page, 'bob@example.com').getByRole('button', { name: 'Copy signing link' })
    expect(await copy.isDisabled()).toBe(true)
    expect(await describedBy(copy)).toBe("Only the member who created this document, managers and admins can see the recipients' signing links.")
    // Resending stays open to every member who sees the document.
    expect(await card(page, 'bob@example.com').getByRole('button', { name: 'Send the request again' }).isEnabled()).toBe(true)
    await page.getByRole('heading', { name: 'Pages' }).scrollIntoViewIfNeeded()
    await expect.poll(() => page.locator('.docs-thumb [data-rendered]').count(), { timeout: SAFETY_NET }).toBe(2)
    await check(page, 'member')

    // In sequential order each card says its turn; the second signer hears nothing before the first signed.
    const loan = await sendDocument(stack, {
      title: 'Loan',
      meta: { signingOrder: 'SEQUENTIAL' },
      recipients: [
        { email: 'first@example.com', name: 'First Signer', role: 'SIGNER', signingOrder: 1, fields: [sig(10, 80)] },
        { email: 'second@example.com', name: 'Second Signer', role: 'SIGNER', signingOrder: 2, fields: [sig(50, 80)] },
      ],
    })
    await page.goto(`${stack.host.url}/console/documents/${loan.id}`)
    await page.getByRole('heading', { name: 'Loan', level: 1 }).waitFor()
    const second = card(page, 'second@example.com')
    await expect.poll(() => second.locator('dl').textContent()).toMatch(/Signing order2/)
    expect(await second.locator('dl').textContent()).toContain('Waiting for their turn')
    const resend = second.getByRole('button', { name: 'Send the request again' })
    expect(await resend.isDisabled()).toBe(true)
    expect(await describedBy(resend)).toBe('Their turn has not come yet: they hear from us when it does.')
    expect(await card(page, 'first@example.com').getByRole('button', { name: 'Send the request again' }).isEnabled()).toBe(true)
    await check(page, 'sequential')
    expect(errors).toEqual([])
    await context.close()
  })
})
