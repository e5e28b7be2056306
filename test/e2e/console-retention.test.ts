/**
 * The team's retention in the console, in Chromium: kept for good by default; an administrator
 * sets the days, and the settings show how many finished documents fall due for purging within
 * 7 days and when the next purge is; a value out of range is refused with the API's message.
 * The queue's clock is driven, so days pass without sleeping. axe-core and screenshots at 1280 and 390 px.
 * On the embedded database only: the queries behind these pages run on both databases in test/host.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { makeUser, TEST_PASSWORD } from '../support/console-client.js'
import { api, completeOneSigner } from '../host/support.js'
import { axeReport, axeViolations } from './support/axe.js'
import { SCREENSHOTS, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

const DAY = 24 * 3600_000
describe(`console retention`, () => {
  let stack: Stack
  const clock = drivenClock()
  test.beforeAll(async ({ browser }) => {
    // The periodic purge comes due only after a year of the driven clock: the page shows what is due, nothing purges it meanwhile.
    stack = await startStack(browser, { host: { clock, retention: { jobsDays: 7, webhookCallsDays: 30, filesHours: 24, everyMs: 365 * DAY } } })
    const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    await makeUser(stack.host.db, 'rita@example.com', { teamId, role: 'ADMIN' })
  })
  afterAll(() => stack?.close())

  /** axe at both widths, and a screenshot of each (written on request: SCREENSHOTS=1). */
  async function check(page: Page, name: string) {
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height })
      await page.screenshot({ path: join(SCREENSHOTS, `console-retention-${name}-${width}.png`), fullPage: true })
      expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  }

  test('set the days, see what falls due within 7 days and the next purge', async () => {
    const client = api(stack.host.apiUrl, `Bearer ${stack.apiToken}`)
    await completeOneSigner(stack.host, client, { title: 'Retained lease' })

    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' })
    const page = await context.newPage()
    const logged: string[] = []
    page.on('pageerror', (e) => logged.push(e.message))
    await page.goto(`${stack.host.url}/console/settings`)
    await page.getByLabel('E-mail address').fill('rita@example.com')
    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('combobox', { name: 'Team' }).selectOption({ label: 'E2E' })
    await page.goto(`${stack.host.url}/console/settings`)

    const form = page.getByRole('form', { name: 'Retention' })
    const days = form.getByLabel('Keep finished documents for (days)')
    const outlook = page.getByTestId('retention-outlook')
    await expect.poll(() => outlook.textContent()).toBe('Finished documents are kept for good.')
    expect(await days.inputValue()).toBe('')
    await check(page, 'forever')

    // Out of range: the API's refusal is shown, nothing changes.
    await days.fill('0')
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('alert').filter({ hasText: /retentionDays|>=1/ }).waitFor()
    expect((await stack.api<{ retentionDays: number | null }>('GET', '/team')).retentionDays).toBeNull()

    // Ten days: the document finished just now falls due in ten days, none within seven.
    await days.fill('10')
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved.').waitFor()
    expect((await stack.api<{ retentionDays: number | null }>('GET', '/team')).retentionDays).toBe(10)
    await expect.poll(() => outlook.textContent()).toMatch(/^Due for purging in the next 7 days: 0\. Next purge: .+\.$/)
    await check(page, 'ten-days')

    // Five days on, reloaded: it falls due within seven.
    clock.advance(5 * DAY)
    await page.reload()
    await expect.poll(() => days.inputValue()).toBe('10')
    await expect.poll(() => outlook.textContent()).toMatch(/^Due for purging in the next 7 days: 1\. Next purge: .+\.$/)
    await check(page, 'due')

    // Emptied: kept for good again.
    await days.fill('')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => outlook.textContent()).toBe('Finished documents are kept for good.')
    expect((await stack.api<{ retentionDays: number | null }>('GET', '/team')).retentionDays).toBeNull()
    expect(logged).toEqual([])
    await context.close()
  })
})
