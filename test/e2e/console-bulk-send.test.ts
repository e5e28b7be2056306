/**
 * Send to many on a template's page, in Chromium: a template with two roles (Client, Witness) and
 * a Reference field; a CSV of 50 rows chosen in the console, three of them bad (an address that is
 * not one, an empty witness address, a row the same as an earlier one). The mapping is suggested
 * from the columns' names; the host's preview says 47 go and 3 are refused, and why, before
 * anything is sent (a workbook, XLSX, chosen first, has its columns offered the same way); the send is confirmed, its progress followed until the end (47 sent, 3
 * refused), the report downloaded (a line per row and its header), and API v2 lists 47 documents.
 * A table the host cannot read is refused in words as it is chosen, nothing started.
 * On both databases. axe-core on the mapping, the preview and the end at 1280 px and on the
 * preview at 390 px; screenshots of each state (SCREENSHOTS=1).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { axeReport, axeViolations } from './support/axe.js'
import { makePdf } from './support/pdf.js'
import { sig, text } from './support/sign.js'
import { createEnvelope, SAFETY_NET, SCREENSHOTS, type Stack, startStackOn } from './support/stack.js'
import { test } from './support/fixtures.js'
import { consoleAdmin } from './support/ui.js'
import { inlineRow, workbook } from '../host/tables/workbooks.js'

const HEADER = 'Client e-mail,Client name,Witness e-mail,Witness name,Reference,Title'

/** 50 rows; row n of the data is row n + 1 of a spreadsheet. Bad: data rows 10 (address), 20 (no witness), 30 (= row 5). */
function table(): string {
  const lines = [HEADER]
  for (let n = 1; n <= 50; n++) {
    const client = n === 10 ? 'not-an-address' : `client${n}@example.com`
    const witness = n === 20 ? '' : `witness${n}@example.com`
    lines.push(n === 30 ? lines[5]! : `${client},Client ${n},${witness},Witness ${n},REF-${n},"Agreement ${n}, signed"`)
  }
  return `${lines.join('\r\n')}\r\n`
}
const csv = (name: string, body: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(body) })

describe.each(['pglite', 'postgres'] as const)('send to many in the console (%s)', (variant) => {
  let stack: Stack
  let page: Page
  let templateId: string
  const errors: string[] = []
  const shots = variant === 'pglite'

  /** axe at 1280 (and at 390 when asked, where nothing scrolls sideways); screenshots on one database. */
  const check = async (name: string, phone = false) => {
    await page.waitForLoadState('networkidle')
    const sizes = phone ? ([[1280, 900], [390, 844]] as const) : ([[1280, 900]] as const)
    for (const [width, height] of sizes) {
      await page.setViewportSize({ width, height })
      if (shots) await page.screenshot({ path: join(SCREENSHOTS, `console-bulk-send-${name}-${width}.png`), fullPage: true })
      expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
      if (width === 390) expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true)
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  }

  test.beforeAll(async ({ browser }) => {
    stack = await startStackOn(browser, variant, { host: { queuePollMs: 100 } })
    const template = await createEnvelope(stack, {
      type: 'TEMPLATE',
      title: 'Loan agreement',
      files: [{ name: 'Loan agreement.pdf', buffer: await makePdf('Loan agreement', 1) }],
      recipients: [
        { email: '', name: 'Client', role: 'SIGNER', fields: [sig(10, 70), text('Reference', 10, 20, false)] },
        { email: '', name: 'Witness', role: 'SIGNER', fields: [sig(50, 70)] },
      ],
    })
    templateId = template.id
    page = await consoleAdmin(stack, 'ada@example.com', errors)
  })
  afterAll(async () => {
    await stack?.close()
  })

  test('a table of 50 rows: mapped, previewed, 47 sent and 3 refused, the report downloaded', async () => {
    await page.goto(`${stack.host.url}/console/templates/${templateId}`)
    const section = page.getByRole('region', { name: 'Send to many' })
    await section.waitFor()
    const chooser = section.getByLabel('Choose a CSV or XLSX file')
    expect(await chooser.getAttribute('accept')).toBe('.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    if (shots) await page.screenshot({ path: join(SCREENSHOTS, 'console-bulk-send-choose-1280.png'), fullPage: true })

    // A table the host cannot read (a quote never closed): refused in words as it is chosen, nothing started.
    await chooser.setInputFiles(csv('broken.csv', `${HEADER}\r\nclient@example.com,"Client,w@example.com,Witness,R,T\r\n`))
    await section.getByRole('alert').getByText(/^The file was refused \(the table cannot be read/).waitFor()
    expect(Number((await stack.host.db.query<{ n: string }>('select count(*)::text as n from bulk_sends'))[0]!.n)).toBe(0)
    await check('refused')

    // A workbook: its columns, read by the host, offered and suggested as a CSV's are.
    const sheet = [HEADER.split(','), ['client1@example.com', 'Client 1', 'witness1@example.com', 'Witness 1', 'REF-1', 'Agreement 1']].map((cells, i) => inlineRow(i + 1, cells)).join('')
    await chooser.setInputFiles({ name: 'people.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from(workbook({ sheet })) })
    await section.getByText('Table: people.xlsx').waitFor()
    expect(await section.getByRole('form', { name: 'Which column gives what' }).getByLabel('E-mail address of Witness', { exact: true }).inputValue()).toBe('Witness e-mail')

    // The real table: each choice suggested from the columns' names.
    await section.getByLabel('Choose another file').setInputFiles(csv('people.csv', table()))
    await section.getByText('Table: people.csv').waitFor()
    const mapping = section.getByRole('form', { name: 'Which column gives what' })
    const chosen = async (label: string) => mapping.getByLabel(label, { exact: true }).inputValue()
    expect(await chosen('E-mail address of Client')).toBe('Client e-mail')
    expect(await chosen('Name of Client (optional)')).toBe('Client name')
    expect(await chosen('E-mail address of Witness')).toBe('Witness e-mail')
    expect(await chosen('Name of Witness (optional)')).toBe('Witness name')
    expect(await chosen('Reference')).toBe('Reference')
    expect(await chosen('Title of each document (optional)')).toBe('Title')
    expect(await mapping.getByLabel('E-mail address of Client').locator('option').allTextContents()).toEqual(['Choose a column', ...HEADER.split(',')])
    await check('mapping')

    // The preview: the counts, the first 20 rows, every refused row and why; nothing sent yet.
    await mapping.getByRole('button', { name: 'Preview' }).click()
    await section.getByRole('heading', { name: 'Preview' }).waitFor()
    const count = (key: string) => section.getByTestId(key).locator('dd').textContent()
    expect([await count('bulk.count.total'), await count('bulk.count.sendable'), await count('bulk.count.refused')]).toEqual(['50', '47', '3'])
    const preview = section.getByRole('table', { name: 'The first rows, as they would be sent' })
    expect(await preview.getByTestId('bulk-row').count()).toBe(20)
    expect(await preview.getByRole('columnheader').allTextContents()).toEqual(['Row', 'Client: e-mail', 'Client: name', 'Witness: e-mail', 'Witness: name', 'Check'])
    expect(await preview.getByTestId('bulk-row').nth(0).locator('th, td').allTextContents()).toEqual(['2', 'client1@example.com', 'Client 1', 'witness1@example.com', 'Witness 1', 'Ready'])
    expect(await section.getByTestId('bulk-problems').locator('li').allTextContents()).toEqual([
      'Row 11: "not-an-address" in Client e-mail is not an e-mail address',
      'Row 21: Witness e-mail is empty',
      'Row 31: the same as row 6',
    ])
    expect(await stack.api('GET', '/envelope?type=DOCUMENT')).toMatchObject({ count: 0 })
    await check('preview', true)

    // Sent after a confirmation; the progress is followed until the end. The first question about
    // it is held until the bar is checked: the host may finish within the page's first second.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const progress = /\/api\/v2\/envelope\/bulk-send\/[\w-]+$/
    await page.route(progress, async (route) => {
      await held
      await route.continue()
    })
    await section.getByRole('button', { name: 'Send 47 documents' }).click()
    const dialog = page.getByRole('dialog', { name: 'Send the documents now?' })
    await dialog.getByRole('button', { name: 'Send 47 documents' }).click()
    const bar = section.getByRole('progressbar', { name: /of 50 rows done$/ })
    await bar.waitFor()
    // The refused rows are done from the start.
    expect([await bar.getAttribute('aria-valuemin'), await bar.getAttribute('aria-valuenow'), await bar.getAttribute('aria-valuemax')]).toEqual(['0', '3', '50'])
    if (shots) await page.screenshot({ path: join(SCREENSHOTS, 'console-bulk-send-progress-1280.png'), fullPage: true })
    release()
    // The held question may still be on its way: its handler ends before the route goes.
    await page.unrouteAll({ behavior: 'wait' })
    await section.getByRole('status').getByText('Done: 47 sent, 3 refused.').waitFor({ timeout: SAFETY_NET })
    expect([await count('bulk.count.total'), await count('bulk.count.sent'), await count('bulk.count.refused')]).toEqual(['50', '47', '3'])
    await check('done')

    // The report: its header and a line per row, each row's fate.
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download the report' }).click()])
    expect(download.suggestedFilename()).toMatch(/-report\.csv$/)
    const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n').filter(Boolean)
    expect(lines).toHaveLength(51)
    expect(lines[0]).toBe('"row","status","recipients","document","reason"')
    expect(lines.filter((l) => l.includes('"SENT"'))).toHaveLength(47)
    expect(lines[10]).toBe('"11","REFUSED","not-an-address witness10@example.com","","""not-an-address"" in Client e-mail is not an e-mail address"')

    // The documents: 47 through the API, each a row's people and title; the list one click away.
    const made = await stack.api<{ count: number; data: { title: string; recipients: { email: string; name: string }[] }[] }>('GET', '/envelope?type=DOCUMENT&perPage=100')
    expect(made.count).toBe(47)
    const first = made.data.find((d) => d.title === 'Agreement 1, signed')!
    expect(first.recipients.map((r) => [r.email, r.name])).toEqual([
      ['client1@example.com', 'Client 1'],
      ['witness1@example.com', 'Witness 1'],
    ])
    await section.getByRole('link', { name: 'Go to the documents' }).click()
    await page.getByRole('heading', { name: 'Documents' }).waitFor()
    expect(errors).toEqual([])
  })
})
