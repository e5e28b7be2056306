import { concatTransformationMatrix, popGraphicsState, pushGraphicsState, rgb, type PDFDocument, type PDFImage, type PDFPage } from '@cantoo/pdf-lib'
import { normalizeSignature } from '../images/signature.js'
import type { SealField } from './seal-input.js'
import type { TextFont } from './text-font.js'

const INK = rgb(0, 0, 0)
/** Largest text size in a field, however tall the box. */
const MAX_FONT_SIZE = 14

/** A rectangle in the page's display space: origin bottom-left of the page as shown, y upward. */
export interface Box {
  x: number
  y: number
  width: number
  height: number
}

/**
 * The page as a reader shows it: the visible box (CropBox within MediaBox) turned by /Rotate.
 * `matrix` maps display space to the page's user space, so drawing under it lands upright where
 * the signer saw the field, whatever the page's offset or rotation.
 */
export function displaySpace(page: PDFPage): { width: number; height: number; matrix: [number, number, number, number, number, number] } {
  const media = corners(page.getMediaBox())
  const crop = corners(page.getCropBox())
  const x0 = Math.max(media.x0, crop.x0)
  const y0 = Math.max(media.y0, crop.y0)
  const x1 = Math.min(media.x1, crop.x1)
  const y1 = Math.min(media.y1, crop.y1)
  const w = x1 - x0
  const h = y1 - y0
  const rotation = (((Math.round(page.getRotation().angle / 90) * 90) % 360) + 360) % 360
  // /Rotate turns the page clockwise for display; each matrix takes display (u, v) to user (x, y).
  switch (rotation) {
    case 90:
      return { width: h, height: w, matrix: [0, 1, -1, 0, x1, y0] }
    case 180:
      return { width: w, height: h, matrix: [-1, 0, 0, -1, x1, y1] }
    case 270:
      return { width: h, height: w, matrix: [0, -1, 1, 0, x0, y1] }
    default:
      return { width: w, height: h, matrix: [1, 0, 0, 1, x0, y0] }
  }
}

function corners(r: { x: number; y: number; width: number; height: number }) {
  return { x0: Math.min(r.x, r.x + r.width), y0: Math.min(r.y, r.y + r.height), x1: Math.max(r.x, r.x + r.width), y1: Math.max(r.y, r.y + r.height) }
}

/** Draws every field that has a value onto its page of `doc` (fields of this one file only). */
export async function stampFields(doc: PDFDocument, fields: SealField[], font: TextFont): Promise<void> {
  const pages = doc.getPages()
  // One image object per distinct picture: initials repeated on every page are stored once.
  const images = new Map<string, Promise<PDFImage>>()
  const byPage = new Map<number, SealField[]>()
  for (const field of fields) {
    if (field.customText === null || field.customText === '') continue
    if (!pages[field.page - 1]) throw new Error(`a ${field.type} field is on page ${field.page}, but the document has ${pages.length}`)
    byPage.set(field.page, [...(byPage.get(field.page) ?? []), field])
  }
  for (const [pageNumber, onPage] of byPage) {
    const page = pages[pageNumber - 1]!
    const space = displaySpace(page)
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...space.matrix))
    for (const field of onPage) {
      const box: Box = {
        x: (field.positionX / 100) * space.width,
        y: space.height - ((field.positionY + field.height) / 100) * space.height,
        width: (field.width / 100) * space.width,
        height: (field.height / 100) * space.height,
      }
      await stampField(page, field, field.customText!, box, font, images)
    }
    page.pushOperators(popGraphicsState())
  }
}

async function stampField(page: PDFPage, field: SealField, value: string, box: Box, font: TextFont, images: Map<string, Promise<PDFImage>>) {
  switch (field.type) {
    case 'SIGNATURE':
    case 'FREE_SIGNATURE':
    case 'INITIALS': {
      const picture = /^data:image\/(png|jpe?g);base64,/i.exec(value)
      // A typed signature (no picture) is drawn as text, like any other value.
      if (!picture) return drawFittedText(page, font, value, box, 'center')
      let image = images.get(value)
      if (!image) {
        const bytes = Buffer.from(value.slice(picture[0].length), 'base64')
        // Pictures are normalized when submitted; one stored before that is decoded here within the same budgets (pdf-lib's own PNG decoder has none).
        const png = () => page.doc.embedPng(normalizeSignature(bytes))
        image = picture[1]!.toLowerCase() === 'png' ? Promise.resolve().then(png) : page.doc.embedJpg(bytes)
        images.set(value, image)
      }
      let embedded: PDFImage
      try {
        embedded = await image
      } catch (err) {
        throw new Error(`the ${field.type} image on page ${field.page} cannot be read: ${(err as Error).message}`)
      }
      const scale = Math.min(box.width / embedded.width, box.height / embedded.height)
      const width = embedded.width * scale
      const height = embedded.height * scale
      page.drawImage(embedded, { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height })
      return
    }
    case 'CHECKBOX':
      return drawCheckboxes(page, font, field, value, box)
    default:
      return drawFittedText(page, font, value, box, textAlign(field.fieldMeta))
  }
}

type Align = 'left' | 'center' | 'right'

function textAlign(meta: Record<string, unknown> | null): Align {
  const align = meta?.textAlign
  return align === 'center' || align === 'right' ? align : 'left'
}

/**
 * The text (one line per line break) as large as the box's height allows, at most 14 pt, shrunk
 * until the widest line fits, and centred vertically.
 */
function drawFittedText(page: PDFPage, font: TextFont, text: string, box: Box, align: Align) {
  const lines = text.replace(/\t/g, ' ').split(/\r\n|\r|\n/)
  const pad = Math.min(2, box.width * 0.05)
  const lineHeightPerPt = font.heightAtSize(1)
  const descentPerPt = lineHeightPerPt - font.heightAtSize(1, { descender: false })
  const widestPerPt = Math.max(...lines.map((line) => font.widthOfTextAtSize(line, 1)))
  let size = Math.min(MAX_FONT_SIZE, (box.height * 0.9) / (lines.length * lineHeightPerPt))
  if (widestPerPt * size > box.width - 2 * pad) size = (box.width - 2 * pad) / widestPerPt
  const lineHeight = lineHeightPerPt * size
  const top = box.y + (box.height + lineHeight * lines.length) / 2
  lines.forEach((line, i) => {
    const width = font.widthOfTextAtSize(line, size)
    const x = align === 'center' ? box.x + (box.width - width) / 2 : align === 'right' ? box.x + box.width - pad - width : box.x + pad
    font.draw(page, line, { x, y: top - (i + 1) * lineHeight + descentPerPt * size, size, color: INK })
  })
}

/** Option labels as given in fieldMeta.options (strings, or {value|label} objects). */
function optionLabels(meta: Record<string, unknown> | null): string[] {
  const options = meta?.options ?? meta?.values
  if (!Array.isArray(options)) return []
  return options.flatMap((o) => {
    if (typeof o === 'string') return [o]
    const label = o && typeof o === 'object' ? ((o as Record<string, unknown>).value ?? (o as Record<string, unknown>).label) : undefined
    return typeof label === 'string' ? [label] : []
  })
}

/** Every option with a ticked or empty box, one row each; a checked value outside the options gets its own row. */
function drawCheckboxes(page: PDFPage, font: TextFont, field: SealField, value: string, box: Box) {
  let checked: string[]
  try {
    const parsed: unknown = JSON.parse(value)
    checked = Array.isArray(parsed) ? parsed.map(String) : [String(parsed)]
  } catch {
    checked = [value]
  }
  const options = optionLabels(field.fieldMeta)
  const rows = [...options, ...checked.filter((c) => !options.includes(c))]
  if (!rows.length) return
  const rowHeight = box.height / rows.length
  const lineHeightPerPt = font.heightAtSize(1)
  const descentPerPt = lineHeightPerPt - font.heightAtSize(1, { descender: false })
  let size = Math.min(MAX_FONT_SIZE, (rowHeight * 0.9) / lineHeightPerPt)
  const side = size * 0.8
  const gap = size * 0.4
  const pad = Math.min(2, box.width * 0.05)
  const widestPerPt = Math.max(...rows.map((r) => font.widthOfTextAtSize(r, 1)))
  const room = box.width - 2 * pad - side - gap
  if (widestPerPt * size > room) size = Math.max(room, 1) / widestPerPt
  rows.forEach((label, i) => {
    const middle = box.y + box.height - (i + 0.5) * rowHeight
    const x = box.x + pad
    page.drawRectangle({ x, y: middle - side / 2, width: side, height: side, borderColor: INK, borderWidth: Math.max(0.5, side / 14) })
    if (checked.includes(label)) {
      const tick = side * 1.1
      font.draw(page, '✓', { x: x + (side - font.widthOfTextAtSize('✓', tick)) / 2, y: middle - (lineHeightPerPt * tick) / 2 + descentPerPt * tick, size: tick, color: INK })
    }
    const y = middle - (lineHeightPerPt * size) / 2 + descentPerPt * size
    font.draw(page, label, { x: x + side + gap, y, size, color: INK })
  })
}
