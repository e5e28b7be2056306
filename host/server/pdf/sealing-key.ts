import { createPrivateKey, generateKeyPair, randomBytes, type KeyObject } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import forge from 'node-forge'
import type { Queryable } from '../db/index.js'

/** The certificate and key that seal completed documents, as a PKCS#12 and its passphrase. */
export interface SealingKey {
  p12: Buffer
  passphrase: string
  certificatePem: string
  /** Generated on first start and kept in the database, or read from SEALING_P12_FILE. */
  source: 'database' | 'file'
}

/** The PKCS#12 opened once: decrypting it takes a PBKDF and a cipher, too slow to repeat per seal. */
export interface OpenedSealingKey {
  /** The private key, for node:crypto (which signs natively). */
  signingKey: KeyObject
  certificate: forge.pki.Certificate
  /** Every certificate of the file (the signer's first), embedded in each signature. */
  chain: forge.pki.Certificate[]
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
  const key: SealingKey = { p12, passphrase, certificatePem: forge.pki.certificateToPem(parsed.certificate), source }
  opened.set(key, parsed)
  return key
}

/** The key and certificates inside the PKCS#12, opened once per SealingKey object. */
export function openSealingKey(key: SealingKey): OpenedSealingKey {
  let parsed = opened.get(key)
  if (!parsed) {
    parsed = openP12(key.p12, key.passphrase)
    opened.set(key, parsed)
  }
  return parsed
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
  return {
    signingKey: createPrivateKey(forge.pki.privateKeyToPem(privateKey)),
    certificate,
    chain: [certificate, ...certificates.filter((c) => c !== certificate)],
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
