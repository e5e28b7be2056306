import { createHash } from 'node:crypto'
import { PDFDocument, PageSizes, type PDFFont, type PDFImage } from 'pdf-lib'
import type { SealAuditEntry } from './audit-log-pdf.js'
import { DEFAULT_LOCALE, evidenceText, evidenceTime, type EvidenceLocale } from './evidence-text.js'
import { ACCENT, INK, MUTED, PageWriter, RULE } from './page-writer.js'
import type { SealInput, SealRecipient } from './seal.js'
import { embedTextFont } from './stamp.js'
import { describeClient } from './user-agent.js'

/** What the certificate states; the files' hashes are taken once per envelope, not per page drawn. */
export interface CertificateContent {
  envelope: SealInput['envelope']
  items: { title: string; sha256: string; sealedSha256?: string }[]
  recipients: SealRecipient[]
  locale: EvidenceLocale
  auditLog: SealAuditEntry[]
  /** Sealed with the self-signed key the host made for itself: the page says it is a demonstration. */
  demonstration: boolean
}

export function certificateContent(input: SealInput, demonstration = false): CertificateContent {
  return {
    envelope: input.envelope,
    items: input.items.map((item) => ({
      title: item.title,
      sha256: item.sha256 ?? createHash('sha256').update(item.pdf).digest('hex'),
      sealedSha256: item.sealedSha256,
    })),
    recipients: input.recipients,
    locale: input.meta ?? DEFAULT_LOCALE,
    auditLog: input.auditLog ?? [],
    demonstration,
  }
}

/** A4 unless the document's pages are Letter, so the certificate prints on the same paper. */
export function certificatePageSize(doc: PDFDocument): [number, number] {
  const first = doc.getPageCount() ? doc.getPage(0).getSize() : undefined
  const isLetter = first && Math.abs(Math.min(first.width, first.height) - 612) < 2 && Math.abs(Math.max(first.width, first.height) - 792) < 2
  return isLetter ? [...PageSizes.Letter] : [...PageSizes.A4]
}

/** Appends the certificate page(s) to `doc`, as many as the recipients need. */
export async function appendCertificate(doc: PDFDocument, content: CertificateContent, font: PDFFont, size: [number, number] = [...PageSizes.A4]): Promise<void> {
  const t = evidenceText(content.locale.language)
  const time = (iso: string | null | undefined) => evidenceTime(iso, content.locale)
  const w = new PageWriter(doc, font, size, `${t.certificate} · ${content.envelope.title} · ${content.envelope.id}`)
  w.heading(t.certificate, [
    [t.title, content.envelope.title],
    [t.envelopeId, content.envelope.id],
    [t.completed, time(content.envelope.completedAt)],
  ])
  if (content.demonstration) {
    w.gap(8)
    w.line(t.demoNote, { size: 8.5, color: ACCENT })
  }

  w.gap(14)
  w.line(t.documents, { size: 13 })
  w.gap(2)
  w.rule(INK, 0.6)
  for (const item of content.items) {
    w.room(4 * 14)
    w.gap(4)
    w.line(item.title, { size: 10 })
    w.field(t.sentHash, item.sha256, { size: 7.5, labelWidth: 95 })
    if (item.sealedSha256) w.field(t.sealedHash, item.sealedSha256, { size: 7.5, labelWidth: 95 })
  }

  w.gap(16)
  w.line(t.recipients, { size: 13 })
  w.gap(2)
  w.rule(INK, 0.6)
  for (const r of content.recipients) {
    const trail = trailOf(r, content.auditLog)
    const image = await signatureImage(doc, r.signatureImage)
    // Keep a recipient together on one page when the block fits on one.
    w.room(8 * 14 + trail.length * 12 + (image ? 50 : 0))
    w.gap(8)
    w.line(r.name || r.email, { size: 11.5 })
    const top = w.y
    w.field(t.email, r.email)
    w.field(t.role, t.roles[r.role] ?? r.role)
    w.field(t.verified, verification(r, t))
    w.field(t.ipAddress, r.ipAddress || t.none)
    w.field(t.client, describeClient(r.userAgent, t) ?? t.none)
    if (image) {
      // The signature at the right of the details, as it was drawn on the document.
      w.page.drawText(t.signature, { x: w.left + w.textWidth - 150, y: top - 12, size: 7.5, font, color: MUTED })
      w.image(image, w.textWidth - 150, 150, 48, top - 16)
      w.page.drawLine({ start: { x: w.left + w.textWidth - 150, y: top - 66 }, end: { x: w.left + w.textWidth, y: top - 66 }, thickness: 0.4, color: RULE })
      w.y = Math.min(w.y, top - 70)
    }
    w.gap(4)
    w.line(t.history, { size: 8, color: MUTED })
    for (const step of trail.length ? trail : [{ at: r.completedAt, what: r.action }]) {
      w.field(time(step.at), t.events[step.what] ?? step.what, { size: 8, x: 10, labelWidth: 190 })
    }
    w.gap(6)
    w.rule()
  }
  w.finish(`${t.sealNote} ${content.envelope.id}`, t.page)
}

/** The recipient's steps from the audit log (event keys of EvidenceText.events): sent, opened, reminders, their action. */
function trailOf(r: SealRecipient, log: SealAuditEntry[]): { at: string; what: string }[] {
  if (r.id === undefined) return []
  return log.flatMap((e) => {
    const about = e.recipientId === r.id || (e.type === 'EMAIL_SENT' && e.data.recipientId === r.id)
    if (!about) return []
    if (e.type === 'EMAIL_SENT') return [{ at: e.createdAt, what: e.data.emailType === 'REMINDER' ? 'REMINDER' : 'EMAIL_SENT' }]
    if (e.type === 'DOCUMENT_RECIPIENT_COMPLETED') return [{ at: e.createdAt, what: r.action }]
    return [{ at: e.createdAt, what: e.type }]
  })
}

/** How the recipient was identified: the link's channel and any access checks. */
function verification(r: SealRecipient, t: ReturnType<typeof evidenceText>): string {
  // A copy's recipient opened nothing that needed them to be verified.
  if (r.action === 'CC') return t.none
  const channel = r.direct ? t.directLink : t.emailLink
  const words = (list: string[] | undefined) => (list ?? []).map((m) => t.methods[m] ?? m).join(', ')
  return [channel, r.accessAuth?.length && `${t.openedAfter} ${words(r.accessAuth)}`, r.actionAuth?.length && `${t.confirmedWith} ${words(r.actionAuth)}`].filter(Boolean).join('; ')
}

async function signatureImage(doc: PDFDocument, dataUrl: string | null | undefined): Promise<PDFImage | null> {
  const picture = dataUrl ? /^data:image\/(png|jpe?g);base64,/i.exec(dataUrl) : null
  if (!picture) return null
  try {
    const bytes = Buffer.from(dataUrl!.slice(picture[0].length), 'base64')
    return picture[1]!.toLowerCase() === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes)
  } catch {
    return null // an image the reader cannot decode is left out rather than fail the seal
  }
}

/** The certificate alone, as its own document (unsaved, so it can still be sealed). */
export async function certificateDocument(input: SealInput, demonstration = false): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  doc.setTitle(`Signing certificate: ${input.envelope.title}`)
  doc.setProducer('envelope-embed host')
  await appendCertificate(doc, certificateContent(input, demonstration), await embedTextFont(doc))
  return doc
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
