// Small defects of the signing and authoring pages, each checked at 1280 × 900 and 390 × 844 with
// a screenshot of the state: the signature dialog of an auto-height frame shows all of its Type tab.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DESKTOP, PHONE, sendDocument, signShot } from './support/sign.js'
import { mount, startStack, type Stack } from './support/stack.js'

let stack: Stack
beforeAll(async () => {
  stack = await startStack()
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
