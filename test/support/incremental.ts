/**
 * What an editor does to a signed PDF: an incremental update (the signed bytes left as they are)
 * that adds a page with a line of text, for tests that a seal reports it.
 */
import { PDFDocument, PDFName, PDFRef } from 'pdf-lib'
import { appendRevision, bytesOf } from '../../host/server/pdf/long-term.js'

export async function addPageIncrementally(pdf: Uint8Array): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false })
  const before = doc.context.largestObjectNumber
  doc.addPage().drawText('Added after signing.')
  await doc.flush()
  // The page tree that gained the page, and every object made for it.
  const refs = [doc.catalog.get(PDFName.of('Pages')) as PDFRef]
  for (let n = before + 1; n <= doc.context.largestObjectNumber; n++) if (doc.context.lookup(PDFRef.of(n))) refs.push(PDFRef.of(n))
  const objects = refs.map((ref) => ({ ref, body: bytesOf(doc.context.lookup(ref)!) }))
  return appendRevision(Buffer.from(pdf), objects, doc, doc.context.largestObjectNumber + 1)
}
