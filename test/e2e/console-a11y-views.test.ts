/**
 * The console's screens in the dark theme (contrast: the one thing the theme changes, the other
 * rules are held by console-a11y.test.ts on the same screens) and as a member sees them (every
 * rule, at both widths: a member's screens hold other controls).
 */
import { afterAll, describe } from 'vitest'
import { settled, startConsoleScreens, SWEEP_TIMEOUT, type ConsoleScreens } from './support/console-screens.js'
import { BOTH_WIDTHS, sweep, type Pass } from './support/screen-checks.js'
import { test } from './support/fixtures.js'

let screens: ConsoleScreens

test.beforeAll(async ({ browser }) => {
  screens = await startConsoleScreens(browser)
}, SWEEP_TIMEOUT)
afterAll(() => screens?.close())

describe.concurrent('the console in the dark theme and as a member', () => {
  test('in the dark theme: every screen and state keeps its contrast', async ({ expect }) => {
    const dark: Pass = { tag: '-dark', sizes: [[1280, 900]], keyboard: false, rules: { only: ['color-contrast'] } }
    const signedOutContext = await screens.stack.browser.newContext({ locale: 'en-US', colorScheme: 'dark' })
    const found = await sweep(signedOutContext, screens.stack.host.url, screens.signedOut(), dark)
    await signedOutContext.close()
    const context = await screens.signedInAs('ada@example.com', { colorScheme: 'dark' })
    found.push(...(await sweep(context, screens.stack.host.url, screens.signedIn(), dark)))
    await context.close()
    expect(found.join('\n')).toBe('')
  }, SWEEP_TIMEOUT)

  test('signed in as a member: the screens a member sees, settings they may not change included', async ({ expect }) => {
    const context = await screens.signedInAs('mia@example.com')
    const visits = screens
      .signedIn()
      .filter((v) => v.pattern !== null)
      .map((v) => ({ ...v, name: `member-${v.name}`, ready: settled, states: [] }))
    const found = await sweep(context, screens.stack.host.url, visits, BOTH_WIDTHS)
    await context.close()
    expect(found.join('\n')).toBe('')
  }, SWEEP_TIMEOUT)
})
