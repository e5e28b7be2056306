/**
 * Finding text in PDFs on the worker thread: every hit, a refusal of what it cannot read, its limits.
 * Database: none (the worker alone).
 */
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../host/server/errors.js'
import { findTexts, PDF_TEXT_LIMITS } from '../../host/server/pdf/text.js'

const defaults = { ...PDF_TEXT_LIMITS }
afterEach(() => Object.assign(PDF_TEXT_LIMITS, defaults))

async function textPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (let n = 1; n <= pages; n++) doc.addPage([612, 792]).drawText(`page ${n} {{sign}}`, { x: 50, y: 700, size: 12, font })
  return doc.save()
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof ApiError ? { status: e.status, code: e.code } : e),
  )

describe('PDF text worker', () => {
  it('finds every occurrence, page by page', async () => {
    const found = await findTexts(await textPdf(3), ['{{sign}}', 'absent'])
    expect(found.get('{{sign}}')!.map((h) => h.page)).toEqual([1, 2, 3])
    expect(found.get('absent')).toEqual([])
  })

  it('answers 400 INVALID_PDF for bytes it cannot read, and keeps serving', async () => {
    expect(await refusal(findTexts(new TextEncoder().encode('%PDF-1.7 garbage'), ['x']))).toEqual({ status: 400, code: 'INVALID_PDF' })
    expect((await findTexts(await textPdf(1), ['{{sign}}'])).get('{{sign}}')).toHaveLength(1)
  })

  it('refuses more pages than the limit', async () => {
    PDF_TEXT_LIMITS.maxPages = 2
    expect(await refusal(findTexts(await textPdf(3), ['x']))).toEqual({ status: 400, code: 'INVALID_PDF' })
  })

  it('a search past its time ends the thread with 400 for that request; the next search gets a new thread', async () => {
    const pdf = await textPdf(2)
    await findTexts(pdf, ['{{sign}}']) // a thread that has loaded pdf.js: the time limit counts the search, not the start
    PDF_TEXT_LIMITS.timeoutMs = 0
    const [stopped, queued] = [findTexts(pdf, ['{{sign}}']), findTexts(pdf, ['{{sign}}'])]
    expect(await refusal(stopped)).toEqual({ status: 400, code: 'INVALID_PDF' })
    Object.assign(PDF_TEXT_LIMITS, defaults)
    // The one queued behind it starts on a new thread, once that has loaded, with the limits then in force.
    expect((await queued).get('{{sign}}')).toHaveLength(2)
    expect((await findTexts(pdf, ['{{sign}}'])).get('{{sign}}')).toHaveLength(2)
  })
})
