/**
 * The form fields a PDF holds (pdf/form-fields.ts), as envelope fields could take them: forms made
 * with pdf-lib (every kind of field, a rotated page, a field past the cap) and one exported by
 * LibreOffice; read on the upload's own check (inspectHere), where its JavaScript is removed.
 * No database.
 */
import { readFile } from 'node:fs/promises'
import { PDFDocument, PDFName, PDFString, degrees } from '@cantoo/pdf-lib'
import { describe, expect, it } from 'vitest'
import { flattenForm, formFieldsOf, MAX_FORM_FIELDS, placeOnPage } from '../../host/server/pdf/form-fields.js'
import { inspectHere } from '../../host/server/pdf/inspect.js'
import { everyKind, LETTER, LIBREOFFICE_FORM } from './form-files/forms.js'

describe('form fields', () => {
  it('reads every kind of field a pdf-lib form holds: type, name, options, value, requirement and place', async () => {
    const found = formFieldsOf(await PDFDocument.load(await everyKind()))
    expect(found).toEqual([
      { name: 'Company name', type: 'TEXT', value: 'Acme', maxLength: 40, required: true, page: 1, positionX: 10, positionY: 5, width: 50, height: 5 },
      { name: 'I agree', type: 'CHECKBOX', options: ['I agree'], value: 'I agree', required: false, page: 1, positionX: 10, positionY: expect.closeTo(21.72, 2), width: expect.closeTo(3.27, 2), height: expect.closeTo(2.53, 2) },
      // The two buttons make one field, the box around both.
      { name: 'Size', type: 'RADIO', options: ['Small', 'Large'], value: 'Large', required: false, page: 2, positionX: expect.closeTo(16.34, 2), positionY: expect.closeTo(46.97, 2), width: expect.closeTo(19.61, 2), height: expect.closeTo(5.05, 2) },
      { name: 'Country', type: 'DROPDOWN', options: ['France', 'Germany'], value: 'Germany', required: false, page: 2, positionX: expect.closeTo(16.34, 2), positionY: expect.closeTo(59.09, 2), width: expect.closeTo(24.51, 2), height: expect.closeTo(3.03, 2) },
      { name: 'Colours', type: 'DROPDOWN', options: ['Red', 'Blue'], required: false, page: 2, positionX: expect.closeTo(16.34, 2), positionY: expect.closeTo(67.17, 2), width: expect.closeTo(24.51, 2), height: expect.closeTo(7.58, 2) },
    ])
  })

  it('places a field as the page is shown: turned by its rotation, within its crop box', () => {
    const page = { x: 0, y: 0, width: 200, height: 100 }
    const rect = { x: 20, y: 70, width: 40, height: 20 } // left 10%..30%, from the top 10%..30%
    expect(placeOnPage(rect, page, 0)).toEqual({ positionX: 10, positionY: 10, width: 20, height: 20 })
    // Turned a quarter clockwise: the page's bottom edge is now its left edge.
    expect(placeOnPage(rect, page, 90)).toEqual({ positionX: 70, positionY: 10, width: 20, height: 20 })
    expect(placeOnPage(rect, page, 180)).toEqual({ positionX: 70, positionY: 70, width: 20, height: 20 })
    expect(placeOnPage(rect, page, 270)).toEqual({ positionX: 10, positionY: 70, width: 20, height: 20 })
    // A crop box: measured from its corner, and a part outside it is cut at its edge.
    expect(placeOnPage({ x: 10, y: 60, width: 40, height: 20 }, { x: 10, y: 0, width: 100, height: 100 }, 0)).toEqual({ positionX: 0, positionY: 20, width: 40, height: 20 })
    expect(placeOnPage({ x: 0, y: 60, width: 40, height: 20 }, { x: 10, y: 0, width: 100, height: 100 }, 0)).toEqual({ positionX: 0, positionY: 20, width: 30, height: 20 })
  })

  it('reads a form LibreOffice exported', async () => {
    const bytes = await readFile(LIBREOFFICE_FORM)
    const found = formFieldsOf(await PDFDocument.load(bytes))
    expect(found.map(({ name, type, options, page }) => ({ name, type, options, page }))).toEqual([
      { name: 'Company', type: 'TEXT', options: undefined, page: 2 },
      { name: 'Agree', type: 'CHECKBOX', options: ['Agree'], page: 2 },
      { name: 'Country', type: 'DROPDOWN', options: ['France', 'Germany', 'Spain'], page: 2 },
      { name: 'Size', type: 'RADIO', options: ['Small', 'Large'], page: 2 },
    ])
    // In reading order down the page, each inside it.
    const tops = found.map((f) => f.positionY)
    expect([...tops].sort((a, b) => a - b)).toEqual(tops)
    for (const f of found) expect(f.positionX + f.width <= 100 && f.positionY + f.height <= 100 && f.width > 0 && f.height > 0, f.name).toBe(true)
  })

  it('is read by the upload check, after the form\'s JavaScript is removed; none for a PDF without a form', async () => {
    const doc = await PDFDocument.load(await everyKind())
    const field = doc.getForm().getTextField('Company name')
    field.acroField.dict.set(PDFName.of('AA'), doc.context.obj({ K: { S: 'JavaScript', JS: PDFString.of('app.alert(1)') } }))
    const checked = await inspectHere(await doc.save(), 'form.pdf')
    expect(checked.removed).toContain('AA')
    expect(checked.formFields.map((f) => f.name)).toEqual(['Company name', 'I agree', 'Size', 'Country', 'Colours'])
    const plain = await PDFDocument.create()
    plain.addPage()
    expect((await inspectHere(await plain.save(), 'plain.pdf')).formFields).toEqual([])
  })

  it(`stops at ${MAX_FORM_FIELDS} fields, and leaves out a field it cannot place`, async () => {
    const doc = await PDFDocument.create()
    const page = doc.addPage([...LETTER])
    page.setRotation(degrees(0))
    const form = doc.getForm()
    for (let i = 0; i < MAX_FORM_FIELDS + 20; i++) form.createTextField(`f${i}`).addToPage(page, { x: 10 + (i % 20) * 25, y: 10 + Math.floor(i / 20) * 25, width: 20, height: 20 })
    // A field whose widget is on no page.
    form.createTextField('nowhere')
    const found = formFieldsOf(await PDFDocument.load(await doc.save()))
    expect(found).toHaveLength(MAX_FORM_FIELDS)
    expect(found.some((f) => f.name === 'nowhere')).toBe(false)
  })

  it('draws every form into its pages and leaves no field or widget: ours and LibreOffice\'s', async () => {
    for (const bytes of [await everyKind(), await readFile(LIBREOFFICE_FORM)]) {
      const doc = await PDFDocument.load(bytes)
      expect(flattenForm(doc)).toBeGreaterThan(3)
      const saved = await PDFDocument.load(await doc.save())
      expect(saved.catalog.has(PDFName.of('AcroForm'))).toBe(false)
      expect(Buffer.from(await saved.save({ useObjectStreams: false })).toString('latin1')).not.toContain('/Widget')
      expect(formFieldsOf(saved)).toEqual([])
    }
  })
})
