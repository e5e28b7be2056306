/**
 * The PDF renderer (pdf.js) is the heaviest part of the editor, so it and its worker are
 * loaded on first use only: the editor shell is ready before a single page is drawn.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist'

export type { PDFDocumentProxy }

let lib: Promise<typeof import('pdfjs-dist')> | undefined

function pdfjs() {
  lib ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([m, worker]) => {
    m.GlobalWorkerOptions.workerSrc = worker.default
    return m
  })
  return lib
}

const docs = new Map<string, Promise<PDFDocumentProxy>>()

/** Opens (once per key) the PDF whose bytes `load` yields. */
export function openPdf(key: string, load: () => Promise<ArrayBuffer>): Promise<PDFDocumentProxy> {
  let doc = docs.get(key)
  if (!doc) {
    doc = Promise.all([pdfjs(), load()]).then(([m, bytes]) =>
      // pdf.js hands the buffer to its worker; give it a copy so the caller's stays usable.
      m.getDocument({ data: new Uint8Array(bytes.slice(0)), isEvalSupported: false }).promise,
    )
    doc.catch(() => docs.delete(key))
    docs.set(key, doc)
  }
  return doc
}

/** True when the file starts like a PDF (`%PDF-`), whatever its name or declared type says. */
export async function looksLikePdf(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 1024).arrayBuffer())
  const text = String.fromCharCode(...head)
  return text.includes('%PDF-')
}
