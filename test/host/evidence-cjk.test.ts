/**
 * Japanese, Korean and Chinese in sealed PDFs: the certificate and the audit log in Japanese, and a
 * signer's Japanese or Korean name and text field values stamped, each glyph drawn from a font that
 * has it (never the empty box of .notdef), read back as text by poppler and pdf.js, and rendered.
 * A document in Latin script alone carries no CJK font.
 * Database: the embedded one (PDFs), on the worker's shared host.
 */
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fontkit, { type Font } from '@cantoo/fontkit'
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, rgb } from '@cantoo/pdf-lib'
import { describe, expect, it } from 'vitest'
import { auditLogDocument } from '../../host/server/pdf/audit-log-pdf.js'
import { certificateDocument } from '../../host/server/pdf/certificate.js'
import { evidenceText } from '../../host/server/pdf/evidence-text.js'
import type { SealInput, SealRecipient } from '../../host/server/pdf/seal.js'
import { embedTextFont, TextFont } from '../../host/server/pdf/text-font.js'
import { hasTool } from '../support/outside-checks.js'
import { pdfText } from '../support/pdf-signature.js'
import { SCREENSHOTS } from '../e2e/support/stack.js'
import { test } from './fixtures.js'
import { api, createEnvelope, mailed, SIGNATURE, sealed } from './support.js'

const HAS_POPPLER = hasTool('pdftotext') && hasTool('pdftoppm')

const ORIGINALS: Record<string, string> = {
  DejaVuSans: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  'NotoSansJP-Regular': '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  'NotoSansKR-Regular': '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
  'NotoSansSC-Regular': '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
}
const originals = new Map<string, Font>()
const original = (name: string) => {
  if (!originals.has(name)) originals.set(name, fontkit.create(readFileSync(createRequire(import.meta.url).resolve(ORIGINALS[name]!))) as Font)
  return originals.get(name)!
}

const bytesOf = (pdf: PDFDocument, ref: unknown) => {
  const stream = ref instanceof PDFRef ? pdf.context.lookup(ref) : ref
  return stream instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(stream).decode()) : Buffer.alloc(0)
}

interface EmbeddedFont {
  name: string
  /** The subset as embedded, and which character each of its glyphs is (its ToUnicode map). */
  file: Font
  chars: Map<number, string>
}

function embeddedFont(pdf: PDFDocument, dict: PDFDict): EmbeddedFont | null {
  if (dict.get(PDFName.of('Subtype'))?.toString() !== '/Type0') return null
  const cid = dict.lookup(PDFName.of('DescendantFonts'), PDFArray).lookup(0, PDFDict)
  const descriptor = cid.lookup(PDFName.of('FontDescriptor'), PDFDict)
  const chars = new Map<number, string>()
  for (const m of bytesOf(pdf, dict.get(PDFName.of('ToUnicode'))).toString('latin1').matchAll(/<([0-9a-f]{4})> <([0-9a-f]+)>/gi)) {
    chars.set(parseInt(m[1]!, 16), Buffer.from(m[2]!, 'hex').swap16().toString('utf16le'))
  }
  const name = dict.get(PDFName.of('BaseFont'))!.toString().replace(/^\/|-\d+$/g, '')
  return { name, file: fontkit.create(bytesOf(pdf, descriptor.get(PDFName.of('FontFile2')))) as Font, chars }
}

/** Each text-showing operation of an embedded font: the font, and the glyph ids it draws. */
function drawnGlyphs(pdf: PDFDocument): { font: EmbeddedFont; glyphs: number[] }[] {
  const shown: { font: EmbeddedFont; glyphs: number[] }[] = []
  for (const page of pdf.getPages()) {
    const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict)
    const contents = page.node.get(PDFName.of('Contents'))
    const source = (contents instanceof PDFArray ? contents.asArray() : [contents]).map((ref) => bytesOf(pdf, ref).toString('latin1')).join('\n')
    let current: EmbeddedFont | null = null
    for (const m of source.matchAll(/\/(\S+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj/g)) {
      if (m[1]) {
        const dict = fonts?.lookupMaybe(PDFName.of(m[1]), PDFDict)
        current = dict ? embeddedFont(pdf, dict) : null
      } else if (current) shown.push({ font: current, glyphs: (m[2]!.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)) })
    }
  }
  return shown
}

/**
 * The characters not drawn as themselves: .notdef (the empty box of a font without the character),
 * or a glyph whose outline in the embedded subset is not the one the font has for it (a broken subset shows blank).
 */
function wrongGlyphs(pdf: PDFDocument): string[] {
  const wrong: string[] = []
  for (const { font, glyphs } of drawnGlyphs(pdf)) {
    for (const id of glyphs) {
      const char = font.chars.get(id)
      if (id === 0 || !char) {
        wrong.push(`${font.name}: glyph ${id} (.notdef)`)
        continue
      }
      // A ligature ("fi") maps to its characters: the font's layout of them gives its glyph.
      const [want] = original(font.name).layout(char).glyphs
      let drawn: string
      try {
        drawn = font.file.getGlyph(id)!.path.toSVG()
      } catch {
        drawn = 'unreadable'
      }
      if (drawn !== want?.path.toSVG()) wrong.push(`${font.name}: ${char}`)
    }
  }
  return wrong
}

const fontNames = (pdf: PDFDocument) => [...new Set(drawnGlyphs(pdf).map((s) => s.font.name))].sort()

const out = path.join(SCREENSHOTS, 'pdf')

/** poppler's text of the PDF, and its first `pages` pages rendered as PNGs at 60 dpi for a person to look at. */
function poppler(pdf: Uint8Array, name: string, pages = 1): string {
  mkdirSync(out, { recursive: true })
  const dir = mkdtempSync(path.join(tmpdir(), 'cjk-'))
  try {
    const file = path.join(dir, `${name}.pdf`)
    writeFileSync(file, pdf)
    execFileSync('pdftoppm', ['-png', '-r', '60', '-l', String(pages), file, path.join(out, name)])
    expect(readFileSync(path.join(out, `${name}-1.png`)).length).toBeGreaterThan(1000)
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString('utf8')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const signer: SealRecipient = { id: 1, name: '山田 Ada', email: 'yamada@example.jp', role: 'SIGNER', action: 'SIGNED', completedAt: '2026-11-23T09:55:53.000Z', ipAddress: '203.0.113.7', userAgent: null, signatureImage: null, direct: false, accessAuth: [], actionAuth: [] }

function input(language: string): SealInput {
  return {
    envelope: { id: 'envelope_k3xq9w2m', title: '賃貸借契約書（東京都港区）', completedAt: '2026-11-23T10:02:31.000Z' },
    items: [{ id: 'item_1', title: '契約書.pdf', pdf: new Uint8Array(), sha256: 'a'.repeat(64), sealedSha256: 'b'.repeat(64) }],
    fields: [],
    recipients: [signer, { ...signer, id: 2, name: '김민준', email: 'minjun@example.kr' }],
    meta: { language, timezone: 'Asia/Tokyo', dateFormat: 'yyyy/MM/dd HH:mm' },
    auditLog: [
      { type: 'DOCUMENT_OPENED', createdAt: '2026-11-23T09:50:00.000Z', recipientId: 1, name: '山田 Ada', email: 'yamada@example.jp', ipAddress: '203.0.113.7', userAgent: null, data: {} },
      { type: 'DOCUMENT_RECIPIENT_COMPLETED', createdAt: '2026-11-23T09:55:53.000Z', recipientId: 2, name: '김민준', email: 'minjun@example.kr', ipAddress: '198.51.100.4', userAgent: null, data: { reason: '内容を確認しました。' } },
    ],
  }
}

describe('CJK text in evidence documents', () => {
  it('DejaVu alone draws a Japanese name as .notdef boxes, which the check finds', async () => {
    const doc = await PDFDocument.create()
    const latin = await embedTextFont(doc)
    new TextFont(latin.base, []).draw(doc.addPage(), '山田 Ada', { x: 50, y: 700, size: 12, color: rgb(0, 0, 0) })
    const reread = await PDFDocument.load(await doc.save())
    expect(wrongGlyphs(reread)).toEqual(['DejaVuSans: glyph 0 (.notdef)', 'DejaVuSans: glyph 0 (.notdef)'])
  })

  it('a subset keeps the glyphs whose data is an odd number of bytes (halved, short offsets would lose them)', async () => {
    // Noto Sans JP's glyph offsets are in the long form, and about half its glyphs have an odd
    // length: a subset written with short offsets (which count in pairs of bytes) draws them blank.
    const text = '山田花子東京都千代田区丸の内確認済みはいいえ業務委託契約書'
    const noto = original('NotoSansJP-Regular') as Font & { loca: { offsets: number[] } }
    const odd = noto.layout(text).glyphs.filter((g) => (noto.loca.offsets[g.id + 1]! - noto.loca.offsets[g.id]!) % 2)
    expect(odd.length).toBeGreaterThanOrEqual(10)
    const doc = await PDFDocument.create()
    const font = await embedTextFont(doc, 'ja', [text])
    font.draw(doc.addPage(), text, { x: 20, y: 700, size: 14, color: rgb(0, 0, 0) })
    const reread = await PDFDocument.load(await doc.save())
    expect(fontNames(reread)).toEqual(['NotoSansJP-Regular'])
    expect(wrongGlyphs(reread)).toEqual([])
  })

  it('a Japanese certificate names everyone in their script, with a glyph for every character', async () => {
    const t = evidenceText('ja')
    expect(t.certificate).toBe('署名証明書')
    const pdf = await (await certificateDocument(input('ja'))).save()
    const doc = await PDFDocument.load(pdf)
    expect(wrongGlyphs(doc)).toEqual([])
    // Latin from DejaVu; Japanese, and the Korean name beside it, from the Japanese and Korean fonts.
    expect(fontNames(doc)).toEqual(['DejaVuSans', 'NotoSansJP-Regular', 'NotoSansKR-Regular'])
    const pages = await pdfText(pdf)
    for (const text of [t.certificate, '賃貸借契約書（東京都港区）', '契約書.pdf', '山田 Ada', '김민준']) expect(pages.join('\n')).toContain(text)
    expect(pdf.length).toBeLessThan(120_000) // subsets: a few hundred glyphs, not the fonts' megabytes
    if (HAS_POPPLER) {
      const text = poppler(pdf, 'certificate-ja')
      for (const s of [t.certificate, '山田 Ada', '김민준', '2026/11/23']) expect(text).toContain(s)
    }
  })

  it('a Japanese audit log: its events, names and details, every glyph drawn', async () => {
    const i = input('ja')
    const t = evidenceText('ja')
    const pdf = await (await auditLogDocument({ envelope: i.envelope, locale: i.meta!, entries: i.auditLog!, generatedAt: '2026-11-23T10:03:00.000Z', chainHead: 'c'.repeat(64) })).save()
    expect(wrongGlyphs(await PDFDocument.load(pdf))).toEqual([])
    const text = (await pdfText(pdf)).join('\n')
    for (const s of [t.auditLog, t.events.DOCUMENT_OPENED!, '内容を確認しました。', '김민준']) expect(text).toContain(s)
    if (HAS_POPPLER) expect(poppler(pdf, 'audit-log-ja')).toContain('山田 Ada')
  })

  it('a certificate in Latin script alone embeds no CJK font', async () => {
    const latin = input('en')
    latin.envelope.title = 'Lease'
    latin.items[0]!.title = 'lease.pdf'
    latin.recipients = [{ ...signer, name: 'Ada Lovelace' }]
    latin.auditLog = []
    const doc = await PDFDocument.load(await (await certificateDocument(latin)).save())
    expect(fontNames(doc)).toEqual(['DejaVuSans'])
  })

  it('a Chinese title in an English certificate is drawn in the Chinese font', async () => {
    const zh = input('en')
    zh.envelope.title = '租赁合同 2026'
    zh.recipients = [{ ...signer, name: '王伟' }]
    zh.auditLog = []
    zh.items[0]!.title = 'lease.pdf'
    const doc = await PDFDocument.load(await (await certificateDocument(zh)).save())
    expect(wrongGlyphs(doc)).toEqual([])
    expect(fontNames(doc)).toEqual(['DejaVuSans', 'NotoSansSC-Regular'])
  })
})

describe('a signer writing Japanese and Korean into a document, on pglite', () => {
  test('has their name and text field stamped on the page, every glyph drawn', async ({ host, team, variant }) => {
    const { client } = team
    const e = await createEnvelope(client, {
      title: 'Service agreement',
      meta: { language: 'en' },
      recipients: [
        {
          name: 'Ada',
          email: 'ada@example.jp',
          role: 'SIGNER',
          fields: [
            { type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 },
            { type: 'NAME', page: 1, positionX: 10, positionY: 20, width: 40, height: 5 },
            { type: 'TEXT', page: 1, positionX: 10, positionY: 30, width: 60, height: 5 },
          ],
        },
      ],
    })
    const sent = await client.post('/envelope/distribute', { envelopeId: e.id })
    expect(sent.status).toBe(200)
    const signing = api(`${host.url}/api/signing`, `Bearer ${sent.body.recipients[0].token}`)
    await signing.post('/open', {})
    const session = (await signing.get('/session')).body
    const value = (type: string) => (type === 'SIGNATURE' ? SIGNATURE : type === 'NAME' ? '山田 Ada' : '서울특별시 중구 세종대로 110')
    const done = await signing.post('/complete', { fields: session.fields.map((f: { id: number; type: string }) => ({ id: f.id, value: value(f.type) })) })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    await sealed(host, e.id, 120_000)
    await mailed(host, e.id, 120_000)

    const pdf = (await client.get(`/envelope/item/${e.envelopeItems[0].id}/download`)).body as Uint8Array
    const doc = await PDFDocument.load(pdf)
    expect(wrongGlyphs(doc)).toEqual([])
    const first = (await pdfText(pdf))[0]!
    expect(first).toContain('山田 Ada')
    expect(first).toContain('서울특별시 중구 세종대로 110')
    if (HAS_POPPLER) expect(poppler(pdf, `stamped-cjk-${variant}`)).toContain('서울특별시')
  })
})
