/**
 * The form fields (AcroForm) a PDF already holds, as envelope fields could take them: each field's
 * type, its name as the label, its options, whether the form requires it, and its place on its
 * page in percent of the page as it is shown (rotation and crop box applied). Read on the upload's
 * one parse (inspect.ts), within its budget; a field this cannot read is left out, never fatal.
 */
import {
  PDFCheckBox,
  PDFDict,
  PDFDropdown,
  PDFHexString,
  PDFName,
  PDFOptionList,
  PDFRadioGroup,
  PDFRef,
  PDFSignature,
  PDFString,
  PDFTextField,
  type PDFDocument,
  type PDFField,
  type PDFPage,
  type PDFWidgetAnnotation,
} from '@cantoo/pdf-lib'

/** A form may hold more; past these the rest is left out (an envelope takes 500 fields at a time). */
export const MAX_FORM_FIELDS = 500
const MAX_OPTIONS = 100
/** A field's widgets read (a radio group's buttons): no more than it may have options. */
const MAX_WIDGETS = MAX_OPTIONS
const MAX_LABEL = 255

export type FormFieldType = 'TEXT' | 'CHECKBOX' | 'RADIO' | 'DROPDOWN' | 'SIGNATURE'

/** A form field found, placed as envelope fields are: page from 1, box in percent of the page. */
export interface FormField {
  /** The form's name for it (fully qualified: `parent.child`). */
  name: string
  /** Its description for people, when the form gives one (the field's /TU, a viewer's tooltip). */
  label?: string
  type: FormFieldType
  page: number
  positionX: number
  positionY: number
  width: number
  height: number
  required: boolean
  /** RADIO, DROPDOWN: the choices; CHECKBOX: its one option (the field's name). */
  options?: string[]
  /** The value the form holds already (a text, the chosen option), if any. */
  value?: string
  /** TEXT: the longest text the form allows. */
  maxLength?: number
}

type Box = { x: number; y: number; width: number; height: number }

const round = (n: number) => Math.round(n * 100) / 100
const clamp = (n: number) => Math.min(100, Math.max(0, n))
const cut = (s: string) => s.replace(/[\u0000-\u001f]/g, ' ').trim().slice(0, MAX_LABEL)

/** `rect` (PDF user space) in percent of the page as a viewer shows it: rotated, within its crop box. */
export function placeOnPage(rect: Box, crop: Box, rotation: number): Pick<FormField, 'positionX' | 'positionY' | 'width' | 'height'> {
  // Fractions of the crop box, measured from its lower left corner, y up.
  const left = (rect.x - crop.x) / crop.width
  const right = (rect.x + rect.width - crop.x) / crop.width
  const bottom = (rect.y - crop.y) / crop.height
  const top = (rect.y + rect.height - crop.y) / crop.height
  // Then as shown: from the top left corner, y down, after the page's clockwise rotation.
  const [x0, y0, x1, y1] =
    rotation === 90 ? [bottom, left, top, right] : rotation === 180 ? [1 - right, bottom, 1 - left, top] : rotation === 270 ? [1 - top, 1 - right, 1 - bottom, 1 - left] : [left, 1 - top, right, 1 - bottom]
  // Cut at the page's edges: a part outside the crop box is not shown.
  const [xa, xb] = [clamp(Math.min(x0, x1) * 100), clamp(Math.max(x0, x1) * 100)]
  const [ya, yb] = [clamp(Math.min(y0, y1) * 100), clamp(Math.max(y0, y1) * 100)]
  return { positionX: round(xa), positionY: round(ya), width: round(xb - xa), height: round(yb - ya) }
}

/** The smallest box holding every box of `boxes`. */
function union(boxes: Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x))
  const y = Math.min(...boxes.map((b) => b.y))
  return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y }
}

function kindOf(field: PDFField): Pick<FormField, 'type' | 'options' | 'value' | 'maxLength'> | null {
  if (field instanceof PDFTextField) {
    const value = field.getText()
    const maxLength = field.getMaxLength()
    return { type: 'TEXT', ...(value ? { value: value.slice(0, 1000) } : {}), ...(maxLength ? { maxLength } : {}) }
  }
  if (field instanceof PDFCheckBox) return { type: 'CHECKBOX', options: [cut(field.getName())], ...(field.isChecked() ? { value: cut(field.getName()) } : {}) }
  if (field instanceof PDFRadioGroup) {
    const value = field.getSelected()
    return { type: 'RADIO', options: field.getOptions().slice(0, MAX_OPTIONS).map(cut), ...(value ? { value: cut(value) } : {}) }
  }
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
    const [value] = field.getSelected()
    return { type: 'DROPDOWN', options: field.getOptions().slice(0, MAX_OPTIONS).map(cut), ...(value ? { value: cut(value) } : {}) }
  }
  if (field instanceof PDFSignature) return { type: 'SIGNATURE' }
  return null // a push button: nothing to fill
}

type Placement = Pick<FormField, 'page' | 'positionX' | 'positionY' | 'width' | 'height'>

/** Where each field of `doc` is shown: page from 1, box in percent; null for one on no page or of no size. */
function placer(doc: PDFDocument): (field: PDFField) => Placement | null {
  const pages = doc.getPages()
  // Which page holds each widget: the pages' /Annots, as viewers read them; else its /P.
  const inAnnots = new Map<PDFRef, number>()
  const byRef = new Map<PDFRef, number>()
  pages.forEach((page, i) => {
    byRef.set(page.ref, i)
    for (const annot of page.node.Annots()?.asArray() ?? []) if (annot instanceof PDFRef) inAnnots.set(annot, i)
  })
  const pageOf = (widget: PDFWidgetAnnotation): number | null => {
    const ref = doc.context.getObjectRef(widget.dict)
    const p = widget.P()
    return (ref && inAnnots.get(ref)) ?? (p instanceof PDFRef ? byRef.get(p) : undefined) ?? null
  }
  return (field) => {
    const widgets = field.acroField.getWidgets().slice(0, MAX_WIDGETS)
    const placed = widgets.map((w) => ({ w, page: pageOf(w) })).filter((p): p is { w: PDFWidgetAnnotation; page: number } => p.page !== null)
    const first = placed[0]
    if (!first) return null
    // A radio group's buttons on the first one's page make one field, the box around them.
    const rects = placed.filter((p) => p.page === first.page).map((p) => p.w.getRectangle())
    const page = pages[first.page]!
    const place = placeOnPage(union(rects), cropOf(page), ((page.getRotation().angle % 360) + 360) % 360)
    return place.width > 0 && place.height > 0 ? { page: first.page + 1, ...place } : null
  }
}

/** The form's fields, or none when it cannot be read. */
function fieldsOf(doc: PDFDocument): PDFField[] {
  if (!doc.catalog.has(PDFName.of('AcroForm'))) return []
  try {
    return doc.getForm().getFields()
  } catch {
    return []
  }
}

/** The form fields of `doc` in the order of the form, at most MAX_FORM_FIELDS. */
export function formFieldsOf(doc: PDFDocument): FormField[] {
  const placeOf = placer(doc)
  const found: FormField[] = []
  for (const field of fieldsOf(doc)) {
    if (found.length >= MAX_FORM_FIELDS) break
    try {
      const kind = kindOf(field)
      const place = kind && placeOf(field)
      if (!kind || !place) continue
      const label = tooltipOf(field)
      found.push({ name: cut(field.getName()), ...(label ? { label } : {}), ...kind, ...place, required: field.isRequired() })
    } catch {
      // A field this cannot read (a broken widget, an odd value) is left out.
    }
  }
  return found
}

/** Whether most of `a` lies under `b` (boxes in percent of one page). */
function mostlyUnder(a: Placement, b: Placement): boolean {
  const w = Math.min(a.positionX + a.width, b.positionX + b.width) - Math.max(a.positionX, b.positionX)
  const h = Math.min(a.positionY + a.height, b.positionY + b.height) - Math.max(a.positionY, b.positionY)
  return w > 0 && h > 0 && w * h >= (a.width * a.height) / 2
}

/** The field's /TU (alternate name), shown by viewers as its tooltip: the form's words for people. */
function tooltipOf(field: PDFField): string | undefined {
  const tu = field.acroField.dict.get(PDFName.of('TU'))
  const text = tu instanceof PDFString || tu instanceof PDFHexString ? cut(tu.decodeText()) : ''
  return text || undefined
}

function cropOf(page: PDFPage): Box {
  const box = page.getCropBox()
  return box.width > 0 && box.height > 0 ? box : page.getMediaBox()
}

/**
 * Draws the form's fields into their pages as they look now and removes the form, in place: a
 * sealed copy keeps what the form showed and has no field a viewer could still change. A form
 * field mostly under one of `replacedBy` (the envelope's fields on this file, as a form's fields
 * become when imported) goes undrawn: that field's value is stamped in its place. A form whose
 * appearances cannot be drawn loses its widgets all the same. Returns how many fields it held.
 */
export function flattenForm(doc: PDFDocument, replacedBy: Placement[] = []): number {
  if (!doc.catalog.has(PDFName.of('AcroForm'))) return 0
  const form = doc.getForm()
  const count = form.getFields().length
  if (replacedBy.length) {
    const placeOf = placer(doc)
    for (const field of fieldsOf(doc)) {
      try {
        const place = placeOf(field)
        if (place && replacedBy.some((f) => f.page === place.page && mostlyUnder(place, f))) form.removeField(field)
      } catch {
        // Left to be drawn with the rest.
      }
    }
  }
  // Appearances drawn anew where the form left it to the viewer (a value with no appearance);
  // where that fails (a value Helvetica cannot write), as stored; where that fails too, the
  // widgets go without being drawn.
  const flattened = [true, false].some((updateFieldAppearances) => {
    try {
      form.flatten({ updateFieldAppearances })
      return true
    } catch {
      return false
    }
  })
  if (!flattened) {
    for (const page of doc.getPages()) {
      const annots = page.node.Annots()
      if (!annots) continue
      const kept = annots.asArray().filter((a) => doc.context.lookupMaybe(a, PDFDict)?.get(PDFName.of('Subtype'))?.toString() !== '/Widget')
      page.node.set(PDFName.of('Annots'), doc.context.obj(kept))
    }
  }
  doc.catalog.delete(PDFName.of('AcroForm'))
  return count
}
