/**
 * Liveness and readiness, for a process manager or a load balancer: `/healthz` answers while the
 * process serves at all; `/readyz` answers 200 only when a request can be served and its work
 * done (the database answers, its schema is this build's, the object store answers when files
 * live in one, the job queue runs, and the process is not shutting down), else 503 with the
 * checks that failed. Neither needs a token nor says more than that.
 */
import { Hono } from 'hono'
import type { Db } from './db/index.js'
import { MIGRATIONS, schemaVersion } from './db/migrations/index.js'
import type { AppEnv } from './context.js'

/** What readiness reads of the running process; filled in as the host starts and stops. */
export interface Runtime {
  /** The job queue runs in this process (false when it is configured off, or stopped). */
  queueRunning: () => boolean
  /** The queue is configured to run here (QUEUE_CONCURRENCY > 0). */
  queueExpected: boolean
  /** Set when shutdown begins: new work should go elsewhere. */
  closing: boolean
}

const LATEST = Math.max(...MIGRATIONS.map((m) => m.version))

export function healthRoutes(db: Db, runtime: Runtime) {
  const r = new Hono<AppEnv>()
  const noStore = { 'Cache-Control': 'no-store' }
  r.get('/healthz', (c) => c.json({ status: 'ok' }, 200, noStore))
  r.get('/readyz', async (c) => {
    const checks: Record<string, 'ok' | string> = {}
    try {
      const version = await schemaVersion(db)
      checks.database = 'ok'
      checks.migrations = version === LATEST ? 'ok' : `schema ${version ?? 'none'}, this build needs ${LATEST}`
    } catch {
      checks.database = 'does not answer'
    }
    if (db.files) {
      // A bounded wait: a store that hangs makes the process unready, not its probe late.
      checks.storage = await Promise.race([
        db.files.check().then(() => 'ok', () => 'does not answer'),
        new Promise<string>((resolve) => setTimeout(resolve, 3000, 'does not answer in time').unref()),
      ])
    }
    checks.queue = !runtime.queueExpected || runtime.queueRunning() ? 'ok' : 'stopped'
    checks.shutdown = runtime.closing ? 'shutting down' : 'ok'
    const ready = Object.values(checks).every((v) => v === 'ok')
    return c.json({ status: ready ? 'ready' : 'not ready', checks }, ready ? 200 : 503, noStore)
  })
  return r
}
