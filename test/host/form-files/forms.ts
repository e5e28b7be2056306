/**
 * Forms the tests upload: one made with pdf-lib holding every kind of field, and the path of one
 * LibreOffice exported (README.md beside it says how it was made).
 */
import path from 'node:path'
import { PDFDocument } from '@cantoo/pdf-lib'

export const LIBREOFFICE_FORM = path.join(import.meta.dirname, 'supplier-libreoffice.pdf')

export const LETTER = [612, 792] as const

/** Widgets drawn without a border: their boxes are exactly the ones given. */
export async function everyKind(): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const first = doc.addPage([...LETTER])
  const second = doc.addPage([...LETTER])
  const form = doc.getForm()
  const company = form.createTextField('Company name')
  company.setMaxLength(40)
  company.setText('Acme')
  company.enableRequired()
  company.addToPage(first, { x: 61.2, y: 712.8, width: 306, height: 39.6, borderWidth: 0 })
  const agree = form.createCheckBox('I agree')
  agree.check()
  agree.addToPage(first, { x: 61.2, y: 600, width: 20, height: 20, borderWidth: 0 })
  const size = form.createRadioGroup('Size')
  size.addOptionToPage('Small', second, { x: 100, y: 400, width: 20, height: 20, borderWidth: 0 })
  size.addOptionToPage('Large', second, { x: 200, y: 380, width: 20, height: 20, borderWidth: 0 })
  size.select('Large')
  const country = form.createDropdown('Country')
  country.addOptions(['France', 'Germany'])
  country.select('Germany')
  country.addToPage(second, { x: 100, y: 300, width: 150, height: 24, borderWidth: 0 })
  const colours = form.createOptionList('Colours')
  colours.addOptions(['Red', 'Blue'])
  colours.addToPage(second, { x: 100, y: 200, width: 150, height: 60, borderWidth: 0 })
  form.createButton('Print').addToPage('Print', second, { x: 400, y: 100, width: 80, height: 24, borderWidth: 0 })
  return doc.save()
}
