/**
 * PDF inspection: one inflation budget for every stream whatever its dictionary says, the LZW
 * decoder it runs, and a limit on nesting.
 * Database: none (pure functions).
 */
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { deflateSync } from 'node:zlib'
import { PDFDocument } from '@cantoo/pdf-lib'
import { describe, expect, it } from 'vitest'
import { lzwDecode, MAX_INFLATED_BYTES } from '../../host/server/pdf/inflate-budget.js'
import { inspectPdf, MAX_NESTING } from '../../host/server/pdf/inspect.js'
import { CATALOG, deeplyNestedPdfs, lzwEncode, meterBypasses, PAGE, PAGES, rawPdf, stream, zerosDeflated, zerosLzw } from './hostile.js'

const body = stream
const onePage = (...extra: Buffer[]) => rawPdf([CATALOG, PAGES, PAGE, ...extra])
const tooBig = { status: 400, code: 'INVALID_PDF', message: expect.stringContaining(`inflate to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB`) }

describe('every stream is decoded within one inflation budget, whatever its dictionary says', () => {
  // Twice the budget: enough to prove the meter, cheap to build.
  const twice = (2 * MAX_INFLATED_BYTES) / 1024 / 1024
  for (const [name, pdf] of Object.entries(meterBypasses(twice))) {
    it(`refuses a bomb: ${name}`, async () => {
      await expect(inspectPdf(pdf, `${name}.pdf`)).rejects.toMatchObject(tooBig)
    })
  }

  it('takes real compressed streams: Flate, LZW, chains, an image, a JPEG behind Flate', async () => {
    const content = Buffer.from('BT /F1 24 Tf 72 700 Td (Hello) Tj ET')
    const image = '/Type /XObject /Subtype /Image /Width 1000 /Height 1000 /BitsPerComponent 8 /ColorSpace /DeviceGray'
    for (const [dict, data] of [
      ['/Filter /FlateDecode', deflateSync(content)],
      ['/Filter /LZWDecode', lzwEncode(content)],
      ['/Filter [/ASCIIHexDecode /FlateDecode]', Buffer.from(deflateSync(content).toString('hex') + '>')],
    ] as const) {
      const pdf = onePage(body(dict, data), body(`${image} /Filter /FlateDecode`, deflateSync(Buffer.alloc(1_000_000, 255))))
      await expect(inspectPdf(pdf, 'ok.pdf')).resolves.toMatchObject({ pageCount: 1, removed: [] })
    }
    // A JPEG (not decoded by any parser of the host) behind Flate: only the Flate part is decoded.
    const jpeg = onePage(body('', content), body(`${image} /Filter [/FlateDecode /DCTDecode]`, deflateSync(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))))
    await expect(inspectPdf(jpeg, 'jpeg.pdf')).resolves.toMatchObject({ pageCount: 1 })
  })

  it('the budget counts all streams together', async () => {
    const part = zerosDeflated(MAX_INFLATED_BYTES / 1024 / 1024 / 2 + 1)
    await expect(inspectPdf(onePage(body('/Filter /FlateDecode', part)), 'half.pdf')).resolves.toMatchObject({ pageCount: 1 })
    await expect(inspectPdf(onePage(body('/Filter /FlateDecode', part), body('/Filter /FlateDecode', part)), 'twice.pdf')).rejects.toMatchObject(tooBig)
  })

  it('refuses a filter no decoder of the host knows (a reader might still inflate it)', async () => {
    const pdf = onePage(body('/Filter /Fl', deflateSync(Buffer.from('BT ET'))))
    await expect(inspectPdf(pdf, 'abbreviated.pdf')).rejects.toMatchObject({ status: 400, code: 'INVALID_PDF', message: expect.stringContaining('/Fl') })
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1)
  })
})

/** pdf-lib's own LZW decoder (the ES build's, which the host loads), to check the host's against. */
async function pdfLibLzw(data: Uint8Array): Promise<Uint8Array> {
  const esBuild = new URL('../es/', pathToFileURL(createRequire(import.meta.url).resolve('@cantoo/pdf-lib')))
  type Decoder = new (s: unknown, maybeLength?: number, earlyChange?: number) => { getBytes(): Uint8Array }
  const { default: LZWStream } = (await import(new URL('core/streams/LZWStream.js', esBuild).href)) as { default: Decoder }
  const { default: Stream } = (await import(new URL('core/streams/Stream.js', esBuild).href)) as { default: new (b: Uint8Array) => unknown }
  return new LZWStream(new Stream(data), undefined, 1).getBytes()
}

describe('the LZW decoder the budget runs', () => {
  it('decodes exactly what pdf-lib decodes; cut short, what came out before', async () => {
    const text = Buffer.from('BT /F1 12 Tf 72 712 Td (TOBEORNOTTOBEORTOBEORNOT) Tj ET\n'.repeat(400))
    const samples = [text, Buffer.alloc(50_000), randomBytes(30_000), Buffer.concat([randomBytes(5_000), Buffer.alloc(20_000, 7), text])]
    for (const data of samples) {
      const encoded = lzwEncode(data)
      expect(Buffer.from(lzwDecode(encoded)).equals(data)).toBe(true)
      expect(Buffer.from(await pdfLibLzw(encoded)).equals(data)).toBe(true)
      // Cut short: what came out before (pdf-lib's reads a few junk codes past the end).
      const cut = encoded.subarray(0, encoded.length >> 1)
      const mine = Buffer.from(lzwDecode(cut))
      expect(mine.length).toBeGreaterThan(0)
      expect(Buffer.from(await pdfLibLzw(cut)).subarray(0, mine.length).equals(mine)).toBe(true)
    }
    expect(Buffer.from(lzwDecode(zerosLzw(1))).equals(Buffer.from(await pdfLibLzw(zerosLzw(1))))).toBe(true)
  })
})

describe('nesting', () => {
  it(`takes objects nested up to ${MAX_NESTING} deep and refuses deeper ones, wherever they are, with 400 INVALID_PDF`, async () => {
    // The nesting starts up to two levels into its object (a page's resources).
    for (const [name, pdf] of Object.entries(deeplyNestedPdfs(MAX_NESTING - 2))) {
      await expect(inspectPdf(pdf, `${name}.pdf`), name).resolves.toMatchObject({ pageCount: 1 })
    }
    for (const [name, pdf] of Object.entries(deeplyNestedPdfs(MAX_NESTING + 1))) {
      if (name.endsWith('in the trailer')) continue // no reader keeps the trailer's other keys
      await expect(inspectPdf(pdf, `${name}.pdf`), name).rejects.toMatchObject({ status: 400, code: 'INVALID_PDF', message: expect.stringContaining(`nested more than ${MAX_NESTING} deep`) })
    }
    // Far deeper: a 400 too (the parser itself may give up first), never an internal error.
    for (const [name, pdf] of Object.entries(deeplyNestedPdfs(10_000))) {
      if (name.endsWith('in the trailer')) continue
      await expect(inspectPdf(pdf, `${name}.pdf`), name).rejects.toMatchObject({ status: 400, code: 'INVALID_PDF' })
    }
  })
})
