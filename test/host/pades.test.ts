/**
 * PAdES seals made by sealEnvelope with a CA-issued key and a timestamp server, checked here and by
 * outside tools; how the sealing key is loaded.
 * Database: the embedded one, opened directly (it holds the generated sealing key).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDb, type Db } from '../../host/server/db/index.js'
import { parseSignedData, sha256 } from '../../host/server/pdf/cms.js'
import { OID, toDer } from '../../host/server/pdf/der.js'
import { sealEnvelope, type SealInput, type SealOptions } from '../../host/server/pdf/seal.js'
import { loadSealingKey, type SealingKey } from '../../host/server/pdf/sealing-key.js'
import { readTimestampToken } from '../../host/server/pdf/tsa.js'
import { addPageIncrementally } from '../support/incremental.js'
import { extractSignature, hasTool, opensslCmsVerify, opensslTsVerify, pdfsig } from '../support/outside-checks.js'
import { verifyPdfSignature } from '../support/pdf-signature.js'
import { makeTestCa, type TestCa } from '../support/test-pki.js'
import { startTsa, type TsaServer } from '../support/tsa-server.js'
import { makePdf } from './support.js'

const HAS_PDFSIG = hasTool('pdfsig')
const HAS_OPENSSL = hasTool('openssl')

let dir: string
let db: Db
let ca: TestCa
let tsaCa: TestCa
let key: SealingKey
let tsa: TsaServer
let refusing: TsaServer

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pades-test-'))
  db = await openDb({ dataDir: path.join(dir, 'data') })
  ca = makeTestCa('envelope-embed test root')
  tsaCa = makeTestCa('envelope-embed test timestamp root')
  const seal = ca.issue('envelope-embed test seal', 'seal')
  await writeFile(path.join(dir, 'seal.pem'), seal.chainPem)
  await writeFile(path.join(dir, 'seal.key'), seal.privateKeyPem)
  key = await loadSealingKey(db, { SEALING_CERT_FILE: path.join(dir, 'seal.pem'), SEALING_KEY_FILE: path.join(dir, 'seal.key') })
  tsa = await startTsa(tsaCa.issue('envelope-embed test TSA', 'timestamping'))
  refusing = await startTsa(tsaCa.issue('envelope-embed refusing TSA', 'timestamping'), { refuse: true })
}, 60_000)

afterAll(async () => {
  await tsa?.close()
  await refusing?.close()
  await db?.close()
  await rm(dir, { recursive: true, force: true })
})

async function sealOne(options: SealOptions, sealingKey = key): Promise<Uint8Array> {
  const input: SealInput = {
    envelope: { id: 'envelope_pades', title: 'Kaufvertrag', completedAt: '2026-11-23T18:55:53.798Z' },
    items: [{ id: 'item_1', title: 'Kaufvertrag', pdf: await makePdf(2) }],
    fields: [],
    recipients: [],
  }
  return (await sealEnvelope(input, sealingKey, options))[0]!.pdf
}

describe('PAdES seals', () => {
  it('seals as ETSI.CAdES.detached with signing-certificate-v2 and no signing-time (B-B)', async () => {
    const pdf = await sealOne({})
    expect(Buffer.from(pdf).toString('latin1')).toContain('/SubFilter /ETSI.CAdES.detached')
    const check = verifyPdfSignature(pdf)
    expect(check).toMatchObject({ digestOk: true, signatureOk: true, coversWholeFileExceptContents: true })
    const { cms } = extractSignature(pdf)
    const signed = parseSignedData(cms)
    expect(signed.signer.attributes.has(OID.signingCertificateV2)).toBe(true)
    expect(signed.signer.attributes.has(OID.signingTime)).toBe(false)
    expect(signed.signer.unsignedAttributes.size).toBe(0)
    // The chain travels with the seal: the sealing certificate and the root.
    expect(signed.certificates).toHaveLength(2)
  })

  it.skipIf(!HAS_PDFSIG)('pdfsig: ETSI.CAdES.detached, valid, the total document signed', async () => {
    const report = pdfsig(await sealOne({}))
    expect(report).toContain('Signature Type: ETSI.CAdES.detached')
    expect(report).toContain('Signature Validation: Signature is Valid.')
    expect(report).toContain('Total document signed')
  })

  it.skipIf(!HAS_OPENSSL)('openssl cms -verify accepts the CMS against the test CA', async () => {
    const { cms, covered } = extractSignature(await sealOne({}))
    expect(opensslCmsVerify(cms, covered, ca.certificatePem)).toBeDefined()
    // And refuses it against another root.
    expect(() => opensslCmsVerify(cms, covered, tsaCa.certificatePem)).toThrow()
  })

  it('adds an RFC 3161 signature timestamp over the signature value (B-T)', async () => {
    const before = tsa.count()
    const pdf = await sealOne({ tsaUrls: [tsa.url] })
    expect(tsa.count()).toBe(before + 1)
    const { cms, covered } = extractSignature(pdf)
    const signed = parseSignedData(cms)
    const [token] = signed.signer.unsignedAttributes.get(OID.signatureTimeStampToken) ?? []
    expect(token).toBeDefined()
    const info = readTimestampToken(toDer(token!))
    expect(info.digest.equals(sha256(signed.signer.signature))).toBe(true)
    expect(Math.abs(info.time.getTime() - Date.now())).toBeLessThan(60_000)
    expect(verifyPdfSignature(pdf)).toMatchObject({ digestOk: true, signatureOk: true })
    if (HAS_OPENSSL) {
      expect(opensslTsVerify(toDer(token!), sha256(signed.signer.signature), tsaCa.certificatePem)).toContain('Verification: OK')
      opensslCmsVerify(cms, covered, ca.certificatePem)
    }
    if (HAS_PDFSIG) {
      const report = pdfsig(pdf)
      expect(report).toContain('Signature Type: ETSI.CAdES.detached')
      expect(report).toContain('Signature is Valid.')
      expect(report).toContain('Total document signed')
    }
  })

  it('tries the timestamp servers in order and fails the seal when none answers', async () => {
    const before = tsa.count()
    const pdf = await sealOne({ tsaUrls: [refusing.url, 'http://127.0.0.1:9/closed', tsa.url] })
    expect(tsa.count()).toBe(before + 1)
    expect(parseSignedData(extractSignature(pdf).cms).signer.unsignedAttributes.has(OID.signatureTimeStampToken)).toBe(true)
    await expect(sealOne({ tsaUrls: [refusing.url, 'http://127.0.0.1:9/closed'], tsaTimeoutMs: 2000 })).rejects.toThrow(
      /no timestamp server gave a token.*PKIStatus 2/,
    )
  })

  it('keeps the legacy adbe.pkcs7.detached form as a setting', async () => {
    const pdf = await sealOne({ subFilter: 'adbe.pkcs7.detached' })
    expect(Buffer.from(pdf).toString('latin1')).toContain('/SubFilter /adbe.pkcs7.detached')
    const signed = parseSignedData(extractSignature(pdf).cms)
    expect(signed.signer.attributes.has(OID.signingTime)).toBe(true)
    expect(verifyPdfSignature(pdf)).toMatchObject({ digestOk: true, signatureOk: true })
    if (HAS_PDFSIG) expect(pdfsig(pdf)).toContain('Signature Type: adbe.pkcs7.detached')
  })

  it('seals with the generated demonstration key and with a PKCS#12 file alike', async () => {
    const generated = await loadSealingKey(db, {})
    expect(generated.source).toBe('database')
    const pdf = await sealOne({}, generated)
    expect(verifyPdfSignature(pdf)).toMatchObject({ digestOk: true, signatureOk: true })
    if (HAS_PDFSIG) expect(pdfsig(pdf)).toContain('Signature is Valid.')
  })

  it.skipIf(!HAS_PDFSIG)('pdfsig reports a copy with one byte changed, or with a page added after sealing, as changed', async () => {
    const pdf = await sealOne({})
    const tampered = Buffer.from(pdf)
    const at = tampered.indexOf('/MediaBox')
    tampered[at + 12] = tampered[at + 12] === 0x31 ? 0x32 : 0x31
    expect(pdfsig(tampered)).not.toContain('Signature is Valid.')

    const grown = await addPageIncrementally(pdf)
    expect(pdfsig(grown)).toContain('Signature is Valid.')
    expect(pdfsig(grown)).not.toContain('Total document signed')
  })

  it('refuses unusable PEM settings with the variable to fix', async () => {
    await expect(loadSealingKey(db, { SEALING_CERT_FILE: path.join(dir, 'seal.pem') })).rejects.toThrow(/SEALING_KEY_FILE is not set/)
    await expect(loadSealingKey(db, { SEALING_CERT_FILE: path.join(dir, 'seal.key'), SEALING_KEY_FILE: path.join(dir, 'seal.key') })).rejects.toThrow(
      /holds no PEM certificate/,
    )
    const other = ca.issue('other', 'seal')
    await writeFile(path.join(dir, 'other.key'), other.privateKeyPem)
    await expect(loadSealingKey(db, { SEALING_CERT_FILE: path.join(dir, 'seal.pem'), SEALING_KEY_FILE: path.join(dir, 'other.key') })).rejects.toThrow(
      /no certificate in the file is for the private key/,
    )
  })
})
