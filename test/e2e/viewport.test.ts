// Auto-height embeds on a customer's page with content above and below the frame: whatever part
// of the tall frame the user has scrolled to, a dialog opens inside the parent's viewport, the
// control that opened it stays in view, and opening it does not move the customer's page.
import type { FrameLocator, Locator, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { DESKTOP, PHONE, sendDocument, signing, signShot, type FieldIn } from './support/sign.js'
import { pdfFile } from './support/pdf.js'
import { createEnvelope, mount, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const field = (type: string, page: number, y: number, label?: string): FieldIn => ({
  type, page, positionX: 30, positionY: y, width: 30, height: type === 'SIGNATURE' ? 7 : 4,
  ...(label ? { fieldMeta: { type: 'text', label, required: true } } : {}),
})

/** The customer's page: 700 px of its own content above the component, 1500 px below. */
async function customerPage(page: Page) {
  await page.evaluate(() => {
    const block = (h: number, text: string) => {
      const d = document.createElement('div')
      d.style.cssText = `height:${h}px;background:repeating-linear-gradient(#dde3ec 0 20px,#eef1f5 20px 40px)`
      d.textContent = text
      return d
    }
    const root = document.getElementById('root')!
    root.before(block(700, 'Customer content above'))
    root.after(block(1500, 'Customer content below'))
  })
}

type Box = { x: number; y: number; width: number; height: number }
const viewportOf = (page: Page) => page.evaluate(() => ({ width: innerWidth, height: innerHeight, scrollY: Math.round(scrollY) }))
const inside = (b: Box, vh: number) => b.y >= -1 && b.y + b.height <= vh + 1
const visible = (b: Box, vh: number) => b.y + b.height > 0 && b.y < vh

/** Scrolls the customer's page so that the frame's point `y` (CSS px from its top) is at viewport height `at`. */
async function scrollFrameTo(page: Page, y: number, at: number) {
  await page.evaluate(([y, at]) => {
    const top = document.querySelector('iframe')!.getBoundingClientRect().top + scrollY
    scrollTo(0, top + y - at)
  }, [y, at] as const)
  // The viewport message follows on the next animation frame.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
}

async function frameY(page: Page, el: Locator) {
  const [b, f] = await Promise.all([el.boundingBox(), page.locator('iframe').boundingBox()])
  return b!.y - f!.y
}

/** Opens a dialog with `control` and checks where it and the control are; returns the dialog. */
async function opensInView(page: Page, frame: FrameLocator, control: Locator, dialogName: string, o: { pageMayMove: boolean }) {
  const before = await viewportOf(page)
  // A pointer click where the control is (no scrolling to it first, as a locator's click would).
  const at = (await control.boundingBox())!
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2)
  const dialog = frame.getByRole('dialog', { name: dialogName })
  const box = dialog.locator('.dialog-box')
  await box.waitFor()
  // The parent scrolls only when the visible part was too short for the dialog; then it settles
  // with the dialog in view, and the control in view and not under it.
  const where = async () => {
    const [d, c] = [(await box.boundingBox())!, (await control.boundingBox())!]
    return { dialogInView: inside(d, before.height), controlInView: visible(c, before.height), apart: c.y + c.height <= d.y + 1 || d.y + d.height <= c.y + 1 }
  }
  await expect.poll(where).toEqual({ dialogInView: true, controlInView: true, apart: true })
  const after = await viewportOf(page)
  if (!o.pageMayMove) expect(after.scrollY).toBe(before.scrollY)
  // It stays put: no late scroll from focus.
  await page.waitForTimeout(300)
  expect((await viewportOf(page)).scrollY).toBe(after.scrollY)
  expect(inside((await box.boundingBox())!, after.height)).toBe(true)
  return dialog
}

for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  describe(`autoHeight signing embed (${name} ${viewport.width}×${viewport.height})`, () => {
    test('field dialogs, the signature dialog and the completion dialog open where the user looks', async () => {
      const doc = await sendDocument(stack, {
        title: 'Tall contract',
        pages: 3,
        recipients: [{
          email: 'tall@example.com', name: 'Tara Tall', role: 'SIGNER',
          fields: [field('TEXT', 1, 12, 'Reference'), field('TEXT', 2, 50, 'City'), field('SIGNATURE', 3, 80)],
        }],
      })
      const { page, frame } = await mount(stack, 'EmbedSignDocument', { token: doc.recipient('tall@example.com').token, autoHeight: true }, viewport)
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      await customerPage(page)
      await frame.getByTestId('sign-document').waitFor()
      // The recipient agrees to sign electronically first (docs/consent.md).
      await signing(page, frame).agree()
      // The frame has grown to the document: far taller than the viewport.
      await expect.poll(async () => (await page.locator('iframe').boundingBox())!.height).toBeGreaterThan(viewport.height * 2)

      const byLabel = (label: string) => frame.getByRole('button', { name: new RegExp(`^${label}, required, `) })

      // 1. Only the frame's top shows, at the bottom of the viewport (above the signing bar, which
      //    rests at the bottom of what is visible of the frame).
      const reference = byLabel('Reference')
      const bar = (await frame.getByTestId('sign-bar').boundingBox())!.height
      await scrollFrameTo(page, await frameY(page, reference), viewport.height - bar - 60)
      let dialog = await opensInView(page, frame, reference, 'Reference', { pageMayMove: true })
      await signShot(page, `viewport-${name}-top-edge`)
      await dialog.getByRole('textbox', { name: 'Reference' }).fill('R-1')
      await dialog.getByRole('button', { name: 'Save' }).click()
      await dialog.waitFor({ state: 'detached' })

      // 2. The middle of the tall frame (page 2) fills the viewport: the page does not move at all.
      const city = byLabel('City')
      await scrollFrameTo(page, await frameY(page, city), viewport.height / 2)
      dialog = await opensInView(page, frame, city, 'City', { pageMayMove: false })
      await signShot(page, `viewport-${name}-middle`)
      await dialog.getByRole('textbox', { name: 'City' }).fill('Lyon')
      await dialog.getByRole('button', { name: 'Save' }).click()
      await dialog.waitFor({ state: 'detached' })

      // 3. Near the end of the frame, the customer's content below in view: the signature dialog.
      const signature = byLabel('Signature')
      await scrollFrameTo(page, await frameY(page, signature), 120)
      dialog = await opensInView(page, frame, signature, 'Your signature', { pageMayMove: true })
      await signShot(page, `viewport-${name}-signature`)
      await dialog.getByRole('tab', { name: 'Type' }).click()
      await dialog.getByRole('button', { name: 'Adopt and sign' }).click()
      await dialog.waitFor({ state: 'detached' })

      // 4. The signing bar rests at the bottom of what the user sees of the frame, wherever that is;
      //    its action opens the confirmation there too.
      await scrollFrameTo(page, 900, viewport.height / 2)
      const complete = frame.getByTestId('sign-bar').getByRole('button', { name: 'Complete signing', exact: true })
      await expect.poll(async () => inside((await complete.boundingBox())!, viewport.height)).toBe(true)
      dialog = await opensInView(page, frame, complete, 'Sign the document?', { pageMayMove: false })
      await signShot(page, `viewport-${name}-complete`)
      expect(errors).toEqual([])
      await page.close()
    })

    test('"Next field" asks the parent to bring the field into view', async () => {
      const doc = await sendDocument(stack, {
        title: 'Guided',
        pages: 3,
        recipients: [{ email: 'guided@example.com', name: 'Gus', role: 'SIGNER', fields: [field('TEXT', 3, 70, 'Postcode'), field('SIGNATURE', 3, 85)] }],
      })
      const { page, frame } = await mount(stack, 'EmbedSignDocument', { token: doc.recipient('guided@example.com').token, autoHeight: true }, viewport)
      await customerPage(page)
      await frame.getByTestId('sign-document').waitFor()
      // The recipient agrees to sign electronically first (docs/consent.md).
      await signing(page, frame).agree()
      await expect.poll(async () => (await page.locator('iframe').boundingBox())!.height).toBeGreaterThan(viewport.height * 2)
      await scrollFrameTo(page, 0, viewport.height / 2)
      const postcode = frame.getByRole('button', { name: /^Postcode, required, / })
      expect(visible((await postcode.boundingBox())!, viewport.height)).toBe(false)
      await frame.getByTestId('sign-bar').getByRole('button', { name: 'Complete signing', exact: true }).click()
      await expect.poll(async () => inside((await postcode.boundingBox())!, viewport.height)).toBe(true)
      // The page asked; the library scrolled the customer's page.
      const asked = await page.evaluate(() => window.messages.filter((m) => (m.data as { type?: string })?.type === 'embed-scroll').length)
      expect(asked).toBeGreaterThan(0)
      await page.close()
    })
  })
}

describe('autoHeight authoring embeds (V2 and V1)', () => {
  for (const component of ['EmbedUpdateEnvelope', 'EmbedUpdateDocumentV1'] as const) {
    test(`${component}: the top bar and the field tools stay in the visible part of a tall frame`, async () => {
      const env = await createEnvelope(stack, {
        type: 'DOCUMENT',
        title: 'Tall draft',
        files: [await pdfFile('Tall.pdf', 3)],
        recipients: [{ name: 'Tina', email: 'tina@example.com', role: 'SIGNER', fields: [{ identifier: 0, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 24, height: 7 }] }],
      })
      const documentId = Number(/^document_(\d+)$/.exec(env.secondaryId)![1])
      const token = await stack.presign({ scope: component === 'EmbedUpdateEnvelope' ? { kind: 'envelopeId', id: env.id } : { kind: 'documentId', id: documentId } })
      const props = component === 'EmbedUpdateEnvelope' ? { envelopeId: env.id } : { documentId }
      const { page, frame } = await mount(stack, component, { presignToken: token, ...props, onlyEditFields: true, autoHeight: true }, DESKTOP)
      await customerPage(page)
      await frame.getByRole('heading', { name: 'Fields', level: 2 }).waitFor()
      await expect.poll(async () => (await page.locator('iframe').boundingBox())!.height).toBeGreaterThan(DESKTOP.height * 2)
      // Scrolled to the middle of the frame: the save action and the tools are where the user looks.
      await scrollFrameTo(page, 1500, DESKTOP.height / 2)
      const save = frame.getByRole('button', { name: 'Save changes' }).first()
      await expect.poll(async () => inside((await save.boundingBox())!, DESKTOP.height)).toBe(true)
      const tool = frame.getByRole('button', { name: 'Signature', exact: true })
      await expect.poll(async () => inside((await tool.boundingBox())!, DESKTOP.height)).toBe(true)
      await signShot(page, `viewport-${component}`)
      await page.close()
    })
  }
})
