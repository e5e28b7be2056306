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
 * Measures what the file's zlib streams inflate to, keeping none of it, and stops at the budget:
 * the reason to refuse the file, or null. Streams are found by their `stream` keyword (the file's
 * own Length and cross-reference table may lie); images are left out (only a renderer inflates
 * them, and blank scans legitimately inflate a thousandfold).
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
    // zlib header: deflate method, window <= 32 KiB, check bits.
    const cmf = buf[start]
    const flg = buf[start + 1]
    if (cmf === undefined || flg === undefined || (cmf & 0x0f) !== 8 || cmf >> 4 > 7 || (cmf * 256 + flg) % 31 !== 0) continue
    const dict = text.slice(Math.max(0, text.lastIndexOf('obj', at) + 3, at - 8192), at)
    if (/\/Subtype\s*\/Image\b/.test(dict)) continue
    const chain = /\/Filter\s*\[([^\]]*)\]/.exec(dict)?.[1]?.match(/\/\w+/g) ?? []
    if (chain.length > 1) return 'compressed streams behind more than one filter are not supported'
    const end = text.indexOf('endstream', start)
    const data = buf.subarray(start, end === -1 ? buf.length : end)
    budget -= await inflatedSize(data, budget)
    if (budget < 0) return `its compressed streams inflate to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB`
  }
  return null
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
