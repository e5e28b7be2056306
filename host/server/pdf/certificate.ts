import { createHash } from 'node:crypto'
import { PDFDocument, PageSizes, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import type { SealInput, SealRecipient } from './seal.js'
import { embedTextFont } from './stamp.js'

/** What the certificate states; the files' hashes are taken once per envelope, not per page drawn. */
export interface CertificateContent {
  envelope: SealInput['envelope']
  items: { title: string; sha256: string }[]
  recipients: SealRecipient[]
}

export function certificateContent(input: SealInput): CertificateContent {
  return {
    envelope: input.envelope,
    items: input.items.map((item) => ({ title: item.title, sha256: item.sha256 ?? createHash('sha256').update(item.pdf).digest('hex') })),
    recipients: input.recipients,
  }
}

const ROLES: Record<SealRecipient['role'], string> = { SIGNER: 'Signer', APPROVER: 'Approver', VIEWER: 'Viewer', ASSISTANT: 'Assistant', CC: 'CC' }
const ACTIONS: Record<SealRecipient['action'], string> = {
  SIGNED: 'Signed',
  APPROVED: 'Approved',
  VIEWED: 'Viewed',
  ASSISTED: 'Assisted',
  CC: 'Received a copy',
}

const MARGIN = 50
const LABEL_WIDTH = 80
const INK = rgb(0, 0, 0)
const MUTED = rgb(0.35, 0.35, 0.35)
const RULE = rgb(0.8, 0.8, 0.8)

/** A4 unless the document's pages are Letter, so the certificate prints on the same paper. */
export function certificatePageSize(doc: PDFDocument): [number, number] {
  const first = doc.getPageCount() ? doc.getPage(0).getSize() : undefined
  const isLetter = first && Math.abs(Math.min(first.width, first.height) - 612) < 2 && Math.abs(Math.max(first.width, first.height) - 792) < 2
  return isLetter ? [...PageSizes.Letter] : [...PageSizes.A4]
}

/** Appends the certificate page(s) to `doc`, as many as the recipients need. */
export function appendCertificate(doc: PDFDocument, content: CertificateContent, font: PDFFont, size: [number, number] = [...PageSizes.A4]): void {
  const [pageWidth, pageHeight] = size
  const textWidth = pageWidth - 2 * MARGIN
  const pages: PDFPage[] = []
  let page!: PDFPage
  let y = 0
  const newPage = () => {
    page = doc.addPage(size)
    pages.push(page)
    y = pageHeight - MARGIN
  }
  /** Starts a new page unless `height` more points fit on this one. */
  const room = (height: number) => {
    if (!pages.length || y - height < MARGIN + 20) newPage()
  }
  const line = (text: string, opts: { size?: number; x?: number; width?: number; color?: typeof INK } = {}) => {
    const s = opts.size ?? 10
    const rows = wrap(text, font, s, opts.width ?? textWidth)
    for (const row of rows) {
      room(s * 1.4)
      y -= s * 1.4
      page.drawText(row, { x: MARGIN + (opts.x ?? 0), y, size: s, font, color: opts.color ?? INK })
    }
  }
  /** A label and its value, the value wrapped in the column right of the label. */
  const field = (label: string, value: string, s = 10) => {
    const rows = wrap(value, font, s, textWidth - LABEL_WIDTH)
    room(s * 1.4)
    y -= s * 1.4
    page.drawText(label, { x: MARGIN, y, size: s, font, color: MUTED })
    rows.forEach((row, i) => {
      if (i > 0) {
        room(s * 1.4)
        y -= s * 1.4
      }
      page.drawText(row, { x: MARGIN + LABEL_WIDTH, y, size: s, font, color: INK })
    })
  }
  const gap = (points: number) => {
    y -= points
  }

  newPage()
  line('Signing certificate', { size: 20 })
  gap(8)
  field('Envelope ID', content.envelope.id)
  field('Title', content.envelope.title)
  field('Completed', isoUtc(content.envelope.completedAt))

  gap(14)
  line('Documents', { size: 13 })
  for (const item of content.items) {
    room(4 * 14)
    gap(4)
    line(item.title, { size: 10 })
    line(`SHA-256 of the original file: ${item.sha256}`, { size: 8, x: 10, width: textWidth - 10, color: MUTED })
  }

  gap(14)
  line('Recipients', { size: 13 })
  for (const r of content.recipients) {
    // Keep a recipient on one page when the block fits on one (7 rows, user agent mostly 2).
    room(9 * 14 + 10)
    gap(6)
    page.drawLine({ start: { x: MARGIN, y }, end: { x: pageWidth - MARGIN, y }, thickness: 0.5, color: RULE })
    gap(2)
    line(r.name || r.email, { size: 11 })
    field('E-mail', r.email)
    field('Role', ROLES[r.role] ?? r.role)
    field('Action', ACTIONS[r.action] ?? r.action)
    field('Time', r.completedAt ? isoUtc(r.completedAt) : '—')
    field('IP address', r.ipAddress || '—')
    field('User agent', r.userAgent || '—', 8)
  }

  const note =
    'This document is sealed with a digital signature of the envelope-embed host. Any change made to it after sealing invalidates the signature.'
  const noteRows = wrap(note, font, 7, textWidth - 80)
  pages.forEach((p, i) => {
    noteRows.forEach((row, j) => p.drawText(row, { x: MARGIN, y: MARGIN - 10 - j * 9, size: 7, font, color: MUTED }))
    const number = `Page ${i + 1} of ${pages.length}`
    p.drawText(number, { x: pageWidth - MARGIN - font.widthOfTextAtSize(number, 7), y: MARGIN - 10, size: 7, font, color: MUTED })
  })
}

/** The certificate alone, as its own document (unsaved, so it can still be sealed). */
export async function certificateDocument(input: SealInput): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  doc.setTitle(`Signing certificate: ${input.envelope.title}`)
  doc.setProducer('envelope-embed host')
  appendCertificate(doc, certificateContent(input), await embedTextFont(doc))
  return doc
}

function isoUtc(value: string): string {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : date.toISOString()
}

/** Longest value shown: user agents and names come from the signer and could be anything. */
const MAX_VALUE_LENGTH = 1000

/**
 * Splits text into rows no wider than `width`: at spaces, or inside a word too long for a row.
 * Each word is measured once (text layout is the slow part of drawing), rows as sums of words.
 */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const clean = text.replace(/\s+/g, ' ').trim()
  const shown = clean.length > MAX_VALUE_LENGTH ? `${clean.slice(0, MAX_VALUE_LENGTH)}…` : clean
  const space = font.widthOfTextAtSize(' ', size)
  const rows: string[] = []
  let row = ''
  let used = 0
  const put = (piece: string, w: number) => {
    if (row && used + w > width) {
      rows.push(row)
      row = ''
      used = 0
    }
    row += piece
    used += w
  }
  for (const word of shown.split(' ')) {
    const w = font.widthOfTextAtSize(word, size)
    if (row && used + space + w <= width) {
      row += ' ' + word
      used += space + w
    } else if (w <= width) {
      if (row) rows.push(row)
      row = word
      used = w
    } else {
      // A word wider than a row is cut between characters.
      if (row) {
        rows.push(row)
        row = ''
        used = 0
      }
      for (const ch of word) put(ch, font.widthOfTextAtSize(ch, size))
    }
  }
  if (row || !rows.length) rows.push(row)
  return rows
}
