/**
 * The console's documents list end to end in Chromium: 45 documents of one
 * team, paged "1-20 of 45"; status tabs with their counts; period, sender, creator and sort
 * filters; a search; every choice in the address, so back and forward bring each list back with
 * its controls. axe-core at 1280 and 390 px, screenshots of each state.
 * On the embedded database only: the queries behind these pages run on both databases in test/host.
 */
import { join } from 'node:path'
import { afterAll, describe, expect } from 'vitest'
import { makeUser } from '../support/console-client.js'
import { axeReport, axeViolations } from './support/axe.js'
import { SCREENSHOTS, startStack, type Stack } from './support/stack.js'
import { consoleSignIn } from './support/ui.js'
import { test } from './support/fixtures.js'

const N = 45

describe(`the console's documents list`, () => {
  let stack: Stack
  let adaId: string

  test.beforeAll(async ({ browser }) => {
    stack = await startStack(browser)
    const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    const ada = await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
    adaId = ada.id
    // Document g: created 2g days ago (less an hour), "Agreement {46 - g}" (so the newest sorts last by
    // title), COMPLETED / PENDING / DRAFT by g % 3, made by Ada when g % 5 = 0 (else by an API token),
    // sent to "Signer g" <signerg@example.com>.
    await stack.host.db.query(
      `insert into envelopes (id, team_id, type, secondary_number, status, source, visibility, template_type, title, document_meta, created_at, created_by)
       select 'envelope_list' || g, $1, 'DOCUMENT', 1000 + g, (array['COMPLETED', 'PENDING', 'DRAFT'])[g % 3 + 1], 'DOCUMENT', 'EVERYONE', 'PRIVATE',
              'Agreement ' || lpad((46 - g)::text, 2, '0'), '{}'::jsonb, now() - make_interval(days => 2 * g) + interval '1 hour',
              case when g % 5 = 0 then $2 end
       from generate_series(1, $3::int) g`,
      [teamId, ada.id, N],
    )
    await stack.host.db.query(
      `insert into recipients (envelope_id, email, name, role, token)
       select 'envelope_list' || g, 'signer' || g || '@example.com', 'Signer ' || g, 'SIGNER', 'tok_list' || g from generate_series(1, $1::int) g`,
      [N],
    )
  })
  afterAll(() => stack?.close())

  test('filters, sort, page and search live in the address; back and forward restore them', async () => {
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    const range = (text: string) => page.getByRole('status').filter({ hasText: text }).waitFor()
    const first = () => page.locator('.console-table tbody tr a').first().textContent()
    const query = () => new URL(page.url()).searchParams
    const check = async (name: string) => {
      await page.waitForLoadState('networkidle')
      await page.screenshot({ path: join(SCREENSHOTS, `console-documents-${name}-1280.png`), fullPage: true })
      expect(axeReport(`${name} at 1280`, await axeViolations(page))).toBe('')
      await page.setViewportSize({ width: 390, height: 844 })
      await page.screenshot({ path: join(SCREENSHOTS, `console-documents-${name}-390.png`), fullPage: true })
      expect(axeReport(`${name} at 390`, await axeViolations(page))).toBe('')
      await page.setViewportSize({ width: 1280, height: 900 })
    }
    const tab = (name: string) => page.getByRole('navigation', { name: 'Status' }).getByRole('link', { name: new RegExp(`^${name} `) })

    await consoleSignIn(page, stack.host.url, 'ada@example.com', 'E2E')
    await range(`1-20 of ${N}`)
    expect(await first()).toBe('Agreement 45')
    await expect.poll(() => tab('All').textContent()).toBe(`All ${N}`)
    expect(await tab('Completed').textContent()).toBe('Completed 15')
    expect(await tab('Draft').textContent()).toBe('Draft 15')
    expect(await tab('Waiting for signatures').textContent()).toBe('Waiting for signatures 15')
    await check('all')

    // A status tab, then a period: each a new address.
    await tab('Completed').click()
    await range('1-15 of 15')
    expect(query().get('status')).toBe('COMPLETED')
    expect(await tab('Completed').getAttribute('aria-current')).toBe('page')
    await page.getByLabel('Period').selectOption('7d')
    // Within 7 days: g = 1, 2, 3; completed: g = 3.
    await range('1-1 of 1')
    expect(Object.fromEntries(query())).toEqual({ status: 'COMPLETED', period: '7d' })
    await expect.poll(() => tab('All').textContent()).toBe('All 3')
    await check('completed-7d')

    // Back: the period goes, the tab stays; back again: everything; forward: the tab again.
    await page.goBack()
    await range('1-15 of 15')
    expect(await page.getByLabel('Period').inputValue()).toBe('')
    expect(await tab('Completed').getAttribute('aria-current')).toBe('page')
    await page.goBack()
    await range(`1-20 of ${N}`)
    expect(await tab('All').getAttribute('aria-current')).toBe('page')
    await page.goForward()
    await range('1-15 of 15')
    await page.goForward()
    await range('1-1 of 1')
    expect(await page.getByLabel('Period').inputValue()).toBe('7d')

    // Pages and sort.
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await range(`1-20 of ${N}`)
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next' }).click()
    await range(`21-40 of ${N}`)
    expect(query().get('page')).toBe('2')
    expect(await first()).toBe('Agreement 25')
    await page.getByLabel('Sort by').selectOption('title')
    await range(`1-20 of ${N}`)
    expect(Object.fromEntries(query())).toEqual({ sort: 'title' })
    expect(await first()).toBe('Agreement 01')
    await page.goBack()
    await range(`21-40 of ${N}`)
    expect(await page.getByLabel('Sort by').inputValue()).toBe('created')
    expect(await first()).toBe('Agreement 25')
    await check('page-2')

    // Sender and creator.
    await page.getByLabel('Sender').selectOption(adaId)
    await range('1-9 of 9')
    await page.getByLabel('Created by').selectOption('me')
    await range('1-9 of 9')
    await page.getByLabel('Created by').selectOption('api')
    await page.getByText('Nothing matches this search.').waitFor()
    await page.getByLabel('Sender').selectOption('')
    await range('1-20 of 36')
    expect(Object.fromEntries(query())).toEqual({ owner: 'api' })

    // The search: by a recipient's name; back brings the empty box and the whole list again.
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await range(`1-20 of ${N}`)
    await page.getByLabel('Search', { exact: true }).fill('Signer 7')
    await page.getByRole('button', { name: 'Search' }).click()
    await range('1-1 of 1')
    expect(await first()).toBe('Agreement 39')
    expect(query().get('query')).toBe('Signer 7')
    await check('search')
    await page.goBack()
    await range(`1-20 of ${N}`)
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('')
    await page.goForward()
    await range('1-1 of 1')
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('Signer 7')

    // A reload of a filtered address shows the same list.
    await page.goto(`${stack.host.url}/console/documents?status=PENDING&sort=title&page=1`)
    await range('1-15 of 15')
    expect(await page.getByLabel('Sort by').inputValue()).toBe('title')

    expect(errors).toEqual([])
    await context.close()
  })
})
