// A thread of the heavy-work pool (heavy.ts) or of the verify lane (verify-lane.ts): runs one task of heavy-tasks at a time. Built
// (host/build.mjs) the tasks are heavy-tasks.js beside this file; from source it loads the host's
// TypeScript through tsx (the pool starts threads without the parent's loaders), unless
// HEAVY_TASKS_MODULE names a build of them: a test run builds one, as a thread loads it with half
// the CPU.
import { existsSync, readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { pathToFileURL } from 'node:url'
import { parentPort, workerData } from 'node:worker_threads'

const built = process.env.HEAVY_TASKS_MODULE ? pathToFileURL(process.env.HEAVY_TASKS_MODULE) : new URL('./heavy-tasks.js', import.meta.url)
let heavyTasks
if (existsSync(built)) ({ heavyTasks } = await import(built.href))
else {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ heavyTasks } = await import('./heavy-tasks.ts'))
}

// A lane that must never delay anyone (the anonymous checks) lowers its own thread's priority
// once its code is loaded: the load is a thread's one-off cost, and at the lowest priority a busy
// machine stretched it to minutes before the first check could start. Linux schedules threads
// one by one, and /proc/thread-self names this one. Elsewhere it stays as is.
if (workerData?.nice) {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice)
  } catch {}
}

parentPort.on('message', async ({ id, task, args }) => {
  try {
    const { result, transfer } = await heavyTasks[task](args)
    parentPort.postMessage({ id, result }, transfer ?? [])
  } catch (err) {
    // An ApiError keeps its status and code across the thread boundary; anything else is a fault.
    if (err && typeof err.status === 'number' && typeof err.code === 'string') {
      parentPort.postMessage({ id, error: { status: err.status, code: err.code, message: err.message, issues: err.issues } })
    } else parentPort.postMessage({ id, fault: err instanceof Error ? err.message : String(err) })
  }
})
parentPort.postMessage({ ready: true })
