/**
 * Hostile inputs shared by the fuzz and isolation suites: a seeded generator, hand-built broken
 * PDFs (real bytes, no mocks) and the zip and LZW bombs, built without ever holding its inflated size.
 */
import { crc32, deflateRawSync, deflateSync, constants } from 'node:zlib'
import { PDFDocument } from '@cantoo/pdf-lib'
import { makePdf } from './support.js'

/** mulberry32: a small deterministic generator, so every run sends the same requests. */
export function seeded(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  }
}
export type Rng = ReturnType<typeof seeded>

/**
 * A PDF from object bodies (object i+1 = bodies[i]) with a correct cross-reference table, unless
 * `xref` says otherwise. Object 1 must be the catalog.
 */
export function rawPdf(bodies: (string | Buffer)[], opts: { trailer?: string; xref?: 'ok' | 'garbage' | 'none' } = {}): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
  let at = parts[0]!.length
  const offsets: number[] = []
  bodies.forEach((body, i) => {
    offsets.push(at)
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), typeof body === 'string' ? Buffer.from(body, 'latin1') : body, Buffer.from('\nendobj\n')])
    parts.push(chunk)
    at += chunk.length
  })
  const xref = opts.xref ?? 'ok'
  const xrefAt = at
  if (xref !== 'none') {
    const entries = offsets.map((o, i) => (xref === 'garbage' ? `${String(o * 7 + i * 13).padStart(10, '9')} 00000 n \n` : `${String(o).padStart(10, '0')} 00000 n \n`))
    parts.push(Buffer.from(`xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${entries.join('')}`))
  }
  parts.push(Buffer.from(`trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R ${opts.trailer ?? ''} >>\nstartxref\n${xref === 'garbage' ? xrefAt + 11 : xrefAt}\n%%EOF\n`))
  return Buffer.concat(parts)
}

/** Object bodies of a one-page PDF whose page's content is object 4. */
export const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>'
export const PAGES = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'
export const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'
/** A stream object's body. */
export const stream = (dict: string, data: Buffer) => Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')])

/**
 * A zlib stream of `mib` MiB of zeros, built from one compressed MiB repeated: a full flush makes
 * each chunk byte-aligned and independent of what came before, so the chunks concatenate.
 */
export function zerosDeflated(mib: number): Buffer {
  const chunk = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_FULL_FLUSH })
  const end = Buffer.from([0x03, 0x00]) // an empty final block (fixed Huffman)
  const adler = Buffer.alloc(4)
  adler.writeUInt32BE(((((mib * (1 << 20)) % 65521) << 16) | 1) >>> 0) // Adler-32 of zeros: a = 1, b = length
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: mib }, () => chunk), end, adler])
}

/** Packs LZW codes MSB first, each as wide as a PDF decoder (EarlyChange 1) reads it at that point. */
function lzwWriter() {
  const out: number[] = []
  let bits = 0
  let held = 0
  let width = 9
  let next = 258
  const put = (code: number) => {
    bits = (bits << width) | code
    held += width
    while (held >= 8) {
      held -= 8
      out.push((bits >>> held) & 0xff)
    }
    bits &= (1 << held) - 1
  }
  return {
    /** A code; `adds`: the decoder adds a dictionary entry on reading it (every code but the first after a clear). */
    code(code: number, adds: boolean) {
      put(code)
      if (code === 256) [width, next] = [9, 258]
      else if (adds && next < 4096 && ++next + 1 >= 1 << width && width < 12) width++
    },
    get next() {
      return next
    },
    end: () => {
      put(257)
      if (held) out.push((bits << (8 - held)) & 0xff)
      return Buffer.from(out)
    },
  }
}

/** Standard LZW (PDF 32000-1, 7.4.4) of `data`: a real encoder, to check the decoded-size meter against a real decoder. */
export function lzwEncode(data: Uint8Array): Buffer {
  const w = lzwWriter()
  let dict = new Map<string, number>()
  w.code(256, false)
  let current = ''
  let first = true
  for (const byte of data) {
    const grown = current + String.fromCharCode(byte)
    if (current === '' || dict.has(grown)) {
      current = grown
      continue
    }
    w.code(current.length === 1 ? current.charCodeAt(0) : dict.get(current)!, !first)
    first = false
    if (w.next >= 4095) {
      w.code(256, false)
      dict = new Map()
      first = true
    } else dict.set(grown, w.next)
    current = String.fromCharCode(byte)
  }
  if (current) w.code(current.length === 1 ? current.charCodeAt(0) : dict.get(current)!, !first)
  return w.end()
}

/**
 * An LZW stream of at least `mib` MiB of zeros in a few hundred KB: after a clear, code 0 and then
 * each next code, the string before plus one zero, so the strings grow 1, 2, 3... bytes long.
 */
export function zerosLzw(mib: number): Buffer {
  const w = lzwWriter()
  let remaining = mib * (1 << 20)
  while (remaining > 0) {
    w.code(256, false)
    w.code(0, false)
    let length = 1
    remaining -= 1
    while (remaining > 0 && w.next < 4095) {
      w.code(w.next, true)
      remaining -= ++length
    }
  }
  return w.end()
}

/**
 * PDFs whose bombs went past the old keyword-scanning meter (it skipped `/Subtype /Image`, line
 * ends other than `\n`, filter chains that did not start with zlib data), and the other places a
 * parser inflates: name -> bytes, each hiding `mib` MiB of zeros.
 */
export function meterBypasses(mib: number): Record<string, Buffer> {
  const bomb = zerosDeflated(mib)
  const objStm = '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode'
  const raw = (dict: string, data: Buffer, keyword = 'stream\n', length = data.length) =>
    Buffer.concat([Buffer.from(`<< ${dict} /Length ${length} >>\n${keyword}`, 'latin1'), data, Buffer.from('\nendstream')])
  const body = (extra: Buffer) => rawPdf([CATALOG, PAGES, PAGE, stream('', Buffer.from('BT ET')), extra])
  // A stream inside an object stream: the object stream itself inflates to little.
  const nested = deflateSync(Buffer.concat([Buffer.from('6 0 '), raw('/Filter /FlateDecode', bomb)]))
  return {
    'object stream that says it is an image': body(raw(`${objStm} /Subtype /Image`, bomb)),
    'image': body(raw('/Type /XObject /Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode', bomb)),
    'stream\\r': body(raw(objStm, bomb, 'stream\r')),
    'stream \\r\\n': body(raw(objStm, bomb, 'stream \r\n')),
    'stream\\r\\n with a lying /Length': body(raw(objStm, bomb, 'stream\r\n', 10)),
    'cross-reference stream': body(raw('/Type /XRef /Size 6 /W [1 2 1] /Filter /FlateDecode', bomb)),
    'two filters': body(raw('/Filter [/FlateDecode /FlateDecode]', deflateSync(bomb))),
    'ASCIIHex then Flate': body(raw('/Filter [/ASCIIHexDecode /FlateDecode]', Buffer.from(bomb.toString('hex') + '>'))),
    'LZW object stream': body(raw('/Type /ObjStm /N 1 /First 4 /Filter /LZWDecode', zerosLzw(mib))),
    'stream nested in an object stream': body(raw('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', nested)),
  }
}

/** A PNG from its header fields and the bytes of its (one) IDAT chunk, CRCs right. */
export function pngOf(h: { width: number; height: number; bitDepth?: number; colorType?: number; interlace?: 0 | 1 }, idat: Uint8Array): Buffer {
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length)
    out.writeUInt32BE(data.length, 0)
    out.write(type, 4, 'latin1')
    out.set(data, 8)
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(h.width, 0)
  ihdr.writeUInt32BE(h.height, 4)
  ihdr.set([h.bitDepth ?? 8, h.colorType ?? 6, 0, 0, h.interlace ?? 0], 8)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))])
}

/** The hostile PDFs: name -> bytes. Built once per suite (about 10 MB in all). */
export async function hostilePdfs(): Promise<Record<string, Uint8Array>> {
  const valid = Buffer.from(await makePdf(2))
  const bomb1g = zerosDeflated(1024)
  const bomb4g = deflateSync(zerosDeflated(4096))
  const thousands = await PDFDocument.create()
  for (let i = 0; i < 3000; i++) thousands.addPage([200, 200])
  const bypasses = meterBypasses(1024)
  return {
    empty: new Uint8Array(0),
    'header only': Buffer.from('%PDF-1.7\n%%EOF\n'),
    truncated: valid.subarray(0, Math.floor(valid.length / 2)),
    'no trailer': valid.subarray(0, valid.lastIndexOf('trailer')),
    encrypted: rawPdf([CATALOG, PAGES, PAGE, stream('', Buffer.from('BT ET')), `<< /Filter /Standard /V 1 /R 2 /O <${'00'.repeat(32)}> /U <${'00'.repeat(32)}> /P -4 >>`], {
      trailer: `/Encrypt 5 0 R /ID [<${'11'.repeat(16)}> <${'11'.repeat(16)}>]`,
    }),
    'broken xref': rawPdf([CATALOG, PAGES, PAGE, stream('', Buffer.from('BT ET'))], { xref: 'garbage' }),
    'no xref': rawPdf([CATALOG, PAGES, PAGE, stream('', Buffer.from('BT ET'))], { xref: 'none' }),
    'page tree cycle': rawPdf([CATALOG, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>']),
    'no pages': rawPdf([CATALOG, '<< /Type /Pages /Kids [] /Count 0 >>']),
    'lying page count': rawPdf([CATALOG, '<< /Type /Pages /Kids [3 0 R] /Count 2147483647 >>', PAGE, stream('', Buffer.from('BT ET'))]),
    '3000 pages': await thousands.save(),
    // 1 GiB of zeros behind 1 MB: a page's content stream.
    'zip bomb (content stream)': rawPdf([CATALOG, PAGES, PAGE, stream('/Filter /FlateDecode', bomb1g)]),
    // The same as an object stream, which PDF parsers inflate while loading the file.
    'zip bomb (object stream)': rawPdf([CATALOG, PAGES, PAGE, stream('', Buffer.from('BT ET')), stream('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', bomb1g)]),
    // 4 GiB behind a few KB: two FlateDecode filters in a row.
    'zip bomb (filter chain)': rawPdf([CATALOG, PAGES, PAGE, stream('/Filter [/FlateDecode /FlateDecode]', bomb4g)]),
    // 1 GiB of zeros behind about 1 MB of LZW, as an object stream: PDF parsers decode those on load.
    'lzw bomb (object stream)': rawPdf([CATALOG, PAGES, PAGE, stream('', Buffer.from('BT ET')), stream('/Type /ObjStm /N 1 /First 4 /Filter /LZWDecode', zerosLzw(1024))]),
    // Two that went past the old keyword meter (meterBypasses has them all): a dictionary that lies, a stream within a stream.
    'zip bomb (object stream that says it is an image)': bypasses['object stream that says it is an image']!,
    'zip bomb (stream nested in an object stream)': bypasses['stream nested in an object stream']!,
    'png named pdf': Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
  }
}

/**
 * Arrays and dictionaries nested `depth` deep, in each place a reader meets them: the page tree, a
 * page's resources, an annotation, the trailer, and a page inside an object stream. Each is
 * otherwise a valid one-page PDF.
 */
export function deeplyNestedPdfs(depth = 10_000): Record<string, Buffer> {
  const nested = { array: '['.repeat(depth) + ']'.repeat(depth), dictionary: '<< /A '.repeat(depth) + '1' + ' >>'.repeat(depth) }
  const content = stream('', Buffer.from('BT ET'))
  const page = (extra: string) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ${extra} >>`
  const out: Record<string, Buffer> = {}
  for (const [kind, deep] of Object.entries(nested)) {
    out[`${kind} nested in the page tree`] = rawPdf([CATALOG, `<< /Type /Pages /Kids [3 0 R] /Count 1 /X ${deep} >>`, PAGE, content])
    out[`${kind} nested in a page's resources`] = rawPdf([CATALOG, PAGES, page(`/Resources << /X ${deep} >>`), content])
    out[`${kind} nested in an annotation`] = rawPdf([CATALOG, PAGES, page('/Annots [5 0 R]'), content, `<< /Type /Annot /Subtype /Text /Rect [0 0 10 10] /X ${deep} >>`])
    out[`${kind} nested in the trailer`] = rawPdf([CATALOG, PAGES, PAGE, content], { trailer: `/X ${deep}` })
    const member = Buffer.from(page(`/X ${deep}`))
    out[`${kind} nested in an object stream`] = rawPdf([CATALOG, PAGES, 'null', content, stream('/Type /ObjStm /N 1 /First 4', Buffer.concat([Buffer.from('3 0 '), member]))])
  }
  return out
}

/** Path parameter values: NUL bytes, unicode, path separators, encodings that do not decode, huge numbers. */
export const HOSTILE_IDS = [
  '%00',
  'envelope_abc%00',
  '1%00',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  '..',
  '%5C..%5C',
  '%E2%80%AE%F0%9F%92%A5',
  encodeURIComponent('ключ-鍵'),
  '%FF%FE',
  '%C0%AE',
  '%',
  '%zz',
  '%E0%A4%A',
  'x'.repeat(4000),
  '-1',
  '0',
  '99999999999999999999999',
  '1e308',
  '0x10',
  'envelope_' + 'a'.repeat(300),
  '%0D%0ASet-Cookie:%20x=1',
  'null',
]

/** Bodies that are not JSON, or JSON of the wrong shape. */
export const MALFORMED_JSON = [
  '{',
  '{"envelopeId": ',
  '[',
  'nul',
  '\u0000',
  '\ufeff{}',
  '{"a":1}}',
  '{"a":1,}',
  "{'a':1}",
  'null',
  '0',
  '-1e999',
  '"text"',
  'true',
  '[]',
  '[{}]',
  '{}',
  '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}',
  '"\\u0000"',
  '{"envelopeId": "envelope_\\u0000", "id": "\\u0000", "data": "\\ud800"}',
]

const KEYS = [
  'envelopeId', 'envelopeItemId', 'recipientId', 'fieldId', 'id', 'ids', 'type', 'data', 'meta', 'title', 'externalId', 'visibility',
  'email', 'name', 'role', 'signingOrder', 'page', 'positionX', 'positionY', 'width', 'height', 'fieldMeta', 'placeholder', 'matchAll',
  'recipients', 'fields', 'label', 'url', 'events', 'secret', 'enabled', 'expiresIn', 'scope', 'embedOrigins', 'reason', 'documentId',
  'templateId', 'documentIds', 'templateIds', 'prefillFields', 'distributeDocument', 'signer', 'nextSigner', 'value', 'sendEmail',
  'override', 'directRecipientId', 'order', 'includeRecipients', 'includeFields', 'customDocumentData', 'version', 'orderByDirection',
]

const STRINGS = [
  '', 'a', '\u0000', 'a\u0000b', 'x'.repeat(300), 'y'.repeat(70_000), '💥', '\u202e', '\ud800', '../../etc/passwd', '<script>alert(1)</script>',
  "'; drop table envelopes; --", 'envelope_', 'envelope_0000000000000000', 'DOCUMENT', 'TEMPLATE', 'SIGNER', 'SIGNATURE', 'https://example.com',
  'javascript:alert(1)', 'a@example.com', 'documentId:1', 'envelopeId:envelope_x', 'EVERYONE', '2024-13-45', 'NaN', '1', '-1',
]
const NUMBERS = [0, -1, 1, 2, 1.5, 100, 101, 2 ** 31, 2 ** 31 - 1, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e-308]

/** A random JSON value, nested at most `depth` deep; `ids` are real ids of the suite's resources. */
export function randomValue(rng: Rng, ids: readonly (string | number)[], depth = 3): unknown {
  const k = rng.int(depth > 0 ? 9 : 6)
  switch (k) {
    case 0:
    case 1:
      return rng.pick(STRINGS)
    case 2:
      return rng.pick(NUMBERS)
    case 3:
      return ids.length ? rng.pick(ids) : null
    case 4:
      return rng.pick([true, false, null])
    case 5:
      return rng.pick(ids.length ? [...ids, ...STRINGS] : STRINGS)
    case 6:
    case 7:
      return randomObject(rng, ids, depth - 1)
    default:
      return Array.from({ length: rng.int(4) }, () => randomValue(rng, ids, depth - 1))
  }
}

export function randomObject(rng: Rng, ids: readonly (string | number)[], depth = 3): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  for (let i = rng.int(6); i >= 0; i--) o[rng.pick(KEYS)] = randomValue(rng, ids, depth)
  return o
}

/** JSON nested `depth` levels deep, as arrays and as objects, inside a plausible body. */
export const deepArray = (depth: number) => `{"envelopeId":"envelope_x","data":${'['.repeat(depth)}${']'.repeat(depth)}}`
export const deepObject = (depth: number) => `{"fieldMeta":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)},"data":[{"fieldMeta":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}]}`
