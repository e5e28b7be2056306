import { availableParallelism } from 'node:os'
import type { ParsedJson } from './json-parse.js'
import type { EvidenceFacts } from '../domain/evidence/facts.js'
import type { Logo, LogoRefused } from '../images/logo.js'
import type { InspectedPdf } from '../pdf/inspected-pdf.js'
import type { SealInput } from '../pdf/seal-input.js'
import type { SealingKey } from '../pdf/sealing-key.js'
import type { SealOptions } from '../pdf/sign-document.js'
import type { SignatureReport } from '../pdf/signature-report.js'
import type { Box } from '../pdf/white-out.js'
import type { BulkTable } from '../domain/template/bulk-table.js'
import { WorkerPool } from './pool.js'

/** A task's answer: its result, and the buffers moved (not copied) to the caller's thread. */
interface Answer<T> {
  result: T
  transfer?: ArrayBuffer[]
}

/**
 * What each task of the threads takes and answers. heavy-tasks.ts implements them and is checked
 * against this, so the callers of runHeavy load none of the tasks' code.
 */
export interface HeavyTasks {
  inspect(args: { bytes: Uint8Array; name: string }): Promise<Answer<InspectedPdf>>
  seal(args: { input: SealInput; key: SealingKey; options: SealOptions }): Promise<Answer<{ itemId: string; pdf: Uint8Array }[]>>
  certificate(args: { input: SealInput; key: SealingKey | undefined; options: SealOptions }): Promise<Answer<Uint8Array>>
  /** Run by the verify lane (verify-lane.ts), not the heavy-work pool. */
  verify(args: { bytes: Uint8Array }): Promise<Answer<{ pageCount: number; signatures: SignatureReport[] }>>
  /** Run by the verify lane: an evidence file's facts, or why it is refused (domain/evidence/facts.ts). */
  evidence(args: { jws: string; trusted: string[] }): Promise<Answer<{ facts: EvidenceFacts } | { reason: string }>>
  /** A large JSON body parsed (api/json-text.ts). */
  json(args: { bytes: Uint8Array }): Promise<Answer<ParsedJson>>
  whiteOut(args: { bytes: Uint8Array; boxes: Box[] }): Promise<Answer<Uint8Array>>
  /** A bulk send's table read (domain/template/bulk-table.ts). */
  table(args: { bytes: Uint8Array }): Promise<Answer<BulkTable>>
  /** The normalized signature, or why it is refused (a message for its sender). */
  signature(args: { png: Uint8Array }): Promise<Answer<{ png: Uint8Array } | { refused: string }>>
  /** A team's logo as stored (images/logo.ts), or why it is refused. */
  logo(args: { bytes: Uint8Array }): Promise<Answer<{ logo: Logo } | { refused: { code: LogoRefused['code']; message: string } }>>
  /** What decides when a B-LTA file needs a new document timestamp (pdf/renew.ts); null for any other file. */
  archiveFacts(args: { bytes: Uint8Array }): Promise<Answer<{ timestampAt: Date; tsaValidTo: Date; digests: string[] } | null>>
  /** The file with its last timestamp's validation data and a new document timestamp appended (pdf/renew.ts). */
  renewArchive(args: { bytes: Uint8Array; options: { tsaUrls: string[]; timeoutMs?: number | undefined } }): Promise<Answer<Uint8Array>>
}

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
