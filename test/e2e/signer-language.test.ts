// The signer's language, in Chromium at desktop and phone width: the page starts in the language
// the sender chose for the document (English too), else in the browser's; the signer switches
// among the languages offered, and the choice holds across a reload. axe-core on the page with its
// picker.
import { afterAll, describe, expect } from 'vitest'
import { axeReport, axeViolations } from './support/axe.js'
import { DESKTOP, PHONE, sendDocument, sig, signing, signShot } from './support/sign.js'
import { startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack

test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(async () => {
  await stack?.close()
})

describe("the signer's language", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const size = viewport === PHONE ? 'phone' : 'desktop'
    test(`the document's if chosen, else the browser's; switched and kept (${size})`, async () => {
      const email = `lena-${size}@example.com`
      const plain = await sendDocument(stack, { title: `Plain ${size}`, recipients: [{ email, name: 'Lena', role: 'SIGNER', fields: [sig(10, 80)] }] })
      const english = await sendDocument(stack, { title: `English ${size}`, meta: { language: 'en' }, recipients: [{ email, name: 'Lena', role: 'SIGNER', fields: [sig(10, 80)] }] })
      const french = await sendDocument(stack, { title: `Bail ${size}`, meta: { language: 'fr' }, recipients: [{ email, name: 'Lena', role: 'SIGNER', fields: [sig(10, 80)] }] })
      // A browser in German.
      const context = await stack.browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'de-DE' })
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      const picker = page.getByTestId('sign-language')

      // The sender never chose a language: the browser's.
      await page.goto(plain.recipient(email).signingUrl)
      await page.getByTestId('sign-document').waitFor()
      await signing(page).ready()
      expect(await picker.inputValue()).toBe('de')
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de')
      await signShot(page, `signer-language-plain-${size}`)

      // The sender chose English: English, whatever the browser says.
      await page.goto(english.recipient(email).signingUrl)
      await signing(page).ready()
      expect(await picker.inputValue()).toBe('en')
      await signShot(page, `signer-language-english-${size}`)

      // The sender chose French: French, whatever the browser says.
      await page.goto(french.recipient(email).signingUrl)
      await signShot(page, `signer-language-start-${size}`)
      await signing(page).ready()
      expect(await picker.inputValue()).toBe('fr')
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr')

      // The signer picks Italian: the page is said again at once, and stays so after a reload.
      await picker.selectOption('it')
      await expect.poll(() => page.getByTestId('reject').textContent()).toBe('Rifiuta')
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('it')
      await page.reload()
      await signing(page).ready()
      expect(await picker.inputValue()).toBe('it')
      expect(axeReport('the signing page with its language picker', await axeViolations(page))).toBe('')
      await signShot(page, `signer-language-${size}`)
      expect(errors).toEqual([])
      await context.close()
    })
  }

  test("the browser's language matched to one offered: by its region-free form, else English", async () => {
    const email = 'noor@example.com'
    const plain = await sendDocument(stack, { title: 'Plain locales', recipients: [{ email, name: 'Noor', role: 'SIGNER', fields: [sig(10, 80)] }] })
    for (const [locale, shown] of [['fr-CA', 'fr'], ['pt', 'pt-BR'], ['sv-SE', 'en']]) {
      const context = await stack.browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1, locale })
      const page = await context.newPage()
      await page.goto(plain.recipient(email).signingUrl)
      await signing(page).ready({ consent: false })
      expect(await page.getByTestId('sign-language').inputValue(), locale).toBe(shown)
      await context.close()
    }
  })
})
