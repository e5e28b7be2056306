/**
 * The PDF signature over a finished document: a placeholder in the signature dictionary, the file
 * saved, then the CMS (pades.ts) over every byte but the placeholder written into it.
 */
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib'
import { SignPdf, Signer as SignPdfSigner } from '@signpdf/signpdf'
import type { PDFDocument } from 'pdf-lib'
import { sha256 } from './cms.js'
import { contentsBudget, pdfSignatureCms, type SubFilter } from './pades.js'
import type { SealingKey } from './sealing-key.js'
import { localSigner, type Signer } from './signer.js'

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
  /** Per timestamp server. Default 10 s. */
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
  pdflibAddPlaceholder({
    pdfDoc: doc,
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
  const cms = new CmsSigner(signer, (digest) =>
    pdfSignatureCms(digest, signer, { subFilter, signingTime, tsaUrls, timeoutMs: options.tsaTimeoutMs }),
  )
  const signed = await new SignPdf().sign(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), cms, signingTime)
  return new Uint8Array(signed.buffer, signed.byteOffset, signed.byteLength)
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
