// Small defects of the signing and authoring pages, each checked at 1280 × 900 and 390 × 844 with
// a screenshot of the state: the signature dialog of an auto-height frame shows all of its Type tab;
// the editor at 390 px shows the placing hint, whole step tabs, and an inspector that fits; a new
// envelope's time zone and date format are the author's browser's; the Signer story, signed, can be
// played again; a long document's pages out of view wait without a spinner turning (nothing animates
// on a page left open).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { demoBackend } from '../../.storybook/demo-backend.js'
import { pdfFile } from './support/pdf.js'
import { DESKTOP, openPage, PHONE, sendDocument, signing, signShot } from './support/sign.js'
import { editor } from './support/ui.js'
import { callback, createEnvelope, mount, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const VIEWPORTS = [['desktop', DESKTOP], ['phone', PHONE]] as const
const painted = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))

describe('signature dialog in an auto-height frame', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`${name}: the Type tab, taller than the Draw tab it opened with, is shown whole inside the frame`, async () => {
      const email = `short-${name}@example.com`
      const doc = await sendDocument(stack, {
        title: `Dialog ${name}`,
        pages: 3,
        recipients: [{ email, name: 'Sam Short', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 2, positionX: 30, positionY: 50, width: 30, height: 7 }] }],
      })
      const { page, frame } = await mount(stack, 'EmbedSignDocument', { token: doc.recipient(email).token, autoHeight: true }, viewport)
      await frame.getByTestId('sign-document').waitFor()
      // The recipient agrees to sign electronically first (docs/consent.md).
      await signing(page, frame).agree()
      await expect.poll(async () => (await page.locator('iframe').boundingBox())!.height).toBeGreaterThan(viewport.height * 2)
      const field = frame.getByRole('button', { name: /^Signature, required/ })
      const dialog = frame.getByRole('dialog', { name: 'Your signature' })
      const box = dialog.locator('.dialog-box')

      // The Draw tab's height, measured where there is room for it.
      await field.scrollIntoViewIfNeeded()
      await field.click()
      await dialog.getByRole('tab', { name: 'Draw', selected: true }).waitFor()
      const draw = (await box.boundingBox())!.height
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'detached' })

      // The parent scrolled so that below the field there is just room for the Draw tab, above it less.
      const f = (await field.boundingBox())!
      await page.evaluate((dy) => scrollBy(0, dy), f.y + f.height - (viewport.height - draw - 30))
      await painted(page)
      const at = (await field.boundingBox())!
      await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2)
      await dialog.getByRole('tab', { name: 'Type' }).click()

      // All of it shows (no part of the body scrolled away), inside the frame and the viewport.
      const where = async () => {
        const [d, i] = [(await box.boundingBox())!, (await page.locator('iframe').boundingBox())!]
        const cut = await box.locator('.dialog-body').evaluate((el) => el.scrollHeight - el.clientHeight)
        return { cut, inFrame: d.y >= i.y && d.y + d.height <= i.y + i.height, inViewport: d.y >= 0 && d.y + d.height <= viewport.height }
      }
      await expect.poll(where).toEqual({ cut: 0, inFrame: true, inViewport: true })
      await signShot(page, `small-signature-type-${name}`)
      await dialog.getByRole('textbox', { name: 'Type your name' }).fill('Sam S. Short')
      await dialog.getByRole('button', { name: 'Adopt and sign' }).click()
      await dialog.waitFor({ state: 'detached' })
      await expect.poll(() => field.getAttribute('data-state')).toBe('filled')
      await page.close()
    })
  }
})

describe('the editor in a narrow frame', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`${name}: whole step labels, the placing hint, and an inspector with every control reachable beside the field it edits`, async () => {
      const env = await createEnvelope(stack, {
        type: 'DOCUMENT',
        title: `Narrow ${name}`,
        files: [await pdfFile('Narrow.pdf', 2)],
        recipients: [{
          name: 'Nora Narrow', email: `nora-${name}@example.com`, role: 'SIGNER',
          fields: [{ identifier: 0, type: 'CHECKBOX', page: 1, positionX: 20, positionY: 82, width: 30, height: 6, fieldMeta: { type: 'checkbox', label: 'Extras', options: ['Parking', 'Storage'] } }],
        }],
      })
      const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
      const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id }, viewport)
      const nav = frame.getByRole('navigation')
      await nav.getByRole('button', { name: /Fields/ }).click()
      await frame.getByRole('heading', { name: 'Fields', level: 2 }).waitFor()

      // Every step's label whole, and the step inside the frame's width.
      const steps = await nav.getByRole('button').evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect()
          const label = el.querySelector('.step-label')!
          return { label: label.textContent, whole: el.scrollWidth <= el.clientWidth && label.scrollWidth <= label.clientWidth + 1, inside: r.left >= 0 && r.right <= innerWidth }
        }),
      )
      // Soft: each of the three narrow-width defects is reported on its own.
      expect.soft(steps).toEqual(['Files', 'Recipients', 'Fields', 'Settings'].map((label) => ({ label, whole: true, inside: true })))

      // How to place a field, said beside the field types.
      const hint = frame.locator('#palette-help')
      expect.soft((await hint.innerText()).trim()).toMatch(name === 'phone' ? /^Tap a type, then tap a page/ : /^Pick a type, then click a page/)
      await signShot(page, `small-editor-fields-${name}`)

      // The field selected: the inspector's controls all reachable and none covered; the field in
      // view, not under the inspector or the bars.
      await frame.getByTestId('field-box').first().click()
      const inspector = frame.getByTestId('inspector')
      await inspector.waitFor()
      const uncovered = (el: Element) => {
        const r = el.getBoundingClientRect()
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
        return r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= innerWidth + 1 && !!hit && (el === hit || el.contains(hit))
      }
      const field = frame.locator('.field-box[data-selected]')
      await expect.poll(() => field.evaluate(uncovered)).toBe(true)
      await signShot(page, `small-editor-inspector-${name}`)
      // The field tools, stuck under the top bar as the page scrolled to the field, are not under it.
      const toolsGap = await frame.locator('.tools').evaluate((tools) => tools.getBoundingClientRect().top - document.querySelector('.topbar')!.getBoundingClientRect().bottom)
      expect.soft(toolsGap).toBeGreaterThanOrEqual(-1)
      const controls = await inspector.locator('select, input, button').evaluateAll((els, fn) => {
        const check = new Function(`return (${fn})`)() as (el: Element) => boolean
        return els.map((el) => {
          el.scrollIntoView({ block: 'nearest' })
          return { control: el.getAttribute("aria-label") ?? el.id ?? el.textContent, reachable: check(el) }
        })
      }, uncovered.toString())
      expect(controls.length).toBeGreaterThan(10)
      expect(controls.filter((c) => !c.reachable)).toEqual([])
      // The inspector works: a new label shows on the field.
      await inspector.getByLabel('Label').fill('Add-ons')
      await expect.poll(() => field.innerText()).toContain('Add-ons')
      await page.close()
    })
  }
})

describe("a new envelope's time zone and date format", () => {
  const browsers = [
    { name: 'desktop', viewport: DESKTOP, timezoneId: 'America/New_York', locale: 'de-DE', dateFormat: 'dd.MM.yyyy HH:mm' },
    { name: 'phone', viewport: PHONE, timezoneId: 'Asia/Tokyo', locale: 'en-US', dateFormat: 'MM/dd/yyyy hh:mm a' },
  ]
  for (const b of browsers) {
    test(`${b.name}: the author's browser (${b.timezoneId}, ${b.locale}) fills the Settings step, and that is what is saved`, async () => {
      const context = await stack.browser.newContext({ viewport: b.viewport, timezoneId: b.timezoneId, locale: b.locale })
      const page = await context.newPage()
      await page.goto(stack.parentUrl)
      const props = { host: stack.host.url, presignToken: await stack.presign(), type: 'TEMPLATE' }
      await page.evaluate((p) => window.mount('EmbedCreateEnvelope', p), props)
      const frame = page.frameLocator('iframe')
      const ui = editor(page, frame)
      await callback(page, 'onReady')
      await ui.step(/Settings/).click()
      expect(await frame.getByLabel('Time zone').inputValue()).toBe(b.timezoneId)
      expect(await frame.getByLabel('Date format').inputValue()).toBe(b.dateFormat)
      await signShot(page, `small-settings-defaults-${b.name}`)
      if (b.name === 'desktop') {
        await ui.step(/Files/).click()
        await ui.addFiles([await pdfFile('Zoned.pdf', 1)])
        await frame.getByText('1 page').waitFor()
        await ui.step(/Recipients/).click()
        await ui.addRecipient('Zoe Zone', 'zoe@example.com')
        await ui.step(/Fields/).click()
        await ui.placeByClick('Name', 0, 1, 0.5, 0.5)
        await frame.getByRole('button', { name: 'Create template' }).first().click()
        const { envelopeId } = await callback(page, 'onEnvelopeCreated')
        const env = await stack.api('GET', `/envelope/${envelopeId}`)
        expect(env.documentMeta).toMatchObject({ timezone: b.timezoneId, dateFormat: b.dateFormat })
      }
      await context.close()
    })
  }
})

/** The stories' demo backend (.storybook/demo-backend.ts) on a server of its own, for this stack's team. */
async function demoServer(stack: Stack) {
  process.env.ENVELOPE_HOST_URL = stack.host.url
  process.env.ENVELOPE_API_KEY = stack.apiToken
  delete process.env.ENVELOPE_WEBHOOK_SECRET
  type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void
  let handle: Middleware | undefined
  const configure = demoBackend().configureServer as (server: unknown) => void
  configure({ middlewares: { use: (fn: Middleware) => (handle = fn) } })
  const server = createServer((req, res) => handle!(req, res, () => res.writeHead(404).end()))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    /** What the Signer story's loader asks for (stories/support/demo.ts signingLoader). */
    signing: async (key: string) => {
      const res = await fetch(`${url}/demo/signing`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ signingOrder: 'SEQUENTIAL', key }) })
      expect(res.status).toBe(200)
      return (await res.json()) as { envelopeId: string; recipients: { token: string }[] }
    },
    close: () => new Promise((r) => server.close(r)),
  }
}

describe('the Signer story, played twice', () => {
  test('its loader answers a fresh document once the signer has signed: the second play is ready to sign, at 1280 and 390 px', async () => {
    const demo = await demoServer(stack)
    const key = 'components-embedsigndocument--signer'
    // Viewed again before anyone acts: the same document (no new one sent and e-mailed).
    const first = await demo.signing(key)
    expect((await demo.signing(key)).envelopeId).toBe(first.envelopeId)

    // First play, at 1280 px: the story's render, signed through.
    const one = await mount(stack, 'EmbedSignDocument', { token: first.recipients[0]!.token }, DESKTOP)
    const s = signing(one.page, one.frame)
    await s.ready()
    await s.typeText('Company', 'Acme')
    await s.typeSignature()
    await s.complete()
    await one.frame.getByTestId('sign-done').waitFor()
    await one.page.close()

    // Played again, at 390 px: another document, its signing page ready, not "already done".
    const second = await demo.signing(key)
    expect(second.envelopeId).not.toBe(first.envelopeId)
    const two = await mount(stack, 'EmbedSignDocument', { token: second.recipients[0]!.token }, PHONE)
    await signing(two.page, two.frame).ready()
    expect(await two.frame.getByTestId('sign-done').count()).toBe(0)
    // The signing bar's buttons ("Next field", "Complete signing · 2 left") stay inside the frame.
    const overflow = await two.frame.locator('.sign-bar-actions .btn').evaluateAll((buttons) =>
      buttons.filter((b) => b.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((b) => b.textContent),
    )
    expect(overflow).toEqual([])
    await signShot(two.page, 'small-story-replayed-phone')
    await two.page.close()
    await demo.close()
  })
})

describe('a long document left open', () => {
  test('pages far out of view wait without a spinner, and are drawn as they come near: nothing animates while the signer reads', async () => {
    const email = 'long@example.com'
    const doc = await sendDocument(stack, {
      title: 'Long terms',
      pages: 12,
      recipients: [{ email, name: 'Lee Long', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 12, positionX: 30, positionY: 50, width: 30, height: 7 }] }],
    })
    const { page, context, errors } = await openPage(stack, doc.recipient(email).signingUrl, PHONE)
    const s = signing(page)
    await s.ready()
    const last = page.locator('.sign-page[data-page="12"]')
    // Far below: not drawn yet, and no spinner turning for it (a page would otherwise paint frames
    // for as long as it stays open).
    expect(await last.locator('.page-loading').count()).toBe(1)
    expect(await last.locator('.spinner').count()).toBe(0)
    // The pages near the view are drawn (their spinners gone); then nothing turns at all.
    await expect.poll(() => page.locator('.page-loading .spinner').count()).toBe(0)
    await painted(page)
    expect(await page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').map((a) => (a.effect as KeyframeEffect | null)?.target?.className ?? a.constructor.name))).toEqual([])
    // Scrolled to, it is drawn.
    await last.scrollIntoViewIfNeeded()
    await last.locator('.page-loading').waitFor({ state: 'detached' })
    expect(errors).toEqual([])
    await context.close()
  })
})
