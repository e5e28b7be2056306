/**
 * The one step of sealing that touches the private key. Sealing (pades.ts) builds the CMS around
 * it and asks a Signer only for its certificates and for a signature over the signed attributes,
 * so a key in a file, in an HSM (PKCS#11) or behind a remote signing service (the Cloud Signature
 * Consortium API's `signatures/signHash`, which takes the SHA-256 of those bytes) fits behind this
 * interface without any change to sealing.
 */
import { sign as signNatively, type KeyObject } from 'node:crypto'
import { OID } from './der.js'
import { openSealingKey, type SealingKey } from './sealing-key.js'

export interface Signer {
  /** DER certificates, the signer's own first, then the chain towards its root (embedded in each seal). */
  certificates(): Promise<Buffer[]>
  /** The signature algorithm's OID as SignerInfo names it. */
  signatureAlgorithm(): Promise<string>
  /** A SHA-256 signature over `data` (the DER of the signed attributes). */
  sign(data: Buffer): Promise<Buffer>
}

/** A Signer over a key held in memory: the PKCS#12 file, the PEM pair or the generated default. */
export function localSigner(key: SealingKey): Signer {
  const opened = openSealingKey(key)
  return {
    certificates: async () => opened.certificates,
    signatureAlgorithm: async () => algorithmOf(opened.signingKey),
    sign: async (data) => signNatively('sha256', data, opened.signingKey),
  }
}

function algorithmOf(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return OID.sha256WithRsa
  if (key.asymmetricKeyType === 'ec') return OID.ecdsaWithSha256
  throw new Error(`sealing keys of type ${key.asymmetricKeyType} are not supported (RSA or EC)`)
}
