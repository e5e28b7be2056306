import { createInflate, inflateSync } from 'node:zlib'
import { PDFDocument } from 'pdf-lib'
import { ApiError } from '../errors.js'

/**
 * Most bytes the compressed streams a PDF parser does inflate (everything but images: object and
 * cross-reference streams when the file is loaded, page contents, forms and fonts when its text is
 * searched) may inflate to, all together. Far above any real document; a "zip bomb" (a small
 * stream of zeros that inflates to gigabytes) is refused before anything inflates it in full.
 */
export const MAX_INFLATED_BYTES = 128 * 1024 * 1024
/** Streams up to this compressed size are measured in one synchronous call (at most ~1032x as much output). */
const SYNC_INFLATE_BYTES = 16 * 1024

/** Parses the upload as a PDF; anything that is not a readable, unencrypted PDF is 400 INVALID_PDF. */
export async function inspectPdf(bytes: Uint8Array, name: string): Promise<{ pageCount: number }> {
  const invalid = (why: string) => new ApiError(400, 'INVALID_PDF', `${name} is not a valid PDF: ${why}`)
  // Cheap first check: a PDF starts with %PDF- within its first 1 KiB.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1')
  if (!head.includes('%PDF-')) throw invalid('missing %PDF- header')
  const inflation = await checkInflation(bytes)
  if (inflation) throw invalid(inflation)
  let pageCount: number
  try {
    // Broken objects throw instead of being logged and half-read; the page tree must resolve.
    const doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true })
    pageCount = doc.getPageCount()
  } catch (err) {
    const encrypted = err instanceof Error && /encrypt/i.test(err.message)
    throw invalid(encrypted ? 'encrypted PDFs are not supported' : 'it cannot be parsed')
  }
  if (pageCount < 1) throw invalid('it has no pages')
  return { pageCount }
}

/**
 * Measures what the file's compressed streams (zlib and LZW) decode to, keeping none of it, and
 * stops at the budget: the reason to refuse the file, or null. Streams are found by their `stream`
 * keyword (the file's own Length and cross-reference table may lie); images are left out (only a
 * renderer decodes them, and blank scans legitimately inflate a thousandfold).
 */
async function checkInflation(bytes: Uint8Array): Promise<string | null> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const text = buf.toString('latin1')
  let budget = MAX_INFLATED_BYTES
  for (let at = text.indexOf('stream'); at !== -1; at = text.indexOf('stream', at + 6)) {
    if (text.startsWith('end', at - 3)) continue
    let start = at + 6
    if (text[start] === '\r') start++
    if (text[start] !== '\n') continue
    start++
    const dict = text.slice(Math.max(0, text.lastIndexOf('obj', at) + 3, at - 8192), at)
    const lzw = /\/LZWDecode\b/.test(dict)
    // zlib header: deflate method, window <= 32 KiB, check bits.
    const cmf = buf[start]
    const flg = buf[start + 1]
    const zlib = cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (cmf * 256 + flg) % 31 === 0
    if (!lzw && !zlib) continue
    if (/\/Subtype\s*\/Image\b/.test(dict)) continue
    const chain = /\/Filter\s*\[([^\]]*)\]/.exec(dict)?.[1]?.match(/\/\w+/g) ?? []
    if (chain.length > 1) return 'compressed streams behind more than one filter are not supported'
    const end = text.indexOf('endstream', start)
    const data = buf.subarray(start, end === -1 ? buf.length : end)
    budget -= lzw ? lzwDecodedSize(data, budget, /\/EarlyChange\s+0\b/.test(dict) ? 0 : 1) : await inflatedSize(data, budget)
    if (budget < 0) return `its compressed streams inflate to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB`
  }
  return null
}

/**
 * The decoded size of one LZWDecode stream (PDF 32000-1, 7.4.4), counted up to `cap` + 1 without
 * producing it: only each dictionary entry's length is kept. Corrupt data: what came out before.
 */
export function lzwDecodedSize(data: Uint8Array, cap: number, earlyChange: 0 | 1 = 1): number {
  const lengths = new Uint16Array(4096)
  let total = 0
  let bits = 0
  let held = 0
  let width = 9
  let next = 258
  let previous = 0 // the length of the last string out; 0 right after a clear
  for (const byte of data) {
    bits = ((bits << 8) | byte) & 0xfffff
    held += 8
    while (held >= width) {
      held -= width
      const code = (bits >>> held) & ((1 << width) - 1)
      if (code === 256) {
        width = 9
        next = 258
        previous = 0
        continue
      }
      if (code === 257) return total
      // A code not yet defined is only valid as the next one (the string before plus its first byte).
      const length = code < 256 ? 1 : code < next ? lengths[code]! : code === next && previous ? previous + 1 : 0
      if (!length) return total
      total += length
      if (total > cap) return cap + 1
      if (previous && next < 4096) {
        lengths[next++] = previous + 1
        if (next + earlyChange >= 1 << width && width < 12) width++
      }
      previous = length
    }
  }
  return total
}

/** The inflated size of one zlib stream, counted up to `cap` + 1 (corrupt data: what came out before). */
function inflatedSize(data: Buffer, cap: number): Promise<number> {
  if (data.length <= SYNC_INFLATE_BYTES) {
    try {
      return Promise.resolve(inflateSync(data, { maxOutputLength: Math.max(1, cap + 1) }).length)
    } catch (err) {
      return Promise.resolve(err instanceof RangeError ? cap + 1 : 0)
    }
  }
  return new Promise((resolve) => {
    let n = 0
    const z = createInflate()
    const done = () => resolve(Math.min(n, cap + 1))
    z.on('data', (chunk: Buffer) => {
      n += chunk.length
      if (n > cap) {
        z.destroy()
        done()
      }
    })
    z.on('end', done)
    z.on('error', done)
    z.on('close', done)
    z.end(data)
  })
}
