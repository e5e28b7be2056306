/**
 * Checks the signatures of a PDF anyone hands in, independently of how it was made: for each one,
 * whether the bytes it covers are unchanged (digest and signature), whether it covers the whole
 * file (nothing appended after it), when it was made and timestamped, and by which certificate.
 * Reads the signature dictionaries from the raw bytes, as a reader does. The file is parsed once,
 * with the bounded upload checks (inspect.ts checkedPdf); every signature's revision is compared
 * with the file from that one parse (revisions.ts). Which certificates are this host's own is
 * decided by the caller (api/verify.ts), by fingerprint.
 */
import { verify as verifySignature, X509Certificate } from 'node:crypto'
import { parseSignedData, sha256, type ParsedSignedData } from './cms.js'
import { bytesOf, childrenOf, OID, toDer } from './der.js'
import { checkedPdf } from './inspect.js'
import type { ReadPdf } from './reading.js'
import { updatesAfter, type UpdatesAfter } from './revisions.js'
import type { CertificateSummary, SignatureReport } from './signature-report.js'
import { readTimestampToken } from './tsa.js'

export type { CertificateSummary, SignatureReport }

/** At most this many signatures are checked in one file (each costs a hash of the file and a comparison of revisions). */
const MAX_SIGNATURES = 20

/**
 * The verify lane's task (workers/verify.ts): the upload checks and every signature, on one parse
 * of the file within one inflation budget. A file that does not pass the checks is 400 INVALID_PDF.
 */
export function verifyHere(bytes: Uint8Array): Promise<{ pageCount: number; signatures: SignatureReport[] }> {
  return checkedPdf(bytes, 'the file', async (pdf, pageCount) => ({ pageCount, signatures: signaturesOf(pdf) }))
}

/** Each signature's report, in the order of the file; parses the file (within an inflation budget) first. */
export async function verifyPdfSignatures(bytes: Uint8Array): Promise<SignatureReport[]> {
  return (await verifyHere(bytes)).signatures
}

/** Each signature's report, in the order of the file, from the file's one parse. */
export function signaturesOf(pdf: ReadPdf): SignatureReport[] {
  const bytes = Buffer.from(pdf.bytes.buffer, pdf.bytes.byteOffset, pdf.bytes.byteLength)
  const text = bytes.toString('latin1')
  const found: { report: SignatureReport; end: number }[] = []
  for (const match of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    if (found.length >= MAX_SIGNATURES) break
    const range = match.slice(1, 5).map(Number) as [number, number, number, number]
    found.push({ report: checkOne(bytes, text, match.index, range), end: range[2] + range[3] })
  }
  // Only an intact signature's revision is compared with the file: a fake /ByteRange costs nothing more.
  const after = new Map<number, UpdatesAfter>()
  for (const { report, end } of found) {
    if (report.coversWholeDocument || !report.intact) continue
    if (!after.has(end)) after.set(end, updatesAfter(pdf, end))
    report.updatesAfter = after.get(end)!
  }
  const reports = found.sort((a, b) => a.end - b.end).map((f) => f.report)
  reports.forEach((report, i) => (report.level = levelOf(report, reports.slice(i + 1), text.slice(found[i]!.end))))
  return reports
}

/**
 * B-B a PAdES signature; B-T with an intact signature timestamp; B-LT when a later validation
 * update brings revocation data (a DSS with CRLs or OCSP answers); B-LTA when a document
 * timestamp follows that.
 */
function levelOf(report: SignatureReport, later: SignatureReport[], rest: string): SignatureReport['level'] {
  if (report.kind !== 'signature' || report.subFilter !== 'ETSI.CAdES.detached' || !report.intact) return null
  if (!report.timestamp?.intact) return 'B-B'
  if (report.updatesAfter !== 'validation' || !/\/(CRLs|OCSPs)\s*\[\s*\d/.test(rest)) return 'B-T'
  return later.some((s) => s.kind === 'document-timestamp' && s.intact) ? 'B-LTA' : 'B-LT'
}

/** One signature's report; whatever its bytes hold, a report (never an exception). */
function checkOne(bytes: Buffer, text: string, at: number, range: [number, number, number, number]): SignatureReport {
  try {
    return checkRange(bytes, text, at, range)
  } catch {
    return { ...blankReport(null), problem: 'its signature cannot be read' }
  }
}

function blankReport(subFilter: string | null): SignatureReport {
  return { kind: subFilter === 'ETSI.RFC3161' ? 'document-timestamp' : 'signature', subFilter, intact: false, coversWholeDocument: false, updatesAfter: 'none', level: null, signedAt: null, timestamp: null, certificate: null }
}

function checkRange(bytes: Buffer, text: string, at: number, [start, length1, start2, length2]: [number, number, number, number]): SignatureReport {
  const dictionary = dictionaryAround(text, at)
  const subFilter = /\/SubFilter\s*\/([A-Za-z0-9.#_-]+)/.exec(dictionary)?.[1] ?? null
  const report: SignatureReport = { ...blankReport(subFilter), signedAt: pdfDate(/\/M\s*\(([^)]*)\)/.exec(dictionary)?.[1]) }
  const fail = (problem: string) => Object.assign(report, { problem })
  const inFile = (n: number) => Number.isSafeInteger(n) && n >= 0 && n <= bytes.length
  if (start !== 0 || ![length1, start2, length2].every(inFile) || start2 < length1 || start2 + length2 > bytes.length) {
    return fail('its byte range does not describe this file')
  }
  const hex = /^<([0-9a-fA-F]*)>$/.exec(text.slice(length1, start2))?.[1]
  if (hex === undefined) return fail('the bytes it leaves out are not its /Contents')
  report.coversWholeDocument = start2 + length2 === bytes.length
  let signed: ParsedSignedData
  try {
    signed = parseSignedData(Buffer.from(hex, 'hex'))
  } catch {
    return fail('its /Contents are not a CMS signature')
  }
  const certificate = signerCertificate(signed)
  if (!certificate) return fail('it carries no certificate for its signer')
  report.certificate = summary(certificate)
  const covered = Buffer.concat([bytes.subarray(0, length1), bytes.subarray(start2, start2 + length2)])
  if (report.kind === 'document-timestamp') {
    // The token itself is the signature: a timestamp authority's, over the covered bytes' digest.
    const timestamp = checkTimestamp(Buffer.from(hex, 'hex'), sha256(covered))
    report.timestamp = timestamp
    report.signedAt = timestamp?.time || null
    report.intact = Boolean(timestamp?.intact)
    return report.intact ? report : fail('the document was changed after it was timestamped, or the token does not check out')
  }
  const problem = checkSignerInfo(signed, sha256(covered), certificate)
  if (problem) return fail(problem)
  report.intact = true
  const [token] = signed.signer.unsignedAttributes.get(OID.signatureTimeStampToken) ?? []
  if (token) report.timestamp = checkTimestamp(toDer(token), sha256(signed.signer.signature))
  return report
}

/**
 * The digest in the signed attributes is the covered bytes' digest, the signature over those
 * attributes verifies with the certificate's key, and a signing-certificate-v2 names this
 * certificate. Null when all hold, else what failed.
 */
function checkSignerInfo(signed: ParsedSignedData, digest: Buffer, certificate: X509Certificate): string | null {
  const { signer } = signed
  if (signer.digestAlgorithm !== OID.sha256) return 'it uses a digest algorithm other than SHA-256'
  if (!signer.signedAttributes) return 'it has no signed attributes'
  const [messageDigest] = signer.attributes.get(OID.messageDigest) ?? []
  if (!messageDigest || !bytesOf(messageDigest).equals(digest)) return 'the document was changed after it was signed'
  let ok = false
  try {
    ok = verifySignature('sha256', signer.signedAttributes, certificate.publicKey, signer.signature)
  } catch {
    ok = false
  }
  if (!ok) return 'the signature does not match its certificate'
  const [essV2] = signer.attributes.get(OID.signingCertificateV2) ?? []
  if (essV2) {
    const certHash = childrenOf(childrenOf(childrenOf(essV2)[0])[0]).find((n) => n.type === 4 && n.tagClass === 0)
    if (!certHash || !bytesOf(certHash).equals(sha256(certificate.raw))) return 'its signing-certificate attribute names another certificate'
  }
  return null
}

/** A token over `digest` (of a signature value, or of a document) whose own signature checks out with its authority's certificate. */
function checkTimestamp(token: Buffer, digest: Buffer): SignatureReport['timestamp'] {
  try {
    const info = readTimestampToken(token)
    const signed = parseSignedData(token)
    const authority = signerCertificate(signed)
    const intact = Boolean(authority) && info.digest.equals(digest) && checkSignerInfo(signed, sha256(signed.content!), authority!) === null
    return { time: info.time.toISOString(), intact, authority: authority ? commonName(authority.subject) : null }
  } catch {
    return { time: '', intact: false, authority: null }
  }
}

/** The certificate the SignerInfo names by issuer and serial number; else the first one. */
export function signerCertificate(signed: ParsedSignedData): X509Certificate | null {
  const certificates = signed.certificates.flatMap((der) => {
    try {
      return [new X509Certificate(der)]
    } catch {
      return []
    }
  })
  const serial = childrenOf(signed.signer.sid)[1]
  const wanted = serial ? bytesOf(serial).toString('hex').replace(/^(00)+/, '').toUpperCase() : null
  return certificates.find((c) => c.serialNumber.replace(/^(00)+/, '').toUpperCase() === wanted) ?? certificates[0] ?? null
}

function summary(c: X509Certificate): CertificateSummary {
  return {
    subject: commonName(c.subject),
    issuer: commonName(c.issuer),
    serialNumber: c.serialNumber,
    validFrom: new Date(c.validFrom).toISOString(),
    validTo: new Date(c.validTo).toISOString(),
    selfSigned: c.subject === c.issuer && c.verify(c.publicKey),
    sha256Fingerprint: c.fingerprint256,
  }
}

/** "CN=..., O=..." from node's multi-line distinguished name. */
const commonName = (dn: string) => dn.split('\n').filter(Boolean).reverse().join(', ')

/** The signature dictionary around a /ByteRange: from its object's start to its end. */
function dictionaryAround(text: string, at: number): string {
  const from = Math.max(text.lastIndexOf(' obj', at), at - 4096, 0)
  const end = text.indexOf('endobj', at)
  return text.slice(from, end < 0 ? at + 4096 : Math.min(end, at + 64 * 1024)).replace(/\/Contents\s*<[0-9a-fA-F]*>/, '')
}

/** A PDF date (D:YYYYMMDDHHmmSSOHH'mm') as ISO, or null. */
function pdfDate(value: string | undefined): string | null {
  const m = value && /^D:(\d{4})(\d\d)?(\d\d)?(\d\d)?(\d\d)?(\d\d)?([Z+-])?(\d\d)?'?(\d\d)?/.exec(value)
  if (!m) return null
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign = 'Z', oh = '00', om = '00'] = m
  const zone = sign === 'Z' ? 'Z' : `${sign}${oh}:${om}`
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}
