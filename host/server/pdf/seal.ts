import { PDFDocument } from 'pdf-lib'
import { runHeavy } from '../workers/heavy.js'
import { stripActiveContent } from './active-content.js'
import type { SealAuditEntry } from './audit-log-pdf.js'
import { certificateDocument } from './certificate.js'
import { appendEvidence } from './evidence-pages.js'
import type { EvidenceLocale } from './evidence-text.js'
import { withInflateBudget } from './inflate-budget.js'
import type { SealingKey } from './sealing-key.js'
import { signDocument, type SealOptions } from './sign-document.js'
import { embedTextFont, stampFields } from './stamp.js'

export interface SealRecipient {
  name: string
  email: string
  role: 'SIGNER' | 'APPROVER' | 'VIEWER' | 'ASSISTANT' | 'CC'
  /** What they did: SIGNED, APPROVED, VIEWED, ASSISTED, or CC (received a copy, acted on nothing). */
  action: 'SIGNED' | 'APPROVED' | 'VIEWED' | 'ASSISTED' | 'CC'
  completedAt: string | null // ISO UTC
  ipAddress: string | null
  userAgent: string | null
  /** The recipient's id, to find their steps in the audit log. */
  id?: number
  /** Their signature as drawn on the document (a data: URL), shown on the certificate. */
  signatureImage?: string | null
  /** Signed through a template's direct link (they named themselves) rather than a link sent by e-mail. */
  direct?: boolean
  /** The access check the recipient passed before the document was shown (audit log: DOCUMENT_OPENED accessAuth). */
  accessAuth?: string[]
  /** What they proved when they acted (DOCUMENT_RECIPIENT_COMPLETED actionAuth). */
  actionAuth?: string[]
}

export interface SealField {
  envelopeItemId: string
  type: string // SIGNATURE, FREE_SIGNATURE, INITIALS, NAME, EMAIL, DATE, TEXT, NUMBER, CHECKBOX, RADIO, DROPDOWN
  page: number
  positionX: number
  positionY: number
  width: number
  height: number
  fieldMeta: Record<string, unknown> | null // {type, label, required, options?: string[]}
  customText: string | null
}

export interface SealInput {
  envelope: { id: string; title: string; completedAt: string }
  /** `sha256`: the file's stored hash (the certificate states it); computed from `pdf` when absent. */
  items: { id: string; title: string; pdf: Uint8Array; sha256?: string; sealedSha256?: string }[]
  fields: SealField[]
  recipients: SealRecipient[]
  /** The document's settings the evidence pages follow; absent = English, UTC, certificate only. */
  meta?: EvidenceLocale & { includeSigningCertificate?: boolean; includeAuditLog?: boolean }
  /** The envelope's audit log, oldest first: the recipients' histories and the audit-log pages. */
  auditLog?: SealAuditEntry[]
}

export type { SealOptions }

/** Longest a sealing may take (all its files) before its thread is stopped. */
const SEAL_TIMEOUT_MS = 120_000
const sealFailed = (why: string) => new Error(`sealing failed: ${why}`)

/** Each item's sealed PDF, in the order of input.items. Runs in a heavy-work thread (workers/heavy.ts). */
export function sealEnvelope(input: SealInput, key: SealingKey, options: SealOptions = {}): Promise<{ itemId: string; pdf: Uint8Array }[]> {
  return runHeavy('seal', { input, key, options }, { failure: sealFailed, timeoutMs: SEAL_TIMEOUT_MS })
}

/** The certificate page(s) alone; sealed like the documents when a key is given. Runs in a heavy-work thread. */
export function certificatePdf(input: SealInput, key?: SealingKey, options: SealOptions = {}): Promise<Uint8Array> {
  return runHeavy('certificate', { input, key, options }, { failure: sealFailed, timeoutMs: SEAL_TIMEOUT_MS })
}

/** sealEnvelope's work, in this thread: every decode within the inflation budget, active content left out. */
export async function sealHere(input: SealInput, key: SealingKey, options: SealOptions = {}): Promise<{ itemId: string; pdf: Uint8Array }[]> {
  const sealed: { itemId: string; pdf: Uint8Array }[] = []
  // One file at a time: the work is CPU-bound, so interleaving would only hold more memory at once.
  for (const item of input.items) {
    const doc = await withInflateBudget(() => PDFDocument.load(item.pdf, { updateMetadata: false }))
    // Files stored before uploads were cleaned may still carry scripts: a sealed copy never does.
    stripActiveContent(doc)
    const font = await embedTextFont(doc)
    await stampFields(
      doc,
      input.fields.filter((f) => f.envelopeItemId === item.id),
      font,
    )
    await appendEvidence(doc, input, font, key.source === 'database')
    sealed.push({ itemId: item.id, pdf: await signDocument(doc, key, options) })
  }
  return sealed
}

/** certificatePdf's work, in this thread. */
export async function certificateHere(input: SealInput, key?: SealingKey, options: SealOptions = {}): Promise<Uint8Array> {
  const doc = await certificateDocument(input, key?.source === 'database')
  return key ? signDocument(doc, key, options) : doc.save()
}

export { signDocument }
