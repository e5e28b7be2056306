import { PDFDocument } from 'pdf-lib'
import { ApiError } from '../errors.js'
import { runHeavy } from '../workers/heavy.js'
import { stripActiveContent } from './active-content.js'
import { decodeEveryStream, InflateBudgetExceeded, withInflateBudget } from './inflate-budget.js'

/** A checked upload: the bytes to store (active content removed; the upload itself when it had none). */
export interface InspectedPdf {
  pageCount: number
  bytes: Uint8Array
  /** What was removed (e.g. `OpenAction`, `JavaScript`, `AA`); empty when the upload is stored as sent. */
  removed: string[]
}

const invalidPdf = (name: string, why: string) => new ApiError(400, 'INVALID_PDF', `${name} is not a valid PDF: ${why}`)

/**
 * Checks the upload as a PDF in a heavy-work thread: anything that is not a readable, unencrypted
 * PDF within the inflation budget is 400 INVALID_PDF (a check past its time or memory too).
 */
export async function inspectPdf(bytes: Uint8Array, name: string): Promise<InspectedPdf> {
  // Cheap first check: a PDF starts with %PDF- within its first 1 KiB.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1')
  if (!head.includes('%PDF-')) throw invalidPdf(name, 'missing %PDF- header')
  return runHeavy('inspect', { bytes, name }, { failure: (why) => invalidPdf(name, `checking it failed: ${why}`) })
}

/** inspectPdf's work, in this thread. */
export async function inspectHere(bytes: Uint8Array, name: string): Promise<InspectedPdf> {
  let doc: PDFDocument
  try {
    doc = await withInflateBudget(async () => {
      // Broken objects throw instead of being logged and half-read; the page tree must resolve.
      const loaded = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true })
      const refused = decodeEveryStream(loaded)
      if (refused) throw invalidPdf(name, refused)
      return loaded
    })
  } catch (err) {
    if (err instanceof ApiError) throw err
    if (err instanceof InflateBudgetExceeded) throw invalidPdf(name, err.message)
    const encrypted = err instanceof Error && /encrypt/i.test(err.message)
    throw invalidPdf(name, encrypted ? 'encrypted PDFs are not supported' : 'it cannot be parsed')
  }
  let pageCount: number
  try {
    pageCount = doc.getPageCount()
  } catch {
    throw invalidPdf(name, 'it cannot be parsed')
  }
  if (pageCount < 1) throw invalidPdf(name, 'it has no pages')
  const removed = stripActiveContent(doc)
  // Without object streams: every dictionary of the stored file stays readable as it is.
  return { pageCount, removed, bytes: removed.length ? await doc.save({ updateFieldAppearances: false, useObjectStreams: false }) : bytes }
}
