/**
 * The browser tests' shared set-up, as Vitest fixtures (docs/development.md).
 *
 * Files share their worker's process (`isolate: false`): `browser` is one Chromium for all the
 * files a worker runs, launched the first time a file asks. What a test touches is its own
 * context (`stack.browser.newContext`, `mount`), so nothing of one test's pages reaches another's.
 *
 *   import { test } from './support/fixtures.js'
 *   test.beforeAll(async ({ browser }) => { stack = await startStack(browser) })
 */
import { chromium, type Browser } from 'playwright-core'
import { test as base } from 'vitest'
import { chromiumLaunchOptions } from '../../support/chromium.js'

export const test = base.extend('browser', { scope: 'worker' }, async ({}, { onCleanup }): Promise<Browser> => {
  const browser = await chromium.launch(chromiumLaunchOptions)
  onCleanup(() => browser.close())
  return browser
})

export { describe, expect } from 'vitest'
