/**
 * POST /api/v2/verify: a sealed file of this service is recognised (title,
 * completion, recipients; nothing else) by its certificate, never by a name; a changed copy is
 * reported as changed, however the change is hidden in the file's revisions; an unknown or
 * unsigned file tells nothing about any document; what does not parse is a 400; and the route's
 * budgets hold.
 * Database: the embedded one (the check reads the PDF and the rows; the SQL is the same on both).
 */
import { spawnSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFParser, PDFRef, PDFString, type PDFObject } from '@cantoo/pdf-lib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { appendLongTermValidation } from '../../host/server/pdf/long-term.js'
import { sealEnvelope } from '../../host/server/pdf/seal.js'
import { requestTimestamp } from '../../host/server/pdf/tsa.js'
import { verifyPdfSignatures } from '../../host/server/pdf/verify.js'
import { generateP12, openSealingKey, type SealingKey } from '../../host/server/pdf/sealing-key.js'
import { addPageIncrementally, hiddenChanges, updateIncrementally, type Put } from '../support/incremental.js'
import { hasTool } from '../support/outside-checks.js'
import { makeTestCa } from '../support/test-pki.js'
import { startTsa } from '../support/tsa-server.js'
import { deeplyNestedPdfs } from './hostile.js'
import { api, completeOneSigner, makePdf, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'

const HAS_PDFTOTEXT = hasTool('pdftotext')

/** The text poppler's pdftotext reads: what a viewer following the cross-reference shows. */
function popplerText(pdf: Uint8Array): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'verify-'))
  try {
    writeFileSync(path.join(dir, 'doc.pdf'), pdf)
    return spawnSync('pdftotext', [path.join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' }).stdout
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The catalog given a DSS dictionary of `entries` (a certificate stream and whatever else the caller adds). */
function addDss(doc: PDFDocument, put: Put, next: () => PDFRef, entries: Record<string, PDFObject> = {}) {
  const cert = next()
  put(cert, doc.context.stream(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01])))
  const dss = next()
  put(dss, doc.context.obj({ Type: 'DSS', Certs: [cert], CRLs: [], ...entries }))
  const catalog = doc.catalog.clone(doc.context)
  catalog.set(PDFName.of('DSS'), dss)
  put(doc.context.trailerInfo.Root as PDFRef, catalog)
}

/** `key` of `dict` (direct or indirect) with `item` added, put where it lives: in `dict` itself (then `dict` is put at `at`), or in its own object. */
function grow(doc: PDFDocument, put: Put, dict: PDFDict, at: PDFRef, key: string, item: PDFRef) {
  const entry = dict.get(PDFName.of(key))
  const items = [...(doc.context.lookupMaybe(entry, PDFArray)?.asArray() ?? []), item]
  if (entry instanceof PDFRef) return put(entry, doc.context.obj(items))
  const copy = dict.clone(doc.context)
  copy.set(PDFName.of(key), doc.context.obj(items))
  put(at, copy)
}

/** The form given `field` (a new object), its own object or the catalog rewritten. */
function addField(doc: PDFDocument, put: Put, field: PDFRef) {
  const root = doc.context.trailerInfo.Root as PDFRef
  const formEntry = doc.catalog.get(PDFName.of('AcroForm'))
  const form = doc.context.lookup(formEntry, PDFDict)
  if (formEntry instanceof PDFRef) return grow(doc, put, form, formEntry, 'Fields', field)
  const catalog = doc.catalog.clone(doc.context)
  const fields = [...(doc.context.lookupMaybe(form.get(PDFName.of('Fields')), PDFArray)?.asArray() ?? []), field]
  const copy = form.clone(doc.context)
  copy.set(PDFName.of('Fields'), doc.context.obj(fields))
  catalog.set(PDFName.of('AcroForm'), copy)
  put(root, catalog)
}

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('POST /verify on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let anyone: Api
  let sealedPdf: Uint8Array
  const clock = drivenClock()

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant, { verifyRateLimit: 12, maxUploadBytes: 2 * 1024 * 1024, clock })
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'tests' })).token}`)
    anyone = api(host.apiUrl)
    const { itemId } = await completeOneSigner(host, client, { title: 'Lease 4B' })
    sealedPdf = (await client.get(`/envelope/item/${itemId}/download`)).body
  })
  afterAll(async () => {
    await host?.stop()
  })

  const check = (bytes: Uint8Array) => anyone.post('/verify', bytes, { 'content-type': 'application/pdf' })

  it.skipIf(skip)('recognises a sealed file: intact, whole, PAdES, and the document it is', async () => {
    const res = await check(sealedPdf)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ valid: true, pageCount: 3 })
    expect(res.body.signatures).toHaveLength(1)
    expect(res.body.signatures[0]).toMatchObject({
      subFilter: 'ETSI.CAdES.detached',
      intact: true,
      coversWholeDocument: true,
      signedAt: expect.any(String),
      certificate: { subject: expect.stringContaining('envelope-embed host seal'), selfSigned: true },
    })
    expect(res.body.document).toEqual({ title: 'Lease 4B', completedAt: expect.any(String), recipients: [{ name: 'Jana', role: 'SIGNER', completedAt: expect.any(String) }] })
    // The same through a form, as curl -F sends it.
    const form = new FormData()
    form.set('file', new Blob([new Uint8Array(sealedPdf)], { type: 'application/pdf' }), 'lease.pdf')
    expect((await anyone.post('/verify', form)).body).toMatchObject({ valid: true })
  })

  it.skipIf(skip)('reports one changed byte and an appended page as changed, and names no document', async () => {
    const bytes = Buffer.from(sealedPdf)
    const at = bytes.indexOf('/MediaBox')
    bytes[at + 12] = bytes[at + 12] === 0x31 ? 0x32 : 0x31
    const changed = (await check(bytes)).body
    expect(changed).toMatchObject({ valid: false, document: null })
    expect(changed.signatures[0]).toMatchObject({ intact: false, problem: expect.stringContaining('changed') })

    const appended = (await check(await addPageIncrementally(sealedPdf))).body
    expect(appended).toMatchObject({ valid: false, document: null, pageCount: 4 })
    expect(appended.signatures[0]).toMatchObject({ intact: true, coversWholeDocument: false, updatesAfter: 'changes' })
  })

  it.skipIf(skip)('tells nothing for an unsigned file, refuses what is not a PDF, too large, or too often', async () => {
    // The driven clock goes on with real time: the test starts at a rate-limit window's start, so
    // no window ends while it counts (a minute's end in the middle once let every check through).
    clock.set(new Date((Math.floor(clock.now().getTime() / 60_000) + 2) * 60_000))
    expect((await check(await makePdf(1))).body).toMatchObject({ valid: false, signatures: [], document: null })
    const junk = await check(new TextEncoder().encode('not a pdf'))
    expect(junk.status).toBe(400)
    expect(junk.body).toMatchObject({ code: 'INVALID_PDF', message: expect.any(String) })
    const big = await check(new Uint8Array(3 * 1024 * 1024))
    expect(big.status).toBe(413)
    expect(big.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
    let last = 0
    for (let i = 0; i < 12 && last !== 429; i++) last = (await check(await makePdf(1))).status
    expect(last).toBe(429)
    const limited = await check(await makePdf(1))
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED' })
    // Nothing of what was checked was stored.
    const [{ n }] = (await host.db.query<{ n: number }>('select count(*)::int as n from document_data')) as [{ n: number }]
    expect(n).toBe(2) // the original and its sealed copy
  })

  it.skipIf(skip)('reports a change hidden in the revisions as a change, whichever way a reader resolves the objects', async () => {
    clock.advance(61_000) // a fresh rate-limit window
    for (const [name, pdf] of Object.entries(await hiddenChanges(sealedPdf))) {
      const res = await check(pdf)
      expect([name, res.status, res.body.valid, res.body.signatures?.[0]?.intact, res.body.signatures?.[0]?.updatesAfter]).toEqual([name, 200, false, true, 'changes'])
    }
  })

  it.skipIf(skip)('reports bytes after the seal that are not validation data as unrecognized, and the file as not valid', async () => {
    clock.advance(61_000) // a fresh rate-limit window
    const sealed = Buffer.from(sealedPdf)
    const withDss = await updateIncrementally(sealed, (doc, put, next) => addDss(doc, put, next))
    const cases: Record<string, Buffer> = {
      'text after %%EOF': Buffer.concat([sealed, Buffer.from('Amended after sealing: pay to Mallory, 99000 EUR.\n')]),
      'a comment after %%EOF': Buffer.concat([sealed, Buffer.from('%amended\n')]),
      'an update whose one object nothing refers to': await updateIncrementally(sealed, (doc, put, next) => put(next(), doc.context.obj({ Note: PDFString.of('pay to Mallory') }))),
      'a DSS that holds more than validation data': await updateIncrementally(sealed, (doc, put, next) => addDss(doc, put, next, { Note: PDFString.of('pay to Mallory') })),
      'a DSS update, then bytes after its %%EOF': Buffer.concat([withDss, Buffer.from('Amended after sealing.')]),
    }
    for (const [name, pdf] of Object.entries(cases)) {
      const res = await check(pdf)
      const [seal] = res.body.signatures
      expect([name, res.status, res.body.valid, res.body.sealedByThisService, seal.intact, seal.coversWholeDocument, seal.updatesAfter]).toEqual([name, 200, false, false, true, false, 'unrecognized'])
    }
    // The DSS update alone is validation data: the file is still the one sealed.
    const res = await check(withDss)
    expect(res.body).toMatchObject({ valid: true, sealedByThisService: true, signatures: [{ intact: true, coversWholeDocument: false, updatesAfter: 'validation' }] })
  })

  it.skipIf(skip)('reports an update that adds an annotation, a form field or another signature as changes', async () => {
    clock.advance(61_000)
    const sealed = Buffer.from(sealedPdf)
    const cases: Record<string, Buffer> = {
      'a note on the first page': await updateIncrementally(sealed, (doc, put, next) => {
        const note = next()
        put(note, doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [50, 700, 70, 720], Contents: PDFString.of('Pay to Mallory') }))
        const page = doc.getPage(0)
        grow(doc, put, page.node, page.ref, 'Annots', note)
      }),
      'a text field in the form': await updateIncrementally(sealed, (doc, put, next) => {
        const field = next()
        put(field, doc.context.obj({ FT: 'Tx', T: PDFString.of('Payee'), V: PDFString.of('Mallory'), Rect: [0, 0, 0, 0] }))
        addField(doc, put, field)
      }),
      'an invisible field holding another signature, beside a DSS': await updateIncrementally(sealed, (doc, put, next) => {
        addDss(doc, put, next)
        const value = next()
        put(value, doc.context.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'adbe.pkcs7.detached', Contents: PDFString.of('') }))
        const field = next()
        put(field, doc.context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFString.of('Another'), Rect: [0, 0, 0, 0], V: value }))
        const page = doc.getPage(0)
        grow(doc, put, page.node, page.ref, 'Annots', field)
      }),
    }
    for (const [name, pdf] of Object.entries(cases)) {
      const res = await check(pdf)
      expect([name, res.status, res.body.valid, res.body.signatures[0].intact, res.body.signatures[0].updatesAfter]).toEqual([name, 200, false, true, 'changes'])
    }
  })

  it.skipIf(skip)('a DSS and a document timestamp added after the seal are validation data; bytes after them are not', async () => {
    clock.advance(61_000)
    const ca = makeTestCa('verify test timestamp root')
    const tsa = await startTsa(ca.issue('verify test TSA', 'timestamping'))
    let stamped: Uint8Array
    try {
      const doc = await PDFDocument.load(sealedPdf, { updateMetadata: false })
      stamped = await appendLongTermValidation(doc, sealedPdf, { certificates: [new X509Certificate(ca.certificatePem).raw], crls: [] }, (d) => requestTimestamp(d, [tsa.url]), 16_384)
    } finally {
      await tsa.close()
    }
    const res = (await check(stamped)).body
    expect(res).toMatchObject({ valid: true, sealedByThisService: true, timestamps: [{ intact: true, coversPrevious: true }] })
    expect(res.signatures.map((s: { kind: string; intact: boolean; updatesAfter: string }) => [s.kind, s.intact, s.updatesAfter])).toEqual([
      ['signature', true, 'validation'],
      ['document-timestamp', true, 'none'],
    ])
    const junk = (await check(Buffer.concat([stamped, Buffer.from('Amended after the timestamp.')]))).body
    expect(junk).toMatchObject({ valid: false, sealedByThisService: false })
    expect(junk.signatures.map((s: { intact: boolean; updatesAfter: string }) => [s.intact, s.updatesAfter])).toEqual([
      [true, 'unrecognized'],
      [true, 'unrecognized'],
    ])
  })

  it.skipIf(skip)('the hidden change is what poppler shows', async () => {
    if (!HAS_PDFTOTEXT) return
    const changes = await hiddenChanges(sealedPdf)
    const sealed = popplerText(sealedPdf)
    expect(sealed).toContain('Signing certificate')
    // Poppler reads the redefined stream, not the copy after it: the certificate page's text changes.
    expect(popplerText(changes['a content stream redefined, then the original copied after it']!)).not.toEqual(sealed)
    // And the page from the object stream, with the payee on it.
    expect(popplerText(changes['a page redefined in an object stream, the original page copied after it']!)).toContain('PAY TO: MALLORY / 99000 EUR')
  })

  it.skipIf(skip)("recognises this service's seal by its certificate: a self-signed key under the same name is not it", async () => {
    clock.advance(61_000)
    const own = (await check(sealedPdf)).body
    expect(own).toMatchObject({ valid: true, sealedByThisService: true, signatures: [{ sealOfThisService: true }] })
    const key: SealingKey = { source: 'file', p12: await generateP12('envelope-embed host seal'), passphrase: '', certificatePem: '' }
    key.certificatePem = new X509Certificate(openSealingKey(key).certificates[0]!).toString()
    const input = { envelope: { id: 'e', title: 'Lease 4B', completedAt: new Date().toISOString() }, items: [{ id: 'i', title: 'Lease 4B', pdf: await makePdf(1) }], fields: [], recipients: [] }
    const forged = await sealEnvelope(input, key)
    const res = (await check(forged[0]!.pdf)).body
    expect(res.signatures[0].certificate).toMatchObject({ subject: own.signatures[0].certificate.subject, selfSigned: true })
    expect(res).toMatchObject({ valid: true, sealedByThisService: false, document: null, signatures: [{ intact: true, sealOfThisService: false }] })
  })

  it.skipIf(skip)('a file nested too deep is a 400 with the error shape, wherever the nesting is', async () => {
    clock.advance(61_000)
    for (const [name, pdf] of Object.entries(deeplyNestedPdfs())) {
      clock.advance(6_000) // ten files a window at most
      const res = await check(pdf)
      // Nothing reads the trailer's other keys: it may be taken; never a 5xx.
      if (name.includes('in the trailer') && res.status === 200) continue
      expect([name, res.status, res.body.code, typeof res.body.message]).toEqual([name, 400, 'INVALID_PDF', 'string'])
    }
  })
})

describe('the work one check costs', () => {
  it('parses the file once, however many signature dictionaries it claims', async () => {
    const key: SealingKey = { source: 'file', p12: await generateP12('verify budget test'), passphrase: '', certificatePem: '' }
    key.certificatePem = new X509Certificate(openSealingKey(key).certificates[0]!).toString()
    const input = { envelope: { id: 'e', title: 'Lease', completedAt: new Date().toISOString() }, items: [{ id: 'i', title: 'Lease', pdf: await makePdf(1) }], fields: [], recipients: [] }
    const sealed = Buffer.from((await sealEnvelope(input, key))[0]!.pdf)
    const [a, b, c] = /\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(sealed.toString('latin1'))!.slice(1).map(Number) as [number, number, number]
    // Comments that look like signature dictionaries: each claims the seal's own /Contents over a shorter revision.
    const fakes = Array.from({ length: 30 }, (_, i) => `%/ByteRange [0 ${a} ${b} ${c - 100 * (i + 1)}]\n`).join('')
    const parse = vi.spyOn(PDFParser.prototype, 'parseDocument')
    try {
      const reports = await verifyPdfSignatures(Buffer.concat([sealed, Buffer.from(fakes)]))
      expect(parse).toHaveBeenCalledTimes(1)
      expect(reports).toHaveLength(20) // at most 20 are looked at
      expect(reports.filter((r) => r.intact)).toHaveLength(1)
    } finally {
      parse.mockRestore()
    }
  })
})
