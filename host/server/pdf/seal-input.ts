/**
 * What sealing takes: the envelope, its files, fields, recipients and audit log as the evidence
 * pages show them. Types only, so the pages' code and the heavy-work threads share them.
 */
import type { EvidenceLocale } from './evidence-text.js'

/** An audit-log entry as the API lists it (only what the PDF shows). */
export interface SealAuditEntry {
  type: string
  createdAt: string
  name: string | null
  email: string | null
  recipientId: number | null
  ipAddress: string | null
  userAgent: string | null
  data: Record<string, unknown>
}

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
  /** The hash of the newest entry of that log (domain/evidence/audit-chain.ts): the evidence pages name it. */
  auditChainHead?: string | null
}
