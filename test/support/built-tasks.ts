/**
 * Set up in the projects whose tests run a host in their own process: its heavy-work threads load
 * the tasks the run built (test/support/host-build.ts), not their TypeScript through tsx, which
 * costs each thread about twice the CPU to start (host/server/workers/heavy-worker.mjs).
 */
import path from 'node:path'
import { inject } from 'vitest'

process.env.HEAVY_TASKS_MODULE ??= path.join(path.dirname(inject('hostCli')), 'heavy-tasks.js')
