import { PDFArray, PDFDict, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib'
import { ApiError } from '../errors.js'
import { runHeavy } from '../workers/heavy.js'
import { stripActiveContent } from './active-content.js'
import { formFieldsOf } from './form-fields.js'
import { decodeEveryStream, InflateBudgetExceeded, withInflateBudget } from './inflate-budget.js'
import type { InspectedPdf } from './inspected-pdf.js'
import { readPdf, type ReadPdf } from './reading.js'

export type { InspectedPdf }

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
  return checkedPdf(bytes, name, async ({ doc }, pageCount) => {
    const removed = stripActiveContent(doc)
    const formFields = formFieldsOf(doc)
    // Without object streams: every dictionary of the stored file stays readable as it is.
    return { pageCount, removed, formFields, bytes: removed.length ? await doc.save({ updateFieldAppearances: false, useObjectStreams: false }) : bytes }
  })
}

/**
 * Objects nested deeper than this (arrays and dictionaries within one another) are refused: no
 * real document comes near it, and the host's PDF code (pdf-lib's writer among it) recurses
 * through nesting.
 */
export const MAX_NESTING = 100

/**
 * The upload checks, on one parse of the file: it parses (pdf-lib, broken objects refused), is not
 * encrypted, every stream decodes within the inflation budget, nothing is nested deeper than
 * MAX_NESTING and it has pages. Then `then` runs on that parse, within the same budget. Any
 * failure, of the checks or of `then`, is 400 INVALID_PDF naming `name`.
 */
export async function checkedPdf<T>(bytes: Uint8Array, name: string, then: (pdf: ReadPdf, pageCount: number) => Promise<T>): Promise<T> {
  try {
    return await withInflateBudget(async () => {
      const pdf = await readPdf(bytes)
      const refused = decodeEveryStream(pdf.doc) ?? tooDeep(pdf.doc)
      if (refused) throw invalidPdf(name, refused)
      const pageCount = pdf.doc.getPageCount()
      if (pageCount < 1) throw invalidPdf(name, 'it has no pages')
      return then(pdf, pageCount)
    })
  } catch (err) {
    if (err instanceof ApiError) throw err
    if (err instanceof InflateBudgetExceeded) throw invalidPdf(name, err.message)
    const encrypted = err instanceof Error && /encrypt/i.test(err.message)
    throw invalidPdf(name, encrypted ? 'encrypted PDFs are not supported' : 'it cannot be parsed')
  }
}

/** Why the document is refused when an object nests deeper than MAX_NESTING; walked without recursion. */
function tooDeep(doc: PDFDocument): string | null {
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const stack: [PDFObject, number][] = [[object, 0]]
    while (stack.length) {
      const [value, depth] = stack.pop()!
      if (depth > MAX_NESTING) return `its objects are nested more than ${MAX_NESTING} deep`
      const dict = value instanceof PDFDict ? value : value instanceof PDFStream ? value.dict : null
      const items = value instanceof PDFArray ? value.asArray() : dict ? dict.entries().map(([, v]) => v) : []
      for (const item of items) if (item instanceof PDFArray || item instanceof PDFDict) stack.push([item, depth + 1])
    }
  }
  return null
}
