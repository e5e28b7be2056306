import { createHash, verify } from 'node:crypto'
import forge from 'node-forge'

// forge 1.x takes an options object here; its typings know only the older boolean.
const fromDer = forge.asn1.fromDer as unknown as (bytes: forge.util.ByteStringBuffer, options: { parseAllBytes: boolean }) => forge.asn1.Asn1

export interface PdfSignatureCheck {
  signed: true
  byteRange: number[]
  signerCertificatePem: string
  /** The PKCS#7 messageDigest attribute equals the SHA-256 of the bytes the ByteRange covers. */
  digestOk: boolean
  /** The RSA signature over the authenticated attributes verifies with the signer's public key. */
  signatureOk: boolean
  /** The ByteRange starts at 0, skips exactly the /Contents hex string and runs to the file's end. */
  coversWholeFileExceptContents: boolean
}

/**
 * Checks the (last) signature of a PDF the way a reader does, independently of the code that made
 * it: throws when the file carries no signature at all.
 */
export function verifyPdfSignature(pdf: Uint8Array): PdfSignatureCheck {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
  const text = bytes.toString('latin1')
  const match = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].at(-1)
  if (!match) throw new Error('the PDF has no /ByteRange: it is not signed')
  const byteRange = match.slice(1, 5).map(Number)
  const [start, length1, start2, length2] = byteRange as [number, number, number, number]

  const hole = text.slice(start + length1, start2)
  const hex = /^<([0-9a-fA-F]*)>$/.exec(hole)?.[1]
  if (hex === undefined) throw new Error('the bytes the ByteRange leaves out are not the /Contents hex string')
  const contentsAt = text.lastIndexOf('/Contents', start + length1)
  const coversWholeFileExceptContents =
    start === 0 && start2 + length2 === bytes.length && contentsAt >= 0 && /^\/Contents\s*$/.test(text.slice(contentsAt, start + length1))

  const covered = Buffer.concat([bytes.subarray(start, start + length1), bytes.subarray(start2, start2 + length2)])
  const digest = createHash('sha256').update(covered).digest()

  // The hex string is zero-padded after the DER; parse only the DER value itself.
  const der = forge.util.createBuffer(Buffer.from(hex, 'hex').toString('binary'))
  const p7 = forge.pkcs7.messageFromAsn1(fromDer(der, { parseAllBytes: false })) as forge.pkcs7.PkcsSignedData & {
    rawCapture: { authenticatedAttributes?: forge.asn1.Asn1[]; signature: string; serial: string; issuer: forge.asn1.Asn1[] }
  }
  const raw = p7.rawCapture
  const signer = p7.certificates.find((c) => c.serialNumber === forge.util.bytesToHex(raw.serial)) ?? p7.certificates[0]
  if (!signer) throw new Error('the signature carries no certificate')
  const signerCertificatePem = forge.pki.certificateToPem(signer)

  const attributes = raw.authenticatedAttributes ?? []
  const messageDigestOid = forge.asn1.oidToDer(forge.pki.oids.messageDigest!).getBytes()
  const messageDigest = attributes
    .map((attr) => attr.value as forge.asn1.Asn1[])
    .find((parts) => parts[0]!.value === messageDigestOid)?.[1]
  const digestValue = ((messageDigest?.value as forge.asn1.Asn1[] | undefined)?.[0]?.value as string | undefined) ?? ''
  const digestOk = Buffer.from(digestValue, 'binary').equals(digest)

  // What was signed is the DER of the attributes as a SET, not as the [0] IMPLICIT they sit in.
  const set = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, attributes)
  const signedAttributes = Buffer.from(forge.asn1.toDer(set).getBytes(), 'binary')
  const signatureOk = verify('sha256', signedAttributes, signerCertificatePem, Buffer.from(raw.signature, 'binary'))

  return { signed: true, byteRange, signerCertificatePem, digestOk, signatureOk, coversWholeFileExceptContents }
}

/** The text of each page, as pdf.js extracts it (what a reader's search and copy would give). */
export async function pdfText(pdf: Uint8Array): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const doc = await pdfjs.getDocument({ data: pdf.slice(), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise
  try {
    const pages: string[] = []
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent()
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''))
    }
    return pages
  } finally {
    await doc.destroy()
  }
}
