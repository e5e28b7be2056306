/**
 * DER building and reading on node-forge's ASN.1 codec (the project's one ASN.1 library): small
 * constructors so the CMS, RFC 3161 and ESS structures read like their ASN.1 definitions.
 */
import forge from 'node-forge'

const { asn1 } = forge
export type Asn1 = forge.asn1.Asn1

const U = asn1.Class.UNIVERSAL
const T = asn1.Type

export const seq = (...items: Asn1[]): Asn1 => asn1.create(U, T.SEQUENCE, true, items)
export const set = (...items: Asn1[]): Asn1 => asn1.create(U, T.SET, true, items)
export const oid = (dotted: string): Asn1 => asn1.create(U, T.OID, false, asn1.oidToDer(dotted).getBytes())
export const octets = (bytes: Uint8Array): Asn1 => asn1.create(U, T.OCTETSTRING, false, binary(bytes))
export const nul = (): Asn1 => asn1.create(U, T.NULL, false, '')
export const bool = (value: boolean): Asn1 => asn1.create(U, T.BOOLEAN, false, value ? '\xff' : '\x00')
export const generalizedTime = (date: Date): Asn1 => asn1.create(U, T.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(date))
export const utcTime = (date: Date): Asn1 => asn1.create(U, T.UTCTIME, false, asn1.dateToUtcTime(date))
/** A non-negative INTEGER from its big-endian bytes (a leading zero added when the top bit is set). */
export const uint = (bytes: Uint8Array): Asn1 => {
  let b = Buffer.from(bytes)
  let i = 0
  while (i < b.length - 1 && b[i] === 0 && b[i + 1]! < 0x80) i++
  b = b.subarray(i)
  if (b.length === 0) b = Buffer.from([0])
  if (b[0]! >= 0x80) b = Buffer.concat([Buffer.from([0]), b])
  return asn1.create(U, T.INTEGER, false, binary(b))
}
export const int = (n: number): Asn1 => {
  const hex = n.toString(16)
  return uint(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'))
}
/** [n] EXPLICIT, or IMPLICIT (the tag replaces the inner one) when `implicit` is set. */
export const tagged = (n: number, inner: Asn1 | Asn1[], implicit = false): Asn1 =>
  implicit && !Array.isArray(inner)
    ? asn1.create(asn1.Class.CONTEXT_SPECIFIC, n, inner.constructed, inner.value)
    : asn1.create(asn1.Class.CONTEXT_SPECIFIC, n, true, Array.isArray(inner) ? inner : [inner])
export const algorithm = (dotted: string, params: Asn1 | null = nul()): Asn1 => (params ? seq(oid(dotted), params) : seq(oid(dotted)))

export const toDer = (node: Asn1): Buffer => Buffer.from(asn1.toDer(node).getBytes(), 'binary')
// forge 1.x takes an options object; its typings know only the older boolean.
const fromDerWith = asn1.fromDer as unknown as (bytes: forge.util.ByteStringBuffer, options: { parseAllBytes: boolean; strict?: boolean }) => Asn1
/** Parses one DER value; bytes after it (the zero padding of a signature's /Contents) are ignored. */
export const fromDer = (bytes: Uint8Array): Asn1 => fromDerWith(forge.util.createBuffer(binary(bytes)), { parseAllBytes: false })

export const binary = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('binary')
export const bytesOf = (node: Asn1): Buffer => Buffer.from(node.value as string, 'binary')
export const childrenOf = (node: Asn1 | undefined): Asn1[] => (Array.isArray(node?.value) ? node.value : [])
export const oidOf = (node: Asn1 | undefined): string | undefined =>
  node && node.type === T.OID && node.tagClass === U ? asn1.derToOid(node.value as string) : undefined
export const isContext = (node: Asn1 | undefined, n: number): node is Asn1 => node?.tagClass === asn1.Class.CONTEXT_SPECIFIC && node.type === n
export const timeOf = (node: Asn1 | undefined): Date | undefined => {
  if (!node || typeof node.value !== 'string') return undefined
  if (node.type === T.GENERALIZEDTIME) return asn1.generalizedTimeToDate(node.value)
  if (node.type === T.UTCTIME) return asn1.utcTimeToDate(node.value)
  return undefined
}

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const
