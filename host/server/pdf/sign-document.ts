/**
 * The PDF signature over a finished document: a placeholder in the signature dictionary, the file
 * saved, then the CMS (pades.ts) over every byte but the placeholder written into it.
 */
import { SignPdf, Signer as SignPdfSigner } from '@signpdf/signpdf'
import type { PDFDocument } from '@cantoo/pdf-lib'
import { parseSignedData, sha256 } from './cms.js'
import { OID, toDer } from './der.js'
import { appendLongTermValidation } from './long-term.js'
import type { SubFilter } from '../config.js'
import { contentsBudget, pdfSignatureCms, TIMESTAMP_BUDGET } from './pades.js'
import { addSignaturePlaceholder } from './signature-placeholder.js'
import { collectValidationData, crlUrlsOf } from './revocation.js'
import type { SealingKey } from './sealing-key.js'
import { localSigner, type Signer } from './signer.js'
import { requestTimestamp } from './tsa.js'

/** How documents are sealed; plain data, so it crosses into a worker thread as it is. */
export interface SealOptions {
  /** Default 'Online'. */
  location?: string
  /** E.g. the host's public URL. Default: the signer's name. */
  contactInfo?: string
  /** Default ETSI.CAdES.detached (PAdES); adbe.pkcs7.detached is the legacy form. */
  subFilter?: SubFilter
  /** RFC 3161 timestamp servers, tried in order (SEALING_TSA_URLS); none = no signature timestamp. */
  tsaUrls?: string[]
  /** Per timestamp server and per CRL download. Default 10 s. */
  tsaTimeoutMs?: number
}

const SIGNER_NAME = 'envelope-embed host'
const REASON = 'Sealed on completion'

/**
 * Adds an invisible signature over the whole file. Call it after every other change: the signature
 * covers the bytes as saved, so any later edit shows as a broken seal.
 */
export async function signDocument(doc: PDFDocument, key: SealingKey, options: SealOptions = {}): Promise<Uint8Array> {
  const signingTime = new Date()
  const signer = localSigner(key)
  const subFilter = options.subFilter ?? 'ETSI.CAdES.detached'
  const tsaUrls = options.tsaUrls ?? []
  addSignaturePlaceholder(doc, {
    name: SIGNER_NAME,
    reason: REASON,
    location: options.location ?? 'Online',
    contactInfo: options.contactInfo ?? SIGNER_NAME,
    signingTime,
    subFilter,
    // Counted in hex digits, two per byte.
    signatureLength: 2 * contentsBudget(await signer.certificates(), tsaUrls.length > 0),
    appName: SIGNER_NAME,
  })
  // Classic cross-reference table: @signpdf finds /ByteRange and /Contents in the plain bytes.
  const bytes = await doc.save({ useObjectStreams: false })
  let made: Buffer | undefined
  const cms = new CmsSigner(signer, async (digest) =>
    (made = await pdfSignatureCms(digest, signer, { subFilter, signingTime, tsaUrls, timeoutMs: options.tsaTimeoutMs })),
  )
  const signed = await new SignPdf().sign(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), cms, signingTime)
  if (subFilter !== 'ETSI.CAdES.detached' || !tsaUrls.length || !made) return new Uint8Array(signed.buffer, signed.byteOffset, signed.byteLength)
  return longTerm(doc, signed, made, tsaUrls, options.tsaTimeoutMs)
}

/**
 * B-LT and B-LTA, when the seal's chains (its own and its timestamp authority's) name CRLs: the
 * certificates and CRLs in a DSS dictionary and a document timestamp over them. A revoked
 * certificate, or a CRL that cannot be had, fails the sealing (it is retried) rather than
 * quietly giving a seal of a lower level than the certificate promises.
 */
async function longTerm(doc: PDFDocument, signed: Buffer, cms: Buffer, tsaUrls: string[], timeoutMs?: number): Promise<Uint8Array> {
  const parsed = parseSignedData(cms)
  const [token] = parsed.signer.unsignedAttributes.get(OID.signatureTimeStampToken) ?? []
  const chains = [parsed.certificates, token ? parseSignedData(toDer(token)).certificates : []]
  if (!chains.flat().some((c) => crlUrlsOf(c).length)) return new Uint8Array(signed.buffer, signed.byteOffset, signed.byteLength)
  const data = await collectValidationData(chains, { timeoutMs })
  return appendLongTermValidation(doc, signed, data, (digest) => requestTimestamp(digest, tsaUrls, { timeoutMs }), TIMESTAMP_BUDGET)
}

/** @signpdf's hook: it hands over the bytes the ByteRange covers and places what comes back. */
class CmsSigner extends SignPdfSigner {
  constructor(
    readonly signer: Signer,
    private readonly make: (digest: Buffer) => Promise<Buffer>,
  ) {
    super()
  }

  override async sign(covered: Buffer): Promise<Buffer> {
    return this.make(sha256(covered))
  }
}
