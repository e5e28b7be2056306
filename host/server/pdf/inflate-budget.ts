import { createRequire } from 'node:module'
import { constants, inflateSync } from 'node:zlib'
import { PDFArray, PDFDict, PDFName, PDFRawStream, type PDFDocument } from 'pdf-lib'

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

// pdf-lib decodes every stream it reads (object streams on load, cross-reference streams, embedded
// pages) through the module export `decodePDFRawStream`, looked up at each call: replacing it
// routes all of them through one metered decoder, whatever the stream's dictionary or line ends
// say. Flate is inflated natively, stopping at the budget; the other filters, and Flate data that
// is corrupt (pdf-lib then keeps what came out before), go through pdf-lib's own decoders, whose
// output grows through DecodeStream.ensureBuffer, metered too. The host imports pdf-lib's CommonJS
// build (its package `main`), so these are the modules its parser uses.
const load = createRequire(import.meta.url)
const decodeModule = load('pdf-lib/cjs/core/streams/decode.js') as { decodePDFRawStream: (s: PDFRawStream) => { decode(): Uint8Array } }
const { default: DecodeStream } = load('pdf-lib/cjs/core/streams/DecodeStream.js') as {
  default: { prototype: { ensureBuffer(this: object, requested: number): Uint8Array } }
}
let meter: { left: number; exceeded: boolean } | null = null

/** Takes `n` bytes from the running budget; past it the budget stays spent (pdf-lib's parser may catch the error and read on; the caller checks). */
function charge(n: number) {
  if (!meter) return
  meter.left -= n
  if (meter.left < 0) meter.exceeded = true
  if (meter.exceeded) throw new InflateBudgetExceeded()
}

const charged = new WeakMap<object, number>()
const ensureBuffer = DecodeStream.prototype.ensureBuffer
DecodeStream.prototype.ensureBuffer = function (requested) {
  const before = charged.get(this) ?? 0
  if (meter && requested > before) {
    charged.set(this, requested)
    charge(requested - before)
  }
  return ensureBuffer.call(this, requested)
}

const pdfLibDecode = decodeModule.decodePDFRawStream
decodeModule.decodePDFRawStream = function meteredDecode(stream) {
  if (!meter) return pdfLibDecode(stream)
  const filter = stream.dict.lookup(PDFName.of('Filter'))
  const filters = filter instanceof PDFArray ? filter.asArray() : [filter]
  // One filter at a time, so that each Flate step can be native.
  let data = stream.contents
  filters.forEach((f, i) => {
    if (!f) return
    if (f === PDFName.of('FlateDecode')) {
      const out = inflateWithin(data)
      if (out) return (data = out)
    }
    const parms = stream.dict.lookup(PDFName.of('DecodeParms'))
    const one = PDFDict.withContext(stream.dict.context)
    one.set(PDFName.of('Filter'), f)
    const parm = parms instanceof PDFArray ? parms.get(i) : parms
    if (parm) one.set(PDFName.of('DecodeParms'), parm)
    data = pdfLibDecode(PDFRawStream.of(one, data)).decode()
  })
  return { decode: () => data }
}

/** Flate data inflated natively within the budget (charged), or null when it is corrupt. */
function inflateWithin(data: Uint8Array): Uint8Array | null {
  let out: Buffer
  try {
    // A truncated stream gives what it holds, as pdf-lib's decoder does.
    out = inflateSync(data, { maxOutputLength: Math.max(1, meter!.left + 1), finishFlush: constants.Z_SYNC_FLUSH })
  } catch (err) {
    if (err instanceof RangeError) charge(meter!.left + 1)
    return null
  }
  charge(out.length)
  return new Uint8Array(out.buffer, out.byteOffset, out.length)
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
      decodeModule.decodePDFRawStream(stream).decode()
    } catch (err) {
      if (err instanceof InflateBudgetExceeded) throw err
      // Corrupt data: what came out before it was counted; readers stop there too.
    }
  }
  return null
}
