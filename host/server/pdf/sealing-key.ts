import { createPrivateKey, generateKeyPair, randomBytes, X509Certificate, type KeyObject } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import forge from 'node-forge'
import type { Queryable } from '../db/index.js'

/**
 * The certificate and key that seal completed documents: a PKCS#12 and its passphrase, or a PEM
 * private key and PEM certificates. Plain data, so it can be handed to a worker thread.
 */
export type SealingKey = {
  certificatePem: string
  /**
   * `database`: generated on the first start and kept in the settings table (a self-signed
   * demonstration seal); `file`: SEALING_P12_FILE; `pem`: SEALING_CERT_FILE and SEALING_KEY_FILE.
   */
  source: 'database' | 'file' | 'pem'
} & ({ p12: Buffer; passphrase: string } | { privateKeyPem: string; passphrase: string; chainPem: string })

/** The key opened once: decrypting a PKCS#12 takes a PBKDF and a cipher, too slow to repeat per seal. */
export interface OpenedSealingKey {
  /** The private key, for node:crypto (which signs natively). */
  signingKey: KeyObject
  /** Every certificate (DER), the signer's first, embedded in each signature. */
  certificates: Buffer[]
}

const opened = new WeakMap<SealingKey, OpenedSealingKey>()

const SETTING = 'sealing_p12'
// The generated PKCS#12 sits in the database beside anything that could hold its password, so a
// password would protect nothing; it is encrypted with the empty one only because PKCS#12 readers
// (P12Signer among them) expect a shrouded key bag.
const DATABASE_PASSPHRASE = ''

/**
 * The host's sealing key: from SEALING_P12_FILE (+ SEALING_P12_PASSWORD) when set, otherwise the
 * one in the `settings` table, created on the first start (RSA-2048, self-signed, 10 years).
 * Processes sharing one database agree on one key: the first insert wins and all read it back.
 */
export async function loadSealingKey(db: Queryable, env: NodeJS.ProcessEnv = process.env): Promise<SealingKey> {
  if (env.SEALING_CERT_FILE || env.SEALING_KEY_FILE) return loadPem(env)
  const file = env.SEALING_P12_FILE
  if (file) return loadFromFile(file, env.SEALING_P12_PASSWORD ?? '')
  if (env.SEALING_P12_PASSWORD) throw new Error('SEALING_P12_PASSWORD is set but SEALING_P12_FILE is not: give the file too, or unset both')

  const read = async () =>
    (await db.query<{ value: string }>(`select value from settings where key = $1`, [SETTING]))[0]?.value
  let stored = await read()
  if (stored === undefined) {
    await db.query(`insert into settings (key, value) values ($1, $2) on conflict (key) do nothing`, [
      SETTING,
      (await generateP12()).toString('base64'),
    ])
    stored = await read()
    if (stored === undefined) throw new Error('the sealing key could not be stored in the settings table')
  }
  const p12 = Buffer.from(stored, 'base64')
  return keyFrom(p12, DATABASE_PASSPHRASE, 'database', (why) => new Error(`the sealing key in the settings table (${SETTING}) is unusable: ${why}`))
}

async function loadFromFile(file: string, passphrase: string): Promise<SealingKey> {
  let p12: Buffer
  try {
    p12 = await readFile(file)
  } catch (err) {
    throw new Error(`SEALING_P12_FILE ${file} cannot be read: ${(err as Error).message}`)
  }
  return keyFrom(p12, passphrase, 'file', (why) => new Error(`SEALING_P12_FILE ${file} cannot be used: ${why}`))
}

function keyFrom(p12: Buffer, passphrase: string, source: SealingKey['source'], fail: (why: string) => Error): SealingKey {
  let parsed: OpenedSealingKey
  try {
    parsed = openP12(p12, passphrase)
  } catch (err) {
    const message = (err as Error).message
    throw fail(/MAC could not be verified|Invalid password/i.test(message) ? 'wrong password (SEALING_P12_PASSWORD)' : message)
  }
  const key: SealingKey = { p12, passphrase, certificatePem: new X509Certificate(parsed.certificates[0]!).toString(), source }
  opened.set(key, parsed)
  return key
}

/**
 * SEALING_CERT_FILE (PEM: the sealing certificate, then its chain) and SEALING_KEY_FILE (a PEM
 * private key, PKCS#8 or PKCS#1, RSA or EC; encrypted ones take SEALING_KEY_PASSWORD).
 */
async function loadPem(env: NodeJS.ProcessEnv): Promise<SealingKey> {
  const read = async (name: 'SEALING_CERT_FILE' | 'SEALING_KEY_FILE') => {
    const file = env[name]
    if (!file) throw new Error(`${name} is not set: SEALING_CERT_FILE and SEALING_KEY_FILE go together`)
    try {
      return await readFile(file, 'utf8')
    } catch (err) {
      throw new Error(`${name} ${file} cannot be read: ${(err as Error).message}`)
    }
  }
  const key = { chainPem: await read('SEALING_CERT_FILE'), privateKeyPem: await read('SEALING_KEY_FILE'), passphrase: env.SEALING_KEY_PASSWORD ?? '' }
  let parsed: OpenedSealingKey
  try {
    parsed = openPem(key.privateKeyPem, key.passphrase, key.chainPem)
  } catch (err) {
    throw new Error(`SEALING_CERT_FILE/SEALING_KEY_FILE cannot be used: ${(err as Error).message}`)
  }
  const sealingKey: SealingKey = { ...key, certificatePem: new X509Certificate(parsed.certificates[0]!).toString(), source: 'pem' }
  opened.set(sealingKey, parsed)
  return sealingKey
}

/**
 * The SHA-256 fingerprints (as X509Certificate.fingerprint256) of the certificates this host seals
 * with or has sealed with: the current one, and the one it generated for itself (kept in the
 * settings table) when it has since been given another. A seal is this service's when its
 * certificate is one of these, whatever names it carries.
 */
export async function sealingFingerprints(db: Queryable, key: SealingKey): Promise<string[]> {
  const fingerprints = [new X509Certificate(key.certificatePem).fingerprint256]
  if (key.source === 'database') return fingerprints
  const stored = (await db.query<{ value: string }>(`select value from settings where key = $1`, [SETTING]))[0]?.value
  if (stored === undefined) return fingerprints
  try {
    const [generated] = openP12(Buffer.from(stored, 'base64'), DATABASE_PASSPHRASE).certificates
    if (generated) fingerprints.push(new X509Certificate(generated).fingerprint256)
  } catch {
    // An unreadable earlier key seals nothing any more; only the current one is recognised.
  }
  return fingerprints
}

/** The key and certificates, opened once per SealingKey object. */
export function openSealingKey(key: SealingKey): OpenedSealingKey {
  let parsed = opened.get(key)
  if (!parsed) {
    parsed = 'p12' in key ? openP12(key.p12, key.passphrase) : openPem(key.privateKeyPem, key.passphrase, key.chainPem)
    opened.set(key, parsed)
  }
  return parsed
}

function openPem(privateKeyPem: string, passphrase: string, chainPem: string): OpenedSealingKey {
  let signingKey: KeyObject
  try {
    signingKey = createPrivateKey({ key: privateKeyPem, format: 'pem', passphrase })
  } catch (err) {
    throw new Error(`the private key cannot be read (${(err as Error).message}); is SEALING_KEY_PASSWORD right?`)
  }
  const blocks = chainPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  const certificates = blocks.map((pem) => new X509Certificate(pem))
  // The sealing certificate is the one for the private key, wherever it stands in the file.
  const own = certificates.find((c) => c.checkPrivateKey(signingKey))
  if (!own) throw new Error(certificates.length ? 'no certificate in the file is for the private key' : 'the certificate file holds no PEM certificate')
  return { signingKey, certificates: [own, ...certificates.filter((c) => c !== own)].map((c) => c.raw) }
}

function openP12(p12: Buffer, passphrase: string): OpenedSealingKey {
  let der: forge.asn1.Asn1
  try {
    der = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')))
  } catch {
    throw new Error('not a PKCS#12 (.p12/.pfx) file')
  }
  const pfx = forge.pkcs12.pkcs12FromAsn1(der, false, passphrase)
  const bagsOf = (bagType: string) => pfx.getBags({ bagType })[bagType] ?? []
  const keys = [...bagsOf(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bagsOf(forge.pki.oids.keyBag!)]
  const privateKey = keys.find((b) => b.key)?.key
  if (!privateKey) throw new Error('it holds no RSA private key (only RSA keys are supported)')
  const certificates = bagsOf(forge.pki.oids.certBag!).flatMap((b) => (b.cert ? [b.cert] : []))
  const matches = (c: forge.pki.Certificate) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey
    return pub.n?.equals(privateKey.n) && pub.e?.equals(privateKey.e)
  }
  const certificate = certificates.find(matches)
  if (!certificate) throw new Error('it holds no certificate for its private key')
  const toDer = (c: forge.pki.Certificate) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes(), 'binary')
  return {
    signingKey: createPrivateKey(forge.pki.privateKeyToPem(privateKey)),
    certificates: [certificate, ...certificates.filter((c) => c !== certificate)].map(toDer),
  }
}

/**
 * A fresh RSA-2048 key in a self-signed certificate, as a PKCS#12. node:crypto makes the key
 * (natively, off the event loop: a few hundred ms), node-forge the certificate and the PKCS#12.
 */
export async function generateP12(commonName = 'envelope-embed host seal', passphrase = DATABASE_PASSPHRASE): Promise<Buffer> {
  const pair = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  })
  const privateKey = forge.pki.privateKeyFromPem(pair.privateKey)
  const cert = forge.pki.createCertificate()
  cert.publicKey = forge.pki.publicKeyFromPem(pair.publicKey)
  // Positive and without a leading zero byte, so it stays a minimal DER INTEGER.
  const serial = randomBytes(16)
  serial[0] = (serial[0]! & 0x7f) | 0x40
  cert.serialNumber = serial.toString('hex')
  const notBefore = new Date(Date.now() - 60_000) // a minute back, for clocks slightly behind
  const notAfter = new Date(notBefore)
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + 10)
  cert.validity.notBefore = notBefore
  cert.validity.notAfter = notAfter
  const name = [{ name: 'commonName', value: commonName }]
  cert.setSubject(name)
  cert.setIssuer(name)
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ])
  cert.sign(privateKey, forge.md.sha256.create())
  const asn1 = forge.pkcs12.toPkcs12Asn1(privateKey, cert, passphrase, { algorithm: 'aes256', friendlyName: commonName })
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary')
}
