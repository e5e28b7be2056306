/**
 * The editor's layout in Chromium at 1280 and 390 px: its sticky top bar covers nothing the page
 * scrolls to (the step's heading brought into view by scrollIntoView or by focus, an input near
 * the top by focus), in a frame that scrolls itself and in an auto-height one, where the parent
 * scrolls (there a script's own scrollIntoView is the parent's to place, and Chrome leaves the
 * frame's margins out: the page's scrolls go through viewport.ts reveal()); a field type dragged to
 * the frame's bottom edge selects no text and lands whole in view, its corner handle free to drag;
 * the files step in the console's editor on a phone keeps the file name's input wide enough to
 * read. axe-core and
 * screenshots of each state.
 * On the embedded database only: nothing here depends on the database.
 */
import { join } from 'node:path'
import type { FrameLocator, Locator, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { makeUser } from '../support/console-client.js'
import { axeReport, axeViolations } from './support/axe.js'
import { createEnvelope, mount, SAFETY_NET, SCREENSHOTS, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { pdfFile } from './support/pdf.js'
import { consoleSignIn, editor } from './support/ui.js'

const WIDTHS = [
  { name: '1280', viewport: { width: 1280, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
]

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const lease = async () =>
  createEnvelope(stack, {
    type: 'DOCUMENT',
    title: 'Lease',
    files: [await pdfFile('Lease.pdf', 3)],
    recipients: [{ name: 'Tenant', email: 'tenant@example.com', role: 'SIGNER', fields: [{ identifier: 0, type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 24, height: 7 }] }],
  })

/**
 * Where `target` is, seen from the frame: whether the point at its centre is the element itself
 * (not the bar over it), whether it starts below the bar, and whether it is on the parent's screen.
 */
async function clearOfBar(page: Page, target: Locator) {
  const iframeTop = (await page.locator('iframe').boundingBox())!.y
  const seen = await target.evaluate((h) => {
    const r = h.getBoundingClientRect()
    const bar = document.querySelector('.topbar')!.getBoundingClientRect()
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    return { top: r.top, bottom: r.bottom, hit: hit === h || h.contains(hit), below: r.top >= bar.bottom }
  })
  const onScreen = iframeTop + seen.top >= 0 && iframeTop + seen.bottom <= page.viewportSize()!.height
  return { hit: seen.hit, below: seen.below, onScreen }
}
const CLEAR = { hit: true, below: true, onScreen: true }

/** The editor on the lease, at the fields step: its heading. */
async function atFields(page: Page, frame: FrameLocator) {
  await editor(page, frame).step(/Fields/).click()
  await frame.getByTestId('page').first().waitFor()
  return frame.getByRole('heading', { name: 'Fields', level: 2 })
}
/**
 * The settings step's first input, scrolled (by `scrollTo`, given its top in the frame) to sit under
 * the bar, then focused: on screen, so the browser alone would leave it there.
 */
async function focusTitleUnderBar(page: Page, frame: FrameLocator, scrollTo: (top: number) => Promise<unknown>) {
  await editor(page, frame).step(/Settings/).click()
  const title = frame.getByLabel('Title', { exact: true })
  await title.waitFor()
  await scrollTo(await title.evaluate((el) => el.getBoundingClientRect().top + window.scrollY))
  await expect.poll(() => clearOfBar(page, title)).toEqual({ hit: false, below: false, onScreen: true })
  await title.focus()
  return title
}

describe('the sticky top bar covers nothing the editor scrolls to', () => {
  for (const { name, viewport } of WIDTHS) {
    test(`a frame that scrolls itself: scrollIntoView and focus (${name})`, async () => {
      const env = await lease()
      const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
      const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, style: { height: `${viewport.height - 60}px` } }, viewport)
      const heading = await atFields(page, frame)
      const bottom = () => frame.locator('body').evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))

      await bottom()
      await heading.evaluate((h) => h.scrollIntoView())
      await expect.poll(() => clearOfBar(page, heading)).toEqual(CLEAR)
      await page.screenshot({ path: join(SCREENSHOTS, `editor-bar-scrolled-${name}.png`) })
      expect(axeReport(`the fields step scrolled to its heading at ${name}`, await axeViolations(frame))).toBe('')

      await heading.evaluate((h) => (h as HTMLElement).blur())
      await bottom()
      await heading.focus()
      await expect.poll(() => clearOfBar(page, heading)).toEqual(CLEAR)

      // A taller bar (a title that wraps, a larger font): what is scrolled to clears it all the same.
      await frame.locator('.topbar').evaluate((bar) => ((bar as HTMLElement).style.paddingBlock = '40px'))
      // The page learns the bar's new height from a ResizeObserver, after its next layout: scroll once it has.
      await expect
        .poll(() => frame.locator('.topbar').evaluate((bar) => `${(bar as HTMLElement).offsetHeight}px` === document.documentElement.style.getPropertyValue('--bar-height')))
        .toBe(true)
      await bottom()
      await heading.evaluate((h) => h.scrollIntoView())
      await expect.poll(() => clearOfBar(page, heading)).toEqual(CLEAR)
      await page.screenshot({ path: join(SCREENSHOTS, `editor-bar-tall-scrolled-${name}.png`) })

      const title = await focusTitleUnderBar(page, frame, (top) => frame.locator('body').evaluate((_, y) => window.scrollTo(0, y - 20), top))
      await expect.poll(() => clearOfBar(page, title)).toEqual(CLEAR)
      await page.close()
    })

    test(`an auto-height frame, where the parent scrolls: focus (${name})`, async () => {
      const env = await lease()
      const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
      const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, autoHeight: true }, viewport)
      const heading = await atFields(page, frame)
      await heading.evaluate((h) => (h as HTMLElement).blur())
      /** Scrolls the parent to `y` in the frame (the top of its view), once the bar has followed. */
      const parentTo = async (y: number) => {
        await page.evaluate((to) => window.scrollTo(0, document.querySelector('iframe')!.getBoundingClientRect().top + window.scrollY + to), y)
        const barOnScreen = async () => {
          const frameTop = (await page.locator('iframe').boundingBox())!.y
          return Math.round(frameTop + (await frame.locator('.topbar').evaluate((bar) => bar.getBoundingClientRect().top)) - Math.max(0, frameTop))
        }
        await expect.poll(barOnScreen, { timeout: SAFETY_NET }).toBe(0)
      }
      await parentTo(100_000)
      await heading.focus()
      await expect.poll(() => clearOfBar(page, heading)).toEqual(CLEAR)
      await page.screenshot({ path: join(SCREENSHOTS, `editor-bar-focused-auto-${name}.png`) })

      const title = await focusTitleUnderBar(page, frame, (top) => parentTo(top - 20))
      await expect.poll(() => clearOfBar(page, title)).toEqual(CLEAR)
      await page.screenshot({ path: join(SCREENSHOTS, `editor-bar-title-auto-${name}.png`) })
      await page.close()
    })
  }
})

describe('a field placed at the edge of the view', () => {
  test('a type dragged to the bottom edge selects no text and lands whole in view, its corner handle free to drag (1280)', async () => {
    const env = await lease()
    const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
    const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, style: { height: '840px' } })
    await atFields(page, frame)
    const iframe = (await page.locator('iframe').boundingBox())!
    const target = frame.getByTestId('page').nth(1)
    await target.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 200))
    const source = (await frame.getByRole('button', { name: 'Date', exact: true }).boundingBox())!
    const to = (await target.boundingBox())!
    await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2)
    await page.mouse.down()
    // Three pixels above the frame's bottom edge, over the page.
    await page.mouse.move(to.x + to.width * 0.6, iframe.y + iframe.height - 3, { steps: 8 })
    await page.mouse.up()
    const field = frame.locator('.field-box[data-selected]')
    await field.waitFor()
    expect(await frame.locator('body').evaluate(() => String(document.getSelection()))).toBe('')
    const room = () => field.locator('.field-box-handle').evaluate((h) => window.innerHeight - h.getBoundingClientRect().bottom)
    await expect.poll(room).toBeGreaterThanOrEqual(16)
    await page.screenshot({ path: join(SCREENSHOTS, 'editor-field-at-edge-1280.png') })
    const width = await field.evaluate((el) => parseFloat((el as HTMLElement).style.width))
    const handle = (await field.locator('.field-box-handle').boundingBox())!
    await page.mouse.move(handle.x + 4, handle.y + 4)
    await page.mouse.down()
    await page.mouse.move(handle.x + 60, handle.y + 10, { steps: 6 })
    await page.mouse.up()
    expect(await field.evaluate((el) => parseFloat((el as HTMLElement).style.width))).toBeGreaterThan(width + 5)
    await page.close()
  })
})

describe("the console's editor on a phone", () => {
  test('the file name keeps a readable width', async () => {
    const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
    const env = await lease()
    const context = await stack.browser.newContext({ viewport: WIDTHS[1]!.viewport, locale: 'en-US' })
    const page = await context.newPage()
    await consoleSignIn(page, stack.host.url, 'ada@example.com', 'E2E')
    await page.goto(`${stack.host.url}/console/documents/${env.id}?edit=1`)
    const frame = page.frameLocator('iframe[title="Editor"]')
    const name = frame.getByLabel('File name')
    await expect.poll(() => name.inputValue(), { timeout: SAFETY_NET }).toBe('Lease.pdf')
    for (const { name: width, viewport } of [...WIDTHS].reverse()) {
      await page.setViewportSize(viewport)
      await expect.poll(async () => (await name.boundingBox())!.width, { timeout: SAFETY_NET }).toBeGreaterThanOrEqual(200)
      // Nothing of the row is cut off: all of it inside the card.
      const outside = await frame.getByTestId('file-row').evaluate((row) => {
        const card = row.getBoundingClientRect()
        return [...row.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > card.right + 0.5).length
      })
      expect(outside).toBe(0)
      await frame.getByTestId('file-row').scrollIntoViewIfNeeded()
      await expect.poll(() => frame.locator('.file-row .page-thumb[data-rendered]').count(), { timeout: SAFETY_NET }).toBe(1)
      await frame.getByTestId('file-row').screenshot({ path: join(SCREENSHOTS, `editor-file-row-console-${width}.png`) })
      await page.screenshot({ path: join(SCREENSHOTS, `editor-files-console-${width}.png`), fullPage: true })
      expect(axeReport(`the console's editor, files step, at ${width}`, await axeViolations(frame))).toBe('')
    }
    await context.close()
  })
})
