/**
 * Flowing text onto as many pages as it needs, for the evidence documents (the certificate and the
 * audit log): rows wrap, blocks are kept together, and each page gets a footer numbered over the
 * document's own pages ("Page 2 of 3" of the certificate, not of the contract before it).
 */
import { rgb, type PDFDocument, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib'
import { wrap } from './text-wrap.js'

export const INK = rgb(0.1, 0.1, 0.12)
export const MUTED = rgb(0.38, 0.38, 0.42)
export const RULE = rgb(0.8, 0.8, 0.82)
export const ACCENT = rgb(0.12, 0.3, 0.55)

const MARGIN = 56
const FOOTER = 34
/** Least space between a label and its value. */
const LABEL_GAP = 8

export class PageWriter {
  readonly pages: PDFPage[] = []
  page!: PDFPage
  y = 0
  readonly width: number
  readonly height: number
  readonly left = MARGIN
  readonly textWidth: number

  constructor(
    private readonly doc: PDFDocument,
    readonly font: PDFFont,
    size: [number, number],
    /** Shown small at the top of every page after the first (the document's title). */
    private readonly runningHead: string,
  ) {
    ;[this.width, this.height] = size
    this.textWidth = this.width - 2 * MARGIN
  }

  /** The first page's title and the facts under it. */
  heading(title: string, facts: [label: string, value: string][]): void {
    this.newPage()
    this.line(title, { size: 20 })
    this.gap(6)
    for (const [label, value] of facts) this.field(label, value)
  }

  newPage(): void {
    this.page = this.doc.addPage([this.width, this.height])
    this.pages.push(this.page)
    this.y = this.height - MARGIN
    if (this.pages.length > 1) {
      this.page.drawText(fitRow(this.runningHead, this.font, 7.5, this.textWidth), { x: MARGIN, y: this.height - MARGIN + 18, size: 7.5, font: this.font, color: MUTED })
      this.page.drawLine({ start: { x: MARGIN, y: this.height - MARGIN + 12 }, end: { x: this.width - MARGIN, y: this.height - MARGIN + 12 }, thickness: 0.4, color: RULE })
    }
  }

  /** Starts a new page unless `height` more points fit on this one. */
  room(height: number): void {
    if (!this.pages.length || this.y - height < MARGIN + FOOTER) this.newPage()
  }

  gap(points: number): void {
    this.y -= points
  }

  line(text: string, o: { size?: number; x?: number; width?: number; color?: ReturnType<typeof rgb>; lead?: number } = {}): void {
    const size = o.size ?? 10
    const lead = size * (o.lead ?? 1.4)
    for (const row of wrap(text, this.font, size, o.width ?? this.textWidth - (o.x ?? 0))) {
      this.room(lead)
      this.y -= lead
      this.page.drawText(row, { x: MARGIN + (o.x ?? 0), y: this.y, size, font: this.font, color: o.color ?? INK })
    }
  }

  /**
   * A label and its value side by side, each wrapped by measured width in its own column (the label
   * in `labelWidth` less a gap, the value in the rest of `width`), so neither runs into the other.
   */
  field(label: string, value: string, o: { size?: number; x?: number; labelWidth?: number; width?: number; color?: ReturnType<typeof rgb> } = {}): void {
    const size = o.size ?? 9.5
    const x = o.x ?? 0
    const labelWidth = o.labelWidth ?? 110
    const width = o.width ?? this.textWidth - x
    const labels = wrap(label, this.font, size, labelWidth - LABEL_GAP)
    const values = wrap(value, this.font, size, width - labelWidth)
    for (let i = 0; i < Math.max(labels.length, values.length); i++) {
      this.room(size * 1.45)
      this.y -= size * 1.45
      if (labels[i]) this.page.drawText(labels[i]!, { x: MARGIN + x, y: this.y, size, font: this.font, color: MUTED })
      if (values[i]) this.page.drawText(values[i]!, { x: MARGIN + x + labelWidth, y: this.y, size, font: this.font, color: o.color ?? INK })
    }
  }

  /** Lines needed for `value` in a field, to keep blocks together. */
  rowsOf(value: string, size = 9.5, width = this.textWidth - 110): number {
    return wrap(value, this.font, size, width).length
  }

  rule(color = RULE, thickness = 0.5): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: this.width - MARGIN, y: this.y }, thickness, color })
  }

  /** An image fitted into a box of `maxWidth` x `maxHeight` at the current x offset, below the current line. */
  image(image: PDFImage, x: number, maxWidth: number, maxHeight: number, top = this.y): void {
    const scale = Math.min(maxWidth / image.width, maxHeight / image.height)
    const w = image.width * scale
    const h = image.height * scale
    this.page.drawImage(image, { x: MARGIN + x, y: top - h, width: w, height: h })
  }

  /** Footer on every page: `note` at the left, the page number over these pages at the right. */
  finish(note: string, pageLabel: (n: number, of: number) => string): void {
    const rows = wrap(note, this.font, 6.5, this.textWidth - 90)
    this.pages.forEach((p, i) => {
      p.drawLine({ start: { x: MARGIN, y: MARGIN - 4 }, end: { x: this.width - MARGIN, y: MARGIN - 4 }, thickness: 0.4, color: RULE })
      rows.forEach((row, j) => p.drawText(row, { x: MARGIN, y: MARGIN - 14 - j * 8, size: 6.5, font: this.font, color: MUTED }))
      const label = pageLabel(i + 1, this.pages.length)
      p.drawText(label, { x: this.width - MARGIN - this.font.widthOfTextAtSize(label, 7), y: MARGIN - 14, size: 7, font: this.font, color: MUTED })
    })
  }
}

/** `text` on one row no wider than `width`, cut with an ellipsis when it is longer. */
export function fitRow(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text
  const chars = [...text]
  let lo = 0
  let hi = chars.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (font.widthOfTextAtSize(chars.slice(0, mid).join('') + '…', size) <= width) lo = mid
    else hi = mid - 1
  }
  return chars.slice(0, lo).join('') + '…'
}
