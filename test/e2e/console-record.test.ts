/**
 * The record in Chromium, as a sender and a recipient see it: the console's timeline says every
 * step the evidence summary lists (a request to an address corrected afterwards, reminders,
 * one-time codes sent, checks failed and passed, a lock, consent, the signature); the envelope
 * page downloads the evidence as JSON and as a signed .jws beside the certificate and the audit log;
 * a document purged at the end of its retention says so on its signing page (in the page's
 * language) and in the console, also when the purge comes while the page is open.
 * The queue's clock is driven, so a reminder's day passes without sleeping. axe-core and
 * screenshots at 1280 and 390 px. On the embedded database only: the rules are held in test/host.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { purgeEnvelope } from '../../host/server/domain/retention/retention.js'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { makeUser } from '../support/console-client.js'
import { codeSigner } from '../host/support.js'
import { axeReport, axeViolations } from './support/axe.js'
import { DESKTOP, openPage, sendDocument, sig, signShot } from './support/sign.js'
import { SAFETY_NET, SCREENSHOTS, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { consoleSignIn } from './support/ui.js'

const DAY = 86_400_000

describe('the record in the console and on the signing page', () => {
  let stack: Stack
  const clock = drivenClock()

  test.beforeAll(async ({ browser }) => {
    stack = await startStack(browser, { host: { clock, queuePollMs: 50 } })
    const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
  })
  afterAll(() => stack?.close())

  async function signIn(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await stack.browser.newContext({ viewport: DESKTOP, locale: 'en-US', timezoneId: 'UTC', acceptDownloads: true })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await consoleSignIn(page, stack.host.url, 'ada@example.com', 'E2E')
    return { context, page, errors }
  }
  /** axe and a screenshot at both widths; nothing scrolls sideways on a phone. */
  const check = async (page: Page, name: string) => {
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height })
      await page.screenshot({ path: join(SCREENSHOTS, `console-record-${name}-${width}.png`), fullPage: true })
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true)
      expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
    }
    await page.setViewportSize(DESKTOP)
  }
  /** The code of the next code mail to `to`, once the queue has sent it. */
  const mailedCode = (to: string) => {
    let seen = 0
    return async () => {
      let codes: string[] = []
      await expect
        .poll(async () => {
          const rows = await stack.host.db.query<{ text: string }>(`select text from mails where to_address = $1 and template = 'recipient-code' order by id`, [to])
          codes = rows.map((r) => /\b(\d{6})\b/.exec(r.text)![1]!)
          return codes.length
        }, { timeout: SAFETY_NET })
        .toBeGreaterThan(seen)
      seen = codes.length
      return codes.at(-1)!
    }
  }
  test('the timeline says every step of the evidence; the evidence downloads as JSON and signed', async () => {
    const record = await sendDocument(stack, {
      title: 'Record',
      meta: { reminderSettings: { sendAfter: { unit: 'day', amount: 1 }, repeatEvery: { disabled: true } } },
      recipients: [
        { email: 'ann@example.com', name: 'Ann Tenant', role: 'SIGNER', fields: [sig(10, 80)], accessAuth: ['TWO_FACTOR_AUTH'] } as never,
        { email: 'bob@example.com', name: 'Bob Guarantor', role: 'SIGNER', fields: [sig(50, 80)], accessAuth: ['TWO_FACTOR_AUTH'] } as never,
      ],
    })
    const mailed = async (to: string, template: string) =>
      (await stack.host.db.query<{ n: number }>('select count(*)::int as n from mails where to_address = $1 and template = $2', [to, template]))[0]!.n
    await expect.poll(() => mailed('ann@example.com', 'signing-request'), { timeout: SAFETY_NET }).toBe(1)
    // Ann's address is corrected after her request went: the new one gets its own.
    const ann = record.recipient('ann@example.com')
    await stack.api('POST', '/envelope/recipient/update-many', { envelopeId: record.id, data: [{ id: ann.id, email: 'ann.new@example.com' }] })
    await expect.poll(() => mailed('ann.new@example.com', 'signing-request'), { timeout: SAFETY_NET }).toBe(1)
    // A day on, both are reminded.
    clock.advance(DAY + 60_000)
    await expect.poll(async () => (await mailed('ann.new@example.com', 'reminder')) + (await mailed('bob@example.com', 'reminder')), { timeout: SAFETY_NET }).toBe(2)

    // Ann: a wrong code, then the right one; she opens, consents and signs.
    const annToken = (await stack.host.db.query<{ token: string }>('select token from recipients where id = $1', [ann.id]))[0]!.token
    const a = codeSigner(stack.host.url, annToken, mailedCode('ann.new@example.com'), clock)
    const code = await a.code()
    expect((await a.prove(a.wrong(code))).status).toBe(401)
    await a.pass(code)
    await a.sign()

    // Bob: wrong codes until he is locked.
    expect((await codeSigner(stack.host.url, record.recipient('bob@example.com').token, mailedCode('bob@example.com'), clock).lockOut()).status).toBe(429)
    // Every code's entry is written once its mail left.
    await expect
      .poll(async () => (await stack.api<{ data: { type: string }[] }>('GET', `/envelope/${record.id}/audit-log?perPage=100&include=all`)).data.filter((x) => x.type === 'RECIPIENT_AUTH_CODE_SENT').length, { timeout: SAFETY_NET })
      .toBe(3)

    const { context, page, errors } = await signIn()
    await page.goto(`${stack.host.url}/console/documents/${record.id}`)
    await page.getByRole('heading', { name: 'Record', level: 1 }).waitFor()
    const timeline = page.locator('.team-timeline')
    const entry = (title: string) => timeline.locator(':scope > li', { hasText: title })
    await entry('Verification locked after too many attempts').waitFor()

    // Each step of the evidence is an entry, or a line of one.
    const evidence = await stack.api<{ recipients: { email: string; history: { kind: string; email?: string }[] }[] }>('GET', `/envelope/${record.id}/evidence`)
    const titles = await timeline.locator(':scope > li > div').evaluateAll((divs) => divs.map((d) => d.firstChild?.textContent ?? ''))
    const lines = await timeline.locator('.docs-steps li').allTextContents()
    const steps = evidence.recipients.flatMap((r) => r.history)
    const titled: Record<string, string> = {
      REQUEST: 'E-mail sent',
      REMINDER: 'Reminder sent',
      CODE_SENT: 'One-time code e-mailed',
      VERIFICATION_FAILED: 'Verification failed',
      LOCKED: 'Verification locked after too many attempts',
      OPENED: 'Opened',
      CONSENTED: 'Consented to sign electronically',
      CORRECTED: 'Recipient changed',
      COMPLETED: 'Signed',
    }
    for (const [kind, title] of Object.entries(titled)) {
      const wanted = steps.filter((s) => (s.kind === 'EMAIL_SENT' ? s.email : s.kind) === kind).length
      expect(wanted, kind).toBeGreaterThan(0)
      expect(titles.filter((t) => t === title).length, title).toBe(wanted)
    }
    expect(lines.filter((l) => l === 'Verified to open with one-time code')).toHaveLength(steps.filter((s) => s.kind === 'VERIFIED').length)
    expect(lines.filter((l) => l === 'With one-time code, to open the document')).toHaveLength(steps.filter((s) => s.kind === 'VERIFICATION_FAILED').length)
    expect(lines.filter((l) => l === 'To open the document')).toHaveLength(steps.filter((s) => s.kind === 'CODE_SENT').length)
    // The request that went to the old address says so; the correction shows old -> new.
    expect(lines).toContain('Sent to ann@example.com, an address later corrected to ann.new@example.com')
    expect(await entry('Recipient changed').textContent()).toContain('E-mail: ann@example.com → ann.new@example.com')
    expect(await entry('Verification locked after too many attempts').locator('.docs-steps').textContent()).toMatch(/^Until .+/)
    expect(await entry('Consented to sign electronically').locator('.docs-steps').textContent()).toMatch(/^Disclosure v\d+ \(sha256 [0-9a-f]{16}\)$/)
    await check(page, 'timeline')

    // The evidence beside the certificate and the audit log: JSON, and the signed file /verify checks.
    const json = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Evidence (JSON)' }).click()
    const jsonFile = await json
    expect(jsonFile.suggestedFilename()).toBe('Record - evidence.json')
    const saved = JSON.parse(await readFile((await jsonFile.path())!, 'utf8'))
    expect(saved).toMatchObject({ version: 'evidence/1', envelope: { id: record.id } })
    expect(saved.recipients[0].history.length).toBeGreaterThan(5)
    const jws = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Evidence file, signed (.jws)' }).click()
    const jwsFile = await jws
    expect(jwsFile.suggestedFilename()).toBe('Record - evidence.jws')
    expect(await readFile((await jwsFile.path())!, 'utf8')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    const hint = await page.getByRole('button', { name: 'Evidence file, signed (.jws)' }).getAttribute('aria-describedby')
    expect(await page.locator(`[id="${hint}"]`).textContent()).toMatch(/The signed evidence file can be checked on the verification page\.$/)
    expect(await page.getByRole('alert').count()).toBe(0)

    // The same timeline in Hebrew: addresses keep their own direction.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('he')
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl')
    await entry('האימות ננעל לאחר יותר מדי ניסיונות').waitFor()
    expect(await timeline.locator('.docs-steps li bdi', { hasText: 'ann.new@example.com' }).count()).toBeGreaterThan(0)
    await check(page, 'timeline-he')
    await page.getByRole('combobox', { name: 'שפה' }).selectOption('en')
    expect(errors).toEqual([])
    await context.close()
  })

  test('a purged document: its signing page says it was deleted, in its language; the console too, also when purged while open', async () => {
    const signed = async (title: string, email: string, meta: Record<string, unknown> = {}) => {
      const doc = await sendDocument(stack, { title, meta, recipients: [{ email, name: 'Dana Doe', role: 'SIGNER', fields: [sig(10, 80)] }] })
      const token = doc.recipient(email).token
      await codeSigner(stack.host.url, token, async () => '').sign()
      await expect.poll(async () => (await stack.api<{ status: string }>('GET', `/envelope/${doc.id}`)).status, { timeout: SAFETY_NET }).toBe('COMPLETED')
      return { doc, token }
    }
    const lease = await signed('Lease 4B', 'dana@example.com')
    const mietvertrag = await signed('Mietvertrag', 'dora@example.com', { language: 'de' })
    await stack.host.db.query(`update teams set retention_days = 1 where name = 'E2E'`)

    // The console page is open when the purge comes: a download then says why in words, and the page shows it.
    const { context, page, errors } = await signIn()
    await page.goto(`${stack.host.url}/console/documents/${lease.doc.id}`)
    await page.getByRole('heading', { name: 'Lease 4B', level: 1 }).waitFor()
    await expect.poll(() => page.getByRole('button', { name: 'Original', exact: true }).isEnabled()).toBe(true)
    const later = new Date(clock.now().getTime() + 3 * DAY)
    for (const id of [lease.doc.id, mietvertrag.doc.id]) expect(await stack.host.db.transaction((tx) => purgeEnvelope(tx, id, later))).not.toBeNull()
    await page.getByRole('button', { name: 'Original', exact: true }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe("The document's files were deleted at the end of the team's retention period.")
    await expect.poll(() => page.getByRole('button', { name: 'Original', exact: true }).isDisabled()).toBe(true)
    const describedBy = await page.getByRole('button', { name: 'Signed PDF', exact: true }).getAttribute('aria-describedby')
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/^Its files were deleted on .+, at the end of the team's retention period: nothing can be downloaded\.$/)
    // The evidence outlives the files: it still downloads, saying the document was purged.
    const json = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Evidence (JSON)' }).click()
    expect(JSON.parse(await readFile((await (await json).path())!, 'utf8'))).toMatchObject({ redacted: true, purgedAt: expect.any(String) })
    await check(page, 'purged-while-open')
    expect(errors).toEqual([])
    await context.close()

    // The signing page: no waiting for files that are gone, the deletion said plainly.
    for (const [viewport, width] of [[DESKTOP, 1280], [{ width: 390, height: 844 }, 390]] as const) {
      const { page: sign, context: c, errors: signErrors } = await openPage(stack, `${stack.host.url}/sign/${lease.token}`, viewport)
      await sign.getByRole('heading', { name: 'This document was deleted', level: 1 }).waitFor()
      expect(await sign.getByTestId('sign-state').getAttribute('data-state')).toBe('PURGED')
      expect(await sign.getByTestId('sign-state').locator('p').textContent()).toMatch(/^“Lease 4B” was deleted on .+, at the end of its retention period\. Its files can no longer be opened or downloaded\.$/)
      expect(await sign.getByTestId('sealing').count()).toBe(0)
      expect(await sign.getByTestId('downloads').count()).toBe(0)
      await signShot(sign, `sign-purged-${width}`)
      expect(axeReport(`signing page, purged, at ${width}`, await axeViolations(sign))).toBe('')
      expect(signErrors).toEqual([])
      await c.close()
    }
    // In the document's language.
    const { page: de, context: dc, errors: deErrors } = await openPage(stack, `${stack.host.url}/sign/${mietvertrag.token}`)
    await de.getByRole('heading', { name: 'Dieses Dokument wurde gelöscht', level: 1 }).waitFor()
    expect(await de.getByTestId('sign-state').locator('p').textContent()).toMatch(/^„Mietvertrag“ wurde am .+ am Ende seiner Aufbewahrungsfrist gelöscht\./)
    await signShot(de, 'sign-purged-de-1280')
    expect(axeReport('signing page, purged, German', await axeViolations(de))).toBe('')
    expect(deErrors).toEqual([])
    await dc.close()
  })
})
