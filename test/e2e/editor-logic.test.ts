/**
 * Conditional fields and formulas authored in the editor (EmbedCreateEnvelope) in Chromium: a
 * text field shown when a checkbox is checked (the rule follows the checkbox's new label), a
 * NUMBER total computed from two others, the formula's parse error said as it is typed, a rule on
 * a deleted field stopping Create with a problem naming the field; what API v2 stores is exactly
 * the condition and the formula. axe-core and screenshots of the inspector's Logic section at 1280
 * and 390 px. Then the same envelope in EmbedUpdateEnvelope: its logic shown as stored, a renamed
 * field followed by the formula that reads it, saved.
 */
import { afterAll, describe, expect } from 'vitest'
import { axeReport, axeViolations } from './support/axe.js'
import { callback, frameShot, mount, SHOTS, startStack, tallShot, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { pdfFile } from './support/pdf.js'
import { editor } from './support/ui.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

/** The envelope the first test creates, edited by the second. */
let created = ''

describe('conditions and formulas in the editor', () => {
  test('a field shown by a checkbox, a computed total, problems before Create, exactly what is stored', async () => {
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT', style: { height: '860px' } })
    const ui = editor(page, frame)
    await callback(page, 'onReady')
    await ui.addFiles([await pdfFile('Order form.pdf', 1)])
    await expect.poll(() => frame.getByTestId('file-row').count()).toBe(1)
    await frame.getByRole('button', { name: 'Continue' }).click()
    await ui.addRecipient('Alice Example', 'alice@example.com')
    await frame.getByRole('button', { name: 'Continue' }).click()
    await ui.page(0, 1).waitFor()

    const logic = frame.getByTestId('field-logic')
    const place = async (type: string, label: string, px: number, py: number) => {
      await ui.placeByClick(type, 0, 1, px, py)
      await frame.getByLabel('Label', { exact: true }).fill(label)
    }
    const select = async (label: string) => {
      await frame.getByRole('button', { name: new RegExp(`^${label} for Alice Example, page 1`) }).click()
      await expect.poll(() => frame.getByLabel('Label', { exact: true }).inputValue()).toBe(label)
    }
    const openLogic = async () => {
      // With the keyboard: the section's summary opens it.
      if ((await logic.getAttribute('open')) === null) {
        await logic.locator('summary').focus()
        await page.keyboard.press('Enter')
      }
      await expect.poll(() => logic.getAttribute('open')).toBe('')
    }

    // Alone, the first field has nothing to refer to: the section says so.
    await place('Checkbox', 'Company', 0.3, 0.12)
    await openLogic()
    await expect.poll(() => logic.textContent()).toContain('give another field a label first')
    await place('Text', 'Company name', 0.3, 0.24)
    await place('Number', 'Quantity', 0.15, 0.4)
    await place('Number', 'Price', 0.35, 0.4)
    await place('Number', 'Total', 0.55, 0.4)
    await place('Text', 'Note', 0.3, 0.55)
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.8)

    // Company name: shown when the checkbox is checked; a second rule on Note.
    await select('Company name')
    await openLogic()
    await logic.getByRole('button', { name: 'Add a condition' }).click()
    await logic.getByLabel('What the condition does').selectOption({ label: 'Show this field' })
    await logic.getByRole('radio', { name: 'when any of these is true' }).check()
    await logic.getByRole('radio', { name: 'when all of these are true' }).check()
    await logic.getByLabel('Rule 1: field').selectOption('Company')
    // Only the tests that fit a checkbox.
    const checkboxTests = await logic.getByLabel('Rule 1: test').locator('option').allTextContents()
    expect(checkboxTests).toEqual(['is checked', 'is not checked', 'is', 'is not', 'is empty', 'is filled in'])
    await logic.getByLabel('Rule 1: test').selectOption({ label: 'is checked' })
    // "is checked" may name one option; "any option" is none.
    expect(await logic.getByLabel('Rule 1: value').inputValue()).toBe('')
    // A NUMBER field's tests compare numbers; the value is typed.
    await logic.getByRole('button', { name: 'Add a rule' }).click()
    await logic.getByLabel('Rule 2: field').selectOption('Quantity')
    expect(await logic.getByLabel('Rule 2: test').locator('option').allTextContents()).toEqual([
      'is', 'is not', 'is empty', 'is filled in', 'is more than', 'is less than', 'is at least', 'is at most',
    ])
    await logic.getByLabel('Rule 2: test').selectOption({ label: 'is more than' })
    await logic.getByLabel('Rule 2: value').fill('abc')
    await expect.poll(() => logic.getByRole('group', { name: 'Rule 2' }).textContent()).toContain('"abc" is not a number')
    await logic.getByLabel('Rule 2: field').selectOption('Note')
    await logic.getByLabel('Rule 2: test').selectOption({ label: 'is filled in' })
    expect(await logic.getByLabel('Rule 2: value').count()).toBe(0)

    // The checkbox gets its final label: the rule follows it.
    await select('Company')
    await frame.getByLabel('Label', { exact: true }).fill('For a company')
    await select('Company name')
    await expect.poll(() => logic.getByLabel('Rule 1: field').inputValue()).toBe('For a company')

    // Total: a formula; its parse error is said as it is typed.
    await select('Total')
    await openLogic()
    const formula = logic.getByLabel('Formula')
    await formula.fill('{Quantity} *')
    await expect.poll(() => formula.getAttribute('aria-invalid')).toBe('true')
    const describedBy = (await formula.getAttribute('aria-describedby'))!.split(' ')
    const error = frame.locator(`[id="${describedBy[0]}"]`)
    expect(await error.textContent()).toBe('The formula ends too early (at character 13)')
    await formula.fill('{Quantity} * {Price}')
    await expect.poll(() => formula.getAttribute('aria-invalid')).toBe(null)
    expect(await frame.locator(`[id="${(await formula.getAttribute('aria-describedby'))!}"]`).textContent()).toContain('round(x, 2)')

    // The inspector with the logic open: at 1280 px and as the phone's sheet at 390 px.
    await select('Company name')
    await openLogic()
    await frameShot(page, 'editor-logic-01-condition-1280')
    // The whole inspector, its rules below the fold of the frame.
    if (SHOTS) {
      const tools = frame.locator('.tools')
      await tools.evaluate((el) => ((el as HTMLElement).style.maxHeight = 'none'))
      await tallShot(page, 'editor-logic-01b-inspector-1280')
      await tools.evaluate((el) => ((el as HTMLElement).style.maxHeight = ''))
    }
    expect(axeReport('the Logic section at 1280', await axeViolations(frame))).toBe('')
    await page.setViewportSize({ width: 390, height: 844 })
    // The sheet scrolls on its own: its logic in view, the page behind it at its top (scrolled, the
    // sticky bars cover the steps, which axe counts against them whatever the sheet holds).
    await logic.scrollIntoViewIfNeeded()
    await frame.locator('body').evaluate(() => window.scrollTo({ top: 0 }))
    await frameShot(page, 'editor-logic-02-condition-390')
    expect(axeReport('the Logic section at 390', await axeViolations(frame))).toBe('')
    // Nothing wider than the sheet.
    const overflow = await frame.locator('.inspector').evaluate((el) => el.scrollWidth - el.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await select('Total')
    await openLogic()
    await formula.fill('{Quantity} *')
    await logic.scrollIntoViewIfNeeded()
    await frameShot(page, 'editor-logic-03-formula-390')
    await formula.fill('{Quantity} * {Price}')
    await page.setViewportSize({ width: 1280, height: 900 })

    // Note deleted: the rule on it is a problem, named on its field, and Create stops.
    await select('Note')
    await frame.getByRole('button', { name: 'Delete field' }).click()
    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const alert = frame.getByRole('alert')
    await expect.poll(() => alert.textContent()).toContain('“Company name”: No field is labelled "Note"')
    await frameShot(page, 'editor-logic-04-problem-1280')
    expect(await page.evaluate(() => window.events.some((e) => e.name === 'onEnvelopeCreated'))).toBe(false)
    await select('Company name')
    await openLogic()
    expect(await logic.getByLabel('Rule 2: field').inputValue()).toBe('Note')
    expect(await logic.getByLabel('Rule 2: field').getAttribute('aria-invalid')).toBe('true')
    await logic.getByRole('button', { name: 'Remove rule 2' }).click()
    await expect.poll(() => alert.count()).toBe(0)

    await frame.getByRole('button', { name: 'Create document' }).first().click()
    const { envelopeId } = await callback(page, 'onEnvelopeCreated')
    created = envelopeId
    const env = await stack.api('GET', `/envelope/${envelopeId}`)
    const meta = Object.fromEntries(env.fields.filter((f: any) => f.fieldMeta?.label).map((f: any) => [f.fieldMeta.label, f.fieldMeta]))
    expect(meta['Company name'].condition).toEqual({ effect: 'show', match: 'all', rules: [{ field: 'For a company', test: 'checked' }] })
    expect(meta['Total'].formula).toBe('{Quantity} * {Price}')
    // Fields without logic carry no empty keys.
    for (const label of ['For a company', 'Quantity', 'Price', 'Total']) expect(meta[label]).not.toHaveProperty('condition')
    for (const label of ['For a company', 'Company name', 'Quantity', 'Price']) expect(meta[label]).not.toHaveProperty('formula')
    await page.close()
  })

  test('edited later: the stored condition and formula are shown, a renamed field is followed by the formula that reads it', async () => {
    const env = await stack.api('GET', `/envelope/${created}`)
    const token = await stack.presign({ scope: { kind: 'envelopeId', id: env.id } })
    const { page, frame } = await mount(stack, 'EmbedUpdateEnvelope', { presignToken: token, envelopeId: env.id, onlyEditFields: true, style: { height: '860px' } })
    await callback(page, 'onReady')
    const logic = frame.getByTestId('field-logic')
    await frame.getByRole('button', { name: /^Company name for Alice Example, page 1/ }).click()
    // A field with logic opens on it.
    await expect.poll(() => logic.getAttribute('open')).toBe('')
    expect(await logic.getByLabel('Rule 1: field').inputValue()).toBe('For a company')
    expect(await logic.getByLabel('What the condition does').inputValue()).toBe('show')
    await frame.getByRole('button', { name: /^Quantity for Alice Example, page 1/ }).click()
    await frame.getByLabel('Label', { exact: true }).fill('Qty')
    await frame.getByRole('button', { name: /^Total for Alice Example, page 1/ }).click()
    expect(await logic.getByLabel('Formula').inputValue()).toBe('{Qty} * {Price}')
    await frame.getByRole('button', { name: 'Save changes' }).click()
    expect(await callback(page, 'onEnvelopeUpdated')).toEqual({ envelopeId: env.id })
    const after = await stack.api('GET', `/envelope/${env.id}`)
    const meta = Object.fromEntries(after.fields.filter((f: any) => f.fieldMeta?.label).map((f: any) => [f.fieldMeta.label, f.fieldMeta]))
    expect(meta['Total'].formula).toBe('{Qty} * {Price}')
    expect(meta['Company name'].condition).toEqual({ effect: 'show', match: 'all', rules: [{ field: 'For a company', test: 'checked' }] })
    await page.close()
  })
})
