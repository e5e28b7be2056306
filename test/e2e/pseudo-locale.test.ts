// A pseudo-locale run of the authoring and signing pages: the browser gets, for the German
// dictionary, every English text wrapped in ⟦ ⟧. Each text the pages show (and each label a screen
// reader reads) is then wrapped, or is the user's own data; a word written into the markup, or a
// text that bypasses the dictionary, shows bare.
import { afterAll, expect } from 'vitest'
import en from '../../host/shared/words/en/pages.js'
import { pdfFile } from './support/pdf.js'
import { sendDocument, sig } from './support/sign.js'
import { callback, SAFETY_NET, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { editor } from './support/ui.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const PSEUDO = `export default ${JSON.stringify(Object.fromEntries(Object.entries(en).map(([k, v]) => [k, `⟦${v}⟧`])))}`
/** What the user typed or chose, and names that are the same in every language. */
const OWN = ['Consulting agreement.pdf', 'Consulting agreement', 'Sam Signer', 'sam@example.com', 'Lease.pdf', 'Lease', 'SS', 'PDF', 'PNG', 'JPEG', 'https://']

/** Every visible text and accessible label of the frame that is not pseudo-localized. */
async function bare(frame: import('playwright-core').Frame | import('playwright-core').Page): Promise<string[]> {
  const texts = await frame.evaluate(() => {
    const out: string[] = []
    const shown = (el: Element) => !!(el as HTMLElement).offsetParent || getComputedStyle(el).position === 'fixed'
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement
      // The consent disclosure is the service's text, sent by the server in the page's language (docs/consent.md).
      if (!el || el.closest('select, option, script, style, .consent-text') || !shown(el)) continue
      out.push(n.textContent ?? '')
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (!shown(el) && el.tagName !== 'svg') continue
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (el.hasAttribute(a)) out.push(el.getAttribute(a)!)
    }
    return out
  })
  const left = (t: string) => OWN.reduce((s, own) => s.split(own).join(' '), t.replace(/⟦[^⟧]*⟧/g, ' '))
  return [...new Set(texts.filter((t) => /\p{L}{2,}/u.test(left(t))).map((t) => t.trim()))]
}

test('every text of the authoring steps comes from the dictionary', async () => {
  const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.route(/\/embed\/assets\/de-[\w-]+\.js$/, (route) => route.fulfill({ contentType: 'text/javascript', body: PSEUDO }))
  await page.goto(stack.parentUrl)
  await page.evaluate(([p]) => window.mount('EmbedCreateEnvelope', p as Record<string, unknown>), [
    { host: stack.host.url, presignToken: await stack.presign(), type: 'DOCUMENT', language: 'de', style: { height: '860px' } },
  ] as const)
  await callback(page, 'onReady')
  const frameLocator = page.frameLocator('iframe')
  const frame = page.frames().find((f) => f !== page.mainFrame())!
  const ui = editor(page, frameLocator)
  await expect.poll(() => frame.evaluate(() => document.body.innerText)).toContain('⟦')

  const seen: Record<string, string[]> = {}
  seen.files = await bare(frame)
  await ui.addFiles([await pdfFile('Consulting agreement.pdf', 2)])
  await expect.poll(() => frameLocator.getByTestId('file-row').count()).toBe(1)
  seen.filesAdded = await bare(frame)
  await frameLocator.locator('.step-footer .btn-secondary').click()
  seen.recipients = await bare(frame)
  await ui.addRecipient('Sam Signer', 'sam@example.com')
  seen.recipientAdded = await bare(frame)
  await frameLocator.locator('.step-footer .btn-secondary').click()
  await ui.page(0, 1).waitFor()
  seen.fields = await bare(frame)
  await frameLocator.locator('.step-footer .btn-secondary').click()
  seen.settings = await bare(frame)

  expect(Object.fromEntries(Object.entries(seen).filter(([, v]) => v.length))).toEqual({})
  await page.close()
})

test('every text of the signing page and its signature dialog comes from the dictionary', async () => {
  const doc = await sendDocument(stack, { title: 'Lease', meta: { language: 'de' }, recipients: [{ email: 'sam@example.com', name: 'Sam Signer', role: 'SIGNER', fields: [sig(10, 70)] }] })
  const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
  await context.route(/\/embed\/assets\/de-[\w-]+\.js$/, (route) => route.fulfill({ contentType: 'text/javascript', body: PSEUDO }))
  const page = await context.newPage()
  await page.goto(doc.recipient('sam@example.com').signingUrl)
  await page.getByTestId('sign-document').waitFor()
  await page.locator('.sign-page').first().locator('.page-loading').waitFor({ state: 'detached', timeout: SAFETY_NET })
  await expect.poll(() => page.evaluate(() => document.body.innerText)).toContain('⟦')

  // The consent notice is on the page too, then agreed to (docs/consent.md).
  await page.getByTestId('consent-notice').waitFor()
  const seen: Record<string, string[]> = {}
  seen.document = await bare(page)
  await page.getByTestId('consent-agree').click()
  await page.getByTestId('consent-notice').waitFor({ state: 'detached' })
  await page.getByRole('button', { name: /^⟦Signature⟧/ }).click()
  await page.getByRole('dialog').waitFor()
  seen.signatureDialog = await bare(page)

  expect(Object.fromEntries(Object.entries(seen).filter(([, v]) => v.length))).toEqual({})
  await context.close()
})
