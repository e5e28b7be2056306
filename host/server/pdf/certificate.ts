import { createHash } from 'node:crypto'
import { PDFDocument, PageSizes, type PDFImage } from 'pdf-lib'
import { DEFAULT_LOCALE, evidenceText, evidenceTime, type EvidenceLocale, type EvidenceText } from './evidence-text.js'
import { ACCENT, fitRow, INK, MUTED, PageWriter, RULE } from './page-writer.js'
import type { SealAuditEntry, SealInput, SealRecipient } from './seal-input.js'
import { embedTextFont, type TextFont } from './text-font.js'
import { describeClient } from './user-agent.js'
import { directionOf, languageOf } from '../../shared/languages.js'

/** What the certificate states; the files' hashes are taken once per envelope, not per page drawn. */
export interface CertificateContent {
  envelope: SealInput['envelope']
  items: { title: string; sha256: string; sealedSha256?: string }[]
  recipients: SealRecipient[]
  locale: EvidenceLocale
  auditLog: SealAuditEntry[]
  /** The hash of the audit log's newest entry when the certificate was made (null: not named). */
  auditChainHead: string | null
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
    auditChainHead: input.auditChainHead ?? null,
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
export async function appendCertificate(doc: PDFDocument, content: CertificateContent, font: TextFont, size: [number, number] = [...PageSizes.A4]): Promise<void> {
  const t = evidenceText(content.locale.language)
  const time = (iso: string | null | undefined) => evidenceTime(iso, content.locale)
  const w = new PageWriter(doc, font, size, `${t.certificate} · ${content.envelope.title} · ${content.envelope.id}`, directionOf(languageOf(content.locale.language)))
  w.heading(t.certificate, [
    [t.title, content.envelope.title],
    [t.envelopeId, content.envelope.id],
    [t.completed, time(content.envelope.completedAt)],
    ...(content.auditChainHead ? [[t.auditChainHead, content.auditChainHead] as [string, string]] : []),
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
    w.room(w.rowsOf(item.title, 10, w.textWidth) * 14 + 3 * 14)
    w.gap(4)
    w.line(item.title, { size: 10 })
    w.field(t.sentHash, item.sha256, { size: 7.5, labelWidth: 110 })
    if (item.sealedSha256) w.field(t.sealedHash, item.sealedSha256, { size: 7.5, labelWidth: 110 })
  }

  w.gap(16)
  w.line(t.recipients, { size: 13 })
  w.gap(2)
  w.rule(INK, 0.6)
  for (const r of content.recipients) {
    const trail = trailOf(r, content.auditLog, t)
    const steps = trail.length ? trail : [{ at: r.completedAt, what: t.events[r.action] ?? r.action }]
    const image = await signatureImage(doc, r.signatureImage)
    // The details share the width with the signature column only when there is a signature.
    const detailsWidth = image ? w.textWidth - SIGNATURE_COLUMN : w.textWidth
    const details: [string, string][] = [
      [t.email, r.email],
      [t.role, t.roles[r.role] ?? r.role],
      [t.verified, verification(r, t, trail.some((s) => s.what === t.linkCreated))],
      [t.ipAddress, r.ipAddress || t.none],
      [t.client, describeClient(r.userAgent, t) ?? t.none],
    ]
    // The recipient's consent to sign electronically: when, and to which disclosure (docs/consent.md).
    const consent = content.auditLog.find((e) => e.type === 'RECIPIENT_CONSENT_GIVEN' && r.id !== undefined && e.recipientId === r.id)
    if (consent) details.push([t.consent, t.consented(time(consent.createdAt), Number(consent.data.disclosureVersion), String(consent.data.disclosureHash ?? '').slice(0, 16))])
    const nameHeight = w.rowsOf(r.name || r.email, 11.5, w.textWidth) * 11.5 * 1.4
    const detailsHeight = details.reduce((sum, [label, value]) => sum + Math.max(w.rowsOf(value, 9.5, detailsWidth - 110), w.rowsOf(label, 9.5, 110 - 8)) * 9.5 * 1.45, 0)
    const historyHeight = 8 * 1.4 + steps.reduce((sum, s) => sum + Math.max(w.rowsOf(s.what, 8, w.textWidth - 10 - HISTORY_LABEL), w.rowsOf(time(s.at), 8, HISTORY_LABEL - 8)) * 8 * 1.45, 0)
    // Keep a recipient together on one page when the block fits on one; the name and the signature always do.
    w.room(Math.max(8 + nameHeight + detailsHeight + 4 + historyHeight + 6, 8 + nameHeight + (image ? SIGNATURE_HEIGHT : 0)))
    w.gap(8)
    w.line(r.name || r.email, { size: 11.5 })
    const top = w.y
    const page = w.page
    if (image) {
      // The signature at the right of the details, as it was drawn on the document, in a column of its own.
      const x = w.textWidth - SIGNATURE_COLUMN + 20
      const width = SIGNATURE_COLUMN - 20
      w.text(fitRow(t.signature, font, 7.5, width), x, top - 12, 7.5, MUTED)
      w.image(image, x, width, 48, top - 16)
      const ruleX = w.xAt(x, w.textWidth - x)
      w.page.drawLine({ start: { x: ruleX, y: top - 66 }, end: { x: ruleX + w.textWidth - x, y: top - 66 }, thickness: 0.4, color: RULE })
    }
    for (const [label, value] of details) w.field(label, value, { width: detailsWidth })
    if (image && w.page === page) w.y = Math.min(w.y, top - SIGNATURE_HEIGHT)
    w.gap(4)
    w.line(t.history, { size: 8, color: MUTED })
    for (const step of steps) w.field(time(step.at), step.what, { size: 8, x: 10, labelWidth: HISTORY_LABEL })
    w.gap(6)
    w.rule()
  }
  w.finish(`${t.sealNote} ${content.envelope.id}`, t.page)
}

/** Width of the signature's column at the right of a recipient's details, and the height it takes. */
const SIGNATURE_COLUMN = 170
const SIGNATURE_HEIGHT = 70
/** Width of the time column of a recipient's history. */
const HISTORY_LABEL = 190

/**
 * The recipient's history from the audit log, in words: the request (by e-mail when a mail left, or
 * the link created when the document went out without e-mail), reminders, the first time their
 * session loaded, each proof of identity with its method, and what they did (or their rejection
 * with its reason).
 */
function trailOf(r: SealRecipient, log: SealAuditEntry[], t: EvidenceText): { at: string; what: string }[] {
  if (r.id === undefined) return []
  const methods = (list: unknown) => (Array.isArray(list) ? list.map((m) => t.methods[String(m)] ?? String(m)).join(', ') : '')
  const mailed = mailedTo(r, log)
  let opened = false
  return log.flatMap((e): { at: string; what: string }[] => {
    const at = e.createdAt
    switch (e.type) {
      case 'DOCUMENT_SENT': {
        const to = Array.isArray(e.data.recipients) ? e.data.recipients : []
        return to.includes(r.id) && !mailed ? [{ at, what: t.linkCreated }] : []
      }
      case 'EMAIL_SENT':
        if (e.data.recipientId !== r.id) return []
        return [{ at, what: t.events[e.data.emailType === 'REMINDER' ? 'REMINDER' : e.data.emailType === 'DOCUMENT_COMPLETED' ? 'DOCUMENT_COMPLETED_EMAIL' : 'EMAIL_SENT']! }]
    }
    if (e.recipientId !== r.id) return []
    switch (e.type) {
      case 'DOCUMENT_OPENED': {
        const proof = methods(e.data.accessAuth)
        const first = opened ? [] : [{ at, what: t.events.DOCUMENT_OPENED! }]
        opened = true
        return [...first, ...(proof ? [{ at, what: `${t.verifiedToOpen} ${proof}` }] : [])]
      }
      case 'DOCUMENT_RECIPIENT_COMPLETED': {
        const proof = methods(e.data.actionAuth)
        return [...(proof ? [{ at, what: `${t.verifiedToAct} ${proof}` }] : []), { at, what: t.events[r.action] ?? r.action }]
      }
      case 'DOCUMENT_RECIPIENT_REJECTED': {
        const reason = typeof e.data.reason === 'string' && e.data.reason.trim() ? `. ${t.reason}: ${e.data.reason}` : ''
        return [{ at, what: `${t.events.DOCUMENT_RECIPIENT_REJECTED}${reason}` }]
      }
      case 'DOCUMENT_RECIPIENT_EXPIRED':
        return [{ at, what: t.events.DOCUMENT_RECIPIENT_EXPIRED! }]
      case 'RECIPIENT_CONSENT_GIVEN':
        return [{ at, what: t.events.RECIPIENT_CONSENT_GIVEN! }]
      default:
        return []
    }
  })
}

/** Whether the audit log records a request to the recipient that the mail transport took (the completed document's mail is none). */
function mailedTo(r: SealRecipient, log: SealAuditEntry[]): boolean {
  return log.some((e) => e.type === 'EMAIL_SENT' && e.data.recipientId === r.id && e.data.emailType !== 'DOCUMENT_COMPLETED')
}

/** How the recipient was identified: the link's channel (`unmailed`: a link the sender handed out) and any checks. */
function verification(r: SealRecipient, t: EvidenceText, unmailed: boolean): string {
  // A copy's recipient opened nothing that needed them to be verified.
  if (r.action === 'CC') return t.none
  const channel = r.direct ? t.directLink : unmailed ? t.linkFromSender : t.emailLink
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
  const content = certificateContent(input, demonstration)
  await appendCertificate(doc, content, await embedTextFont(doc, content.locale.language, content))
  return doc
}
