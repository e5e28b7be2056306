/**
 * The console's screens in other languages on a phone: nothing spills over either edge and every
 * control keeps a name. Hebrew reads right to left, German and Dutch have the longest words and
 * labels, Spanish the longest phrases. Colours do not change with the language: contrast is held
 * by console-a11y.test.ts on the same screens, and skipped here. A11Y_LANGUAGES=fr,it,… checks
 * others (each passed when this was written).
 */
import { afterAll, describe } from 'vitest'
import { settled, startConsoleScreens, SWEEP_TIMEOUT, type ConsoleScreens } from './support/console-screens.js'
import { sweep } from './support/screen-checks.js'
import { test } from './support/fixtures.js'

let screens: ConsoleScreens

test.beforeAll(async ({ browser }) => {
  screens = await startConsoleScreens(browser)
}, SWEEP_TIMEOUT)
afterAll(() => screens?.close())

describe.concurrent('the console in other languages, on a phone', () => {
  for (const language of process.env.A11Y_LANGUAGES?.split(',') ?? ['he', 'de', 'nl', 'es']) {
    test(`in ${language}: nothing spills over either edge, every name holds its visible words`, async ({ expect }) => {
      const context = await screens.signedInAs('ada@example.com', { locale: language })
      const visits = screens.signedIn().map((v) => ({ ...v, ready: settled, states: [] }))
      const pass = { tag: `-${language}`, sizes: [[390, 844]] as const, keyboard: false, rules: { skip: ['color-contrast'] } }
      const found = await sweep(context, screens.stack.host.url, visits, pass)
      await context.close()
      expect(found.join('\n')).toBe('')
    }, SWEEP_TIMEOUT)
  }
})
