/**
 * The CMS that goes into a PDF signature's /Contents. PAdES baseline (ETSI EN 319 142-1,
 * SubFilter ETSI.CAdES.detached): contentType, messageDigest and signing-certificate-v2 signed,
 * no signing-time (the signature dictionary's /M carries it), B-B; with timestamp servers an
 * RFC 3161 signature timestamp over the signature value as an unsigned attribute, B-T. The legacy
 * adbe.pkcs7.detached form signs the signing time instead of the certificate reference.
 */
import { attribute, buildSignedData, issuerAndSerial, sha256 } from './cms.js'
import { fromDer, generalizedTime, octets, OID, seq, tagged, utcTime } from './der.js'
import type { SubFilter } from '../config.js'
import type { Signer } from './signer.js'
import { requestTimestamp, type TimestampOptions } from './tsa.js'


export interface PdfSignatureOptions extends TimestampOptions {
  subFilter: SubFilter
  signingTime: Date
  /** RFC 3161 servers, tried in order; none = no signature timestamp. */
  tsaUrls?: readonly string[]
}

/** The DER CMS over `digest`, the SHA-256 of the bytes a PDF signature's ByteRange covers. */
export async function pdfSignatureCms(digest: Buffer, signer: Signer, options: PdfSignatureOptions): Promise<Buffer> {
  const [own] = await signer.certificates()
  if (!own) throw new Error('the signer has no certificate')
  const attributes = options.subFilter === 'ETSI.CAdES.detached' ? [signingCertificateV2(own)] : [attribute(OID.signingTime, time(options.signingTime))]
  const tsaUrls = options.tsaUrls ?? []
  return buildSignedData({
    signer,
    contentType: OID.data,
    digest,
    attributes,
    unsigned: tsaUrls.length
      ? async (signature) => [attribute(OID.signatureTimeStampToken, fromDer(await requestTimestamp(sha256(signature), tsaUrls, options)))]
      : undefined,
  })
}

/**
 * ESS signing-certificate-v2 (RFC 5035): binds the signature to the certificate by its hash, so a
 * different certificate with the same issuer and serial cannot be put in its place. SHA-256 is the
 * default hash algorithm and so is left out.
 */
export function signingCertificateV2(certificate: Buffer) {
  const { issuer, serial } = issuerAndSerial(certificate)
  const issuerSerial = seq(seq(tagged(4, issuer)), serial)
  return attribute(OID.signingCertificateV2, seq(seq(seq(octets(sha256(certificate)), issuerSerial))))
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5652 11.3). */
const time = (date: Date) => (date.getUTCFullYear() < 2050 ? utcTime(date) : generalizedTime(date))

/** Bytes kept for a timestamp token with its authority's chain. */
export const TIMESTAMP_BUDGET = 16_384

/** Bytes of /Contents to reserve: the certificates, a signer info and, with a timestamp, a token with its own chain. */
export function contentsBudget(certificates: Buffer[], timestamped: boolean): number {
  const chain = certificates.reduce((n, c) => n + c.length, 0)
  return chain + 4096 + (timestamped ? TIMESTAMP_BUDGET : 0)
}
