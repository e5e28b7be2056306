import { afterAll, describe, expect } from 'vitest'
import { callback, events, frameShot, mount, shot, startStack, tallShot, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { pdfFile } from './support/pdf.js'
import { editor } from './support/ui.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

const near = (a: number, b: number) => Math.abs(a - b) < 0.02

describe('create a document', () => {
  test('two PDFs, two recipients, fields on both files: the callback and the API agree with the editor', async () => {
    const token = await stack.presign()
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: token, type: 'DOCUMENT', externalId: 'order-1001', style: { height: '860px' } })
    const ui = editor(page, frame)
    await callback(page, 'onReady')
    // The token left the address bar as soon as the page read it.
    const frameUrl = page.frames().find((f) => f !== page.mainFrame())!.url()
    expect(frameUrl).not.toContain('token=')
    expect(frameUrl).toContain('/embed/v2/authoring/envelope/create')
    await shot(page, 'create-01-files-empty')

    // Files: a non-PDF is refused, two PDFs become two items.
    await ui.addFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a pdf') }])
    await expect.poll(() => frame.getByRole('alert').textContent()).toContain('“notes.txt” is not a PDF file')
    await ui.addFiles([await pdfFile('Service agreement.pdf', 2), await pdfFile('Price list.pdf', 1)])
    await expect.poll(() => frame.getByTestId('file-row').count()).toBe(2)
    await expect.poll(() => frame.getByText('2 pages').count()).toBe(1)
    await frame.getByLabel('File name').nth(1).fill('Prices 2025')
    await shot(page, 'create-02-files')

    // Recipients.
    await frame.getByRole('button', { name: 'Continue' }).click()
    await ui.addRecipient('Alice Example', 'alice@example.com')
    await ui.addRecipient('Bob Example', 'bob@example.com', 'APPROVER')
    await shot(page, 'create-03-recipients')

    // Fields: click, drag, and keyboard placement, on both files.
    await frame.getByRole('button', { name: 'Continue' }).click()
    await ui.fieldsFor('Alice Example')
    await ui.page(0, 1).waitFor()
    // Both files drawn: one pdf.js worker serves them (its 1.2 MB script fetched and compiled once).
    await ui.page(1, 1).scrollIntoViewIfNeeded()
    await ui.page(1, 1).locator('.page-loading').waitFor({ state: 'detached' })
    await ui.page(0, 1).locator('.page-loading').waitFor({ state: 'detached' })
    const scripts = await frame.locator('body').evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => /\/embed\/assets\/[^/]+\.m?js$/.test(e.name))
        .map((e) => ({ name: e.name.split('/').pop()!, wire: e.encodedBodySize, size: e.decodedBodySize })),
    )
    expect(scripts.filter((s) => /^pdf\.worker.*\.mjs$/.test(s.name))).toHaveLength(1)
    // Every script came compressed (the build's Brotli copies): the worker, for one, in about a quarter of its bytes.
    expect(scripts.filter((s) => s.size > 1024 && !(s.wire < s.size / 2))).toEqual([])
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.8)
    await ui.placeByDrag('Date', 0, 2, 0.7, 0.8)
    // Resize it by its corner handle.
    const handle = (await frame.locator('.field-box[data-selected] .field-box-handle').boundingBox())!
    await page.mouse.move(handle.x + 4, handle.y + 4)
    await page.mouse.down()
    await page.mouse.move(handle.x + 70, handle.y + 30, { steps: 6 })
    await page.mouse.up()
    // Move the signature onto the top of the second page by dragging it there.
    await ui.dragField(frame.getByRole('button', { name: /^Signature for Alice Example, page 1/ }), 0, 2, 0.1, 0.05)
    await frame.getByRole('button', { name: /^Signature for Alice Example, page 2/ }).waitFor()
    await ui.fieldsFor('Bob Example')
    // Keyboard only: focus page 1 of the second file, add a text field, nudge it.
    await ui.page(1, 1).focus()
    await frame.getByRole('button', { name: 'Text', exact: true }).focus()
    await page.keyboard.press('Enter')
    await page.keyboard.press('Shift+ArrowRight')
    await page.keyboard.press('ArrowDown')
    await frame.getByLabel('Label').fill('Customer number')
    await frame.getByRole('button', { name: 'Checkbox', exact: true }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => frame.getByTestId('field-box').count()).toBe(4)
    await frame.getByTestId('field-box').first().scrollIntoViewIfNeeded()
    await tallShot(page, 'create-04-fields')
    const shown = await ui.fieldBoxes()
    const date = shown.find((f) => f.type === 'DATE')!
    expect(date.w).toBeGreaterThan(16 + 5)
    expect(date.h).toBeGreaterThan(4 + 1.5)
    const text = shown.find((f) => f.type === 'TEXT')!
    // Centred at 50 % (width 24 %) then one Shift step right and one small step down.
    expect(text).toMatchObject({ item: 1, page: 1, x: 38 + 5, y: 15 - 2 + 0.5 })

    // Settings.
    await frame.getByRole('button', { name: 'Continue' }).click()
    await frame.getByLabel('Title').fill('Service agreement for ACME')
    await frame.getByLabel('E-mail subject').fill('Please sign')
    await frame.getByLabel('Time zone').selectOption('Europe/Berlin')
    await frame.getByRole('button', { name: 'Add link' }).click()
    await frame.getByLabel('Label 1').fill('Terms')
    await frame.getByLabel('Address (https://…) 1').fill('https://example.com/terms')
    await shot(page, 'create-05-settings')

    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const created = await callback(page, 'onEnvelopeCreated')
    expect(created).toEqual({ envelopeId: expect.stringMatching(/^envelope_/), externalId: 'order-1001' })
    expect(await callback(page, 'onDocumentCreated')).toEqual(created)
    await frame.getByText('Document created').waitFor()
    await shot(page, 'create-06-done')
    expect((await events(page)).filter((e) => e.name === 'onError')).toEqual([])

    // What the API stores is exactly what the editor showed.
    const env = await stack.api('GET', `/envelope/${created.envelopeId}`)
    expect(env).toMatchObject({ type: 'DOCUMENT', title: 'Service agreement for ACME', externalId: 'order-1001' })
    expect(env.documentMeta).toMatchObject({ subject: 'Please sign', timezone: 'Europe/Berlin' })
    expect(env.envelopeItems.map((i: any) => [i.title, i.order])).toEqual([['Service agreement', 1], ['Prices 2025', 2]])
    expect(env.recipients.map((r: any) => [r.name, r.email, r.role])).toEqual([
      ['Alice Example', 'alice@example.com', 'SIGNER'],
      ['Bob Example', 'bob@example.com', 'APPROVER'],
    ])
    const items = env.envelopeItems.map((i: any) => i.id)
    const byEmail = Object.fromEntries(env.recipients.map((r: any) => [r.id, r.email]))
    expect(env.fields).toHaveLength(4)
    for (const s of shown) {
      const f = env.fields.find((x: any) => x.type === s.type)
      expect(f, s.type!).toBeTruthy()
      expect(f.envelopeItemId).toBe(items[s.item])
      expect(f.page).toBe(s.page)
      expect([f.positionX, f.positionY, f.width, f.height].every((v, n) => near(v, [s.x, s.y, s.w, s.h][n]!))).toBe(true)
    }
    expect(byEmail[env.fields.find((f: any) => f.type === 'SIGNATURE').recipientId]).toBe('alice@example.com')
    expect(byEmail[env.fields.find((f: any) => f.type === 'TEXT').recipientId]).toBe('bob@example.com')
    expect(env.fields.find((f: any) => f.type === 'TEXT').fieldMeta).toMatchObject({ label: 'Customer number', required: true })
    expect(env.fields.find((f: any) => f.type === 'CHECKBOX').fieldMeta).toMatchObject({ options: ['Option 1'] })
    const { data: links } = await stack.api('GET', `/envelope/attachment?envelopeId=${created.envelopeId}`)
    expect(links).toEqual([expect.objectContaining({ label: 'Terms', data: 'https://example.com/terms' })])
    await page.close()
  })

  test('a template, through the same component', async () => {
    const token = await stack.presign()
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: token, type: 'TEMPLATE' })
    const ui = editor(page, frame)
    await callback(page, 'onReady')
    await frame.getByText('New template').waitFor()
    await ui.dropFiles([await pdfFile('NDA.pdf', 1)])
    await frame.getByText('1 page').waitFor()
    await ui.step(/Recipients/).click()
    await ui.addRecipient('Signer', 'signer@example.com')
    await ui.step(/Fields/).click()
    await ui.placeByClick('Name', 0, 1, 0.5, 0.5)
    await frame.getByRole('button', { name: 'Create template' }).first().click()
    const created = await callback(page, 'onEnvelopeCreated')
    expect(created).toEqual({ envelopeId: expect.stringMatching(/^envelope_/) })
    expect(await callback(page, 'onTemplateCreated')).toEqual(created)
    expect((await events(page)).some((e) => e.name === 'onDocumentCreated')).toBe(false)
    const env = await stack.api('GET', `/envelope/${created.envelopeId}`)
    expect(env).toMatchObject({ type: 'TEMPLATE', title: 'NDA', secondaryId: expect.stringMatching(/^template_\d+$/) })
    expect(env.fields).toEqual([expect.objectContaining({ type: 'NAME', page: 1 })])
    await frameShot(page, 'template-done')
    await page.close()
  })

  test('Create with problems shows them and goes to the step that has them', async () => {
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT' })
    await callback(page, 'onReady')
    const ui = editor(page, frame)
    await ui.step(/Recipients/).click()
    await ui.addRecipient('No Mail', 'not-an-email')
    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const alert = frame.getByRole('alert')
    await expect.poll(() => alert.textContent()).toContain('Add at least one PDF file.')
    expect(await alert.textContent()).toContain('Every recipient needs a valid e-mail address.')
    expect(await frame.getByRole('heading', { level: 2 }).textContent()).toBe('Files')
    await shot(page, 'create-problems')
    // Nothing was created and nothing failed: the page only reported its moments, the refused save among them.
    const names = (await events(page)).map((e) => e.name)
    expect(names.filter((n) => !['onStepChange', 'onDirtyChange', 'onSaveFailed'].includes(n))).toEqual(['onReady'])
    expect(names).toContain('onSaveFailed')
    await page.close()
  })
})
