/**
 * The audit trail as a PDF: every entry of the envelope's log, oldest first, with its time in the
 * document's format and zone, who acted from where, and the entry's details in words.
 */
import { PageSizes, PDFDocument } from '@cantoo/pdf-lib'
import type { SealingKey } from './sealing-key.js'
import { signDocument, type SealOptions } from './sign-document.js'
import { evidenceText, evidenceTime, type EvidenceKey, type EvidenceLocale, type EvidenceText } from './evidence-text.js'
import { INK, MUTED, PageWriter, RULE } from './page-writer.js'
import { embedTextFont, type TextFont } from './text-font.js'
import { describeClient } from './user-agent.js'
import { directionOf, languageOf } from '../../shared/languages.js'
import { wrap } from './text-wrap.js'
import type { SealAuditEntry } from './seal-input.js'

export type { SealAuditEntry }

export interface AuditLogContent {
  envelope: { id: string; title: string; status?: string }
  locale: EvidenceLocale
  entries: SealAuditEntry[]
  /** When the PDF is made (ISO); shown in its header. */
  generatedAt: string
  /** The hash of the newest entry (domain/evidence/audit-chain.ts), shown in the header when given. */
  chainHead?: string | null | undefined
}

/** Appends the audit-log pages to `doc`. */
export function appendAuditLog(doc: PDFDocument, content: AuditLogContent, font: TextFont, size: [number, number] = [...PageSizes.A4]): void {
  const t = evidenceText(content.locale.language)
  const w = new PageWriter(doc, font, size, t.say('auditLogHeader', { title: content.envelope.title, id: content.envelope.id }), directionOf(languageOf(content.locale.language)))
  w.heading(t.auditLog, [
    [t.title, content.envelope.title],
    [t.envelopeId, content.envelope.id],
    ...(content.envelope.status ? [[t.status, content.envelope.status] as [string, string]] : []),
    [t.generated, evidenceTime(content.generatedAt, content.locale)],
    [t.entries, String(content.entries.length)],
    ...(content.chainHead ? [[t.auditChainHead, content.chainHead] as [string, string]] : []),
  ])
  w.gap(12)

  const timeWidth = 165
  const header = () => {
    w.room(16)
    w.gap(12)
    w.text(t.time, 0, w.y, 8, MUTED)
    w.text(t.columns, timeWidth, w.y, 8, MUTED)
    w.gap(5)
    w.rule(INK, 0.6)
  }
  header()
  let pageOfHeader = w.page
  for (const entry of content.entries) {
    const title = t.events[entry.type === 'EMAIL_SENT' && entry.data.emailType === 'REMINDER' ? 'REMINDER' : entry.type] ?? entry.type
    const by = [entry.name, entry.email ? `<${entry.email}>` : null].filter(Boolean).join(' ') || t.service
    const from = [entry.ipAddress, describeClient(entry.userAgent, t)].filter(Boolean).join(t.detailSeparator)
    const details = describeData(entry, t)
    const when = wrap(evidenceTime(entry.createdAt, content.locale), font, 8, timeWidth - 8)
    const titleRows = wrap(title, font, 9, w.textWidth - timeWidth)
    const rows = Math.max(when.length, titleRows.length + 1 + (from ? w.rowsOf(from, 7.5, w.textWidth - timeWidth) : 0) + (details ? w.rowsOf(details, 7.5, w.textWidth - timeWidth) : 0))
    w.room(rows * 11 + 8)
    if (w.page !== pageOfHeader) {
      header()
      pageOfHeader = w.page
    }
    // The time wrapped in its own column (a long zone name takes a second row), the entry beside it.
    const top = w.y
    when.forEach((row, i) => w.text(row, 0, top - 12 - i * 10, 8, INK))
    w.gap(-9 * 1.4 + 12)
    w.line(title, { size: 9, x: timeWidth })
    w.line(by, { size: 8, x: timeWidth, color: MUTED, lead: 1.35 })
    if (from) w.line(from, { size: 7.5, x: timeWidth, color: MUTED, lead: 1.35 })
    if (details) w.line(details, { size: 7.5, x: timeWidth, color: MUTED, lead: 1.35 })
    w.y = Math.min(w.y, top - 12 - (when.length - 1) * 10 - 2)
    w.gap(5)
    w.rule(RULE, 0.4)
  }
  w.finish(`${t.auditLog}: ${content.envelope.title} (${content.envelope.id})`, t.page)
}

/** The audit log alone, as its own document (unsaved, so it can still be sealed). */
export async function auditLogDocument(content: AuditLogContent): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  doc.setTitle(evidenceText(content.locale.language).say('auditLogTitle', { title: content.envelope.title }))
  doc.setProducer('envelope-embed host')
  appendAuditLog(doc, content, await embedTextFont(doc, content.locale.language, content))
  return doc
}

/** The data fields people read in an entry's details, each under its label (`detail.<key>`). */
const DETAIL_KEYS = ['reason', 'error', 'from', 'to', 'title', 'expiresAt', 'type', 'transactionId', 'disclosureVersion', 'disclosureHash', 'consentWithdrawn', 'purpose', 'stage', 'method', 'until'] as const

/** What an entry's data says, in one line in the reader's language: the fields people read, never raw JSON. */
function describeData(entry: SealAuditEntry, t: EvidenceText): string {
  const d = entry.data ?? {}
  const parts: string[] = []
  const text = (v: unknown) => (typeof v === 'boolean' ? (v ? t.yes : t.no) : typeof v === 'string' || typeof v === 'number' ? String(v) : null)
  const labelled = (key: EvidenceKey, value: string) => t.say('detail', { label: t.say(key), value })
  if (entry.type === 'EMAIL_SENT') parts.push(t.say('emailTo', { type: text(d.emailType) ?? '', email: text(d.recipientEmail) ?? '' }).trim())
  if (entry.type === 'RECIPIENT_AUTH_CODE_SENT') parts.push(t.say('codeTo', { email: text(d.recipientEmail) ?? '' }).trim())
  if (Array.isArray(d.documents)) {
    for (const doc of d.documents as { title?: string; sha256?: string }[]) parts.push(t.say('documentHash', { title: doc.title ?? '', sha256: doc.sha256 ?? '' }).trim())
  }
  if (Array.isArray(d.changes)) {
    for (const c of d.changes as { type?: string; from?: unknown; to?: unknown }[]) parts.push(t.say('change', { field: String(c.type), from: text(c.from) ?? t.none, to: text(c.to) ?? t.none }))
  }
  for (const key of DETAIL_KEYS) {
    const v = text(d[key])
    if (v !== null && !(entry.type === 'EMAIL_SENT' && key === 'type')) parts.push(labelled(`detail.${key}`, v))
  }
  const auth = [...((d.accessAuth as unknown[]) ?? []), ...((d.actionAuth as unknown[]) ?? [])].map(text).filter((m): m is string => !!m)
  if (auth.length) parts.push(labelled('detail.auth', auth.map((m) => t.methods[m] ?? m).join(t.listSeparator)))
  return parts.join(t.detailSeparator)
}

/** The audit log as a PDF file, sealed like the documents when a key is given. */
export async function auditLogPdf(content: AuditLogContent, key?: SealingKey, options: SealOptions = {}): Promise<Uint8Array> {
  const doc = await auditLogDocument(content)
  return key ? signDocument(doc, key, options) : doc.save()
}
