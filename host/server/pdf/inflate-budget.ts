import { createRequire } from 'node:module'
import { decodePDFRawStream, PDFArray, PDFName, PDFRawStream, type PDFDocument } from 'pdf-lib'

/**
 * Most bytes pdf-lib's decoders may produce for one file, all streams together (intermediate
 * buffers of a filter chain included). Far above any real document; a "zip bomb" (a small stream
 * of zeros that inflates to gigabytes) stops here, while it inflates.
 */
export const MAX_INFLATED_BYTES = 128 * 1024 * 1024

/** The error a decoder throws past the budget. */
export class InflateBudgetExceeded extends Error {
  constructor() {
    super(`its compressed streams inflate to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB`)
  }
}

// Every pdf-lib decoder (Flate, LZW, ASCII85, ASCIIHex, RunLength) grows its output through
// DecodeStream.ensureBuffer: metering there counts whatever pdf-lib inflates, object streams on
// load included, whatever the stream's dictionary or line endings say. The host imports pdf-lib's
// CommonJS build (its package `main`), so this is the class its parser uses.
const { default: DecodeStream } = createRequire(import.meta.url)('pdf-lib/cjs/core/streams/DecodeStream.js') as {
  default: { prototype: { ensureBuffer(this: object, requested: number): Uint8Array } }
}
let meter: { left: number; exceeded: boolean } | null = null
const charged = new WeakMap<object, number>()
const ensureBuffer = DecodeStream.prototype.ensureBuffer
DecodeStream.prototype.ensureBuffer = function (requested) {
  if (meter) {
    const before = charged.get(this) ?? 0
    if (requested > before) {
      charged.set(this, requested)
      meter.left -= requested - before
      // Sticky: pdf-lib's parser may catch the error and read on; the caller checks `exceeded`.
      if (meter.left < 0) meter.exceeded = true
    }
    if (meter.exceeded) throw new InflateBudgetExceeded()
  }
  return ensureBuffer.call(this, requested)
}

/**
 * Runs `work` (pdf-lib calls) with every decode metered against MAX_INFLATED_BYTES; throws
 * InflateBudgetExceeded past it. One metered work at a time per thread: the worker threads run one
 * task each.
 */
export async function withInflateBudget<T>(work: () => Promise<T>, budget = MAX_INFLATED_BYTES): Promise<T> {
  if (meter) throw new Error('a metered work is already running in this thread')
  const own = { left: budget, exceeded: false }
  meter = own
  try {
    const result = await work()
    if (own.exceeded) throw new InflateBudgetExceeded()
    return result
  } catch (err) {
    throw own.exceeded ? new InflateBudgetExceeded() : err
  } finally {
    meter = null
  }
}

/** Image codecs: no parser in the host decodes them (a filter chain is decoded up to its first one). */
const IMAGE_FILTERS = new Set(['DCTDecode', 'JPXDecode', 'CCITTFaxDecode', 'JBIG2Decode'])
const DECODED = new Set(['FlateDecode', 'LZWDecode', 'ASCII85Decode', 'ASCIIHexDecode', 'RunLengthDecode'])

/**
 * Decodes every stream of the loaded document (within the running budget), whatever its dictionary
 * says (an image, a font, a content stream, one nested in an object stream): what any reader of
 * the stored file may inflate is counted now. Returns why the file is refused, or null.
 */
export function decodeEveryStream(doc: PDFDocument): string | null {
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue
    const filter = object.dict.lookup(PDFName.of('Filter'))
    const names = filter instanceof PDFName ? [filter] : filter instanceof PDFArray ? filter.asArray() : []
    const chain: string[] = names.map((n) => (n instanceof PDFName ? n.decodeText() : '?'))
    const upTo = chain.findIndex((n) => !DECODED.has(n))
    if (upTo !== -1 && !IMAGE_FILTERS.has(chain[upTo]!)) return `a stream has the filter /${chain[upTo]}, which is not supported`
    if (upTo === 0) continue
    let stream = object
    if (upTo > 0) {
      // Only the filters before the image codec: a copy of the dictionary, the same bytes.
      const dict = object.dict.clone()
      dict.set(PDFName.of('Filter'), doc.context.obj(chain.slice(0, upTo).map((n) => PDFName.of(n))))
      stream = PDFRawStream.of(dict, object.contents)
    }
    try {
      decodePDFRawStream(stream).decode()
    } catch (err) {
      if (err instanceof InflateBudgetExceeded) throw err
      // Corrupt data: what came out before it was counted; readers stop there too.
    }
  }
  return null
}
