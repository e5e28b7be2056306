import { PDFDocument, rgb } from '@cantoo/pdf-lib'

/** A rectangle in PDF points on a 1-based page. */
export interface Box {
  page: number
  x: number
  y: number
  w: number
  h: number
}

/**
 * The PDF with each box covered in white (placeholder text removed from what recipients sign).
 * Runs in a heavy-work thread (workers/heavy-tasks.ts): parsing and saving cost what the upload
 * makes them cost.
 */
export async function whiteOutHere(bytes: Uint8Array, boxes: Box[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false })
  for (const b of boxes) {
    // Cover descenders below the baseline too.
    doc.getPage(b.page - 1).drawRectangle({ x: b.x - 1, y: b.y - b.h * 0.25, width: b.w + 2, height: b.h * 1.25, color: rgb(1, 1, 1) })
  }
  // Object streams, whatever version the file's header names (the library's default only from 1.5 on; it then names 1.7).
  return doc.save({ useObjectStreams: true })
}
