// Signing on a phone (390 × 844) and on a desktop (1280 × 900): consistent field text, quiet
// confirmations, zoom, a Complete action that counts and guides, and end screens that fill the
// page, say what happens next and offer the document (the signed copy once sealed).
import { readFile } from 'node:fs/promises'
import { afterAll, describe, expect } from 'vitest'
import { checkbox, DESKTOP, openPage, PHONE, sendDocument, sig, signing, signShot, text } from './support/sign.js'
import { SAFETY_NET, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

for (const [name, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
  describe(`signing at ${viewport.width} px`, () => {
    test('fields, zoom, the counting Complete action, and the end screens', async () => {
      const doc = await sendDocument(stack, {
        title: `Lease ${name}`,
        meta: { signingOrder: 'SEQUENTIAL' },
        recipients: [
          { email: `first-${name}@example.com`, name: 'Fay First', role: 'SIGNER', signingOrder: 1, fields: [text('City', 10, 40), checkbox('Extras', ['Parking'], 55, 40), sig(10, 80)] },
          { email: `second-${name}@example.com`, name: 'Sid Second', role: 'SIGNER', signingOrder: 2, fields: [sig(55, 80)] },
        ],
      })
      const first = await openPage(stack, doc.recipient(`first-${name}@example.com`).signingUrl, viewport)
      const s = signing(first.page)
      await s.ready()
      await signShot(first.page, `phone-${name}-01-ready`)

      // One text size for the fields of a page, whatever their height.
      const size = (label: string) => s.field(label).locator('.sign-field-text').evaluate((el) => parseFloat(getComputedStyle(el).fontSize))
      expect(await size('Extras')).toBe(await size('City'))

      // Complete says how many required fields remain, and leads to the next one instead of confirming.
      const complete = s.action('Complete signing')
      expect(await complete.locator('.count-badge').textContent()).toBe('2 left')
      await complete.click()
      expect(await first.page.getByRole('dialog').count()).toBe(0)
      await expect.poll(() => s.field('City').getAttribute('data-current')).toBe('true')
      await signShot(first.page, `phone-${name}-02-guided`)

      await s.typeText('City', 'Lyon')
      expect(await complete.locator('.count-badge').textContent()).toBe('1 left')
      await (await s.drawSignature()).adopt()
      expect(await complete.locator('.count-badge').count()).toBe(0)
      // "Signature added." is said to screen readers, not shown under the button.
      const notice = first.page.getByTestId('notice')
      expect(await notice.textContent()).toBe('Signature added.')
      expect((await notice.boundingBox())!.width).toBeLessThanOrEqual(1)

      // Zoom: the page grows past the column, its text with it.
      const pageBox = () => first.page.locator('.sign-page').first().boundingBox()
      const before = (await pageBox())!.width
      await first.page.getByRole('button', { name: 'Zoom in' }).click()
      await expect.poll(async () => Math.round((await pageBox())!.width / before * 10) / 10).toBe(1.5)
      await signShot(first.page, `phone-${name}-03-zoomed`)
      await first.page.getByRole('button', { name: 'Zoom out' }).click()
      await expect.poll(async () => (await pageBox())!.width).toBe(before)
      await signShot(first.page, `phone-${name}-04-filled`)

      // Done, others still to sign: what happens next, and a copy of the original.
      await s.complete()
      const done = first.page.getByTestId('sign-done')
      await done.waitFor()
      expect(await done.getByRole('heading', { name: 'What happens next' }).count()).toBe(1)
      const card = (await done.boundingBox())!
      if (name === 'phone') expect(card.width).toBeGreaterThanOrEqual(viewport.width - 1)
      expect(card.height).toBeGreaterThan(name === 'phone' ? viewport.height * 0.6 : 300)
      const [original] = await Promise.all([first.page.waitForEvent('download'), done.getByRole('button', { name: `Download a copy of the original “Lease ${name}.pdf”` }).click()])
      expect(original.suggestedFilename()).toBe(`Lease ${name}.pdf`)
      await signShot(first.page, `phone-${name}-05-done-pending`)

      // The last signer: the signed copy, once sealed, named after the document.
      const second = await openPage(stack, doc.recipient(`second-${name}@example.com`).signingUrl, viewport)
      const t = signing(second.page)
      await t.ready()
      await t.typeSignature()
      await t.complete()
      const last = second.page.getByTestId('sign-done')
      const signed = last.getByRole('button', { name: `Download signed PDF “Lease ${name}.pdf”` })
      await signed.waitFor({ timeout: SAFETY_NET })
      expect(await last.getByText('Every recipient receives the signed document by e-mail').count()).toBe(1)
      const [download] = await Promise.all([second.page.waitForEvent('download'), signed.click()])
      expect(download.suggestedFilename()).toBe(`Lease ${name} (signed).pdf`)
      expect((await readFile((await download.path())!)).subarray(0, 5).toString()).toBe('%PDF-')
      await signShot(second.page, `phone-${name}-06-done-complete`)

      // Opened again later: the completed state offers the signed copy too.
      await first.page.reload()
      await first.page.getByTestId('sign-state').getByRole('button', { name: `Download signed PDF “Lease ${name}.pdf”` }).waitFor()
      await signShot(first.page, `phone-${name}-07-completed`)
      expect([...first.errors, ...second.errors]).toEqual([])
      await first.context.close()
      await second.context.close()
    })
  })
}
