import { Worker } from 'node:worker_threads'
import { ApiError, type ApiIssue } from '../errors.js'

/** What a pool's threads may use; read at each start and each task, so a test can tighten them. */
export interface PoolLimits {
  /** Threads running at once. */
  threads: number
  /** Tasks waiting for a thread; beyond it the caller gets 503 BUSY at once. */
  queue: number
  /** JavaScript heap of each thread (`resourceLimits.maxOldGenerationSizeMb`). */
  heapMb: number
  /** One task's time, from the moment a ready thread takes it. */
  timeoutMs: number
  /**
   * The threads' scheduling niceness (0 to 19; Linux, where a thread has its own): 19 gives the
   * core to any other thread of the machine that wants it, so this pool's work waits for everyone's.
   */
  nice?: number
  /**
   * The share of time the pool may work (0 to 1, default 1; for a one-thread pool): after a task of
   * t ms, finished or cut off, it rests t x (1 / share - 1) ms before the next, so it never holds
   * more than that share of a core however much is asked of it (its queue fills and answers 503).
   */
  share?: number
}

/** A thread's answer: `{ready: true}` once loaded, then one per task. */
type Reply =
  | { ready: true }
  | { id: number; result: unknown }
  | { id: number; error: { status: ApiError['status']; code: string; message: string; issues?: ApiIssue[] } }
  | { id: number; fault: string }

interface Task {
  message: Record<string, unknown>
  transfer: ArrayBuffer[]
  timeoutMs: number | undefined
  failure: ((why: string) => Error) | undefined
  resolve: (result: unknown) => void
  reject: (err: Error) => void
}

interface Slot {
  worker: Worker
  /** The thread has loaded its modules. Tasks (and their timers) start only then: stopping a thread while it loads modules can take the whole process down. */
  ready: boolean
  current: { id: number; task: Task; timer: NodeJS.Timeout; started: number } | null
}

/**
 * Threads that do the host's heavy work (PDF parsing, searching, stamping, sealing, image
 * decoding) off the request loop, under limits: a bounded number of threads and of waiting tasks,
 * a heap limit per thread and a time limit per task. A thread that crashes, runs out of memory or
 * overruns its time is dropped (its task fails with `failure(why)`) and a new one starts for the
 * next task; one task per thread at a time, so a failure is pinned on the task that caused it.
 *
 * The thread script posts `{ready: true}` when loaded, then answers each `{id, ...message}` with
 * `{id, result}`, `{id, error}` (an ApiError's fields, rethrown as one here) or `{id, fault}`.
 */
export class WorkerPool {
  private slots: Slot[] = []
  private queue: Task[] = []
  private nextId = 1
  /** The pool's rest after a task (PoolLimits.share); it keeps the process alive only while tasks wait. */
  private resting: NodeJS.Timeout | null = null

  constructor(
    private readonly url: URL,
    readonly limits: PoolLimits,
    /** The error a task gets when its thread dies or overruns (e.g. 400 INVALID_PDF: the input is to blame); a task may name its own. */
    private readonly failure: (why: string) => Error,
  ) {}

  /** Tasks waiting for a thread (not those running). */
  get waiting(): number {
    return this.queue.length
  }

  run<T>(message: Record<string, unknown>, options: { transfer?: ArrayBuffer[]; timeoutMs?: number; failure?: (why: string) => Error } = {}): Promise<T> {
    if (this.queue.length >= this.limits.queue) {
      return Promise.reject(new ApiError(503, 'BUSY', 'the server is busy with other documents; try again shortly', undefined, { 'Retry-After': '5' }))
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ message, transfer: options.transfer ?? [], timeoutMs: options.timeoutMs, failure: options.failure, resolve: resolve as (r: unknown) => void, reject })
      this.pump()
    })
  }

  private start(): Slot {
    // execArgv: [] so the thread does not inherit the parent's loaders (tsx, a test runner's).
    const worker = new Worker(this.url, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb }, workerData: { nice: this.limits.nice ?? 0 } })
    const slot: Slot = { worker, ready: false, current: null }
    worker.on('message', (m: Reply) => {
      if (!this.slots.includes(slot)) return
      if ('ready' in m) {
        slot.ready = true
        return this.pump()
      }
      if (!slot.current || m.id !== slot.current.id) return
      const { task, timer, started } = slot.current
      clearTimeout(timer)
      slot.current = null
      this.rest(performance.now() - started)
      if ('result' in m) task.resolve(m.result)
      else if ('error' in m) task.reject(new ApiError(m.error.status, m.error.code, m.error.message, m.error.issues))
      else task.reject(new Error(m.fault))
      this.pump()
    })
    const died = () => this.died(slot, 'the work stopped unexpectedly (out of memory?)')
    worker.on('error', died)
    worker.on('exit', died)
    this.slots.push(slot)
    return slot
  }

  /** The thread ended (crash, out of memory) or was stopped: fail the task it held; the others go on with a new thread. */
  private died(slot: Slot, why: string) {
    const at = this.slots.indexOf(slot)
    if (at === -1) return
    this.slots.splice(at, 1)
    const held = slot.current
    slot.current = null
    if (held) {
      clearTimeout(held.timer)
      held.task.reject((held.task.failure ?? this.failure)(why))
      this.rest(performance.now() - held.started)
    }
    // A thread that died while loading fails the task waiting for it rather than retrying forever.
    const waiting = slot.ready ? undefined : this.queue.shift()
    waiting?.reject((waiting.failure ?? this.failure)('the worker did not start'))
    this.pump()
  }

  /** After `ms` of work the pool rests its share's due (PoolLimits.share), then takes what waits. */
  private rest(ms: number) {
    const share = this.limits.share ?? 1
    if (share >= 1 || ms <= 0) return
    if (this.resting) clearTimeout(this.resting)
    this.resting = setTimeout(() => {
      this.resting = null
      this.pump()
    }, ms * (1 / share - 1))
  }

  private pump() {
    for (const slot of this.slots) if (slot.ready && !slot.current) slot.worker.unref() // idle: never keep the process alive
    if (this.queue.length) this.resting?.ref()
    else this.resting?.unref()
    while (this.queue.length) {
      if (this.resting) return
      const slot = this.slots.find((s) => s.ready && !s.current)
      if (!slot) {
        // Start another thread if under the limit; tasks wait for one that is ready.
        if (this.slots.length < this.limits.threads && !this.slots.some((s) => !s.ready)) this.start().worker.ref()
        return
      }
      const task = this.queue.shift()!
      const id = this.nextId++
      const timeoutMs = task.timeoutMs ?? this.limits.timeoutMs
      const timer = setTimeout(() => {
        this.died(slot, `it took longer than ${timeoutMs / 1000} s`)
        void slot.worker.terminate()
      }, timeoutMs)
      slot.current = { id, task, timer, started: performance.now() }
      slot.worker.ref()
      slot.worker.postMessage({ id, ...task.message }, task.transfer)
    }
  }
}
