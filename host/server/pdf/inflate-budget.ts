import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { constants, inflateSync } from 'node:zlib'
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, type PDFDocument } from '@cantoo/pdf-lib'

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

// The library decodes the streams it parses (object streams on load, cross-reference streams)
// through ByteStream.fromPDFRawStream, a static property looked up at each call: replacing it routes
// all of them through one metered decoder, whatever the stream's dictionary or line ends say. Flate
// is inflated natively, stopping at the budget; the other filters, Flate data that is corrupt (the
// library then keeps what came out before) and every other decode the library makes (a catalog's
// XMP when saving, an embedded page) go through its own decoders, whose output grows through
// DecodeStream.ensureBuffer, metered too. Under Node, `import … from '@cantoo/pdf-lib'` loads the
// package's ES build (its `exports`); neither class is exported, so both are loaded from that
// build's own files, the same module instances its parser uses.
const esBuild = new URL('../es/', pathToFileURL(createRequire(import.meta.url).resolve('@cantoo/pdf-lib')))
const { default: DecodeStream } = (await import(new URL('core/streams/DecodeStream.js', esBuild).href)) as {
  default: { prototype: { ensureBuffer(this: object, requested: number): Uint8Array } }
}
const { default: ByteStream } = (await import(new URL('core/parser/ByteStream.js', esBuild).href)) as {
  default: { of(bytes: Uint8Array): unknown; fromPDFRawStream(stream: PDFRawStream): unknown }
}
let meter: { left: number; exceeded: boolean } | null = null

/** Takes `n` bytes from the running budget; past it the budget stays spent (pdf-lib's parser may catch the error and read on; the caller checks). */
function charge(n: number) {
  if (!meter) return // outside a metered work (a test calling a decoder directly)
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

/**
 * A stream's data decoded as the library's `decodePDFRawStream` decodes it; within a metered work
 * (withInflateBudget), counted against its budget. The host's own stream reads go through it.
 */
export function decodeStream(stream: PDFRawStream): { decode(): Uint8Array } {
  if (!meter) return decodePDFRawStream(stream)
  const filter = stream.dict.lookup(PDFName.of('Filter'))
  const filters = filter instanceof PDFArray ? filter.asArray() : [filter]
  // One filter at a time, so that each Flate step can be native.
  let data = stream.contents
  filters.forEach((f, i) => {
    if (!f) return
    const parms = stream.dict.lookup(PDFName.of('DecodeParms'))
    const parm = parms instanceof PDFArray ? parms.lookup(i) : parms
    if (f === PDFName.of('FlateDecode')) {
      const out = inflateWithin(data)
      if (out) return (data = out)
    }
    if (f === PDFName.of('LZWDecode')) {
      const early = parm instanceof PDFDict ? parm.lookup(PDFName.of('EarlyChange')) : undefined
      return (data = lzwDecode(data, early instanceof PDFNumber && early.asNumber() === 0 ? 0 : 1))
    }
    const one = PDFDict.withContext(stream.dict.context)
    one.set(PDFName.of('Filter'), f)
    if (parm) one.set(PDFName.of('DecodeParms'), parm)
    data = decodePDFRawStream(PDFRawStream.of(one, data)).decode()
  })
  return { decode: () => data }
}
ByteStream.fromPDFRawStream = (stream) => ByteStream.of(decodeStream(stream).decode())

/**
 * An LZWDecode stream decoded (PDF 32000-1, 7.4.4) as pdf-lib's decoder does, but in one pass over
 * typed arrays and charging each string against the running budget before writing it (pdf-lib's
 * own is several times slower on long strings). Corrupt data: what came out before.
 */
export function lzwDecode(data: Uint8Array, earlyChange: 0 | 1 = 1): Uint8Array {
  // Every string is a run of the output already written: an entry is where its string last came
  // out and its length (the string before it plus the first byte of the next, which follows it).
  const at = new Int32Array(4096)
  const lengths = new Uint16Array(4096)
  let out = new Uint8Array(Math.max(1024, data.length * 2))
  let n = 0
  let bits = 0
  let held = 0
  let width = 9
  let next = 258
  let previous = -1 // the last code out; -1 right after a clear
  for (let i = 0; i < data.length; i++) {
    bits = ((bits << 8) | data[i]!) & 0xfffff
    held += 8
    while (held >= width) {
      held -= width
      const code = (bits >>> held) & ((1 << width) - 1)
      if (code === 256) {
        width = 9
        next = 258
        previous = -1
        continue
      }
      if (code === 257) return out.subarray(0, n)
      // A code not yet defined is only valid as the next one (the string before plus its first byte).
      const length = code < 256 ? 1 : code < next ? lengths[code]! : code === next && previous >= 0 ? lengths[previous]! + 1 : 0
      if (!length) return out.subarray(0, n)
      charge(length)
      if (n + length > out.length) {
        const grown = new Uint8Array(Math.max(out.length * 2, n + length))
        grown.set(out.subarray(0, n))
        out = grown
      }
      if (code < 256) out[n] = code
      else if (code < next) out.copyWithin(n, at[code]!, at[code]! + length)
      else {
        out.copyWithin(n, at[previous]!, at[previous]! + length - 1)
        out[n + length - 1] = out[n]!
      }
      if (previous >= 0 && next < 4096) {
        at[next] = at[previous]!
        lengths[next] = lengths[previous]! + 1
        next++
        if (next + earlyChange >= 1 << width && width < 12) width++
      }
      at[code] = n
      lengths[code] = length
      n += length
      previous = code
    }
  }
  return out.subarray(0, n)
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
      decodeStream(stream).decode()
    } catch (err) {
      if (err instanceof InflateBudgetExceeded) throw err
      // Corrupt data: what came out before it was counted; readers stop there too.
    }
  }
  return null
}
