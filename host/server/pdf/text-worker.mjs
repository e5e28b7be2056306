// The host's one pdf.js user: finds texts in a PDF. Plain JavaScript, started without the tsx
// loader (pdf.js's 3 MB of modules load several times faster under plain node) and off the main
// event loop. One request at a time; its pool (workers/pool.ts) bounds time and memory and restarts it on a crash.
import { parentPort } from 'node:worker_threads'

// The legacy build's core-js replaces Array.prototype.push with a generic version (for an edge
// case of lengths above 2^32 pdf.js never meets) that makes text extraction ~30% slower: keep the
// engine's own. (Its other replacements, JSON among them, stay confined to this thread.)
const nativePush = Array.prototype.push
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
// pdf.js's own "worker" runs in this thread (there is no DOM worker in node); load it now, not on the first request.
globalThis.pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs')
Object.defineProperty(Array.prototype, 'push', { value: nativePush, writable: true, configurable: true, enumerable: false })

/**
 * Every occurrence of each text, pages in order, runs in order within a page, in PDF user space
 * (origin bottom-left, points). The character offset within a run is approximated proportionally.
 */
async function find(bytes, texts, maxPages) {
  const doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise
  const found = Object.fromEntries(texts.map((t) => [t, []]))
  try {
    if (doc.numPages > maxPages) return refused(`the PDF has ${doc.numPages} pages; at most ${maxPages} are searched`)
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n)
      const box = page.view
      const content = await page.getTextContent()
      for (const item of content.items) {
        if (!item.str) continue
        for (const text of texts) {
          if (!item.str.includes(text)) continue
          const [a, b, , d, e, f] = item.transform
          const fontSize = Math.hypot(a, b) || Math.abs(d) || item.height
          const perChar = item.width / item.str.length
          for (let at = item.str.indexOf(text); at >= 0; at = item.str.indexOf(text, at + text.length)) {
            found[text].push({ page: n, x: e + perChar * at, y: f, w: perChar * text.length, h: fontSize, pageBox: box })
          }
        }
      }
      page.cleanup()
    }
  } finally {
    await doc.destroy()
  }
  return { result: found }
}

const refused = (why) => ({ error: { status: 400, code: 'INVALID_PDF', message: `the PDF cannot be searched: ${why}` } })

parentPort.on('message', async ({ id, bytes, texts, maxPages }) => {
  try {
    parentPort.postMessage({ id, ...(await find(bytes, texts, maxPages)) })
  } catch (err) {
    parentPort.postMessage({ id, ...refused('its text cannot be read') })
  }
})
parentPort.postMessage({ ready: true })
