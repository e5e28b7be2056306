import { PDFDocument } from 'pdf-lib'
import { ApiError } from '../errors.js'

/** Parses the upload as a PDF; anything that is not a readable, unencrypted PDF is 400 INVALID_PDF. */
export async function inspectPdf(bytes: Uint8Array, name: string): Promise<{ pageCount: number }> {
  const invalid = (why: string) => new ApiError(400, 'INVALID_PDF', `${name} is not a valid PDF: ${why}`)
  // Cheap first check: a PDF starts with %PDF- within its first 1 KiB.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1')
  if (!head.includes('%PDF-')) throw invalid('missing %PDF- header')
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
