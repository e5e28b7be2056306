/**
 * Page thumbnails in Chromium, in the console's envelope page and in the editor's files step: a
 * long document's thumbnails hold their page's shape from the start and are drawn only as they
 * near the screen (the far ones not before they are scrolled to, and no box changes size when
 * its pixels come); the fields placed show on their page's thumbnail as boxes in their
 * recipient's colour. axe-core and screenshots at 1280 and 390 px.
 * On the embedded database only: nothing here depends on the database.
 */
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { makeUser } from '../support/console-client.js'
import { axeReport, axeViolations } from './support/axe.js'
import { sendDocument, sig } from './support/sign.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { consoleSignIn } from './support/ui.js'

const PAGES = 80
/** The editor's first two recipient colours (host/app/src/page/base.css --recipient1, --recipient2). */
const BLUE = 'rgb(59, 108, 246)'
const ORANGE = 'rgb(232, 89, 12)'

describe('page thumbnails', () => {
  let stack: Stack
  let page: Page
  let handbook: Awaited<ReturnType<typeof sendDocument>>

  test.beforeAll(async ({ browser }) => {
    stack = await startStack(browser)
    const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
    handbook = await sendDocument(stack, {
      title: 'Handbook',
      pages: PAGES,
      recipients: [
        { email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [sig(10, 80)] },
        { email: 'bob@example.com', name: 'Bob', role: 'SIGNER', fields: [{ ...sig(55, 40), page: 3 }] },
      ],
    })
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    page = await context.newPage()
    await consoleSignIn(page, stack.host.url, 'ada@example.com', 'E2E')
  })
  afterAll(() => stack?.close())

  const box = async (l: Locator) => (await l.boundingBox())!
  /** The colour and place (percent of its thumbnail) of each field box on a thumbnail. */
  const fieldsOn = (thumb: Locator) =>
    thumb.locator('.page-thumb-field').evaluateAll((boxes) =>
      boxes.map((b) => {
        const own = b.getBoundingClientRect()
        const of = b.parentElement!.getBoundingClientRect()
        return { color: getComputedStyle(b).borderTopColor, x: Math.round(((own.left - of.left) / of.width) * 100), y: Math.round(((own.top - of.top) / of.height) * 100) }
      }),
    )

  test("the console: drawn as they near the screen, their shape from the start, each page's fields on it", async () => {
    await page.goto(`${stack.host.url}/console/documents/${handbook.id}`)
    await page.getByRole('heading', { name: 'Handbook', level: 1 }).waitFor()
    const thumbs = page.locator('.docs-thumbs .page-thumb')
    await page.getByRole('heading', { name: 'Pages' }).scrollIntoViewIfNeeded()
    await expect.poll(() => thumbs.count(), { timeout: SAFETY_NET }).toBe(PAGES)
    await expect.poll(() => thumbs.first().getAttribute('data-rendered'), { timeout: SAFETY_NET }).not.toBeNull()

    // Far down: not drawn, yet already the shape of an A4 page.
    const last = thumbs.last()
    expect(await last.getAttribute('data-rendered')).toBeNull()
    const before = await box(last)
    expect(before.height / before.width).toBeCloseTo(841.89 / 595.28, 1)
    expect(await page.locator('.docs-thumbs .page-thumb[data-rendered]').count()).toBeLessThan(PAGES)

    // Scrolled to: drawn, in the box it had.
    await last.scrollIntoViewIfNeeded()
    await expect.poll(() => last.getAttribute('data-rendered'), { timeout: SAFETY_NET }).not.toBeNull()
    const after = await box(last)
    expect([after.width, after.height]).toEqual([before.width, before.height])

    // Ann's field on page 1, Bob's on page 3, each in the recipient's colour where it was placed.
    expect(await fieldsOn(thumbs.nth(0))).toEqual([{ color: BLUE, x: 10, y: 80 }])
    expect(await fieldsOn(thumbs.nth(1))).toEqual([])
    expect(await fieldsOn(thumbs.nth(2))).toEqual([{ color: ORANGE, x: 55, y: 40 }])

    await page.getByRole('heading', { name: 'Pages' }).scrollIntoViewIfNeeded()
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height })
      await expect.poll(() => thumbs.nth(2).getAttribute('data-rendered'), { timeout: SAFETY_NET }).not.toBeNull()
      await page.locator('.docs-thumbs').screenshot({ path: join(SCREENSHOTS, `page-thumbs-console-${width}.png`) })
      expect(axeReport(`the envelope page with its thumbnails at ${width}`, await axeViolations(page))).toBe('')
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  test("the editor's files step: the first page's fields on its file's thumbnail", async () => {
    const draft = await stack.api<{ id: string }>('POST', '/envelope/duplicate', { envelopeId: handbook.id })
    await page.goto(`${stack.host.url}/console/documents/${draft.id}?edit=1`)
    const frame = page.frameLocator('iframe[title="Editor"]')
    const thumb = frame.getByTestId('file-row').locator('.page-thumb')
    await expect.poll(() => thumb.getAttribute('data-rendered'), { timeout: SAFETY_NET }).not.toBeNull()
    expect(await fieldsOn(thumb)).toEqual([{ color: BLUE, x: 10, y: 80 }])
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height })
      await frame.getByTestId('file-row').screenshot({ path: join(SCREENSHOTS, `page-thumbs-editor-${width}.png`) })
      expect(axeReport(`the editor's files step at ${width}`, await axeViolations(frame))).toBe('')
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  })
})
