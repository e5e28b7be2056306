import { availableParallelism } from 'node:os'
import type { HeavyTasks } from './heavy-tasks.js'
import { WorkerPool } from './pool.js'

/**
 * Limits of the threads that check uploads, decode images, stamp and seal (`heavy-worker.mjs`).
 * Memory: the heap limit bounds JavaScript objects; decoded bytes are bounded by each task's own
 * budget (MAX_INFLATED_BYTES, MAX_PNG_PIXELS), checked before or while decoding.
 */
export const HEAVY_LIMITS = { threads: Math.max(1, Math.min(2, availableParallelism() - 1)), queue: 200, heapMb: 512, timeoutMs: 60_000 }

let pool: WorkerPool | null = null

/** Runs one task of `heavy-tasks.ts` in a pool thread. */
export function runHeavy<K extends keyof HeavyTasks>(
  task: K,
  args: Parameters<HeavyTasks[K]>[0],
  options: { failure: (why: string) => Error; timeoutMs?: number; transfer?: ArrayBuffer[] },
): Promise<Awaited<ReturnType<HeavyTasks[K]>>['result']> {
  pool ??= new WorkerPool(new URL('./heavy-worker.mjs', import.meta.url), HEAVY_LIMITS, (why) => new Error(why))
  return pool.run({ task, args }, options)
}
