// A thread of the heavy-work pool (heavy.ts): loads the host's TypeScript through tsx (the pool
// starts threads without the parent's loaders), then runs one task of heavy-tasks.ts at a time.
import { parentPort } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
const { heavyTasks } = await import('./heavy-tasks.ts')

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
