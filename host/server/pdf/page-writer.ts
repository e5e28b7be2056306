/**
 * Flowing text onto as many pages as it needs, for the evidence documents (the certificate and the
 * audit log): rows wrap, blocks are kept together, and each page gets a footer numbered over the
 * document's own pages ("Page 2 of 3" of the certificate, not of the contract before it).
 */
import { rgb, type PDFDocument, type PDFImage, type PDFPage } from '@cantoo/pdf-lib'
import type { TextFont, TextMeasure } from './text-font.js'
import { wrap } from './text-wrap.js'
import { drawnPieces } from './visual-order.js'

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
    readonly font: TextFont,
    size: [number, number],
    /** Shown small at the top of every page after the first (the document's title). */
    private readonly runningHead: string,
    /** Right to left: every row is drawn in visual order and every column is mirrored. */
    readonly dir: 'ltr' | 'rtl' = 'ltr',
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
      this.text(fitRow(this.runningHead, this.font, 7.5, this.textWidth), 0, this.height - MARGIN + 18, 7.5, MUTED)
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
      this.text(row, o.x ?? 0, this.y, size, o.color ?? INK)
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
      if (labels[i]) this.text(labels[i]!, x, this.y, size, MUTED)
      if (values[i]) this.text(values[i]!, x + labelWidth, this.y, size, o.color ?? INK)
    }
  }

  /**
   * One row at `offset` points from the start of the line (the left margin, or the right one for
   * right to left, where the row ends there), in visual order.
   */
  text(row: string, offset: number, y: number, size: number, color = INK, page = this.page): void {
    let x = this.xAt(offset, this.font.widthOfTextAtSize(row, size))
    for (const piece of drawnPieces(row, this.dir)) x += this.font.draw(page, piece, { x, y, size, color })
  }

  /** The x of something `width` wide at `offset` from the start of the line. */
  xAt(offset: number, width: number): number {
    return this.dir === 'rtl' ? this.width - MARGIN - offset - width : MARGIN + offset
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
    this.page.drawImage(image, { x: this.xAt(x, w), y: top - h, width: w, height: h })
  }

  /** Footer on every page: `note` at the left, the page number over these pages at the right. */
  finish(note: string, pageLabel: (n: number, of: number) => string): void {
    const rows = wrap(note, this.font, 6.5, this.textWidth - 90)
    this.pages.forEach((p, i) => {
      p.drawLine({ start: { x: MARGIN, y: MARGIN - 4 }, end: { x: this.width - MARGIN, y: MARGIN - 4 }, thickness: 0.4, color: RULE })
      rows.forEach((row, j) => this.text(row, 0, MARGIN - 14 - j * 8, 6.5, MUTED, p))
      const label = pageLabel(i + 1, this.pages.length)
      this.text(label, this.textWidth - this.font.widthOfTextAtSize(label, 7), MARGIN - 14, 7, MUTED, p)
    })
  }
}

/** `text` on one row no wider than `width`, cut with an ellipsis when it is longer. */
export function fitRow(text: string, font: TextMeasure, size: number, width: number): string {
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
