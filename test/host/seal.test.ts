/**
 * Sealing: the signed PDF, its certificate page, and the sealing key kept in the database.
 * Database: the embedded one (the key's row and its race on a fresh database are plain SQL; both
 * drivers are held in lifecycle.test.ts).
 */
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import forge from 'node-forge'
import { degrees, PDFArray, PDFDict, PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDb, type Db } from '../../host/server/db/index.js'
import { certificatePdf, sealEnvelope, type SealField, type SealInput, type SealRecipient } from '../../host/server/pdf/seal.js'
import { generateP12, loadSealingKey, type SealingKey } from '../../host/server/pdf/sealing-key.js'
import { pdfText, verifyPdfSignature } from '../support/pdf-signature.js'
import { pngOf } from './hostile.js'
import { makePdf } from './support.js'

let dir: string
let db: Db
let key: SealingKey

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seal-test-'))
  db = await openDb({ dataDir: path.join(dir, 'data') })
  key = await loadSealingKey(db, {})
})

afterAll(async () => {
  await db?.close()
  await rm(dir, { recursive: true, force: true })
})

/** A solid PNG of the given size, so an image's aspect ratio can be checked after placing it. */
function png(width: number, height: number): string {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x20)])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  const bytes = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))])
  return `data:image/png;base64,${bytes.toString('base64')}`
}

function field(o: Partial<SealField> & { customText: string | null }): SealField {
  return { envelopeItemId: 'item_1', type: 'TEXT', page: 1, positionX: 10, positionY: 10, width: 40, height: 5, fieldMeta: null, ...o }
}

const ALICE: SealRecipient = {
  name: 'Alice Müller',
  email: 'alice@example.com',
  role: 'SIGNER',
  action: 'SIGNED',
  completedAt: '2025-03-01T10:15:00.000Z',
  ipAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
}
const CAROL: SealRecipient = {
  name: 'Carol Côté',
  email: 'carol@example.org',
  role: 'CC',
  action: 'CC',
  completedAt: null,
  ipAddress: null,
  userAgent: null,
}

function input(items: SealInput['items'], fields: SealField[], recipients: SealRecipient[] = [ALICE, CAROL]): SealInput {
  return { envelope: { id: 'envelope_abc123', title: 'Mietvertrag für Café', completedAt: '2025-03-01T10:20:00.000Z' }, items, fields, recipients }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Where pdf.js places a page's text runs and images, in percent of the page as displayed. */
async function layout(pdf: Uint8Array, pageNumber: number) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const doc = await pdfjs.getDocument({ data: pdf.slice(), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise
  try {
    const page = await doc.getPage(pageNumber)
    const viewport = page.getViewport({ scale: 1 })
    const pct = ([x, y]: number[]) => [(x! / viewport.width) * 100, (y! / viewport.height) * 100] as const
    const texts = (await page.getTextContent()).items.flatMap((item) => {
      if (!('str' in item) || !item.str.trim()) return []
      const m = pdfjs.Util.transform(viewport.transform, item.transform)
      const [x, y] = pct([m[4], m[5]])
      // Upright as displayed: the run's x axis points right and its y axis up (down in viewport space).
      return [{ str: item.str, x, y, widthPct: (item.width / viewport.width) * 100, size: Math.hypot(m[0], m[1]), upright: m[0] > 0 && Math.abs(m[1]) < 1e-6 && m[3] < 0 }]
    })
    const ops = await page.getOperatorList()
    const images: { left: number; top: number; right: number; bottom: number }[] = []
    let ctm = [1, 0, 0, 1, 0, 0]
    const stack: number[][] = []
    ops.fnArray.forEach((fn, i) => {
      const args = ops.argsArray[i]
      if (fn === pdfjs.OPS.save) stack.push(ctm)
      else if (fn === pdfjs.OPS.restore) ctm = stack.pop()!
      else if (fn === pdfjs.OPS.transform) ctm = pdfjs.Util.transform(ctm, args)
      else if (fn === pdfjs.OPS.paintImageXObject) {
        const corners = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([u, v]) => pct(viewport.convertToViewportPoint(ctm[0]! * u! + ctm[2]! * v! + ctm[4]!, ctm[1]! * u! + ctm[3]! * v! + ctm[5]!)))
        const xs = corners.map((c) => c[0])
        const ys = corners.map((c) => c[1])
        images.push({ left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) })
      }
    })
    return { texts, images, width: viewport.width, height: viewport.height }
  } finally {
    await doc.destroy()
  }
}

describe('sealEnvelope', () => {
  it('draws typed values, umlauts and accents included, in an embedded font on their pages', async () => {
    const pdf = await makePdf(2)
    const fields = [
      field({ type: 'NAME', page: 1, customText: 'Jürgen Weiß' }),
      field({ type: 'TEXT', page: 2, positionY: 30, customText: 'Straße, Öl, Äpfel, garçon, déjà, über' }),
      field({ type: 'DATE', page: 2, positionY: 50, customText: '2025-03-01' }),
      field({ type: 'EMAIL', page: 1, positionY: 60, customText: null }),
    ]
    const [sealed] = await sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf }], fields), key)
    expect(sealed!.itemId).toBe('item_1')
    const pages = await pdfText(sealed!.pdf)
    expect(pages.length).toBe(3) // two pages and the certificate
    expect(pages[0]).toContain('Jürgen Weiß')
    expect(pages[0]).not.toContain('Straße')
    expect(pages[1]).toContain('Straße, Öl, Äpfel, garçon, déjà, über')
    expect(pages[1]).toContain('2025-03-01')

    // The font travels inside the file (a subset of DejaVu Sans), not as a reference to a system font.
    const doc = await PDFDocument.load(sealed!.pdf)
    const fonts = doc.getPage(0).node.Resources()!.lookup(PDFName.of('Font'), PDFDict)
    const embedded = fonts.keys().some((name) => {
      const font = fonts.lookup(name, PDFDict)
      const descendant = font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookup(0, PDFDict)
      const descriptor = descendant?.lookup(PDFName.of('FontDescriptor'), PDFDict)
      return String(descendant?.get(PDFName.of('BaseFont'))).includes('DejaVuSans') && descriptor?.has(PDFName.of('FontFile2'))
    })
    expect(embedded).toBe(true)
  })

  it('keeps every document searchable when several are sealed one after another', async () => {
    // An accented capital is a composite glyph (Ö = O + ¨); no cached glyph may leak between documents.
    const seal = async (text: string) =>
      (await pdfText((await sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }], [field({ customText: text })], []), key))[0]!.pdf))[0]
    expect(await seal('Öl und Äpfel')).toContain('Öl und Äpfel')
    expect(await seal('Ordnung Apfel')).toContain('Ordnung Apfel')
  })

  it('signs with the host certificate over the whole file, readable by any verifier', async () => {
    const [sealed] = await sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }], [field({ customText: 'x' })]), key)
    const check = verifyPdfSignature(sealed!.pdf)
    expect(check).toMatchObject({ signed: true, digestOk: true, signatureOk: true, coversWholeFileExceptContents: true })
    expect(check.signerCertificatePem.replace(/\r/g, '')).toBe(key.certificatePem.replace(/\r/g, ''))

    const doc = await PDFDocument.load(sealed!.pdf)
    const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict)
    const text = Buffer.from(sealed!.pdf).toString('latin1')
    expect(text).toContain('/SubFilter /ETSI.CAdES.detached')
    expect(text).toContain(`/Name ${PDFString.of('envelope-embed host').toString()}`)
    expect(text).toContain(`/Reason ${PDFString.of('Sealed on completion').toString()}`)
    expect(acroForm.get(PDFName.of('SigFlags'))?.toString()).toBe('3')
  })

  it("draws a file's own form into its pages: its values stay, no field stays editable, the signature's widget is the one in /Annots and /AcroForm", async () => {
    const original = await PDFDocument.create()
    const page = original.addPage([612, 792])
    const form = original.getForm()
    const customer = form.createTextField('customer')
    customer.setText('Globex Corporation')
    customer.addToPage(page, { x: 72, y: 600 })
    const agreed = form.createCheckBox('agreed')
    agreed.check()
    agreed.addToPage(page, { x: 72, y: 500 })
    // A link annotation is not part of the form: it stays.
    page.node.set(PDFName.of('Annots'), original.context.obj([...(page.node.Annots()?.asArray() ?? []), original.context.register(original.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [72, 400, 200, 420], A: { S: 'URI', URI: PDFString.of('https://example.com') } }))]))
    const [sealed] = await sealEnvelope(input([{ id: 'item_1', title: 'Formular', pdf: await original.save() }], [field({ customText: 'x' })]), key)
    expect(verifyPdfSignature(sealed!.pdf)).toMatchObject({ signed: true, digestOk: true, signatureOk: true })
    const doc = await PDFDocument.load(sealed!.pdf)
    const fields = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray)
    const kinds = fields.asArray().map((ref) => doc.context.lookup(ref, PDFDict).get(PDFName.of('FT'))?.toString())
    expect(kinds).toEqual(['/Sig'])
    // The page's annotations: the link, then the signature's widget (field and widget in one).
    const annotations = doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).asArray()
    expect(annotations.map((a) => doc.context.lookup(a, PDFDict).get(PDFName.of('Subtype'))?.toString())).toEqual(['/Link', '/Widget'])
    expect(String(annotations[1])).toBe(String(fields.get(0)))
    // What the form showed is now the page's own content.
    expect((await pdfText(sealed!.pdf))[0]).toContain('Globex Corporation')
    // One key of each: a second /Annots or /AcroForm would hide the first from readers.
    const text = Buffer.from(sealed!.pdf).toString('latin1')
    expect(text.match(/\/AcroForm /g)).toHaveLength(1)
  })

  it('shows any change inside the signed range as a broken digest', async () => {
    const [sealed] = await sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }], [field({ customText: 'Betrag: 100 €' })]), key)
    const [, firstLength, secondStart, secondLength] = verifyPdfSignature(sealed!.pdf).byteRange as [number, number, number, number]
    for (const at of [Math.floor(firstLength / 2), secondStart + Math.floor(secondLength / 2)]) {
      const tampered = sealed!.pdf.slice()
      tampered[at] = tampered[at]! ^ 0x01
      const check = verifyPdfSignature(tampered)
      expect(check.digestOk).toBe(false)
      expect(check.signatureOk).toBe(true) // the attributes are intact; what they vouch for is not
    }
  })

  it('appends a certificate listing every recipient and the SHA-256 of each original file', async () => {
    const first = await makePdf(1)
    const second = await makePdf(2, [{ text: 'Anlage', x: 72, y: 700 }])
    const bob: SealRecipient = {
      name: 'Bob Étienne',
      email: 'bob@example.net',
      role: 'APPROVER',
      action: 'APPROVED',
      completedAt: '2025-03-01T10:18:00Z',
      ipAddress: '2001:db8::42',
      userAgent: `Mozilla/5.0 ${'VeryLongToken'.repeat(20)} EndOfAgent`,
    }
    const recipients = [ALICE, bob, CAROL]
    const sealed = await sealEnvelope(
      input(
        [
          { id: 'item_1', title: 'Vertrag', pdf: first },
          { id: 'item_2', title: 'Anlage A', pdf: second },
        ],
        [field({ customText: 'a' }), field({ envelopeItemId: 'item_2', page: 2, customText: 'b' })],
        recipients,
      ),
      key,
    )
    expect(sealed.map((s) => s.itemId)).toEqual(['item_1', 'item_2'])
    for (const s of sealed) {
      const pages = await pdfText(s.pdf)
      const certificate = pages.slice(s.itemId === 'item_1' ? 1 : 2).join('\n')
      expect(certificate).toContain('Signing certificate')
      expect(certificate).toContain('envelope_abc123')
      expect(certificate).toContain('Mietvertrag für Café')
      // In the document's date format and zone (the defaults here), with seconds: not an ISO string.
      expect(certificate).toContain('2025-03-01 10:20:00 AM (Etc/UTC)')
      expect(certificate).not.toContain('2025-03-01T10:20:00.000Z')
      expect(certificate).toContain(sha256(first))
      expect(certificate).toContain(sha256(second))
      for (const r of recipients) {
        expect(certificate).toContain(r.name)
        expect(certificate).toContain(r.email)
        if (r.ipAddress) expect(certificate).toContain(r.ipAddress)
      }
      expect(certificate).toContain('Signed')
      expect(certificate).toContain('Approved')
      expect(certificate).toContain('Received a copy')
      // A short readable client; the raw user agent stays in the audit log.
      expect(certificate).toContain('Chrome 124 on Linux')
      expect(certificate).not.toContain('Chrome/124.0.0.0 Safari/537.36')
      expect(certificate).not.toContain('EndOfAgent')
      expect(verifyPdfSignature(s.pdf)).toMatchObject({ digestOk: true, signatureOk: true })
    }
    // The original page keeps its own text.
    expect((await pdfText(sealed[1]!.pdf))[0]).toContain('Anlage')
  })

  it('continues the certificate on further pages when the recipients do not fit on one', async () => {
    const many = Array.from({ length: 25 }, (_, i): SealRecipient => ({ ...ALICE, name: `Signer Nummer ${i + 1}`, email: `signer${i + 1}@example.com` }))
    const [sealed] = await sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }], [], many), key)
    const pages = await pdfText(sealed!.pdf)
    expect(pages.length).toBeGreaterThan(3)
    const certificate = pages.slice(1)
    for (const r of many) expect(certificate.filter((p) => p.includes(r.email))).toHaveLength(1)
    expect(certificate.at(-1)).toContain(`Page ${certificate.length} of ${certificate.length}`)
  })

  it('fits a signature picture inside its box, centred and unstretched, on its page only', async () => {
    const box = { page: 2, positionX: 20, positionY: 40, width: 30, height: 10 }
    const signature = png(200, 50)
    const [sealed] = await sealEnvelope(
      input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(3) }], [field({ type: 'SIGNATURE', ...box, customText: signature })]),
      key,
    )
    const onPage = await Promise.all([1, 2, 3].map((n) => layout(sealed!.pdf, n)))
    expect(onPage.map((p) => p.images.length)).toEqual([0, 1, 0])
    const { images, width, height } = onPage[1]!
    const image = images[0]!
    const eps = 0.01
    expect(image.left).toBeGreaterThanOrEqual(box.positionX - eps)
    expect(image.right).toBeLessThanOrEqual(box.positionX + box.width + eps)
    expect(image.top).toBeGreaterThanOrEqual(box.positionY - eps)
    expect(image.bottom).toBeLessThanOrEqual(box.positionY + box.height + eps)
    // Still 4:1 in points; the box (183.6 × 79.2 pt) is relatively taller, so the picture fills its
    // width and is centred vertically.
    const wPt = ((image.right - image.left) / 100) * width
    const hPt = ((image.bottom - image.top) / 100) * height
    expect(wPt / hPt).toBeCloseTo(4, 2)
    expect(image.right - image.left).toBeCloseTo(box.width, 2)
    expect((image.top + image.bottom) / 2).toBeCloseTo(box.positionY + box.height / 2, 2)
  })

  it('places fields where the signer saw them on rotated pages and pages with an offset or cropped box', async () => {
    const doc = await PDFDocument.create()
    const variants = [
      { rotate: 0, media: [0, 0, 612, 792] },
      { rotate: 90, media: [0, 0, 612, 792] },
      { rotate: 180, media: [0, 0, 612, 792] },
      { rotate: 270, media: [0, 0, 595, 842] },
      { rotate: 0, media: [100, 200, 712, 992] },
      { rotate: 90, media: [-50, 30, 562, 822], crop: [0, 100, 500, 700] },
    ]
    for (const v of variants) {
      const page = doc.addPage([612, 792])
      page.setMediaBox(v.media[0]!, v.media[1]!, v.media[2]! - v.media[0]!, v.media[3]! - v.media[1]!)
      if (v.crop) page.setCropBox(v.crop[0]!, v.crop[1]!, v.crop[2]! - v.crop[0]!, v.crop[3]! - v.crop[1]!)
      page.setRotation(degrees(v.rotate))
    }
    const pdf = await doc.save()
    const box = { positionX: 15, positionY: 20, width: 50, height: 6 }
    const fields = variants.map((_, i) => field({ page: i + 1, ...box, customText: `Feld ${i + 1} ist hier` }))
    fields.push(field({ type: 'SIGNATURE', page: 2, positionX: 60, positionY: 70, width: 20, height: 10, customText: png(100, 100) }))
    const [sealed] = await sealEnvelope(input([{ id: 'item_1', title: 'Gedreht', pdf }], fields), key)

    for (let n = 1; n <= variants.length; n++) {
      const { texts } = await layout(sealed!.pdf, n)
      const run = texts.find((t) => t.str === `Feld ${n} ist hier`)
      expect(run, `page ${n}`).toBeDefined()
      expect(run!.upright, `page ${n} upright`).toBe(true)
      expect(run!.x, `page ${n} x`).toBeGreaterThanOrEqual(box.positionX)
      expect(run!.x + run!.widthPct, `page ${n} right`).toBeLessThanOrEqual(box.positionX + box.width)
      // The baseline sits in the box's lower half: vertically centred text.
      expect(run!.y, `page ${n} baseline`).toBeGreaterThan(box.positionY + box.height / 2)
      expect(run!.y, `page ${n} baseline`).toBeLessThan(box.positionY + box.height)
    }
    const { images, width, height } = await layout(sealed!.pdf, 2)
    expect(images).toHaveLength(1)
    const image = images[0]!
    expect(image.left).toBeGreaterThanOrEqual(60 - 0.01)
    expect(image.right).toBeLessThanOrEqual(80 + 0.01)
    expect(image.top).toBeGreaterThanOrEqual(70 - 0.01)
    expect(image.bottom).toBeLessThanOrEqual(80 + 0.01)
    expect((((image.right - image.left) / 100) * width) / (((image.bottom - image.top) / 100) * height)).toBeCloseTo(1, 2)
  })

  it('sizes text to the box: at most 14 pt, shrunk until it fits the width', async () => {
    const long = 'Ein sehr langer Firmenname mit Zusätzen GmbH & Co. KG, Niederlassung Süd'
    const [sealed] = await sealEnvelope(
      input(
        [{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }],
        [
          field({ positionY: 10, width: 60, height: 20, customText: 'Groß' }),
          field({ positionY: 40, width: 20, height: 3, customText: long }),
          field({ positionY: 50, width: 40, height: 8, customText: 'rechts', fieldMeta: { type: 'text', textAlign: 'right' } }),
        ],
      ),
      key,
    )
    const { texts } = await layout(sealed!.pdf, 1)
    const big = texts.find((t) => t.str === 'Groß')!
    expect(big.size).toBeCloseTo(14, 1)
    const shrunk = texts.find((t) => t.str === long)!
    expect(shrunk.size).toBeLessThan(8)
    expect(shrunk.x + shrunk.widthPct).toBeLessThanOrEqual(30)
    const right = texts.find((t) => t.str === 'rechts')!
    expect(right.x + right.widthPct).toBeGreaterThan(49)
  })

  it('draws checkbox options with the checked ones ticked', async () => {
    const [sealed] = await sealEnvelope(
      input(
        [{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }],
        [
          field({ type: 'CHECKBOX', height: 15, customText: '["Yes","Maybe"]', fieldMeta: { type: 'checkbox', options: ['Yes', 'No', 'Maybe'] } }),
          field({ type: 'RADIO', positionY: 40, customText: 'Option B' }),
        ],
      ),
      key,
    )
    const { texts } = await layout(sealed!.pdf, 1)
    const labels = texts.filter((t) => ['Yes', 'No', 'Maybe'].includes(t.str))
    expect(labels.map((t) => t.str)).toEqual(['Yes', 'No', 'Maybe'])
    const ticks = texts.filter((t) => t.str === '✓')
    expect(ticks).toHaveLength(2)
    // Each tick is on the row of a checked option (same baseline height, within a row).
    for (const tick of ticks) {
      const row = labels.find((l) => Math.abs(l.y - tick.y) < 2)
      expect(['Yes', 'Maybe']).toContain(row?.str)
    }
    expect(texts.some((t) => t.str === 'Option B')).toBe(true)
  })

  it('a picture stored before submissions were normalized is decoded within the budgets: a clear error, not gigabytes', { timeout: 20_000 }, async () => {
    const huge = `data:image/png;base64,${pngOf({ width: 16000, height: 16000, bitDepth: 1, colorType: 0 }, deflateSync(Buffer.alloc(16000 * 2001))).toString('base64')}`
    await expect(sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }], [field({ type: 'SIGNATURE', customText: huge })]), key)).rejects.toThrow(/SIGNATURE image on page 1 cannot be read: .*16000 x 16000/)
  })

  it('draws text whatever characters it holds (those the font lacks as blanks)', async () => {
    const texts = ['😀 emoji', 'lone \ud800 surrogate', 'nul \u0000 byte', '中文字', 'עברית', '\u200b\ufeff\uffff']
    const [sealed] = await sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }], texts.map((customText, i) => field({ type: 'TEXT', customText, positionY: 10 + i * 10 }))), key)
    expect(verifyPdfSignature(sealed!.pdf)).toMatchObject({ digestOk: true, signatureOk: true })
  })

  it('a sealed copy carries no script or open action, even from a file stored before uploads were cleaned', async () => {
    const doc = await PDFDocument.load(await makePdf(1))
    doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }))
    doc.getPage(0).node.set(PDFName.of('AA'), doc.context.obj({ O: doc.context.obj({ S: 'Launch', F: PDFString.of('calc.exe') }) }))
    const [sealed] = await sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf: await doc.save() }], []), key)
    const text = Buffer.from(sealed!.pdf).toString('latin1')
    expect(['/OpenAction', '/JavaScript', '/AA', '/Launch'].filter((k) => text.includes(k))).toEqual([])
    expect(verifyPdfSignature(sealed!.pdf)).toMatchObject({ digestOk: true, signatureOk: true })
  })

  it('refuses a field on a page the file does not have', async () => {
    await expect(sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }], [field({ page: 3, customText: 'x' })]), key)).rejects.toThrow(
      /page 3, but the document has 1/,
    )
  })
})

describe('certificatePdf', () => {
  it('gives the certificate alone, unsigned or sealed', async () => {
    const data = input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }], [], [ALICE])
    const plain = await certificatePdf(data)
    const pages = await pdfText(plain)
    expect(pages).toHaveLength(1)
    expect(pages[0]).toContain('Signing certificate')
    expect(pages[0]).toContain('alice@example.com')
    expect(() => verifyPdfSignature(plain)).toThrow(/not signed/)
    const sealed = await certificatePdf(data, key)
    expect(verifyPdfSignature(sealed)).toMatchObject({ digestOk: true, signatureOk: true, coversWholeFileExceptContents: true })
  })
})

describe('loadSealingKey', () => {
  it('creates one self-signed RSA-2048 certificate per database and keeps it', async () => {
    const again = await loadSealingKey(db, {})
    expect(again.certificatePem).toBe(key.certificatePem)
    expect(again.source).toBe('database')
    const cert = forge.pki.certificateFromPem(key.certificatePem)
    expect(cert.subject.getField('CN').value).toBe('envelope-embed host seal')
    expect(cert.issuer.getField('CN').value).toBe('envelope-embed host seal')
    expect((cert.publicKey as forge.pki.rsa.PublicKey).n.bitLength()).toBe(2048)
    const usage = cert.getExtension('keyUsage') as { digitalSignature: boolean; nonRepudiation: boolean; keyCertSign?: boolean }
    expect(usage).toMatchObject({ digitalSignature: true, nonRepudiation: true })
    const years = (cert.validity.notAfter.getTime() - cert.validity.notBefore.getTime()) / (365.25 * 24 * 3600e3)
    expect(years).toBeCloseTo(10, 1)
    const [row] = await db.query<{ value: string }>(`select value from settings where key = 'sealing_p12'`)
    expect(Buffer.from(row!.value, 'base64').equals((key as { p12: Buffer }).p12)).toBe(true)
  })

  it('agrees on one key when several loads race on a fresh database', async () => {
    const other = await openDb({ dataDir: path.join(dir, 'race') })
    try {
      const keys = await Promise.all([loadSealingKey(other, {}), loadSealingKey(other, {}), loadSealingKey(other, {})])
      expect(new Set(keys.map((k) => k.certificatePem)).size).toBe(1)
      expect(keys[0]!.certificatePem).not.toBe(key.certificatePem)
    } finally {
      await other.close()
    }
  })

  it('uses SEALING_P12_FILE with its password instead, and says clearly when it cannot', async () => {
    const file = path.join(dir, 'seal.p12')
    await writeFile(file, await generateP12('Acme Corp Seal', 's3cret'))
    const fromFile = await loadSealingKey(db, { SEALING_P12_FILE: file, SEALING_P12_PASSWORD: 's3cret' })
    expect(fromFile.source).toBe('file')
    expect(forge.pki.certificateFromPem(fromFile.certificatePem).subject.getField('CN').value).toBe('Acme Corp Seal')
    const [sealed] = await sealEnvelope(input([{ id: 'item_1', title: 'Vertrag', pdf: await makePdf(1) }], []), fromFile)
    const check = verifyPdfSignature(sealed!.pdf)
    expect(check).toMatchObject({ digestOk: true, signatureOk: true })
    expect(check.signerCertificatePem.replace(/\r/g, '')).toBe(fromFile.certificatePem.replace(/\r/g, ''))

    await expect(loadSealingKey(db, { SEALING_P12_FILE: file, SEALING_P12_PASSWORD: 'wrong' })).rejects.toThrow(
      `SEALING_P12_FILE ${file} cannot be used: wrong password (SEALING_P12_PASSWORD)`,
    )
    await expect(loadSealingKey(db, { SEALING_P12_FILE: path.join(dir, 'missing.p12'), SEALING_P12_PASSWORD: 'x' })).rejects.toThrow(
      /SEALING_P12_FILE .*missing\.p12 cannot be read: ENOENT/,
    )
    await expect(loadSealingKey(db, { SEALING_P12_PASSWORD: 's3cret' })).rejects.toThrow(/SEALING_P12_FILE is not/)
  })
})

