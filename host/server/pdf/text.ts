import { Worker } from 'node:worker_threads'
import { ApiError } from '../errors.js'

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
export const PDF_TEXT_LIMITS = { maxPages: 2000, timeoutMs: 30_000, heapMb: 512 }

interface Job {
  bytes: Uint8Array
  texts: string[]
  resolve: (found: Map<string, Hit[]>) => void
  reject: (err: ApiError) => void
}
type Reply = { id: number; found?: Record<string, Hit[]>; error?: string; message?: string }

const WORKER_URL = new URL('./text-worker.mjs', import.meta.url)

/**
 * The one long-lived pdf.js worker thread: started on first use, one search at a time (so a
 * timeout or crash is pinned on the request that caused it), restarted after a crash or timeout.
 */
class PdfTextWorker {
  private worker: Worker | null = null
  /** The thread has loaded pdf.js. Searches (and their timers) start only then: stopping a thread while it loads modules can take the whole process down. */
  private ready = false
  private queue: Job[] = []
  private current: { id: number; job: Job; timer: NodeJS.Timeout } | null = null
  private nextId = 1

  run(bytes: Uint8Array, texts: string[]): Promise<Map<string, Hit[]>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ bytes, texts, resolve, reject })
      this.pump()
    })
  }

  private start(): Worker {
    // execArgv: [] so the thread does not inherit tsx's loader (pdf.js loads ~5x slower through it).
    const w = new Worker(WORKER_URL, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: PDF_TEXT_LIMITS.heapMb } })
    w.on('message', (m: Reply & { ready?: boolean }) => {
      if (this.worker !== w) return
      if (m.ready) {
        this.ready = true
        return this.pump()
      }
      if (!this.current || m.id !== this.current.id) return
      const { job, timer } = this.current
      clearTimeout(timer)
      this.current = null
      if (m.found) job.resolve(new Map(job.texts.map((t) => [t, m.found![t] ?? []])))
      else job.reject(unreadable(m.error === 'TOO_MANY_PAGES' ? m.message! : 'its text cannot be read'))
      this.pump()
    })
    const died = () => this.died(w, 'its text cannot be read')
    w.on('error', died)
    w.on('exit', died)
    return w
  }

  /** The thread ended (crash, out of memory) or was stopped: fail the search it held, start afresh for the rest. */
  private died(w: Worker, why: string) {
    if (this.worker !== w) return
    const started = this.ready
    this.worker = null
    this.ready = false
    const held = this.current
    this.current = null
    if (held) {
      clearTimeout(held.timer)
      held.job.reject(unreadable(why))
    }
    // A thread that died loading pdf.js fails the search waiting for it rather than retrying forever.
    if (!started) this.queue.shift()?.reject(unreadable('the PDF engine did not start'))
    this.pump()
  }

  private pump() {
    if (this.current) return
    if (!this.queue.length) {
      this.worker?.unref() // idle: never keep the process alive
      return
    }
    const w = (this.worker ??= this.start())
    w.ref()
    if (!this.ready) return // pumped again once the thread says it is ready
    const job = this.queue.shift()!
    const id = this.nextId++
    const timer = setTimeout(() => {
      this.died(w, `searching it took longer than ${PDF_TEXT_LIMITS.timeoutMs / 1000} s`)
      void w.terminate()
    }, PDF_TEXT_LIMITS.timeoutMs)
    this.current = { id, job, timer }
    const copy = job.bytes.slice() // pdf.js takes ownership of the buffer it is given
    w.postMessage({ id, bytes: copy, texts: job.texts, maxPages: PDF_TEXT_LIMITS.maxPages }, [copy.buffer])
  }
}

const unreadable = (why: string) => new ApiError(400, 'INVALID_PDF', `the PDF cannot be searched: ${why}`)

let shared: PdfTextWorker | null = null

/** Every occurrence of each text in the PDF (pages in order, runs in order within a page). */
export function findTexts(bytes: Uint8Array, texts: string[]): Promise<Map<string, Hit[]>> {
  return (shared ??= new PdfTextWorker()).run(bytes, texts)
}
