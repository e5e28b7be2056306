/**
 * The PDF renderer (pdf.js) is the heaviest part of the editor, so it and its worker are
 * loaded on first use only: the editor shell is ready before a single page is drawn.
 * Every PDF of a page is opened in one worker: pdf.js would otherwise start a worker per document,
 * each compiling and running its 1.2 MB script again (some 130 ms of a desktop core, more on a
 * phone) for an envelope of several files or a list of previews.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist'

export type { PDFDocumentProxy }

type PdfJs = typeof import('pdfjs-dist')

let lib: Promise<{ m: PdfJs; worker: InstanceType<PdfJs['PDFWorker']> }> | undefined

function pdfjs() {
  lib ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([m, src]) => {
    m.GlobalWorkerOptions.workerSrc = src.default
    return { m, worker: new m.PDFWorker() }
  })
  return lib
}

const docs = new Map<string, Promise<PDFDocumentProxy>>()

/** Opens (once per key) the PDF whose bytes `load` yields. */
export function openPdf(key: string, load: () => Promise<ArrayBuffer>): Promise<PDFDocumentProxy> {
  let doc = docs.get(key)
  if (!doc) {
    doc = Promise.all([pdfjs(), load()]).then(([{ m, worker }, bytes]) =>
      // pdf.js hands the buffer to its worker; give it a copy so the caller's stays usable.
      m.getDocument({ data: new Uint8Array(bytes.slice(0)), isEvalSupported: false, worker }).promise,
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
