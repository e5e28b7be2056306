/**
 * The answers about an envelope's record, declared once as the resources of answers.ts are (which
 * registers them): the evidence summary (GET /envelope/{envelopeId}/evidence, the library's
 * Evidence), what POST /verify says of a PDF and of an evidence file (contract/verify-answer.ts
 * VerifyResult, src/protocol/evidence.ts EvidenceCheck). test/host/answers.test.ts ties each to its
 * TypeScript type both ways and parses real answers with them.
 */
import { z } from 'zod'
import { EVIDENCE_VERSION } from '../../../src/protocol/evidence.js'

const date = z.iso.datetime({ offset: true })
const int = z.int()
const orNull = z.string().nullable()

/** One signature of POST /verify's answer (pdf/signature-report.ts SignatureReport, with sealOfThisService). */
export const VerifiedSignatureAnswer = z.object({
  kind: z.enum(['signature', 'document-timestamp']),
  subFilter: orNull.describe('ETSI.CAdES.detached (PAdES), adbe.pkcs7.detached, ETSI.RFC3161 (a document timestamp), ...'),
  intact: z.boolean().describe("The bytes it covers are the bytes signed, and the signature is its certificate's"),
  coversWholeDocument: z.boolean().describe('It ends where the file ends'),
  updatesAfter: z
    .enum(['none', 'validation', 'changes', 'unrecognized'])
    .describe(
      "What the file holds after it. none: nothing (it covers the whole file). validation: only long-term validation data (a DSS with certificates, CRLs and OCSP answers; document timestamps in invisible signature fields); the document reads as signed. changes: incremental updates that change the document (a page, content, an annotation, a form field, another signature) or that readers would resolve differently. unrecognized: bytes that are not validation data and that readers do not show as a change (data after the last %%EOF, comments, objects nothing refers to, a DSS holding anything else). Only none and validation leave the file as it was signed: changes and unrecognized make valid false",
    ),
  level: z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']).nullable().describe('The PAdES baseline level of a PAdES signature in this file'),
  signedAt: date.nullable(),
  timestamp: z.object({ time: z.string(), intact: z.boolean(), authority: orNull }).nullable(),
  certificate: z
    .object({ subject: z.string(), issuer: z.string(), serialNumber: z.string(), validFrom: z.string(), validTo: z.string(), selfSigned: z.boolean(), sha256Fingerprint: z.string() })
    .nullable(),
  problem: z.string().optional().describe('Why it is not intact'),
  sealOfThisService: z.boolean().describe('Its certificate is one this service seals with (by SHA-256 fingerprint, never by name)'),
})

const step = z.object({ at: z.string() })
const addressedTo = {
  to: orNull.describe('EMAIL_SENT, CODE_SENT: the address it went to'),
  correctedTo: z.string().optional().describe('EMAIL_SENT, CODE_SENT: the address that address was corrected to afterwards'),
}

/** One step of a recipient's record (src/protocol/evidence.ts EvidenceStep), by its kind. */
const EvidenceStepAnswer = z.discriminatedUnion('kind', [
  step.extend({ kind: z.literal('LINK_CREATED') }),
  step.extend({ kind: z.literal('EMAIL_SENT'), email: z.enum(['REQUEST', 'REMINDER', 'COMPLETED']).describe('EMAIL_SENT: which message'), ...addressedTo }),
  step.extend({ kind: z.literal('OPENED') }),
  step.extend({ kind: z.literal('CODE_SENT'), purpose: orNull, ...addressedTo }),
  step.extend({ kind: z.literal('VERIFIED'), stage: z.enum(['access', 'action']), method: z.string() }),
  step.extend({ kind: z.literal('VERIFICATION_FAILED'), stage: orNull, method: orNull }),
  step.extend({ kind: z.literal('LOCKED'), until: orNull }),
  step.extend({ kind: z.literal('CONSENTED'), disclosureVersion: z.union([z.number(), z.string()]).nullable(), disclosureHash: orNull }),
  step.extend({ kind: z.literal('CORRECTED'), changes: z.array(z.object({ field: z.enum(['NAME', 'EMAIL']), from: orNull, to: orNull })) }),
  step.extend({ kind: z.literal('COMPLETED'), action: z.enum(['SIGNED', 'APPROVED', 'VIEWED', 'ASSISTED']) }),
  step.extend({ kind: z.literal('REJECTED'), reason: orNull }),
  step.extend({ kind: z.literal('EXPIRED') }),
])

const EvidenceRecipientAnswer = z.object({
  id: int,
  name: z.string(),
  email: z.string(),
  role: z.string(),
  sentAt: orNull,
  firstOpenedAt: orNull,
  proofs: z.array(z.object({ stage: z.enum(['access', 'action']), method: z.string(), at: z.string() })),
  consent: z.object({ at: z.string(), disclosureVersion: z.union([z.number(), z.string()]).nullable(), disclosureHash: orNull }).nullable(),
  ipAddress: orNull,
  userAgent: orNull,
  outcome: z.object({ status: z.enum(['SIGNED', 'REJECTED']), at: z.string(), reason: orNull }).nullable(),
  history: z
    .array(EvidenceStepAnswer)
    .describe("Every step of the recipient's record, oldest first, as the signing certificate's history says it (src/protocol/evidence.ts EvidenceStep)"),
  redacted: z
    .array(z.enum(['name', 'email', 'ipAddress', 'userAgent', 'proofs', 'consent', 'reason', 'history']))
    .optional()
    .describe('Only when a redaction emptied some of the fields above: which (a purge; on any other envelope auditLog.intact is false)'),
})

/** GET /envelope/{envelopeId}/evidence (src/protocol/evidence.ts Evidence). */
export const EvidenceAnswer = z.object({
  version: z.literal(EVIDENCE_VERSION),
  generatedAt: date,
  envelope: z.object({ id: z.string(), title: z.string(), status: z.string(), createdAt: z.string(), completedAt: orNull }),
  documents: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      originalSha256: z.string().describe('SHA-256 (hex) of the PDF as sent'),
      sealedSha256: orNull.describe('SHA-256 (hex) of the sealed PDF as served; null until sealed'),
    }),
  ),
  recipients: z.array(EvidenceRecipientAnswer),
  seal: z.object({ level: orNull, certificateFingerprint: orNull, signedAt: orNull, timestamps: z.array(z.string()) }).nullable(),
  auditLog: z.object({
    intact: z.boolean(),
    head: orNull,
    entries: int,
    redacted: int.optional().describe('Only when some entries have redacted personal values: how many'),
  }),
  redacted: z.literal(true).optional().describe("Only once the envelope was purged at the end of its team's retention: files gone, personal data redacted"),
  purgedAt: date.optional().describe('Only once purged: when'),
})

/** The `evidence` of POST /verify's answer (src/protocol/evidence.ts EvidenceCheck). */
export const EvidenceCheckAnswer = z
  .object({
    valid: z.boolean(),
    reason: z.string().optional(),
    envelopeId: orNull,
    generatedAt: orNull,
    pdf: z.object({ matches: z.boolean(), as: z.enum(['original', 'sealed']).nullable() }).nullable(),
    auditLog: z.object({ intact: z.boolean(), headMatches: z.boolean(), entriesSince: int }).nullable(),
  })
  .describe('With an evidence file: whether this service signed it, whether the PDF is one of its documents, whether the audit log still holds its head')

/** POST /verify's answer for a PDF (contract/verify-answer.ts VerifyResult). */
export const VerifyResultAnswer = z.object({
  evidence: EvidenceCheckAnswer.optional(),
  sha256: z.string(),
  pageCount: int,
  valid: z.boolean().describe('At least one signature, every one intact, and nothing after any of them but validation data (updatesAfter none or validation)'),
  sealedByThisService: z.boolean().describe("Valid, and an intact signature is this service's own seal"),
  signatures: z.array(VerifiedSignatureAnswer),
  timestamps: z
    .array(z.object({ time: orNull, authority: orNull, intact: z.boolean(), coversPrevious: z.boolean() }))
    .describe('The document timestamps in the order of the file, each with whether it covers the signature or timestamp before it'),
  document: z
    .object({ title: z.string(), completedAt: orNull, recipients: z.array(z.object({ name: z.string(), role: z.string(), completedAt: orNull })) })
    .nullable(),
  auditLog: z
    .discriminatedUnion('intact', [z.object({ intact: z.literal(true), head: orNull }), z.object({ intact: z.literal(false) })])
    .nullable()
    .describe("With a document: `{intact: true, head}` while its audit log's hash chain holds, `{intact: false}` once an entry was changed"),
})

/** POST /verify's whole answer: a PDF's (with `evidence` when an evidence file came too), or an evidence file's alone. */
export const VerifyAnswer = z
  .union([VerifyResultAnswer, z.object({ evidence: EvidenceCheckAnswer }).describe('An evidence file alone')])
  .describe('Each signature, and the sealed document of this service with these bytes, if any; with an evidence file, `evidence` (alone: only `evidence`)')

export type VerifiedSignatureAnswer = z.output<typeof VerifiedSignatureAnswer>
export type EvidenceAnswer = z.output<typeof EvidenceAnswer>
export type EvidenceCheckAnswer = z.output<typeof EvidenceCheckAnswer>
export type VerifyResultAnswer = z.output<typeof VerifyResultAnswer>
export type VerifyAnswer = z.output<typeof VerifyAnswer>
