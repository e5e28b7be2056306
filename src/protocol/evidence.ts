/**
 * The evidence summary of one envelope (GET /envelope/{id}/evidence): what was signed, by whom,
 * how they proved who they were, the seal and the audit log's head. The host signs this JSON as a
 * JWS with its sealing key; envelope-embed/server's verifyEvidence checks it.
 */

export const EVIDENCE_VERSION = 'evidence/1'

/** The media type of a compact JWS, as `/verify` accepts it and `?format=jws` answers it. */
export const JOSE_MEDIA_TYPE = 'application/jose'

export interface EvidenceDocument {
  id: string
  title: string
  /** SHA-256 (hex) of the PDF as it was sent to the recipients. */
  originalSha256: string
  /** SHA-256 (hex) of the sealed PDF as it is served; null until the envelope is sealed. */
  sealedSha256: string | null
}

export interface EvidenceProof {
  /** `access` (before the document is shown) or `action` (before signing, approving or rejecting). */
  stage: 'access' | 'action'
  /** As the audit entry records it: TWO_FACTOR_AUTH (an e-mailed or authenticator code), ACCOUNT, PASSKEY, PASSWORD, ... */
  method: string
  at: string
}

export interface EvidenceConsent {
  at: string
  /** The disclosure's version as recorded (the team's disclosure number; 0 is the service's default text). */
  disclosureVersion: number | string | null
  disclosureHash: string | null
}

/**
 * One step of a recipient's record, in the order the audit log holds them: what the signing
 * certificate's history says in words and the console's timeline shows. Addresses are the ones the
 * message went to; `correctedTo` names the address the team corrected it to afterwards.
 */
export type EvidenceStep = { at: string } & (
  /** Sent without any request e-mail recorded: the sender handed the link out. */
  | { kind: 'LINK_CREATED' }
  /** A message the mail transport took: the request (or sent again), a reminder, the completed document. */
  | { kind: 'EMAIL_SENT'; email: 'REQUEST' | 'REMINDER' | 'COMPLETED'; to: string | null; correctedTo?: string }
  | { kind: 'OPENED' }
  /** A one-time code e-mailed for `purpose`: `access` (to open), `action` (to act), `account` (to make an account). */
  | { kind: 'CODE_SENT'; purpose: string | null; to: string | null; correctedTo?: string }
  /** A check passed, with its method (TWO_FACTOR_AUTH, ACCOUNT, PASSWORD, PASSKEY). */
  | { kind: 'VERIFIED'; stage: 'access' | 'action'; method: string }
  /** A code, password or passkey that did not check out. */
  | { kind: 'VERIFICATION_FAILED'; stage: string | null; method: string | null }
  /** Too many failed checks: refused until `until`. */
  | { kind: 'LOCKED'; until: string | null }
  | { kind: 'CONSENTED'; disclosureVersion: number | string | null; disclosureHash: string | null }
  /** The team corrected the recipient's name or address (a new address is sent a new link). */
  | { kind: 'CORRECTED'; changes: { field: 'NAME' | 'EMAIL'; from: string | null; to: string | null }[] }
  /** Completed their part: SIGNED, APPROVED, VIEWED or ASSISTED, by their role. */
  | { kind: 'COMPLETED'; action: 'SIGNED' | 'APPROVED' | 'VIEWED' | 'ASSISTED' }
  | { kind: 'REJECTED'; reason: string | null }
  /** Their link's deadline passed before they acted. */
  | { kind: 'EXPIRED' }
)

export interface EvidenceRecipient {
  id: number
  name: string
  email: string
  role: string
  /** When the request e-mail was first sent (EMAIL_SENT), or the document was sent when no e-mail was recorded. */
  sentAt: string | null
  /** The first DOCUMENT_OPENED. */
  firstOpenedAt: string | null
  proofs: EvidenceProof[]
  /** The consent to the electronic disclosure (RECIPIENT_CONSENT_GIVEN), null when none was recorded. */
  consent: EvidenceConsent | null
  /** Where the recipient acted from (their completion or rejection, else their first opening). */
  ipAddress: string | null
  userAgent: string | null
  outcome: { status: 'SIGNED' | 'REJECTED'; at: string; reason: string | null } | null
  /** Every step of the recipient's record, oldest first (the fields above are drawn from the same steps). */
  history: EvidenceStep[]
  /**
   * The fields above whose value was redacted (a null or empty value that is not what happened):
   * present only when one was, which the host allows only as the envelope is purged.
   */
  redacted?: EvidenceRedactedField[]
}

/** A recipient's field of the evidence that a redaction emptied. */
export type EvidenceRedactedField = 'name' | 'email' | 'ipAddress' | 'userAgent' | 'proofs' | 'consent' | 'reason' | 'history'

export interface EvidenceSeal {
  /** PAdES baseline level of the seal in the first sealed document (B-B, B-T, B-LT, B-LTA). */
  level: string | null
  /** SHA-256 fingerprint of the sealing certificate (colon-separated upper-case hex). */
  certificateFingerprint: string | null
  /** The signing time the seal states. */
  signedAt: string | null
  /** RFC 3161 timestamp times: the signature timestamp, then any document timestamps. */
  timestamps: string[]
}

export interface Evidence {
  version: typeof EVIDENCE_VERSION
  generatedAt: string
  envelope: { id: string; title: string; status: string; createdAt: string; completedAt: string | null }
  documents: EvidenceDocument[]
  recipients: EvidenceRecipient[]
  /** Null until the envelope is sealed. */
  seal: EvidenceSeal | null
  /** The audit log's hash chain when the summary was made: its newest entry's hash and how many entries. */
  auditLog: {
    intact: boolean
    head: string | null
    entries: number
    /** How many entries have personal values redacted (by the envelope's purge; a redaction otherwise breaks `intact`). */
    redacted?: number
  }
  /**
   * Only once the envelope was purged at the end of its team's retention: its files are gone and
   * its personal data (recipients' names and e-mails, field values, the audit entries' personal
   * values) redacted; the documents' hashes and the audit chain remain.
   */
  redacted?: true
  purgedAt?: string
}

/** What `/verify` says of an evidence file: its signature, and how it stands against this service's records. */
export interface EvidenceCheck {
  /** The JWS's signature holds and is made with one of this service's sealing certificates. */
  valid: boolean
  reason?: string
  /** The evidence's envelope and when it was made (only when valid). */
  envelopeId: string | null
  generatedAt: string | null
  /**
   * With a PDF: whether its SHA-256 is one of the evidence's documents (original or sealed), and
   * which; null without a PDF or a valid evidence file.
   */
  pdf: { matches: boolean; as: 'original' | 'sealed' | null } | null
  /**
   * The envelope's audit log now: `intact` while its hash chain holds and the evidence's head is
   * still the entry it was (later entries may follow it); null when this service has no such envelope.
   */
  auditLog: { intact: boolean; headMatches: boolean; entriesSince: number } | null
}
