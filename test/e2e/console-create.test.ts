/**
 * Documents and templates made in the console, end to end in Chromium: a
 * document from two PDFs dropped on the drop zone (bad files refused first, in words, with nothing
 * created), a recipient with verification set in the editor and shown again after a reload, sent,
 * the signing request in a real mailbox; a template from a chosen PDF, used with its fields filled
 * in ahead (a value the host refuses shown under its field, nothing created), sent at once, the
 * values in the new document. axe-core and screenshots at 1280 and 390 px.
 * On the embedded database only: the queries behind these pages run on both databases in test/host.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { makeUser } from '../support/console-client.js'
import { CATALOG, PAGE, PAGES, rawPdf, stream } from '../host/hostile.js'
import { axeReport, axeViolations } from './support/axe.js'
import { startInbox, type Inbox } from './support/inbox.js'
import { makePdf } from './support/pdf.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { consoleSignIn, editor } from './support/ui.js'

/** The host's upload limit here: small, so a too-large upload costs little. */
const LIMIT = 2_000_000

const file = (name: string, buffer: Buffer, mimeType = 'application/pdf') => ({ name, mimeType, buffer })
const encrypted = () =>
  rawPdf([CATALOG, PAGES, PAGE, stream('', Buffer.from('BT ET')), `<< /Filter /Standard /V 1 /R 2 /O <${'00'.repeat(32)}> /U <${'00'.repeat(32)}> /P -4 >>`], {
    trailer: `/Encrypt 5 0 R /ID [<${'11'.repeat(16)}> <${'11'.repeat(16)}>]`,
  })

describe(`documents and templates made in the console`, () => {
  let stack: Stack
  let inbox: Inbox
  let page: Page
  const errors: string[] = []
  const count = async (table: string) => Number((await stack.host.db.query<{ n: string }>(`select count(*)::text as n from ${table}`))[0]!.n)
  /** Screenshots (on one database) and axe at both widths. */
  const check = async (name: string) => {
    await page.waitForLoadState('networkidle')
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height })
      await page.screenshot({ path: join(SCREENSHOTS, `console-create-${name}-${width}.png`), fullPage: true })
      expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  }

  test.beforeAll(async ({ browser }) => {
    inbox = await startInbox()
    stack = await startStack(browser, { host: { smtpUrl: inbox.url, queuePollMs: 100, maxUploadBytes: LIMIT } })
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

  test('a document from dropped PDFs, a verified recipient set in the editor, sent', async () => {
    await page.getByText('No document yet. Create one from a PDF here').waitFor()
    await check('documents-empty')
    await page.getByRole('button', { name: 'New document' }).first().click()
    const choose = page.getByLabel('Choose PDF files')
    await choose.waitFor()
    await check('document-new')
    // The zone's input is reached with the keyboard, its label showing the focus.
    await page.getByRole('heading', { name: 'New document', level: 2 }).focus()
    await page.keyboard.press('Tab')
    expect(await choose.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await page.locator('label.docs-new-choose').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid')

    // More files than one envelope takes: the first 20 stay, the rest are refused.
    const one = await makePdf('One page', 1)
    await choose.setInputFiles(Array.from({ length: 21 }, (_, n) => file(`part ${n + 1}.pdf`, one)))
    await page.getByRole('alert').getByText('At most 20 files per envelope.').waitFor()
    expect(await page.getByRole('list', { name: 'Files' }).getByRole('listitem').count()).toBe(20)
    await page.getByRole('button', { name: 'Close' }).click()
    await page.getByRole('button', { name: 'New document' }).first().click()
    await choose.waitFor()

    // Refused before the upload: a text file and a password-protected PDF, each named.
    await choose.setInputFiles([file('notes.pdf', Buffer.from('just some notes'), 'text/plain'), file('locked.pdf', encrypted())])
    const alert = page.getByRole('alert')
    await alert.getByText('notes.pdf is not a PDF file.').waitFor()
    await alert.getByText('locked.pdf is password-protected').waitFor()
    expect(await page.getByRole('listitem').filter({ hasText: '.pdf' }).count()).toBe(0)
    // Refused by the host: over its upload limit. Nothing is written.
    const big = Buffer.concat([await makePdf('Big', 1), Buffer.alloc(LIMIT + 100_000, 0x20)])
    await choose.setInputFiles([file('big.pdf', big)])
    const title = page.getByRole('textbox', { name: 'Title', exact: true })
    await expect.poll(() => title.inputValue()).toBe('big')
    await page.getByRole('button', { name: 'Create and open the editor' }).click()
    await alert.getByText('The files are too large to upload.').waitFor()
    expect([await count('envelopes'), await count('envelope_items')]).toEqual([0, 0])
    await check('document-refused')
    await page.getByRole('button', { name: 'Remove big.pdf' }).click()
    expect(await title.inputValue()).toBe('')
    // Refused by the host: it starts like a PDF but cannot be read as one.
    await choose.setInputFiles([file('broken.pdf', Buffer.from('%PDF-1.7\nnot really a document'))])
    await page.getByRole('button', { name: 'Remove broken.pdf' }).waitFor()
    await page.getByRole('button', { name: 'Create and open the editor' }).click()
    await alert.getByText('broken.pdf cannot be read as a PDF file.').waitFor()
    expect([await count('envelopes'), await count('envelope_items')]).toEqual([0, 0])
    await page.getByRole('button', { name: 'Remove broken.pdf' }).click()

    // Two PDFs dropped: one envelope, titled after the first.
    const dropped = [file('Service agreement.pdf', await makePdf('Service agreement', 2)), file('Annex A.pdf', await makePdf('Annex A', 1))]
    await page.getByTestId('drop-zone').evaluate(
      (zone, list) => {
        const data = new DataTransfer()
        for (const f of list) data.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.mimeType }))
        for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }))
      },
      dropped.map((f) => ({ name: f.name, mimeType: f.mimeType, bytes: [...f.buffer] })),
    )
    await page.getByRole('button', { name: 'Remove Annex A.pdf' }).waitFor()
    expect(await title.inputValue()).toBe('Service agreement')
    await check('document-files')
    await page.getByRole('button', { name: 'Create and open the editor' }).click()

    // Its page, with the editor open: a recipient verified by a code before opening and a password when signing.
    await page.waitForURL(/\/console\/documents\/envelope_\w+\?edit=1$/)
    const id = new URL(page.url()).pathname.split('/').pop()!
    await page.getByRole('heading', { name: 'Service agreement', level: 1 }).waitFor()
    const frame = page.frameLocator('iframe[title="Editor"]')
    const ui = editor(page, frame)
    await ui.step(/Recipients/).click()
    await ui.addRecipient('Grace Hopper', 'grace@example.com')
    const row = frame.getByTestId('recipient-row').last()
    await row.getByLabel('Before opening').selectOption('TWO_FACTOR_AUTH')
    await row.getByLabel('When signing').selectOption('PASSWORD')
    await ui.step(/Fields/).click()
    await ui.fieldsFor('Grace Hopper')
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.8)
    await frame.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(async () => (await stack.api('GET', `/envelope/${id}`)).recipients[0]?.authOptions).toEqual({ accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: ['PASSWORD'] })

    // Shown again when the editor opens anew.
    await page.reload()
    await ui.step(/Recipients/).click()
    expect(await frame.getByTestId('recipient-row').last().getByLabel('Before opening').inputValue()).toBe('TWO_FACTOR_AUTH')
    expect(await frame.getByTestId('recipient-row').last().getByLabel('When signing').inputValue()).toBe('PASSWORD')
    await check('document-editor')

    await page.getByRole('button', { name: 'Send for signing' }).click()
    await page.getByRole('dialog', { name: 'Review and send “Service agreement”' }).getByRole('button', { name: 'Send', exact: true }).click()
    await expect.poll(() => page.locator('.docs-status').first().textContent()).toBe('Waiting for signatures')
    const sent = await stack.api('GET', `/envelope/${id}`)
    expect(sent.status).toBe('PENDING')
    expect(sent.envelopeItems.map((i: { title: string }) => i.title)).toEqual(['Service agreement.pdf', 'Annex A.pdf'])
    expect(sent.recipients[0].authOptions).toEqual({ accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: ['PASSWORD'] })
    await expect.poll(() => inbox.to('grace@example.com').length, { timeout: SAFETY_NET }).toBe(1)
    expect(inbox.to('grace@example.com')[0]!.subject).toContain('Service agreement')
    await check('document-sent')
    expect(errors).toEqual([])
  })

  test('a template from a chosen PDF, used with its fields filled in ahead and sent at once', async () => {
    await page.goto(`${stack.host.url}/console/templates`)
    await page.getByText('No template yet.').waitFor()
    await page.getByRole('button', { name: 'New template' }).first().click()
    await page.getByLabel('Choose PDF files').setInputFiles([file('Rental agreement.pdf', await makePdf('Rental agreement', 1))])
    await page.getByRole('button', { name: 'Create and open the editor' }).click()
    await page.waitForURL(/\/console\/templates\/envelope_\w+\?edit=1$/)
    const id = new URL(page.url()).pathname.split('/').pop()!
    const template = await stack.api('GET', `/envelope/${id}`)
    expect([template.type, template.title]).toEqual(['TEMPLATE', 'Rental agreement'])

    // Its recipient and fields through the API, one of each kind that can be filled in ahead.
    const { data: people } = await stack.api('POST', '/envelope/recipient/create-many', { envelopeId: id, data: [{ email: 'tenant@example.com', name: 'Tenant', role: 'SIGNER' }] })
    const at = (n: number) => ({ recipientId: people[0].id, page: 1, positionX: 10, positionY: 5 + n * 11, width: 30, height: 5 })
    await stack.api('POST', '/envelope/field/create-many', {
      envelopeId: id,
      data: [
        { ...at(7), type: 'SIGNATURE' },
        { ...at(0), type: 'TEXT', fieldMeta: { label: 'Tenant address' } },
        { ...at(1), type: 'NUMBER', fieldMeta: { label: 'Monthly rent', maxValue: 5000 } },
        { ...at(2), type: 'DATE', fieldMeta: { label: 'Start date' } },
        { ...at(3), type: 'CHECKBOX', fieldMeta: { label: 'Extras', options: ['Parking', 'Storage', 'Pets'] } },
        { ...at(4), type: 'RADIO', fieldMeta: { label: 'Payment', options: ['Monthly', 'Quarterly'] } },
        { ...at(5), type: 'DROPDOWN', fieldMeta: { label: 'Floor', options: ['Ground', 'First', 'Second'] } },
      ],
    })
    await page.goto(`${stack.host.url}/console/templates/${id}`)
    const form = page.getByRole('form', { name: 'Make a document from this template' })
    await form.getByLabel('Tenant address').waitFor()
    expect(await form.getByLabel('Floor').locator('option').allTextContents()).toEqual(['Not filled in', 'Ground', 'First', 'Second'])
    await form.getByLabel('E-mail address').fill('new.tenant@example.com')
    await form.getByLabel('Name').fill('Nora Tenant')
    await form.getByLabel('Tenant address').fill('12 Rue de la Paix')
    await form.getByLabel('Monthly rent').fill('9000')
    await form.getByLabel('Start date').fill('2027-01-15')
    await form.getByRole('group', { name: 'Extras' }).getByLabel('Parking').check()
    await form.getByRole('group', { name: 'Extras' }).getByLabel('Pets').check()
    await form.getByRole('group', { name: 'Payment' }).getByLabel('Quarterly').check()
    await form.getByLabel('Floor').selectOption('First')
    await form.getByLabel('Send it to the recipients now').check()
    await check('template-use')

    // The host refuses the rent above the field's maximum: said under it, nothing created.
    const documents = await count(`envelopes where type = 'DOCUMENT'`)
    await form.getByRole('button', { name: 'Create and send' }).click()
    await page.getByRole('alert').getByText('Nothing was created').waitFor()
    const rent = form.getByLabel('Monthly rent')
    expect(await rent.getAttribute('aria-invalid')).toBe('true')
    expect(await rent.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby')!.split(' ')[1]!)?.textContent)).toBe('Must be at most 5000')
    expect(await count(`envelopes where type = 'DOCUMENT'`)).toBe(documents)
    await check('template-refused')

    await rent.fill('1250')
    await form.getByRole('button', { name: 'Create and send' }).click()
    await page.waitForURL(/\/console\/documents\/envelope_\w+$/)
    await page.getByRole('heading', { name: 'Rental agreement', level: 1 }).waitFor()
    await expect.poll(() => page.locator('.docs-status').first().textContent()).toBe('Waiting for signatures')
    const made = await stack.api('GET', `/envelope/${new URL(page.url()).pathname.split('/').pop()}`)
    expect(made.status).toBe('PENDING')
    expect(made.recipients.map((r: { email: string; name: string }) => [r.email, r.name])).toEqual([['new.tenant@example.com', 'Nora Tenant']])
    const values = Object.fromEntries(made.fields.filter((f: { type: string }) => f.type !== 'SIGNATURE').map((f: { type: string; inserted: boolean; customText: string }) => [f.type, [f.inserted, f.customText]]))
    expect(values).toEqual({
      TEXT: [true, '12 Rue de la Paix'],
      NUMBER: [true, '1250'],
      DATE: [true, '2027-01-15'],
      CHECKBOX: [true, '["Parking","Pets"]'],
      RADIO: [true, 'Quarterly'],
      DROPDOWN: [true, 'First'],
    })
    await expect.poll(() => inbox.to('new.tenant@example.com').length, { timeout: SAFETY_NET }).toBe(1)

    // Right to left: the new-template form in Hebrew.
    await page.goto(`${stack.host.url}/console/templates`)
    await page.getByRole('combobox', { name: 'Language' }).selectOption('he')
    await page.getByRole('button', { name: 'תבנית חדשה' }).first().click()
    await page.getByLabel('בחירת קובצי PDF').setInputFiles([file('חוזה.pdf', await makePdf('Contract', 1)), file('notes.txt', Buffer.from('notes'), 'text/plain')])
    await page.getByRole('alert').getByText('notes.txt אינו קובץ PDF.').waitFor()
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl')
    await check('template-new-he')
    await page.getByRole('combobox', { name: 'שפה' }).selectOption('en')
    expect(errors).toEqual([])
  })
})
