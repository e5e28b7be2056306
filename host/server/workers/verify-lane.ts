import { ApiError } from '../errors.js'
import type { EvidenceFacts } from '../domain/evidence/facts.js'
import type { SignatureReport } from '../pdf/signature-report.js'
import { WorkerPool, type PoolLimits } from './pool.js'

/**
 * The lane of anonymous checks (`POST /verify`: PDFs and evidence files): a pool of its own, one thread running the same
 * worker script as the heavy-work pool (heavy-worker.mjs, tasks `verify` and `evidence`), with its own short queue
 * and time limit. A check never waits behind a team's upload or seal, and a team's work never
 * waits behind checks: past the queue anyone checking gets 503 BUSY, never a tenant. Its thread
 * runs at the lowest scheduling priority and works at most half the time (it rests as long as
 * each check took), so checks take only what the host's other threads leave, and never a whole core. Read at each start and task, so a test can tighten it.
 */
export const VERIFY_LIMITS: PoolLimits = { threads: 1, queue: 4, heapMb: 512, timeoutMs: 60_000, nice: 19, share: 0.5 }

let pool: WorkerPool | null = null
const lane = () => (pool ??= new WorkerPool(new URL('./heavy-worker.mjs', import.meta.url), VERIFY_LIMITS, (why) => new ApiError(400, 'INVALID_PDF', `the file cannot be checked: ${why}`)))

/** The upload checks and every signature of `bytes`, in the verify lane (pdf/verify.ts verifyHere). */
export function runVerify(bytes: Uint8Array): Promise<{ pageCount: number; signatures: SignatureReport[] }> {
  return lane().run({ task: 'verify', args: { bytes } })
}

/** An evidence file's signature and facts, in the verify lane (domain/evidence/facts.ts). */
export function runEvidenceCheck(jws: string, trusted: readonly string[]): Promise<{ facts: EvidenceFacts } | { reason: string }> {
  const failure = (why: string) => new ApiError(400, 'INVALID_EVIDENCE', `the evidence file cannot be checked: ${why}`)
  return lane().run({ task: 'evidence', args: { jws, trusted: [...trusted] } }, { failure })
}

/** Checks waiting in the lane behind the one running. */
export const verifyLaneWaiting = (): number => pool?.waiting ?? 0
