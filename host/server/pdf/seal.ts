import { constants, privateEncrypt, type KeyObject } from 'node:crypto'
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib'
import { P12Signer } from '@signpdf/signer-p12'
import { SignPdf } from '@signpdf/signpdf'
import forge from 'node-forge'
import { PDFDocument } from 'pdf-lib'
import { runHeavy } from '../workers/heavy.js'
import { stripActiveContent } from './active-content.js'
import { appendCertificate, certificateContent, certificateDocument, certificatePageSize } from './certificate.js'
import { withInflateBudget } from './inflate-budget.js'
import { openSealingKey, type SealingKey } from './sealing-key.js'
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
  items: { id: string; title: string; pdf: Uint8Array; sha256?: string }[]
  fields: SealField[]
  recipients: SealRecipient[]
}

/** What the signature dictionary says besides its name and reason (readers show both). */
export interface SealOptions {
  /** Default 'Online'. */
  location?: string
  /** E.g. the host's public URL. Default: the signer's name. */
  contactInfo?: string
}

const SIGNER_NAME = 'envelope-embed host'
const REASON = 'Sealed on completion'

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
  const content = certificateContent(input)
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
    appendCertificate(doc, content, font, certificatePageSize(doc))
    sealed.push({ itemId: item.id, pdf: await signDocument(doc, key, options) })
  }
  return sealed
}

/** certificatePdf's work, in this thread. */
export async function certificateHere(input: SealInput, key?: SealingKey, options: SealOptions = {}): Promise<Uint8Array> {
  const doc = await certificateDocument(input)
  return key ? signDocument(doc, key, options) : doc.save()
}

/**
 * Adds an invisible adbe.pkcs7.detached signature over the whole file. Call it after every other
 * change: the signature covers the bytes as saved, so any later edit shows as a broken seal.
 */
export async function signDocument(doc: PDFDocument, key: SealingKey, options: SealOptions = {}): Promise<Uint8Array> {
  const signingTime = new Date()
  const { chain } = openSealingKey(key)
  // Room for the PKCS#7 (the length counts hex digits, two per byte): the certificates, the signer
  // info and slack.
  const chainBytes = chain.reduce((n, c) => n + forge.asn1.toDer(forge.pki.certificateToAsn1(c)).length(), 0)
  pdflibAddPlaceholder({
    pdfDoc: doc,
    name: SIGNER_NAME,
    reason: REASON,
    location: options.location ?? 'Online',
    contactInfo: options.contactInfo ?? SIGNER_NAME,
    signingTime,
    signatureLength: Math.max(8192, 2 * chainBytes + 4096),
    appName: SIGNER_NAME,
  })
  // Classic cross-reference table: @signpdf finds /ByteRange and /Contents in the plain bytes.
  const bytes = await doc.save({ useObjectStreams: false })
  const signed = await new SignPdf().sign(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), new OpenedP12Signer(key), signingTime)
  return new Uint8Array(signed.buffer, signed.byteOffset, signed.byteLength)
}

/**
 * P12Signer's PKCS#7 (same attributes, same order), but with the key opened once per SealingKey
 * (P12Signer decrypts the PKCS#12 again for every signature) and the RSA operation in node:crypto.
 */
class OpenedP12Signer extends P12Signer {
  constructor(private readonly sealingKey: SealingKey) {
    super(sealingKey.p12, { passphrase: sealingKey.passphrase })
  }

  override async sign(pdf: Buffer, signingTime?: Date): Promise<Buffer> {
    const { signingKey, certificate, chain } = openSealingKey(this.sealingKey)
    const p7 = forge.pkcs7.createSignedData()
    p7.content = forge.util.createBuffer(pdf.toString('binary'))
    for (const cert of chain) p7.addCertificate(cert)
    p7.addSigner({
      key: nativeRsa(signingKey),
      certificate,
      digestAlgorithm: forge.pki.oids.sha256!,
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType!, value: forge.pki.oids.data },
        { type: forge.pki.oids.signingTime!, value: (signingTime ?? new Date()) as unknown as string },
        { type: forge.pki.oids.messageDigest! }, // filled in by sign()
      ],
    })
    p7.sign({ detached: true })
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary')
  }
}

/**
 * What forge's PKCS#7 signer calls on its key: `sign(md)`, an RSASSA-PKCS1-v1_5 signature of the
 * digest. Done natively it costs about a millisecond, in forge's JavaScript some 30 to 60 ms.
 */
function nativeRsa(key: KeyObject): forge.pki.rsa.PrivateKey {
  const { asn1 } = forge
  const sign = (md: forge.md.MessageDigest) => {
    // EMSA-PKCS1-v1_5 encodes the digest as a DigestInfo; OpenSSL adds the type-1 padding.
    const digestInfo = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(forge.pki.oids[md.algorithm]!).getBytes()),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
      ]),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, md.digest().getBytes()),
    ])
    const encoded = Buffer.from(asn1.toDer(digestInfo).getBytes(), 'binary')
    return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, encoded).toString('binary')
  }
  return { sign } as unknown as forge.pki.rsa.PrivateKey
}
