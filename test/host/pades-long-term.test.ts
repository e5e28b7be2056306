/**
 * Long-term signatures (B-LT, B-LTA): validation data and document timestamps appended to sealed PDFs.
 * Database: the embedded one (it only keeps the sealing key).
 */
import { execFileSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from '@cantoo/pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDb, type Db } from '../../host/server/db/index.js'
import { sha256 } from '../../host/server/pdf/cms.js'
import { appendLongTermValidation, appendRevision, bytesOf } from '../../host/server/pdf/long-term.js'
import { sealEnvelope, type SealInput, type SealOptions } from '../../host/server/pdf/seal.js'
import { loadSealingKey, type SealingKey } from '../../host/server/pdf/sealing-key.js'
import { requestTimestamp } from '../../host/server/pdf/tsa.js'
import { verifyPdfSignatures } from '../../host/server/pdf/verify.js'
import { startCrlServer, type CrlServer } from '../support/crl-server.js'
import { addPageIncrementally } from '../support/incremental.js'
import { extractSignature, hasTool, opensslCmsVerify, opensslTsVerify, pdfsig } from '../support/outside-checks.js'
import { makeTestCa, type TestCa } from '../support/test-pki.js'
import { startTsa, type TsaServer } from '../support/tsa-server.js'
import { makePdf } from './support.js'

const HAS_PDFSIG = hasTool('pdfsig')
const HAS_OPENSSL = hasTool('openssl')

let dir: string
let db: Db
let ca: TestCa
let tsaCa: TestCa
let crl: CrlServer
let tsaCrl: CrlServer
let key: SealingKey
let sealSerial: string
let tsa: TsaServer

async function pemKey(name: string, issued: { chainPem: string; privateKeyPem: string }): Promise<SealingKey> {
  await writeFile(path.join(dir, `${name}.pem`), issued.chainPem)
  await writeFile(path.join(dir, `${name}.key`), issued.privateKeyPem)
  return loadSealingKey(db, { SEALING_CERT_FILE: path.join(dir, `${name}.pem`), SEALING_KEY_FILE: path.join(dir, `${name}.key`) })
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pades-lt-test-'))
  db = await openDb({ dataDir: path.join(dir, 'data') })
  ca = makeTestCa('envelope-embed test root')
  tsaCa = makeTestCa('envelope-embed test timestamp root')
  crl = await startCrlServer(ca)
  tsaCrl = await startCrlServer(tsaCa)
  const seal = ca.issue('envelope-embed test seal', 'seal', { crlUrl: crl.url })
  sealSerial = new X509Certificate(seal.certificatePem).serialNumber
  key = await pemKey('seal', seal)
  tsa = await startTsa(tsaCa.issue('envelope-embed test TSA', 'timestamping', { crlUrl: tsaCrl.url }))
}, 60_000)

afterAll(async () => {
  await Promise.all([tsa?.close(), crl?.close(), tsaCrl?.close()])
  await db?.close()
  await rm(dir, { recursive: true, force: true })
})

async function sealOne(options: SealOptions, sealingKey = key): Promise<Uint8Array> {
  const input: SealInput = {
    envelope: { id: 'envelope_lt', title: 'Mietvertrag', completedAt: '2026-11-23T18:55:53.798Z' },
    items: [{ id: 'item_1', title: 'Mietvertrag', pdf: await makePdf(2) }],
    fields: [],
    recipients: [],
  }
  return (await sealEnvelope(input, sealingKey, options))[0]!.pdf
}

/** The DSS dictionary's streams, as DER. */
async function dssOf(pdf: Uint8Array): Promise<{ certs: Buffer[]; crls: Buffer[] }> {
  const doc = await PDFDocument.load(pdf)
  const dss = doc.catalog.lookup(PDFName.of('DSS'), PDFDict)
  const streams = (key: string) =>
    (dss.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? []).map((ref) => Buffer.from((doc.context.lookup(ref) as PDFRawStream).getContents()))
  return { certs: streams('Certs'), crls: streams('CRLs') }
}

describe('long-term validation (B-LT, B-LTA)', () => {
  it('adds the chains and their CRLs in a DSS and a document timestamp over the whole file', async () => {
    const [crls, tsaCrls] = [crl.count(), tsaCrl.count()]
    const pdf = await sealOne({ tsaUrls: [tsa.url] })
    expect(crl.count()).toBe(crls + 1)
    expect(tsaCrl.count()).toBe(tsaCrls + 1)
    const [seal, stamp] = await verifyPdfSignatures(pdf)
    expect(seal).toMatchObject({ kind: 'signature', subFilter: 'ETSI.CAdES.detached', intact: true, coversWholeDocument: false, updatesAfter: 'validation', level: 'B-LTA' })
    expect(seal!.timestamp?.intact).toBe(true)
    expect(stamp).toMatchObject({ kind: 'document-timestamp', subFilter: 'ETSI.RFC3161', intact: true, coversWholeDocument: true, updatesAfter: 'none' })
    expect(stamp!.certificate?.subject).toContain('envelope-embed test TSA')

    const dss = await dssOf(pdf)
    // The seal's certificate and root, the TSA's certificate and root; one CRL per root.
    expect(dss.certs).toHaveLength(4)
    expect(dss.crls).toHaveLength(2)
    if (HAS_OPENSSL) {
      for (const [der, root] of [
        [dss.crls.find((c) => c.includes(Buffer.from('envelope-embed test root')))!, ca],
        [dss.crls.find((c) => c.includes(Buffer.from('timestamp root')))!, tsaCa],
      ] as const) {
        await writeFile(path.join(dir, 'embedded.crl'), der)
        await writeFile(path.join(dir, 'root.pem'), root.certificatePem)
        const out = execFileSync('openssl', ['crl', '-inform', 'DER', '-in', path.join(dir, 'embedded.crl'), '-CAfile', path.join(dir, 'root.pem'), '-noout'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        expect(out).toBe('')
      }
      // The document timestamp is a token over the bytes it covers, from the test TSA.
      const { cms: token, covered } = extractSignature(pdf)
      expect(opensslTsVerify(token, sha256(covered), tsaCa.certificatePem)).toContain('Verification: OK')
    }
  })

  it.skipIf(!HAS_PDFSIG)('pdfsig: the seal valid over its revision, the document timestamp over the total document', async () => {
    const report = pdfsig(await sealOne({ tsaUrls: [tsa.url] }))
    const [first, second] = report.split(/Signature #2/)
    expect(first).toContain('Signature Type: ETSI.CAdES.detached')
    expect(first).toContain('Signature Validation: Signature is Valid.')
    expect(first).not.toContain('Total document signed')
    // Debian's pdfsig (22.12) reads a document timestamp's field and range but cannot validate
    // its type; `openssl ts -verify` checks the token above.
    expect(second).toContain('Signature Field Name: Document timestamp')
    expect(second).toContain('Signer Certificate Common Name: envelope-embed test TSA')
    expect(second).toContain('Total document signed')
  })

  it('the seal\'s CMS still verifies with openssl over the revision it covers', async () => {
    if (!HAS_OPENSSL) return
    const pdf = await sealOne({ tsaUrls: [tsa.url] })
    const end = Buffer.from(pdf).indexOf('%%EOF') + 5
    const { cms, covered } = extractSignature(Buffer.from(pdf).subarray(0, end + 1))
    expect(opensslCmsVerify(cms, covered, ca.certificatePem)).toBeDefined()
  })

  it('reports a page added after the document timestamp, or before a fresh one, as a change to the sealed document', async () => {
    const pdf = await sealOne({ tsaUrls: [tsa.url] })
    const grown = await addPageIncrementally(pdf)
    const after = await verifyPdfSignatures(grown)
    expect(after.map((s) => [s.intact, s.updatesAfter])).toEqual([
      [true, 'changes'],
      [true, 'changes'],
    ])
    if (HAS_PDFSIG) expect(pdfsig(grown)).not.toMatch(/Signature #2[\s\S]*Total document signed/)

    // Someone with a timestamp server of their own stamps the grown file: the seal still says changed.
    const doc = await PDFDocument.load(grown)
    const restamped = await appendLongTermValidation(doc, grown, { certificates: [], crls: [] }, (d) => requestTimestamp(d, [tsa.url]), 16_384)
    const report = await verifyPdfSignatures(restamped)
    expect(report.map((s) => s.updatesAfter)).toEqual(['changes', 'changes', 'none'])
    expect(report.at(-1)).toMatchObject({ kind: 'document-timestamp', intact: true, coversWholeDocument: true })
  })

  it('tells validation updates from changes dressed as one: replaced content, a catalog action, a visible field', async () => {
    const pdf = Buffer.from(await sealOne({ tsaUrls: [tsa.url] }))
    /** One more incremental update, made by `edit` on the file's objects; returns what the seal's report says of it. */
    const update = async (edit: (doc: PDFDocument, put: (ref: PDFRef, object: Parameters<typeof bytesOf>[0]) => void, next: () => PDFRef) => void) => {
      const doc = await PDFDocument.load(pdf, { updateMetadata: false })
      const objects: { ref: PDFRef; body: Buffer }[] = []
      let n = doc.context.largestObjectNumber
      edit(doc, (ref, object) => objects.push({ ref, body: bytesOf(object) }), () => PDFRef.of(++n))
      const [seal] = await verifyPdfSignatures(appendRevision(pdf, objects, doc, n + 1))
      return seal!.updatesAfter
    }
    const signatureField = (doc: PDFDocument, rect: number[], put: (ref: PDFRef, object: Parameters<typeof bytesOf>[0]) => void, next: () => PDFRef) => {
      const ref = next()
      const page = doc.getPage(0)
      put(ref, doc.context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFName.of('Another'), Rect: rect, P: page.ref }))
      const pageDict = page.node.clone(doc.context)
      pageDict.set(PDFName.of('Annots'), doc.context.obj([...(page.node.lookup(PDFName.of('Annots'), PDFArray)?.asArray() ?? []), ref]))
      put(page.ref, pageDict)
    }
    // The honest kind: one more invisible signature field.
    expect(await update((doc, put, next) => signatureField(doc, [0, 0, 0, 0], put, next))).toBe('validation')
    // A visible one can paint over the page.
    expect(await update((doc, put, next) => signatureField(doc, [100, 100, 300, 150], put, next))).toBe('changes')
    // The page's content stream redefined under its own number.
    expect(
      await update((doc, put) => {
        // The certificate page has content of its own.
        const contents = doc.getPages().at(-1)!.node.get(PDFName.of('Contents')) as PDFRef
        const resolved = doc.context.lookup(contents)
        const ref = (resolved instanceof PDFArray ? resolved.get(0) : contents) as PDFRef
        put(ref, doc.context.flateStream('BT /F1 24 Tf 72 700 Td (Pay 1,000,000) Tj ET'))
      }),
    ).toBe('changes')
    // An action on the catalog, next to a new DSS.
    expect(
      await update((doc, put, next) => {
        const catalog = doc.catalog.clone(doc.context)
        const dss = next()
        put(dss, doc.context.obj({ Type: 'DSS' }))
        catalog.set(PDFName.of('DSS'), dss)
        catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'URI', URI: PDFName.of('x') }))
        put(doc.context.trailerInfo.Root as PDFRef, catalog)
      }),
    ).toBe('changes')
  })

  it('fails the sealing when the sealing certificate is revoked, and when its CRL cannot be had', async () => {
    const revokedSeal = ca.issue('revoked seal', 'seal', { crlUrl: crl.url })
    const revokedKey = await pemKey('revoked', revokedSeal)
    crl.revoke(new X509Certificate(revokedSeal.certificatePem).serialNumber)
    await expect(sealOne({ tsaUrls: [tsa.url] }, revokedKey)).rejects.toThrow(/"revoked seal" is revoked/)
    // Others of the same CA still seal.
    expect((await verifyPdfSignatures(await sealOne({ tsaUrls: [tsa.url] })))[0]).toMatchObject({ intact: true, level: 'B-LTA' })
    expect(sealSerial).not.toBe(new X509Certificate(revokedSeal.certificatePem).serialNumber)

    crl.down(true)
    try {
      await expect(sealOne({ tsaUrls: [tsa.url], tsaTimeoutMs: 2000 })).rejects.toThrow(/no CRL could be had for "envelope-embed test seal".*HTTP 503/)
    } finally {
      crl.down(false)
    }
  })

  it('stays B-T when no certificate names a CRL, and B-B without a timestamp server', async () => {
    const plain = await pemKey('plain', ca.issue('plain seal', 'seal'))
    const plainTsa = await startTsa(tsaCa.issue('plain TSA', 'timestamping'))
    try {
      const t = await sealOne({ tsaUrls: [plainTsa.url] }, plain)
      expect(Buffer.from(t).includes('/DSS')).toBe(false)
      expect(await verifyPdfSignatures(t)).toMatchObject([{ level: 'B-T', coversWholeDocument: true, updatesAfter: 'none' }])
    } finally {
      await plainTsa.close()
    }
    const b = await sealOne({})
    expect(Buffer.from(b).includes('/DSS')).toBe(false)
    expect(await verifyPdfSignatures(b)).toMatchObject([{ level: 'B-B' }])
  })
})
