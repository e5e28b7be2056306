import { ApiError } from '../errors.js'
import { WorkerPool } from '../workers/pool.js'

/** One occurrence of a text on a page, in PDF user space (origin bottom-left, points). */
export interface Hit {
  page: number
  x: number
  y: number
  w: number
  h: number
  pageBox: [number, number, number, number]
}

/** Bounds on one search: hostile PDFs (thousands of pages, streams that inflate without end) stop here. */
export const PDF_TEXT_LIMITS = { maxPages: 2000, timeoutMs: 30_000, heapMb: 512, threads: 1, queue: 100 }

const unreadable = (why: string) => new ApiError(400, 'INVALID_PDF', `the PDF cannot be searched: ${why}`)

/** pdf.js runs only in its own thread (`text-worker.mjs`: plain JavaScript, loaded without the tsx loader). */
let pool: WorkerPool | null = null

/** Every occurrence of each text in the PDF (pages in order, runs in order within a page). */
export async function findTexts(bytes: Uint8Array, texts: string[]): Promise<Map<string, Hit[]>> {
  pool ??= new WorkerPool(new URL('./text-worker.mjs', import.meta.url), PDF_TEXT_LIMITS, unreadable)
  const copy = bytes.slice() // pdf.js takes ownership of the buffer it is given
  const found = await pool.run<Record<string, Hit[]>>({ bytes: copy, texts, maxPages: PDF_TEXT_LIMITS.maxPages }, { transfer: [copy.buffer] })
  return new Map(texts.map((t) => [t, found[t] ?? []]))
}
