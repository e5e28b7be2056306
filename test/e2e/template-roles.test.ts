/**
 * Templates built on roles, in Chromium: a template made in the console with two roles (a name and
 * no address), shown at once in its "Make a document" box after the save, used with the people
 * filled in, reviewed and sent (both receive the request); a document whose role is still empty is
 * refused in the review before anything is sent, naming the role; a direct link's visitor names
 * the person of the template's other role on a phone. axe-core and screenshots at 1280 and 390 px.
 * On the embedded database only: the rules behind these pages run on both in test/host/template-roles.test.ts.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { makeUser } from '../support/console-client.js'
import { axeReport, axeViolations } from './support/axe.js'
import { startInbox, type Inbox } from './support/inbox.js'
import { makePdf } from './support/pdf.js'
import { openPage, PHONE, sig, signing, signShot } from './support/sign.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { consoleSignIn, editor } from './support/ui.js'

describe('templates on roles', () => {
  let stack: Stack
  let inbox: Inbox
  let page: Page
  const errors: string[] = []

  /** axe and screenshots at both widths; nothing scrolls sideways on a phone. */
  const check = async (name: string) => {
    // Settled before the screenshots, as far as it will: a request the console's editor keeps open
    // on a busy machine once held this past the test's limit; what is checked below needs no idle network.
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {})
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height })
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true)
      await page.screenshot({ path: join(SCREENSHOTS, `template-roles-${name}-${width}.png`), fullPage: true })
      expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  }
  /** A template through the API: the roles given (a name and no address), each with a signature field. */
  const apiTemplate = async (title: string, roles: string[]) => {
    const form = new FormData()
    form.append('payload', JSON.stringify({ type: 'TEMPLATE', title, recipients: roles.map((name, i) => ({ email: '', name, role: 'SIGNER', fields: [sig(10 + i * 40, 80)] })) }))
    form.append('files', new Blob([new Uint8Array(await makePdf(title, 1))], { type: 'application/pdf' }), `${title}.pdf`)
    return stack.api('GET', `/envelope/${(await stack.api<{ id: string }>('POST', '/envelope/create', form)).id}`)
  }

  test.beforeAll(async ({ browser }) => {
    inbox = await startInbox()
    stack = await startStack(browser, { host: { smtpUrl: inbox.url, mailbox: false, queuePollMs: 100 } })
    const teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })
    page = await context.newPage()
    page.on('pageerror', (e) => errors.push(e.message))
    await consoleSignIn(page, stack.host.url, 'ada@example.com', 'E2E')
  })
  afterAll(async () => {
    await stack?.close()
    await inbox?.close()
  })

  test('a template with two roles is made, used with the people filled in, reviewed and sent', async () => {
    await page.goto(`${stack.host.url}/console/templates`)
    await page.getByRole('button', { name: 'New template' }).first().click()
    await page.getByLabel('Choose PDF files').setInputFiles([{ name: 'Service agreement.pdf', mimeType: 'application/pdf', buffer: await makePdf('Service agreement', 1) }])
    await page.getByRole('button', { name: 'Create and open the editor' }).click()
    await page.waitForURL(/\/console\/templates\/envelope_\w+\?edit=1$/)
    const id = new URL(page.url()).pathname.split('/').pop()!

    // Before anything is saved, the box has nobody to ask for.
    const box = page.getByRole('form', { name: 'Make a document from this template' })
    await box.getByText('This template has no recipients').waitFor()

    // Two roles in the editor: a name, and the address left empty.
    const frame = page.frameLocator('iframe[title="Editor"]')
    const ui = editor(page, frame)
    await ui.step(/Recipients/).click()
    await ui.addRecipient('Client', '')
    await ui.addRecipient('Witness', '')
    const row = frame.getByTestId('recipient-row').first()
    expect(await row.getByLabel('Role name, such as Client').inputValue()).toBe('Client')
    expect(await row.getByLabel('E-mail').evaluate((el) => document.getElementById(el.getAttribute('aria-describedby')!)?.textContent)).toContain('Leave it empty to make this a role')
    // A role needs its name: said under it, and in the problems on save.
    await ui.addRecipient('', '')
    await frame.getByRole('button', { name: 'Save changes' }).click()
    await frame.getByText('Give the role a name, such as Client.').waitFor()
    await check('editor-roles')
    await frame.getByRole('button', { name: 'Remove recipient 3' }).click()
    await ui.step(/Fields/).click()
    await ui.fieldsFor('Client')
    await ui.placeByClick('Signature', 0, 1, 0.2, 0.8)
    await ui.fieldsFor('Witness')
    await ui.placeByClick('Signature', 0, 1, 0.6, 0.8)
    await frame.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(async () => (await stack.api('GET', `/envelope/${id}`)).recipients.map((r: { name: string; email: string }) => [r.name, r.email])).toEqual([
      ['Client', ''],
      ['Witness', ''],
    ])

    // The box asks for each role's person at once, with no reload.
    const client = box.getByRole('group', { name: 'Client (Signs)' })
    const witness = box.getByRole('group', { name: 'Witness (Signs)' })
    await client.waitFor()
    expect(await client.getByLabel('Name').inputValue()).toBe('')
    await client.getByLabel('Name').fill('Carla Client')
    await client.getByLabel('E-mail address').fill('carla@example.com')
    await witness.getByLabel('Name').fill('Walt Witness')
    await witness.getByLabel('E-mail address').fill('walt@example.com')
    await check('use')
    await box.getByRole('button', { name: 'Create document' }).click()
    await page.waitForURL(/\/console\/documents\/envelope_\w+$/)
    const documentId = new URL(page.url()).pathname.split('/').pop()!

    // Reviewed: both people with their addresses; one Send sends it.
    await page.getByRole('button', { name: 'Send for signing' }).click()
    const dialog = page.getByRole('dialog', { name: 'Review and send “Service agreement”' })
    await expect.poll(() => dialog.getByTestId('send-person').locator('strong').allTextContents()).toEqual(['Carla Client', 'Walt Witness'])
    expect(await dialog.getByRole('alert').count()).toBe(0)
    await dialog.getByRole('button', { name: 'Send', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => page.locator('.docs-status').first().textContent()).toBe('Waiting for signatures')
    await expect.poll(() => [inbox.to('carla@example.com').length, inbox.to('walt@example.com').length], { timeout: SAFETY_NET }).toEqual([1, 1])
    expect(inbox.to('walt@example.com')[0]!.text).toContain('Hello Walt Witness,')
    expect((await stack.api('GET', `/envelope/${documentId}`)).status).toBe('PENDING')
    // The template keeps its roles.
    expect((await stack.api('GET', `/envelope/${id}`)).recipients.map((r: { email: string }) => r.email)).toEqual(['', ''])
    expect(errors).toEqual([])
  })

  test('a role still empty is named in the review before anything is sent', async () => {
    const t = await apiTemplate('Loan agreement', ['Borrower', 'Guarantor'])
    const form = new FormData()
    form.append('payload', JSON.stringify({ envelopeId: t.id, recipients: [{ id: t.recipients[0].id, name: 'Bea Borrower', email: 'bea@example.com' }] }))
    const { id } = await stack.api<{ id: string }>('POST', '/envelope/use', form)
    await page.goto(`${stack.host.url}/console/documents/${id}`)
    await page.getByRole('heading', { name: 'Loan agreement', level: 1 }).waitFor()
    // The recipients panel says the role has no address yet.
    await page.getByText('No e-mail address yet').first().waitFor()
    await page.getByRole('button', { name: 'Send for signing' }).click()
    const dialog = page.getByRole('dialog', { name: 'Review and send “Loan agreement”' })
    const alert = dialog.getByRole('alert')
    const words = 'Not sent Each recipient needs an e-mail address. Add one for Guarantor in the editor, then send again.'
    await expect.poll(() => alert.textContent()).toBe(words)
    expect(await dialog.getByTestId('send-person').filter({ hasText: 'Guarantor' }).textContent()).toContain('No e-mail address yet')
    await check('unaddressed')
    // Pressed anyway: the service refuses in the same words, and nothing goes out.
    await dialog.getByRole('button', { name: 'Send', exact: true }).click()
    await expect.poll(() => alert.textContent()).toBe(words)
    expect((await stack.api('GET', `/envelope/${id}`)).status).toBe('DRAFT')
    expect(inbox.to('bea@example.com')).toEqual([])
    await page.keyboard.press('Escape')
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([])
  })

  test("a direct link's visitor names the person of the template's other role, on a phone", async () => {
    const t = await apiTemplate('Witnessed statement', ['Declarant', 'Witness'])
    const link = await stack.api('POST', '/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: t.recipients[0].id })
    const { page: visitor, context, errors: visitorErrors } = await openPage(stack, `${stack.host.url}/d/${link.token}`, PHONE)
    try {
      const s = signing(visitor)
      await s.ready()
      // Nobody is named yet, so there is no name to type: drawn.
      await (await s.drawSignature()).adopt()
      await s.action('Complete signing').click()
      const dialog = visitor.getByRole('dialog', { name: 'Sign the document?' })
      await dialog.getByRole('group', { name: 'Your details' }).getByRole('textbox', { name: 'Name' }).fill('Dora Declarant')
      await dialog.getByRole('group', { name: 'Your details' }).getByRole('textbox', { name: 'E-mail' }).fill('dora@example.com')
      const others = dialog.getByRole('group', { name: 'The other people' })
      const name = others.getByRole('textbox', { name: 'Name (Witness)' })
      // Nobody named yet: the dialog says so and keeps the visitor there.
      await dialog.getByRole('button', { name: 'Complete signing', exact: true }).click()
      await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true')
      expect(await name.evaluate((el) => el === document.activeElement)).toBe(true)
      await name.fill('Will Witness')
      await others.getByRole('textbox', { name: 'E-mail address (Witness)' }).fill('will@example.com')
      await signShot(visitor, 'template-roles-direct-390', true)
      expect(axeReport('direct roles at 390', await axeViolations(visitor))).toBe('')
      await dialog.getByRole('button', { name: 'Complete signing', exact: true }).click()
      await expect.poll(() => s.heading().textContent()).toBe('You signed “Witnessed statement”')
      const docs = await stack.api('GET', '/envelope?perPage=100')
      const made = docs.data.find((d: any) => d.source === 'TEMPLATE_DIRECT_LINK' && d.recipients.some((r: any) => r.email === 'dora@example.com'))
      expect(made.recipients.map((r: any) => [r.name, r.email, r.signingStatus])).toEqual([
        ['Dora Declarant', 'dora@example.com', 'SIGNED'],
        ['Will Witness', 'will@example.com', 'NOT_SIGNED'],
      ])
      await expect.poll(() => inbox.to('will@example.com').length, { timeout: SAFETY_NET }).toBe(1)
      expect(visitorErrors).toEqual([])
    } finally {
      await context.close()
    }
  })
})
