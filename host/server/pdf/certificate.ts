import { createHash } from 'node:crypto'
import { PDFDocument, PageSizes, type PDFImage } from '@cantoo/pdf-lib'
import { DEFAULT_LOCALE, evidenceText, evidenceTime, type EvidenceLocale, type EvidenceText } from './evidence-text.js'
import { ACCENT, fitRow, INK, MUTED, PageWriter, RULE } from './page-writer.js'
import type { SealAuditEntry, SealInput, SealRecipient } from './seal-input.js'
import { embedTextFont, type TextFont } from './text-font.js'
import { describeClient } from './user-agent.js'
import { directionOf, languageOf } from '../../shared/languages.js'
import { recordSteps, stepsOf } from '../../shared/record-steps.js'
import type { EvidenceStep } from '../../../src/protocol/evidence.js'

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
  const w = new PageWriter(doc, font, size, t.say('certificateHeader', { title: content.envelope.title, id: content.envelope.id }), directionOf(languageOf(content.locale.language)))
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
  const recorded = recordSteps(content.auditLog)
  for (const r of content.recipients) {
    const mine = stepsOf(recorded, r.id)
    const trail = trailOf(mine, t, time)
    const steps = trail.length ? trail : [{ at: r.completedAt, what: t.events[r.action] ?? r.action }]
    const image = await signatureImage(doc, r.signatureImage)
    // The details share the width with the signature column only when there is a signature.
    const detailsWidth = image ? w.textWidth - SIGNATURE_COLUMN : w.textWidth
    const details: [string, string][] = [
      [t.email, r.email],
      [t.role, t.roles[r.role] ?? r.role],
      [t.verified, verification(r, t, mine.some((s) => s.kind === 'LINK_CREATED'))],
      [t.ipAddress, r.ipAddress || t.none],
      [t.client, describeClient(r.userAgent, t) ?? t.none],
    ]
    // The recipient's consent to sign electronically: when, and to which disclosure (docs/consent.md).
    const consent = mine.find((s) => s.kind === 'CONSENTED')
    if (consent) details.push([t.consent, t.consented(time(consent.at), Number(consent.disclosureVersion), String(consent.disclosureHash ?? '').slice(0, 16))])
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
  w.finish(t.say('sealNote', { id: content.envelope.id }), t.page)
}

/** Width of the signature's column at the right of a recipient's details, and the height it takes. */
const SIGNATURE_COLUMN = 170
const SIGNATURE_HEIGHT = 70
/** Width of the time column of a recipient's history. */
const HISTORY_LABEL = 190

/**
 * The recipient's history in words, step by step as the audit log records it
 * (../../shared/record-steps.ts, the steps the evidence summary lists and the console shows): the
 * request (by e-mail, naming an address corrected afterwards, or the link created when no e-mail
 * left), reminders, one-time codes sent, each opening and each check passed or failed with its
 * method, a lock, consent, corrections, and what they did (or their rejection with its reason).
 */
function trailOf(steps: readonly EvidenceStep[], t: EvidenceText, time: (iso: string) => string): { at: string; what: string }[] {
  const method = (m: string | null) => (m ? (t.methods[m] ?? m) : t.none)
  const to = (s: { to: string | null; correctedTo?: string }) => (s.to && s.correctedTo ? ` ${t.laterCorrected(s.to, s.correctedTo)}` : '')
  /** VERIFIED's method is in words already (joined below). */
  const words = (s: EvidenceStep): string => {
    switch (s.kind) {
      case 'LINK_CREATED':
        return t.linkCreated
      case 'EMAIL_SENT':
        return t.events[s.email === 'REMINDER' ? 'REMINDER' : s.email === 'COMPLETED' ? 'DOCUMENT_COMPLETED_EMAIL' : 'EMAIL_SENT']! + to(s)
      case 'CODE_SENT':
        return (t.codeSent[s.purpose ?? ''] ?? t.events.RECIPIENT_AUTH_CODE_SENT!) + to(s)
      case 'OPENED':
        return t.events.DOCUMENT_OPENED!
      case 'VERIFIED':
        return t.say(s.stage === 'access' ? 'verifiedToOpen' : 'verifiedToAct', { methods: s.method ?? t.none })
      case 'VERIFICATION_FAILED':
        return t.verificationFailed(method(s.method))
      case 'LOCKED':
        return t.locked(s.until ? time(s.until) : t.none)
      case 'CONSENTED':
        return t.events.RECIPIENT_CONSENT_GIVEN!
      case 'CORRECTED':
        return s.changes.map((c) => t.say(c.field === 'EMAIL' ? 'emailCorrected' : 'nameCorrected', { from: c.from || t.none, to: c.to || t.none })).join(t.clauseSeparator)
      case 'COMPLETED':
        return t.events[s.action] ?? s.action
      case 'REJECTED':
        return s.reason ? t.say('rejectedBecause', { reason: s.reason }) : t.events.DOCUMENT_RECIPIENT_REJECTED!
      case 'EXPIRED':
        return t.events.DOCUMENT_RECIPIENT_EXPIRED!
    }
  }
  // The methods proved at one moment for one stage read as one line ("with account sign-in, one-time code").
  const joined: EvidenceStep[] = []
  for (const s of steps) {
    const before = joined.at(-1)
    if (s.kind === 'VERIFIED' && before?.kind === 'VERIFIED' && before.at === s.at && before.stage === s.stage) before.method += `${t.listSeparator}${method(s.method)}`
    else joined.push(s.kind === 'VERIFIED' ? { ...s, method: method(s.method) } : s)
  }
  return joined.map((s) => ({ at: s.at, what: words(s) }))
}

/** How the recipient was identified: the link's channel (`unmailed`: a link the sender handed out) and any checks. */
function verification(r: SealRecipient, t: EvidenceText, unmailed: boolean): string {
  // A copy's recipient opened nothing that needed them to be verified.
  if (r.action === 'CC') return t.none
  const channel = r.direct ? t.directLink : unmailed ? t.linkFromSender : t.emailLink
  const words = (list: string[] | undefined) => (list ?? []).map((m) => t.methods[m] ?? m).join(t.listSeparator)
  return [channel, r.accessAuth?.length && t.say('openedAfter', { methods: words(r.accessAuth) }), r.actionAuth?.length && t.say('confirmedWith', { methods: words(r.actionAuth) })].filter(Boolean).join(t.clauseSeparator)
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
  const content = certificateContent(input, demonstration)
  doc.setTitle(evidenceText(content.locale.language).say('certificateTitle', { title: input.envelope.title }))
  doc.setProducer('envelope-embed host')
  await appendCertificate(doc, content, await embedTextFont(doc, content.locale.language, content))
  return doc
}
