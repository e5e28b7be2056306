/**
 * A throwaway PKI for tests and benchmarks: a root CA and the certificates it issues (a sealing
 * certificate, a timestamp authority), as PEM, made in memory (node:crypto keys, forge certificates).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import forge from 'node-forge'

export interface Issued {
  certificatePem: string
  privateKeyPem: string
  /** This certificate, then its issuers up to the root. */
  chainPem: string
}

export interface TestCa extends Issued {
  /** `validDays`: the certificate ends that many days from now (default about five years). */
  issue(commonName: string, use: 'seal' | 'timestamping', options?: { crlUrl?: string; validDays?: number }): Issued
}

const rsa = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } })

const names = (commonName: string) => [
  { name: 'commonName', value: commonName },
  { name: 'organizationName', value: 'envelope-embed tests' },
]

function makeCertificate(subject: string, publicKeyPem: string, issuer: { name: string; keyPem: string }, extensions: object[], validDays = 5 * 365): string {
  const cert = forge.pki.createCertificate()
  cert.publicKey = forge.pki.publicKeyFromPem(publicKeyPem)
  const serial = randomBytes(12)
  serial[0] = (serial[0]! & 0x7f) | 0x40
  cert.serialNumber = serial.toString('hex')
  cert.validity.notBefore = new Date(Date.now() - 3600_000)
  cert.validity.notAfter = new Date(Date.now() + validDays * 24 * 3600_000)
  cert.setSubject(names(subject))
  cert.setIssuer(names(issuer.name))
  cert.setExtensions([{ name: 'subjectKeyIdentifier' }, ...extensions])
  cert.sign(forge.pki.privateKeyFromPem(issuer.keyPem), forge.md.sha256.create())
  return forge.pki.certificateToPem(cert)
}

/** A root CA named `name`. */
export function makeTestCa(name = 'envelope-embed test root'): TestCa {
  const keys = rsa()
  const root = { name, keyPem: keys.privateKey }
  const certificatePem = makeCertificate(name, keys.publicKey, root, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ])
  const rootKeyId = forge.pki.certificateFromPem(certificatePem).generateSubjectKeyIdentifier().getBytes()
  return {
    certificatePem,
    privateKeyPem: keys.privateKey,
    chainPem: certificatePem,
    issue(commonName, use, options = {}) {
      const pair = rsa()
      const pem = makeCertificate(commonName, pair.publicKey, root, [
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'authorityKeyIdentifier', keyIdentifier: rootKeyId },
        use === 'seal'
          ? { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true }
          : { name: 'keyUsage', digitalSignature: true, critical: true },
        // RFC 3161 2.3: a TSA certificate has exactly this one extended key usage, critical.
        ...(use === 'timestamping' ? [{ name: 'extKeyUsage', timeStamping: true, critical: true }] : []),
        ...(options.crlUrl ? [{ name: 'cRLDistributionPoints', altNames: [{ type: 6, value: options.crlUrl }] }] : []),
      ], options.validDays)
      return { certificatePem: pem, privateKeyPem: pair.privateKey, chainPem: pem + certificatePem }
    },
  }
}
