/**
 * CMS SignedData (RFC 5652), built and read: one signer, SHA-256, the certificates embedded. The
 * PDF seal (pades.ts) and the timestamp tokens (tsa.ts) are both made of it.
 */
import { createHash } from 'node:crypto'
import {
  algorithm,
  bytesOf,
  childrenOf,
  fromDer,
  int,
  isContext,
  octets,
  OID,
  oid,
  oidOf,
  seq,
  set,
  tagged,
  toDer,
  type Asn1,
} from './der.js'
import type { Signer } from './signer.js'

export const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest()

export const attribute = (type: string, ...values: Asn1[]): Asn1 => seq(oid(type), set(...values))

/**
 * A DER SET OF: its elements in the order of their encodings. Verifiers (OpenSSL among them)
 * re-encode the signed attributes before checking the signature, so any other order breaks it.
 */
export function sortedSet(items: Asn1[]): Asn1 {
  const encoded = items.map((item) => ({ item, der: toDer(item) }))
  encoded.sort((a, b) => Buffer.compare(a.der, b.der))
  return set(...encoded.map((e) => e.item))
}

/** The issuer Name and the serialNumber INTEGER of a DER certificate, as parsed nodes. */
export function issuerAndSerial(certificate: Buffer): { issuer: Asn1; serial: Asn1 } {
  const tbs = childrenOf(childrenOf(fromDer(certificate))[0])
  const at = isContext(tbs[0], 0) ? 1 : 0 // v1 certificates have no [0] version
  return { serial: tbs[at]!, issuer: tbs[at + 2]! }
}

export interface SignedDataInput {
  signer: Signer
  /** What is signed: `id-data` for a detached PDF signature, `id-ct-TSTInfo` for a timestamp token. */
  contentType: string
  /** The SHA-256 of the content (for a PDF, of the bytes the ByteRange covers). */
  digest: Buffer
  /** Encapsulated content; absent for a detached signature. */
  content?: Buffer
  /** Signed attributes besides contentType and messageDigest. */
  attributes?: Asn1[]
  /** Unsigned attributes, made from the signature value (a signature timestamp is over it). */
  unsigned?: (signature: Buffer) => Promise<Asn1[]>
}

/** A ContentInfo holding a SignedData with one SignerInfo, DER-encoded. */
export async function buildSignedData(input: SignedDataInput): Promise<Buffer> {
  const certificates = await input.signer.certificates()
  const own = certificates[0]
  if (!own) throw new Error('the signer has no certificate')
  const { issuer, serial } = issuerAndSerial(own)
  const signedAttributes = sortedSet([
    attribute(OID.contentType, oid(input.contentType)),
    attribute(OID.messageDigest, octets(input.digest)),
    ...(input.attributes ?? []),
  ])
  const signature = await input.signer.sign(toDer(signedAttributes))
  const signatureAlgorithm = await input.signer.signatureAlgorithm()
  const unsigned = input.unsigned ? await input.unsigned(signature) : []
  const signerInfo = seq(
    int(1),
    seq(issuer, serial),
    algorithm(OID.sha256),
    tagged(0, signedAttributes, true),
    // RSA algorithms carry NULL parameters, ECDSA ones none (RFC 5754).
    algorithm(signatureAlgorithm, signatureAlgorithm === OID.ecdsaWithSha256 ? null : undefined),
    octets(signature),
    ...(unsigned.length ? [tagged(1, set(...unsigned), true)] : []),
  )
  const encapsulated = seq(oid(input.contentType), ...(input.content ? [tagged(0, octets(input.content))] : []))
  const signedData = seq(
    int(input.contentType === OID.data ? 1 : 3),
    set(algorithm(OID.sha256)),
    encapsulated,
    tagged(0, certificates.map((c) => fromDer(c))),
    set(signerInfo),
  )
  return toDer(seq(oid(OID.signedData), tagged(0, signedData)))
}

/** What a reader needs of a SignedData: its content, certificates and its (first) signer. */
export interface ParsedSignedData {
  contentType: string | undefined
  content: Buffer | undefined
  certificates: Buffer[]
  signer: {
    /** The issuer and serial number that name the signing certificate. */
    sid: Asn1 | undefined
    digestAlgorithm: string | undefined
    /** The signed attributes re-tagged as the SET that was signed; undefined when there are none. */
    signedAttributes: Buffer | undefined
    attributes: Map<string, Asn1[]>
    signatureAlgorithm: string | undefined
    signature: Buffer
    unsignedAttributes: Map<string, Asn1[]>
  }
}

/** Reads a DER ContentInfo(SignedData); throws on anything else. */
export function parseSignedData(der: Uint8Array): ParsedSignedData {
  const info = childrenOf(fromDer(der))
  if (oidOf(info[0]) !== OID.signedData) throw new Error('not a CMS SignedData')
  const parts = childrenOf(childrenOf(info[1])[0])
  const encapsulated = childrenOf(parts[2])
  const contentNode = childrenOf(encapsulated[1])[0]
  const certificates: Buffer[] = []
  let at = 3
  if (isContext(parts[at], 0)) certificates.push(...childrenOf(parts[at++]).map((c) => toDer(c)))
  if (isContext(parts[at], 1)) at++ // CRLs
  const signerInfo = childrenOf(childrenOf(parts[at])[0])
  if (!signerInfo.length) throw new Error('the SignedData has no signer')
  let i = 3
  let signedAttributes: Buffer | undefined
  let attributes = new Map<string, Asn1[]>()
  if (isContext(signerInfo[i], 0)) {
    const node = signerInfo[i++]!
    signedAttributes = toDer(set(...childrenOf(node)))
    attributes = attributeMap(node)
  }
  const signatureAlgorithm = oidOf(childrenOf(signerInfo[i++])[0])
  const signature = bytesOf(signerInfo[i++]!)
  const unsignedAttributes = isContext(signerInfo[i], 1) ? attributeMap(signerInfo[i]!) : new Map<string, Asn1[]>()
  return {
    contentType: oidOf(encapsulated[0]),
    content: contentNode ? contentBytes(contentNode) : undefined,
    certificates,
    signer: {
      sid: signerInfo[1],
      digestAlgorithm: oidOf(childrenOf(signerInfo[2])[0]),
      signedAttributes,
      attributes,
      signatureAlgorithm,
      signature,
      unsignedAttributes,
    },
  }
}

/** An OCTET STRING's bytes, also when a BER encoder split it into constructed parts. */
function contentBytes(node: Asn1): Buffer {
  return Array.isArray(node.value) ? Buffer.concat(node.value.map(contentBytes)) : bytesOf(node)
}

function attributeMap(node: Asn1): Map<string, Asn1[]> {
  const map = new Map<string, Asn1[]>()
  for (const attr of childrenOf(node)) {
    const [type, values] = childrenOf(attr)
    const name = oidOf(type)
    if (name) map.set(name, childrenOf(values))
  }
  return map
}
