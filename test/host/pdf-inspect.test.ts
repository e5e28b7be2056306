import { randomBytes } from 'node:crypto'
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { inspectPdf, lzwDecodedSize, MAX_INFLATED_BYTES } from '../../host/server/pdf/inspect.js'
import { lzwEncode, rawPdf, zerosLzw } from './hostile.js'

/** pdf-lib's own LZW decoder (the parser's), to check the meter against. */
async function decodeLzw(data: Uint8Array): Promise<Uint8Array> {
  // CommonJS modules with `exports.default`: the class is one or two `default`s deep depending on the loader's interop.
  const pick = <T>(m: unknown): T => { const d = (m as { default: T & { default?: T } }).default; return d.default ?? d }
  type Decoder = new (s: unknown, maybeLength?: number, earlyChange?: number) => { getBytes(): Uint8Array }
  const LZWStream = pick<Decoder>(await import('pdf-lib/cjs/core/streams/LZWStream.js'))
  const Stream = pick<new (b: Uint8Array) => unknown>(await import('pdf-lib/cjs/core/streams/Stream.js'))
  return new LZWStream(new Stream(data), undefined, 1).getBytes()
}

describe('LZW streams are measured before any parser decodes them', () => {
  it('counts exactly what a decoder produces', async () => {
    const text = Buffer.from('BT /F1 12 Tf 72 712 Td (TOBEORNOTTOBEORTOBEORNOT) Tj ET\n'.repeat(400))
    const samples = [text, Buffer.alloc(50_000), randomBytes(30_000), Buffer.concat([randomBytes(5_000), Buffer.alloc(20_000, 7), text])]
    for (const data of samples) {
      const encoded = lzwEncode(data)
      const decoded = await decodeLzw(encoded)
      expect(Buffer.from(decoded).equals(data)).toBe(true)
      expect(lzwDecodedSize(encoded, Infinity)).toBe(data.length)
    }
    // The bomb's codes decode to what they claim, and the meter stops at its cap.
    const small = zerosLzw(1)
    expect((await decodeLzw(small)).every((b) => b === 0)).toBe(true)
    expect(lzwDecodedSize(small, Infinity)).toBe((await decodeLzw(small)).length)
    expect(lzwDecodedSize(zerosLzw(1024), MAX_INFLATED_BYTES)).toBe(MAX_INFLATED_BYTES + 1)
  })

  it('takes a PDF with an LZW content stream, refuses an LZW bomb', async () => {
    const content = lzwEncode(Buffer.from('BT /F1 24 Tf 72 700 Td (Hello) Tj ET'))
    const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'
    const body = (dict: string, data: Buffer) => Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')])
    const ok = rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', page, body('/Filter /LZWDecode', content)])
    await expect(inspectPdf(ok, 'ok.pdf')).resolves.toEqual({ pageCount: 1 })
    expect((await PDFDocument.load(ok)).getPageCount()).toBe(1)
    const bomb = rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', page, body('/Filter /LZWDecode', zerosLzw(1024))])
    await expect(inspectPdf(bomb, 'bomb.pdf')).rejects.toMatchObject({ status: 400, code: 'INVALID_PDF', message: expect.stringContaining('inflate to more than 128 MiB') })
  })
})
