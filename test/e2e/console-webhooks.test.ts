/**
 * The console's webhooks in Chromium: a webhook added without a secret (its signing key shown
 * once, copied, then gone; the form starts over), edited in place
 * (URL, events, off and on again), its delivery log with the document (title and link), the
 * request headers with the secret hidden, the answer's status, start and duration, and a resend.
 * Rotating the secret and deleting ask first, in a dialog that names the webhook: Escape changes
 * nothing and gives the focus back, confirming acts. The signed-out console logs no error. axe-core
 * and screenshots at 1280 and 390 px.
 * On the embedded database only: the queries behind these pages run on both databases in test/host.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { verifySignedWebhookBody } from '../../src/server/index.js'
import { makeUser, TEST_PASSWORD } from '../support/console-client.js'
import { makePdf } from '../host/support.js'
import { axeReport, axeViolations } from './support/axe.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'

const hits: { path: string; headers: Record<string, string | string[] | undefined>; body: string }[] = []
const receiver = createServer((req, res) => {
  let body = ''
  req.on('data', (d) => (body += d))
  req.on('end', () => {
    hits.push({ path: req.url ?? '', headers: req.headers, body })
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`received ${req.url}`)
  })
})
beforeAll(() => new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r)))
afterAll(() => void receiver.close())

describe(`console webhooks`, () => {
  let stack: Stack
  test.beforeAll(async ({ browser }) => {
    hits.length = 0
    stack = await startStack(browser, { host: { webhookAllowPrivateUrls: true, queuePollMs: 100 } })
    const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    await makeUser(stack.host.db, 'wes@example.com', { teamId, role: 'ADMIN' })
  })
  afterAll(() => stack?.close())

  /**
   * axe at both widths, and a screenshot of each (written on request: SCREENSHOTS=1);
   * the whole page, or what the reader sees while a modal dialog covers it.
   */
  async function check(page: Page, name: string, fullPage = true) {
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height })
      await page.screenshot({ path: join(SCREENSHOTS, `console-webhooks-${name}-${width}.png`), fullPage })
      expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  }

  test('add, edit, turn off and on, a delivery log that says what was sent and answered, resend', async () => {
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const logged: string[] = []
    page.on('console', (m) => void (m.type() === 'error' && logged.push(m.text())))
    page.on('pageerror', (e) => logged.push(e.message))

    // Signed out: the sign-in page, and nothing in the browser's console.
    await page.goto(`${stack.host.url}/console/settings/webhooks`)
    await page.getByLabel('E-mail address').fill('wes@example.com')
    expect(logged).toEqual([])
    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('combobox', { name: 'Team' }).selectOption({ label: 'E2E' })
    await page.goto(`${stack.host.url}/console/settings/webhooks`)
    await page.getByRole('heading', { name: 'Add a webhook' }).waitFor()

    // Added with two events: the form then starts over, with the default choice only.
    const form = page.getByRole('form', { name: 'Add a webhook' })
    await form.getByLabel('URL').fill(`${base}/first`)
    await form.getByLabel('DOCUMENT_SENT').check()
    await form.getByRole('button', { name: 'Add webhook' }).click()
    // Made without a secret: its signing key is shown this once, with Copy; no secret header is sent.
    const added = page.getByRole('region', { name: `Added the webhook to ${base}/first` })
    await added.getByText('shown this once').waitFor()
    const signingKey = (await added.getByTestId('new-signing-key').textContent()) ?? ''
    expect(signingKey).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.host.url })
    await added.getByRole('button', { name: 'Copy' }).click()
    await added.getByRole('button', { name: 'Copied' }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(signingKey)
    await expect.poll(() => form.getByLabel('URL').inputValue()).toBe('')
    expect(await form.getByLabel('DOCUMENT_SENT').isChecked()).toBe(false)
    expect(await form.getByLabel('DOCUMENT_COMPLETED').isChecked()).toBe(true)
    const [hook] = (await stack.api<{ data: { id: string; url: string; events: string[]; enabled: boolean }[] }>('GET', '/webhook')).data
    expect(hook).toMatchObject({ url: `${base}/first`, events: ['DOCUMENT_COMPLETED', 'DOCUMENT_SENT'], enabled: true, sendSecretHeader: false })
    expect(JSON.stringify(hook)).not.toContain(signingKey)
    await check(page, 'added')
    // Done puts it away; the page read again does not show it.
    await added.getByRole('button', { name: 'Done' }).click()
    await added.waitFor({ state: 'detached' })
    await page.reload()
    await page.getByText(`${base}/first`).waitFor()
    expect(await page.content()).not.toContain(signingKey)

    // Edited in place: another URL, DOCUMENT_SENT only, off.
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    const edit = page.getByRole('form', { name: /^Edit the webhook to / })
    await edit.getByLabel('URL').fill(`${base}/second`)
    await edit.getByLabel('DOCUMENT_COMPLETED').uncheck()
    await edit.getByLabel('On: events are delivered').uncheck()
    await check(page, 'editing')
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByText(`Saved the webhook to ${base}/second.`).waitFor()
    expect((await stack.api<{ data: unknown[] }>('GET', '/webhook')).data).toEqual([expect.objectContaining({ url: `${base}/second`, events: ['DOCUMENT_SENT'], enabled: false })])

    // Off: a document sent reaches nobody. On again: the next one arrives.
    const send = async (title: string) => {
      const body = new FormData()
      body.set('payload', JSON.stringify({ type: 'DOCUMENT', title, recipients: [{ email: 'grace@example.com', name: 'Grace Hopper', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] }))
      body.set('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'contract.pdf')
      const { id } = await (await fetch(`${stack.host.apiUrl}/envelope/create`, { method: 'POST', headers: { Authorization: `Bearer ${stack.apiToken}` }, body })).json()
      await stack.api('POST', '/envelope/distribute', { envelopeId: id })
      return id as string
    }
    await send('Unheard contract')
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    await edit.getByLabel('On: events are delivered').check()
    await edit.getByRole('button', { name: 'Save' }).click()
    // The notice of the first save may still be shown: the webhook's state says the save is done.
    await expect.poll(async () => (await stack.api<{ data: { enabled: boolean }[] }>('GET', '/webhook')).data[0]?.enabled, { timeout: SAFETY_NET }).toBe(true)
    const heard = await send('Lease 4B')
    await expect.poll(() => hits.length, { timeout: SAFETY_NET }).toBe(1)
    expect(hits[0]!.path).toBe('/second')
    expect(JSON.parse(hits[0]!.body).payload.title).toBe('Lease 4B')
    expect(hits[0]!.headers['x-service-secret']).toBeUndefined()
    expect((await verifySignedWebhookBody({ signingKey, headers: hits[0]!.headers, body: hits[0]!.body })).event).toBe('DOCUMENT_SENT')

    // The log: the document with its link, the headers (signature hidden), status, start of the answer, duration.
    // Open since the webhook was added; opened again if not.
    const deliveries = page.getByRole('button', { name: 'Deliveries' })
    if ((await deliveries.getAttribute('aria-expanded')) !== 'true') await deliveries.click()
    const log = page.getByRole('table', { name: 'Deliveries' })
    const lease = log.getByRole('link', { name: 'Lease 4B' })
    await lease.waitFor()
    expect(await lease.getAttribute('href')).toBe(`/console/documents/${heard}`)
    await expect.poll(() => log.getByText('received /second').first().isVisible()).toBe(true)
    await log.getByText('200', { exact: true }).waitFor()
    await log.getByText(/^\d+ ms$/).waitFor()
    await log.getByText('Show').click()
    await log.getByText('webhook-signature').waitFor()
    const secret = (await stack.api<{ data: { secret: string }[] }>('GET', '/webhook')).data[0]!.secret
    const shown = await log.textContent()
    expect(shown).not.toContain('X-Service-Secret')
    expect(shown).toContain('hidden (secret)')
    expect(shown).toContain(String(hits[0]!.headers['x-service-event-id']))
    expect(shown).not.toContain(String(hits[0]!.headers['webhook-signature']))
    await check(page, 'log')

    // Resend: the same event again, a second line in the log.
    await log.getByRole('button', { name: 'Resend' }).click()
    await page.getByText('The delivery is queued again: it appears here as a new line.').waitFor()
    await expect.poll(() => hits.length, { timeout: SAFETY_NET }).toBe(2)
    expect(hits[1]!.headers['x-service-event-id']).toBe(hits[0]!.headers['x-service-event-id'])
    await expect.poll(() => log.getByRole('button', { name: 'Resend' }).count(), { timeout: SAFETY_NET }).toBe(2)

    // Rotating asks first, naming the webhook: Escape keeps the secret, and the focus returns to the button.
    const webhooks = async () => (await stack.api<{ data: { id: string; secret: string }[] }>('GET', '/webhook')).data
    const rotateButton = page.getByRole('button', { name: 'Rotate secret' })
    await rotateButton.click()
    const rotate = page.getByRole('dialog', { name: `A new secret for the webhook to ${base}/second?` })
    await rotate.getByText('What signs now keeps signing beside the new key for 24 hours').waitFor()
    await check(page, 'rotate-dialog', false)
    await page.keyboard.press('Escape')
    await rotate.waitFor({ state: 'detached' })
    await expect.poll(() => rotateButton.evaluate((el) => el === document.activeElement)).toBe(true)
    expect((await webhooks())[0]!.secret).toBe(secret)
    await rotateButton.click()
    await rotate.getByRole('button', { name: 'Rotate secret' }).click()
    // The new secret in the title, the new signing key shown once beside Copy, as a new webhook's.
    const rotated = await page.getByRole('heading', { name: /^New secret for / }).textContent()
    const next = (await webhooks())[0]!.secret
    expect(next).not.toBe(secret)
    expect(rotated).toContain(next)
    const rotatedKey = await page.getByTestId('new-signing-key').textContent()
    expect(rotatedKey).toMatch(/^whsec_/)
    expect(rotated).not.toContain(rotatedKey)
    await page.getByText(/^The previous key signs too until /).waitFor()

    // A new signing key alone, asked first too: the secret stays.
    await page.getByRole('button', { name: 'New signing key' }).click()
    const rekey = page.getByRole('dialog', { name: `A new signing key for the webhook to ${base}/second?` })
    await rekey.getByRole('button', { name: 'New signing key' }).click()
    await page.getByRole('heading', { name: /^New signing key for / }).waitFor()
    const newKey = await page.getByTestId('new-signing-key').textContent()
    expect(newKey).toMatch(/^whsec_/)
    expect(newKey).not.toBe(rotatedKey)
    await page.getByRole('button', { name: 'Done' }).click()
    expect(await page.getByTestId('new-signing-key').count()).toBe(0)
    expect((await webhooks())[0]!.secret).toBe(next)

    // Deleting too, in the danger style, the safe choice focused: Escape keeps it, confirming deletes it.
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    const remove = page.getByRole('dialog', { name: `Delete the webhook to ${base}/second?` })
    await remove.waitFor()
    expect(await remove.getByRole('button', { name: 'Delete' }).getAttribute('class')).toContain('btn-danger')
    expect(await remove.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement)).toBe(true)
    await check(page, 'delete-dialog', false)
    await page.keyboard.press('Escape')
    await remove.waitFor({ state: 'detached' })
    expect(await webhooks()).toHaveLength(1)
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    await remove.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No webhook yet.').waitFor()
    expect(await webhooks()).toEqual([])

    expect(logged).toEqual([])
    await context.close()
  })
})
