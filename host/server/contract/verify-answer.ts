/** POST /verify's answer (api/verify.ts): each signature checked, and what this service knows of the file. */
import type { AuditLogState, SealedDocument } from '../domain/evidence/sealed-documents.js'
import type { EvidenceCheck } from '../domain/evidence/evidence.js'
import type { SignatureReport, TimestampLink } from '../pdf/signature-report.js'

/** A signature's report, and whether its certificate is one this service seals with. */
export type CheckedSignature = SignatureReport & {
  /** The certificate is one of this host's sealing certificates (by SHA-256 fingerprint, never by name). */
  sealOfThisService: boolean
}

export interface VerifyResult {
  sha256: string
  pageCount: number
  signatures: CheckedSignature[]
  /**
   * At least one signature; every one intact; and nothing after any of them but what long-term
   * validation adds (updatesAfter 'none' or 'validation'): 'changes' and 'unrecognized' make it false.
   */
  valid: boolean
  /** Valid, and an intact signature is this service's own seal (sealOfThisService). */
  sealedByThisService: boolean
  /**
   * The document timestamps, in the order of the file, each with whether it covers the one before:
   * an archive kept verifiable gets a new one before the last one's authority certificate ends.
   */
  timestamps: TimestampLink[]
  /** The completed document of this service whose sealed file has exactly these bytes. */
  document: SealedDocument | null
  /** Whether the audit log of that document's envelope is unbroken (and its head); null with no document. */
  auditLog: AuditLogState | null
  /** With an evidence file (a JWS of GET /envelope/{id}/evidence?format=jws): what it proves. */
  evidence?: EvidenceCheck
}
