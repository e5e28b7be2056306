// A document in Chinese: its signing page speaks Simplified Chinese with the root element's
// language set, so the browser draws the text in a Chinese font; axe-core finds no serious or
// critical violation, on a desktop and a phone. The pages ship no CJK webfont (megabytes for every
// signer): a reader's system has CJK fonts, as Windows, macOS, iOS and Android do. This machine's
// Chromium has none, so it is given those of the host's PDF fonts (Noto Sans SC, JP, KR) through a
// fontconfig file of its own, as a reader's device would offer them.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chromiumLaunchOptions } from '../support/chromium.js'
import { axeReport, axeViolations } from './support/axe.js'
import { DESKTOP, openPage, PHONE, sendDocument, sig, signing, signShot, text } from './support/sign.js'
import { startStack, type Stack } from './support/stack.js'

const require = createRequire(import.meta.url)
const fontDirs = ['sc', 'jp', 'kr'].map((s) => dirname(require.resolve(`@expo-google-fonts/noto-sans-${s}/400Regular/index.js`)))
const conf = mkdtempSync(join(tmpdir(), 'cjk-fonts-'))
writeFileSync(
  join(conf, 'fonts.conf'),
  `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n${fontDirs.map((d) => `  <dir>${d}</dir>\n`).join('')}  <cachedir>${conf}</cachedir>\n</fontconfig>\n`,
)

// Chromium reads fontconfig's file once, from its environment: this file's own Chromium, not the
// worker's (the other files keep the machine's fonts).
let browser: Browser
let stack: Stack
beforeAll(async () => {
  browser = await chromium.launch({ ...chromiumLaunchOptions, env: { ...process.env, FONTCONFIG_FILE: join(conf, 'fonts.conf') } })
  stack = await startStack(browser)
})
afterAll(async () => {
  try {
    await stack?.close()
  } finally {
    await browser?.close()
  }
})

for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  test(`a Chinese signing page speaks Chinese, drawn in a Chinese font (${size})`, async () => {
    const email = `wang-${size}@example.cn`
    const doc = await sendDocument(stack, {
      title: 'Lease',
      meta: { language: 'zh' },
      recipients: [{ email, name: '王伟', role: 'SIGNER', fields: [sig(10, 70), text('城市', 10, 10)] }],
    })
    const { page, context, errors } = await openPage(stack, doc.recipient(email).signingUrl, viewport)
    await page.waitForFunction(() => document.documentElement.lang === 'zh')
    await page.getByRole('heading', { name: '同意以电子方式签署' }).waitFor()
    await signShot(page, `sign-zh-consent-${size}`)
    await signing(page).ready()
    await expect.poll(() => page.getByText('请查阅文件，填写突出显示的字段并签署。').isVisible()).toBe(true)
    await expect.poll(() => page.getByText('以 王伟（' + email + '）的身份签署').isVisible()).toBe(true)

    // The fonts Chromium drew the intro with: a Chinese one, not boxes of a font without the characters.
    const cdp = await context.newCDPSession(page)
    const { root } = await cdp.send('DOM.getDocument')
    await cdp.send('CSS.enable')
    const intro = await page.getByText('请查阅文件，填写突出显示的字段并签署。').evaluate((el) => {
      el.setAttribute('data-font-probe', '')
      return el.tagName
    })
    expect(intro).toBeTruthy()
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-font-probe]' })
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
    expect(fonts.map((f) => f.familyName)).toContain('Noto Sans SC')

    await signShot(page, `sign-zh-${size}`, true)
    expect(axeReport(`Chinese signing page (${size})`, await axeViolations(page))).toBe('')
    expect(errors).toEqual([])
    await context.close()
  })
}
