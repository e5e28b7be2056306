/**
 * The worker pools: time limits, a full queue, scheduling priority and the verify lane's share of time.
 * Database: none (the worker threads alone).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { inspectPdf } from '../../host/server/pdf/inspect.js'
import { HEAVY_LIMITS } from '../../host/server/workers/heavy.js'
import { runVerify, VERIFY_LIMITS } from '../../host/server/workers/verify-lane.js'
import { makePdf } from './support.js'

const defaults = { ...HEAVY_LIMITS }
afterEach(() => Object.assign(HEAVY_LIMITS, defaults))

const refusal = (p: Promise<unknown>) => p.then(() => null, (err: { status: number; code: string; message: string }) => ({ status: err.status, code: err.code, message: err.message }))

describe('the heavy-work pool', () => {
  it('a task past its time fails alone with a clear 400; the next task gets a new thread', async () => {
    const pdf = await makePdf(1)
    await inspectPdf(pdf, 'warm.pdf') // a thread that has loaded its modules: the limit counts the task, not the start
    HEAVY_LIMITS.timeoutMs = 50
    expect(await refusal(inspectPdf(await makePdf(2000), 'slow.pdf'))).toEqual({ status: 400, code: 'INVALID_PDF', message: expect.stringContaining('took longer than 0.05 s') })
    HEAVY_LIMITS.timeoutMs = defaults.timeoutMs
    await expect(inspectPdf(pdf, 'next.pdf')).resolves.toMatchObject({ pageCount: 1 })
  })

  it('a full queue answers 503 BUSY at once', async () => {
    HEAVY_LIMITS.queue = 0
    expect(await refusal(inspectPdf(await makePdf(1), 'queued.pdf'))).toMatchObject({ status: 503, code: 'BUSY' })
  })

  it.skipIf(process.platform !== 'linux')('the anonymous checks run at the lowest scheduling priority; the heavy-work threads and this process do not', async () => {
    const niceness = () => readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]))
    // Both pools busy at once (either may have started in an earlier file of this process): only the lane's own threads are lowered.
    await Promise.all([inspectPdf(await makePdf(1), 'heavy.pdf'), runVerify(await makePdf(1))])
    const all = niceness()
    const lowered = all.filter((n) => n !== 0)
    expect(lowered.length).toBeGreaterThan(0)
    expect(lowered.every((n) => n === 19)).toBe(true)
    expect(all.length - lowered.length).toBeGreaterThan(all.length / 2)
    expect(Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[16])).toBe(0)
  })

  it('a pool with a share of time rests after each task as long as the share asks: with half, a small task asked beside a large one ends no sooner than the large one took after it', async () => {
    expect(VERIFY_LIMITS.share).toBe(0.5)
    const [large, small] = [await makePdf(400), await makePdf(1)]
    const warming = performance.now()
    await runVerify(small) // a loaded thread
    // The rest the pool must take after it: no longer than the task took from here.
    await new Promise((r) => setTimeout(r, performance.now() - warming))
    const t0 = performance.now()
    const ends = await Promise.all([runVerify(large), runVerify(small)].map((p) => p.then(() => performance.now())))
    const [largeTook, smallEnd] = [ends[0]! - t0, ends[1]!]
    // Without a share the small one would end moments after the large one; with half, after a rest as long as the large one's work.
    expect(smallEnd - ends[0]!).toBeGreaterThanOrEqual(largeTook * 0.9)
  })
})
