/** What checking a PDF's signatures reports (verify.ts), one entry per signature or document timestamp. */
import type { UpdatesAfter } from './revisions.js'

export interface CertificateSummary {
  subject: string
  issuer: string
  serialNumber: string
  validFrom: string
  validTo: string
  selfSigned: boolean
  sha256Fingerprint: string
}

export interface SignatureReport {
  /** A signature, or a document timestamp (ETSI.RFC3161: a timestamp authority's token over the file as it was). */
  kind: 'signature' | 'document-timestamp'
  /** PAdES (ETSI.CAdES.detached), adbe.pkcs7.detached, ETSI.RFC3161, ... as the signature dictionary names it. */
  subFilter: string | null
  /** The bytes the signature covers are the bytes that were signed, and the signature is the certificate's. */
  intact: boolean
  /** Nothing was added to the file after this signature (it ends where the file ends). */
  coversWholeDocument: boolean
  /**
   * What the file adds after it: 'none'; 'validation' (only what long-term validation adds: a DSS
   * with certificates and revocation data, document timestamps in invisible signature fields; the
   * document reads as signed); 'changes' (updates that change the document: a page added, content,
   * an annotation or a form field replaced); 'unrecognized' (bytes that are neither: data after the
   * end of the file, comments, objects nothing refers to). Only 'none' and 'validation' leave the
   * file as it was signed.
   */
  updatesAfter: UpdatesAfter
  /** The PAdES baseline level a PAdES signature reaches in this file: B-B, B-T, B-LT or B-LTA; null for other kinds. */
  level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA' | null
  /** The signing time the signature dictionary states (/M); a claim of the signer, not a proof. */
  signedAt: string | null
  /** An RFC 3161 signature timestamp: when a timestamp authority saw the signature, and whether its token checks out. */
  timestamp: { time: string; intact: boolean; authority: string | null } | null
  certificate: CertificateSummary | null
  /** Why it is not intact, when it is not. */
  problem?: string
}

/** One document timestamp of a file, in the order of the file: the chain that keeps an archive verifiable. */
export interface TimestampLink {
  /** The time its token states. */
  time: string | null
  /** The timestamp authority (its certificate's subject). */
  authority: string | null
  intact: boolean
  /**
   * It covers the signature or document timestamp before it in the file (that one's revision, its
   * token or signature included), with only validation data between them.
   */
  coversPrevious: boolean
}

/** Nothing after the signature but validation data: the file is the one signed, as far as this signature tells. */
export const onlyValidationAfter = (report: Pick<SignatureReport, 'updatesAfter'>) => report.updatesAfter === 'none' || report.updatesAfter === 'validation'

/** The document timestamps of these reports (in the order of the file), each with whether it covers the one before. */
export function timestampChain(reports: SignatureReport[]): TimestampLink[] {
  return reports.flatMap((r, i) => {
    if (r.kind !== 'document-timestamp') return []
    const previous = reports[i - 1]
    return [{ time: r.timestamp?.time || r.signedAt, authority: r.certificate?.subject ?? r.timestamp?.authority ?? null, intact: r.intact, coversPrevious: r.intact && !!previous && onlyValidationAfter(previous) }]
  })
}
