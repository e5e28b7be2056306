import { expect } from 'vitest'
import type { FrameLocator, Locator, Page } from 'playwright-core'
import { makeUser, TEST_PASSWORD } from '../../support/console-client.js'
import type { Stack } from './stack.js'

/** Drops files on `zone` the way a browser does when files are dragged from the desktop (dragenter, dragover, drop). */
export async function dropFiles(zone: Locator, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await zone.evaluate(
    (element, list) => {
      const data = new DataTransfer()
      for (const f of list) data.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.mimeType }))
      for (const type of ['dragenter', 'dragover', 'drop']) element.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }))
    },
    files.map((f) => ({ name: f.name, mimeType: f.mimeType, bytes: [...f.buffer] })),
  )
}

/** Drives the authoring pages the way a person does, through labels and roles. */
export function editor(page: Page, frame: FrameLocator) {
  const step = (name: RegExp | string) => frame.getByRole('navigation').getByRole('button', { name })
  return {
    frame,
    step,
    async addFiles(files: { name: string; mimeType: string; buffer: Buffer }[]) {
      await frame.locator('input[type=file]').setInputFiles(files)
    },
    /** Drops files on the drop zone the way a browser does when files are dragged from the desktop. */
    async dropFiles(files: { name: string; mimeType: string; buffer: Buffer }[]) {
      await dropFiles(frame.locator('.dropzone'), files)
    },
    async addRecipient(name: string, email: string, role?: string) {
      await frame.getByRole('button', { name: 'Add recipient' }).click()
      const row = frame.getByTestId('recipient-row').last()
      await row.getByLabel('Name').fill(name)
      await row.getByLabel('E-mail').fill(email)
      if (role) await row.getByLabel('Role').selectOption(role)
    },
    /** Picks the recipient new fields are for, in the fields step. */
    async fieldsFor(name: string) {
      await frame.getByRole('radiogroup').getByText(name, { exact: true }).click()
    },
    /** The page element of page `n` (1-based) of the item at `itemIndex`. */
    page(itemIndex: number, n: number) {
      return frame.locator('.item-pages').nth(itemIndex).getByTestId('page').nth(n - 1)
    },
    /** Arms `type`, clicks the page at (px, py) fractions of its size, and waits for the field to be placed. */
    async placeByClick(type: string, itemIndex: number, pageNumber: number, px: number, py: number) {
      const placed = await frame.getByTestId('field-box').count()
      await frame.getByRole('button', { name: type, exact: true }).click()
      const target = this.page(itemIndex, pageNumber)
      await target.waitFor()
      const box = (await target.boundingBox())!
      await target.click({ position: { x: box.width * px, y: box.height * py } })
      await expect.poll(() => frame.getByTestId('field-box').count()).toBeGreaterThan(placed)
    },
    /** Drags `type` from the palette onto the page at (px, py). */
    async placeByDrag(type: string, itemIndex: number, pageNumber: number, px: number, py: number) {
      const source = frame.getByRole('button', { name: type, exact: true })
      const target = this.page(itemIndex, pageNumber)
      await target.scrollIntoViewIfNeeded()
      const from = (await source.boundingBox())!
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
      await page.mouse.down()
      const to = (await target.boundingBox())!
      await page.mouse.move(to.x + to.width * px, to.y + to.height * py, { steps: 8 })
      await page.mouse.up()
    },
    /** Drags a placed field with the mouse to (px, py) of another page (its top-left follows the grab point). */
    async dragField(field: ReturnType<FrameLocator['locator']>, itemIndex: number, pageNumber: number, px: number, py: number) {
      await field.scrollIntoViewIfNeeded()
      const from = (await field.boundingBox())!
      const to = (await this.page(itemIndex, pageNumber).boundingBox())!
      await page.mouse.move(from.x + 5, from.y + 5)
      await page.mouse.down()
      await page.mouse.move(to.x + to.width * px + 5, to.y + to.height * py + 5, { steps: 10 })
      await page.mouse.up()
    },
    /** Geometry of every placed field as shown (percent of the page). */
    async fieldBoxes() {
      return frame.getByTestId('field-box').evaluateAll((els) =>
        els.map((el) => {
          const s = (el as HTMLElement).style
          const page = el.closest('[data-page]') as HTMLElement
          return {
            type: el.getAttribute('data-type'),
            page: Number(page.dataset.page),
            item: [...document.querySelectorAll('.item-pages')].indexOf(el.closest('.item-pages')!),
            x: parseFloat(s.left), y: parseFloat(s.top), w: parseFloat(s.width), h: parseFloat(s.height),
          }
        }),
      )
    },
  }
}

/**
 * Signs `email` in through the console's form (password TEST_PASSWORD) and waits for the
 * documents; an account in several teams then acts for `team`.
 */
export async function consoleSignIn(page: Page, hostUrl: string, email: string, team: string) {
  await page.goto(`${hostUrl}/console`)
  await page.getByLabel('E-mail address').fill(email)
  await page.getByLabel('Password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.getByRole('heading', { name: 'Documents' }).waitFor()
  const teams = page.getByRole('combobox', { name: 'Team' })
  if (await teams.count()) await teams.selectOption({ label: team })
}

/**
 * A new admin of the stack's team E2E, signed in to the console in a page of its own (1280 px
 * wide); the page's errors are gathered into `errors`.
 */
export async function consoleAdmin(stack: Stack, email: string, errors: string[]): Promise<Page> {
  const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
  await makeUser(stack.host.db, email, { teamId, role: 'ADMIN' })
  const page = await (await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  page.on('pageerror', (e) => errors.push(e.message))
  await consoleSignIn(page, stack.host.url, email, 'E2E')
  return page
}
