import { deflateSync } from 'node:zlib'
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { MAX_INFLATED_BYTES } from '../../host/server/pdf/inflate-budget.js'
import { inspectPdf } from '../../host/server/pdf/inspect.js'
import { CATALOG, lzwEncode, meterBypasses, PAGE, PAGES, rawPdf, stream, zerosDeflated } from './hostile.js'

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
