/**
 * The team console end to end in Chromium: a completed document found by a recipient's name,
 * its timeline, its sealed PDF downloaded (the same bytes as the API's); a draft opened in the
 * editor and sent; a template used and its direct link made, copied and turned off; an API token
 * created, used and revoked (then refused); a webhook with a test delivery and a resend in its
 * log; an invitation accepted from the e-mail in another browser; visibility for the new member.
 * Screenshots of every screen at 1280 and 390 px.
 * On the embedded database only: the queries behind these pages run on both databases in test/host.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { makeUser, signInAs, TEST_PASSWORD } from '../support/console-client.js'
import { makePdf, PNG, until } from '../host/support.js'
import { verifySignedWebhookBody } from '../../src/server/index.js'
import { axeReport, axeViolations } from './support/axe.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { consentThroughApi } from './support/sign.js'

let stack: Stack
let teamId: string
const hits: string[] = []
const hitHeaders: Record<string, string>[] = []
const receiver = createServer((req, res) => {
  let body = ''
  req.on('data', (d) => (body += d))
  req.on('end', () => {
    hits.push(body)
    hitHeaders.push(req.headers as Record<string, string>)
    res.end('ok')
  })
})

async function screens(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `console-${name}-1280.png`), fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: join(SCREENSHOTS, `console-${name}-390.png`), fullPage: true })
  await page.setViewportSize({ width: 1280, height: 900 })
}

/** An open dialog at 1280 and 390 px: what the reader sees (screenshots, when `shoot`), and axe finds nothing serious. */
async function dialogScreens(page: Page, name: string, shoot: boolean) {
  for (const [width, height] of [[1280, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height })
    if (shoot) await page.screenshot({ path: join(SCREENSHOTS, `console-${name}-${width}.png`) })
    expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

/** A document through the API: sent to Grace Hopper, signed by her, sealed. */
async function completedDocument(title: string, visibility = 'EVERYONE'): Promise<{ id: string; itemId: string }> {
  const form = new FormData()
  form.set(
    'payload',
    JSON.stringify({
      type: 'DOCUMENT',
      title,
      visibility,
      recipients: [{ email: 'grace@example.com', name: 'Grace Hopper', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
    }),
  )
  form.set('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'contract.pdf')
  const auth = { Authorization: `Bearer ${stack.apiToken}` }
  const { id } = await (await fetch(`${stack.host.apiUrl}/envelope/create`, { method: 'POST', headers: auth, body: form })).json()
  const envelope = await stack.api<any>('GET', `/envelope/${id}`)
  const sent = await stack.api<any>('POST', '/envelope/distribute', { envelopeId: id })
  const signing = { Authorization: `Bearer ${sent.recipients[0].token}`, 'content-type': 'application/json' }
  const session = await (await fetch(`${stack.host.url}/api/signing/session`, { headers: signing })).json()
  const value = `data:image/png;base64,${PNG.toString('base64')}`
  await consentThroughApi(stack.host.url, sent.recipients[0].token)
  await fetch(`${stack.host.url}/api/signing/complete`, { method: 'POST', headers: signing, body: JSON.stringify({ fields: session.fields.map((f: any) => ({ id: f.id, value })) }) })
  return { id, itemId: envelope.envelopeItems[0].id }
}

async function sealedBytes(itemId: string): Promise<Buffer> {
  let res!: Response
  await until(async () => (res = await fetch(`${stack.host.apiUrl}/envelope/item/${itemId}/download`, { headers: { Authorization: `Bearer ${stack.apiToken}` } })).status === 200, SAFETY_NET)
  return Buffer.from(await res.arrayBuffer())
}

beforeAll(() => new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r)))
afterAll(() => void receiver.close())

describe(`the team console`, () => {
  test.beforeAll(async ({ browser }) => {
    hits.length = 0
    hitHeaders.length = 0
    stack = await startStack(browser, { host: { webhookAllowPrivateUrls: true, queuePollMs: 100 } })
    teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
  })
  afterAll(() => stack?.close())

  test('documents, templates, tokens, webhooks, members and visibility', async () => {
    const shots = (page: Page, name: string) => screens(page, name)
    const lease = await completedDocument('Lease 4B')
    const hidden = await completedDocument('Board minutes', 'ADMIN')
    const draftForm = new FormData()
    draftForm.set('payload', JSON.stringify({ type: 'DOCUMENT', title: 'Offer letter', recipients: [{ email: 'linus@example.com', name: 'Linus', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] }))
    draftForm.set('files', new Blob([new Uint8Array(await makePdf(2))], { type: 'application/pdf' }), 'offer.pdf')
    const draft = await (await fetch(`${stack.host.apiUrl}/envelope/create`, { method: 'POST', headers: { Authorization: `Bearer ${stack.apiToken}` }, body: draftForm })).json()
    const tplForm = new FormData()
    tplForm.set('payload', JSON.stringify({ type: 'TEMPLATE', title: 'NDA', recipients: [{ email: 'signer@example.com', name: 'Signer', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] }))
    tplForm.set('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'nda.pdf')
    const template = await (await fetch(`${stack.host.apiUrl}/envelope/create`, { method: 'POST', headers: { Authorization: `Bearer ${stack.apiToken}` }, body: tplForm })).json()
    const sealed = await sealedBytes(lease.itemId)

    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.host.url })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))

    // Sign in; the account is in two teams: switch to the one with the documents.
    await page.goto(`${stack.host.url}/console`)
    await page.getByLabel('E-mail address').fill('ada@example.com')
    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { name: 'Documents' }).waitFor()
    await page.getByRole('combobox', { name: 'Team' }).selectOption({ label: 'E2E' })
    await page.getByRole('link', { name: 'Lease 4B' }).waitFor()
    await shots(page, 'documents')

    // Search by a recipient's name, open the document, its timeline and its sealed PDF.
    await page.getByLabel('Search').fill('grace hop')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect.poll(() => page.getByRole('link', { name: /Lease 4B|Board minutes|Offer letter/ }).count()).toBe(2)
    await page.getByRole('link', { name: 'Lease 4B' }).click()
    await page.getByRole('heading', { name: 'Lease 4B' }).waitFor()
    await page.getByRole('heading', { name: 'Timeline' }).waitFor()
    await expect.poll(() => page.locator('.team-timeline li').count()).toBeGreaterThanOrEqual(4)
    await shots(page, 'document-completed')
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Signed PDF' }).click()])
    const saved = await pdf.path()
    const { readFile } = await import('node:fs/promises')
    expect(Buffer.compare(await readFile(saved!), sealed)).toBe(0)

    // A draft in the same editor as the embed: an edit not saved yet is saved by sending, so
    // what is sent is what the person saw; then the editor shows the sent envelope, with nothing to save.
    await page.goto(`${stack.host.url}/console/documents/${draft.id}`)
    await page.getByRole('button', { name: 'Open in the editor' }).click()
    const editor = page.frameLocator('iframe[title="Editor"]')
    await editor.getByText('Offer letter').first().waitFor()
    await shots(page, 'document-editor')
    await editor.getByRole('navigation').getByRole('button', { name: /Settings/ }).click()
    await editor.getByLabel('Title').fill('Offer letter (final)')
    // The review before sending shows the envelope as the editor saved it; its Send sends.
    await page.getByRole('button', { name: 'Send for signing' }).click()
    const review = page.getByRole('dialog', { name: 'Review and send “Offer letter (final)”' })
    await review.getByRole('button', { name: 'Send', exact: true }).click()
    await expect.poll(() => page.locator('.docs-status').first().textContent()).toBe('Waiting for signatures')
    const sent = await stack.api<any>('GET', `/envelope/${draft.id}`)
    expect([sent.title, sent.status]).toEqual(['Offer letter (final)', 'PENDING'])
    await editor.getByTestId('sent-envelope').waitFor()
    expect(await editor.getByRole('button', { name: 'Save changes' }).count()).toBe(0)
    await shots(page, 'document-pending')

    // A template: a document made from it, its direct link made, copied and turned off.
    await page.goto(`${stack.host.url}/console/templates`)
    await page.getByRole('link', { name: 'NDA' }).click()
    await page.getByRole('button', { name: 'Create a direct link' }).click()
    const link = (await page.getByTestId('direct-link').textContent())!
    expect(link).toMatch(/\/d\/[\w-]+$/)
    await page.getByRole('button', { name: 'Copy link' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)
    await page.getByRole('button', { name: 'Turn off' }).click()
    await page.getByText('The link is off: it opens nothing.').waitFor()
    await shots(page, 'template')
    const direct = await stack.api<any>('GET', `/envelope/${template.id}`)
    expect(direct.directLink.enabled).toBe(false)
    // The box follows the template at once: the link's placeholder recipient is its second now.
    await page.getByRole('group', { name: 'Recipient 2 (Signs)' }).waitFor()
    await page.getByRole('group', { name: 'Recipient 1 (Signs)' }).getByLabel('E-mail address').fill('new.signer@example.com')
    await page.getByRole('button', { name: 'Create document' }).click()
    // The new document's own title (the page previews name its file, nda.pdf).
    await page.getByRole('heading', { name: 'NDA', exact: true, level: 1 }).waitFor()
    await expect.poll(() => page.getByText('new.signer@example.com').count()).toBeGreaterThan(0)

    // An API token: shown once, works, revoked, refused.
    await page.goto(`${stack.host.url}/console/settings/tokens`)
    await page.getByLabel('Name').fill('Billing server')
    await page.getByRole('button', { name: 'Create token' }).click()
    const token = (await page.getByTestId('new-token').textContent())!
    await shots(page, 'settings-tokens')
    const asToken = () => fetch(`${stack.host.apiUrl}/envelope`, { headers: { Authorization: `Bearer ${token}` } })
    expect((await asToken()).status).toBe(200)
    await page.getByRole('button', { name: 'Done' }).click()
    // Revoking asks first, naming the token: Escape keeps it working; confirmed, it is refused.
    await page.getByRole('button', { name: 'Revoke Billing server' }).click()
    const revoke = page.getByRole('dialog', { name: 'Revoke the token “Billing server”?' })
    await revoke.getByText('Every request with it is refused from now on').waitFor()
    await dialogScreens(page, 'settings-tokens-revoke-dialog', true)
    await page.keyboard.press('Escape')
    await revoke.waitFor({ state: 'detached' })
    expect((await asToken()).status).toBe(200)
    await page.getByRole('button', { name: 'Revoke Billing server' }).click()
    await revoke.getByRole('button', { name: 'Revoke' }).click()
    await expect.poll(async () => (await asToken()).status).toBe(401)

    // A webhook: a test delivery in its log, then resent.
    await page.goto(`${stack.host.url}/console/settings/webhooks`)
    await page.getByLabel('URL').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`)
    await page.getByRole('button', { name: 'Add webhook' }).click()
    // Its signing key, shown this once.
    const key = (await page.getByTestId('new-signing-key').textContent()) ?? ''
    expect(key).toMatch(/^whsec_/)
    await page.getByRole('button', { name: 'Send test event' }).click()
    await expect.poll(() => hits.length, { timeout: SAFETY_NET }).toBe(1)
    await expect.poll(() => page.getByRole('button', { name: 'Resend' }).count(), { timeout: SAFETY_NET }).toBe(1)
    await shots(page, 'settings-webhooks')
    await page.getByRole('button', { name: 'Resend' }).click()
    await expect.poll(() => hits.length, { timeout: SAFETY_NET }).toBe(2)
    // Made without a secret in the console: no secret header, and every call is signed with its key.
    expect(hitHeaders[1]!['x-service-secret']).toBeUndefined()
    expect(await verifySignedWebhookBody({ signingKey: key, headers: hitHeaders[1]!, body: hits[1]! }).catch((e: { reason: string }) => e.reason)).toBe('MALFORMED_PAYLOAD')
    // Rotated from the console: the new secret and key are shown once, and the old key still signs beside the new one.
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    await page.getByRole('dialog', { name: /^A new secret for the webhook to http/ }).getByRole('button', { name: 'Rotate secret' }).click()
    const shown = await page.getByRole('heading', { name: /^New secret for / }).textContent()
    const [{ secret: next }] = (await stack.api<{ data: { secret: string }[] }>('GET', '/webhook')).data as [{ secret: string }]
    expect(shown).toContain(next)
    const nextKey = (await page.getByTestId('new-signing-key').textContent()) ?? ''
    expect(nextKey).toMatch(/^whsec_/)
    await page.getByText(/^The previous key signs too until /).waitFor()
    await shots(page, 'settings-webhooks-rotated')
    // The new secret in the panel's title wraps: nothing scrolls sideways on a phone.
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true)
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByRole('button', { name: 'Send test event' }).click()
    await expect.poll(() => hits.length, { timeout: SAFETY_NET }).toBe(3)
    expect(hitHeaders[2]!['webhook-signature']!.split(' ')).toHaveLength(2)
    for (const signingKey of [key, nextKey]) {
      expect(await verifySignedWebhookBody({ signingKey, headers: hitHeaders[2]!, body: hits[2]! }).catch((e: { reason: string }) => e.reason)).toBe('MALFORMED_PAYLOAD')
    }

    // An invitation, accepted from the e-mail in another browser, as a MEMBER.
    await page.goto(`${stack.host.url}/console/settings/members`)
    await page.getByLabel('E-mail address').fill('mia@example.com')
    await page.getByRole('button', { name: 'Send invitation' }).click()
    await page.getByText('An invitation is on its way to mia@example.com.').waitFor()
    await shots(page, 'settings-members')
    let mail = ''
    await until(async () => {
      await stack.host.queue.drain()
      mail = (await stack.host.db.query<{ text: string }>(`select text from mails where to_address = 'mia@example.com'`))[0]?.text ?? ''
      return mail !== ''
    }, SAFETY_NET)
    const invite = /http\S+\/console\/\S+#[\w.-]+/.exec(mail)![0]
    const other = await stack.browser.newContext({ viewport: { width: 390, height: 844 } })
    const mia = await other.newPage()
    await mia.goto(invite)
    await mia.getByRole('heading', { name: 'Join E2E' }).waitFor({ timeout: SAFETY_NET }).catch(async (e) => {
      throw new Error(`${e.message}\n${invite}\n${mia.url()}\n${await mia.locator('body').innerText()}`)
    })
    await mia.screenshot({ path: join(SCREENSHOTS, 'console-invitation-390.png'), fullPage: true })
    await mia.getByLabel('Your name').fill('Mia Member')
    await mia.getByLabel('Password').fill('a long enough password')
    await mia.getByRole('button', { name: 'Create account and join' }).click()
    await mia.getByRole('heading', { name: 'Documents' }).waitFor()
    await mia.getByRole('link', { name: 'Lease 4B' }).waitFor()
    // Visibility: the ADMIN-only document is not among a MEMBER's.
    expect(await mia.getByRole('link', { name: 'Board minutes' }).count()).toBe(0)
    const asMia = await signInAs(stack.host.url, 'mia@example.com', 'a long enough password')
    await asMia.console('/teams/switch', { body: { teamId } })
    expect((await asMia.v2(`/envelope/${hidden.id}`)).status).toBe(404)
    expect((await asMia.v2(`/envelope/${lease.id}`)).status).toBe(200)
    await other.close()
    await page.reload()
    await page.getByText('mia@example.com').first().waitFor()

    // The activity log tells who did what.
    await page.goto(`${stack.host.url}/console/settings/activity`)
    await page.getByText('revoked an API token').waitFor()
    await page.getByText('added a webhook').waitFor()
    // In words: the token by its name, the operator as such, no ids.
    await page.getByText('“Billing server”').first().waitFor()
    await page.getByText('The operator (command line)').first().waitFor()
    expect(await page.locator('.team-timeline').textContent()).not.toMatch(/user_|token_|webhook_/)
    await shots(page, 'settings-activity')
    await page.goto(`${stack.host.url}/console/settings`)
    await page.getByRole('heading', { name: 'Plan and usage' }).waitFor()
    await shots(page, 'settings-general')

    expect(errors).toEqual([])
    await context.close()
  })
})
