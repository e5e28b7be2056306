// A document in Hebrew: its signing page is laid out right to left (the root element says so,
// for the browser to mirror the page) and axe-core finds no serious or critical violation in it,
// on a desktop and a phone.
import { afterAll, expect } from 'vitest'
import { axeReport, axeViolations } from './support/axe.js'
import { DESKTOP, openPage, PHONE, sendDocument, sig, signing, text } from './support/sign.js'
import { startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  test(`a Hebrew signing page reads right to left (${size})`, async () => {
    const email = `dana-${size}@example.com`
    const doc = await sendDocument(stack, {
      title: 'Lease',
      meta: { language: 'he' },
      recipients: [{ email, name: 'דנה כהן', role: 'SIGNER', fields: [sig(10, 70), text('City', 10, 10)] }],
    })
    const { page, context } = await openPage(stack, doc.recipient(email).signingUrl, viewport)
    await signing(page).ready()
    await page.waitForFunction(() => document.documentElement.lang === 'he')
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['he', 'rtl'])
    if (process.env.RTL_SHOTS) await page.screenshot({ path: `${process.env.RTL_SHOTS}/sign-he-${size}.png`, fullPage: true })
    expect(axeReport(`Hebrew signing page (${size})`, await axeViolations(page))).toBe('')
    await context.close()
  })
}
