/**
 * Every screen of the console, signed in and signed out, at 1280 and 390 px, on a team with real
 * data (support/console-screens.ts): axe-core finds no serious or critical WCAG 2.2 A/AA
 * violation, nothing scrolls sideways, the page logs no error, and on a phone every control the
 * keyboard reaches is in sight with its focus ring. Each screen's open states (dialogs, the
 * editor, forms opened, a refused sign-in, the second-factor step) are checked the same way. The
 * screens come from the console's own route tables: a route added without a visit here fails the
 * test. The dark theme and a member's view: console-a11y-views.test.ts; other languages on a
 * phone: console-a11y-languages.test.ts (each file on a worker of its own).
 */
import { afterAll, describe } from 'vitest'
import { declaredPatterns } from './support/console-team.js'
import { heading, startConsoleScreens, SWEEP_TIMEOUT, type ConsoleScreens } from './support/console-screens.js'
import { sweep, type Visit } from './support/screen-checks.js'
import { test } from './support/fixtures.js'

let screens: ConsoleScreens

test.beforeAll(async ({ browser }) => {
  screens = await startConsoleScreens(browser)
}, SWEEP_TIMEOUT)
afterAll(() => screens?.close())

// The sweeps only read the seeded team (the one thing a state makes, an API token, no sweep
// counts), each in a context of its own: they run side by side.
describe.concurrent('every console screen, signed in and out, at 1280 and 390 px', () => {
  test('the visits cover every route the console declares', async ({ expect }) => {
    const declared = await declaredPatterns()
    expect(declared.length).toBeGreaterThan(10)
    const covered = new Set([...screens.signedOut(), ...screens.signedIn()].map((v) => v.pattern).filter((p) => p !== null))
    expect(declared.filter((p) => !covered.has(p)), 'routes no visit covers').toEqual([])
    expect([...covered].filter((p) => !declared.includes(p)), 'visits of routes that are gone').toEqual([])
  })

  test('signed out: no axe violation, no sideways scroll, no error', async ({ expect }) => {
    const context = await screens.stack.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    const found = await sweep(context, screens.stack.host.url, screens.signedOut())
    await context.close()
    expect(found.join('\n')).toBe('')
  }, SWEEP_TIMEOUT)

  // An admin's screens in two halves side by side, each well inside its limit on a busy machine.
  const papers = (v: Visit) => /^(documents|document-|templates|template)/.test(v.name)
  for (const [part, which] of [['documents and templates', papers], ['settings, account and the rest', (v: Visit) => !papers(v)]] as const) {
    test(`signed in as an admin, ${part}: no axe violation, no sideways scroll, no error, every control reached by keyboard in sight`, async ({ expect }) => {
      const visits = screens.signedIn().filter(which)
      expect(visits.length).toBeGreaterThan(3)
      const context = await screens.signedInAs('ada@example.com')
      const found = await sweep(context, screens.stack.host.url, visits)
      await context.close()
      expect(found.join('\n')).toBe('')
    }, SWEEP_TIMEOUT)
  }

  test('the keyboard: from the top, the first Tab shows the skip link, which takes the focus to the screen', async ({ expect }) => {
    const context = await screens.signedInAs('ada@example.com')
    const page = await context.newPage()
    await page.goto(`${screens.stack.host.url}/console/documents`)
    await heading('Documents')(page)
    // From the top of the page (the screen itself puts the focus on its title when it opens).
    await page.evaluate(() => {
      const top = document.createElement('span')
      top.tabIndex = -1
      document.body.prepend(top)
      top.focus()
    })
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to content' })
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true)
    const box = (await skip.boundingBox())!
    expect(box.width * box.height).toBeGreaterThan(24 * 24)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('content')
    // The next Tab goes on inside the screen, not back to the header.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => !!document.activeElement?.closest('#content'))).toBe(true)
    await context.close()
  }, SWEEP_TIMEOUT)
})
