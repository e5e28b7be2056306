/**
 * Prometheus metrics at `/metrics`, only when METRICS_TOKEN is set (nothing is measured
 * otherwise) and only with it as a bearer token. HTTP requests by method,
 * route pattern (the router's, so a stranger's paths cannot multiply the series) and status, with
 * their duration; the job queue's depth and oldest waiting job per kind (read from the database
 * at each scrape, so they hold for every process on it); job attempts by kind and outcome with
 * their duration (webhook deliveries and sealing among them); and the process's own defaults.
 */
import { timingSafeEqual } from 'node:crypto'
import { Hono, type MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { Db } from './db/index.js'
import { waitingJobs } from './jobs/job-table.js'
import type { AppEnv } from './context.js'

export interface Metrics {
  registry: Registry
  requests: Counter
  duration: Histogram
  /** For the queue's onFinished. */
  jobFinished(kind: string, outcome: 'done' | 'retry' | 'failed', seconds: number): void
}

export function createMetrics(db: Db): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers: [registry] })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const jobs = new Counter({ name: 'jobs_finished_total', help: 'Job attempts by kind and outcome (done, retry, failed)', labelNames: ['kind', 'outcome'], registers: [registry] })
  const jobSeconds = new Histogram({
    name: 'job_duration_seconds',
    help: 'Job attempt duration by kind (seal: sealing time; webhook: one delivery)',
    labelNames: ['kind'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  })
  new Gauge({
    name: 'jobs_waiting',
    help: 'Jobs pending or running, by kind (every process on this database)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset()
      for (const r of await waitingJobs(db)) this.set({ kind: r.kind }, r.count)
    },
  })
  new Gauge({
    name: 'jobs_oldest_waiting_seconds',
    help: 'Age of the oldest job due and not yet finished, by kind',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset()
      for (const r of await waitingJobs(db)) this.set({ kind: r.kind }, r.oldest)
    },
  })
  return {
    registry,
    requests,
    duration,
    jobFinished(kind, outcome, seconds) {
      jobs.inc({ kind, outcome })
      jobSeconds.observe({ kind }, seconds)
    },
  }
}

/** Counts and times every request by its route pattern. */
export function measureRequests(metrics: Metrics): MiddlewareHandler<AppEnv> {
  const { requests, duration } = metrics
  return async (c, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      const route = routePath(c, -1) || 'unmatched'
      requests.inc({ method: c.req.method, route, status: String(c.res.status) })
      duration.observe({ method: c.req.method, route }, (performance.now() - started) / 1000)
    }
  }
}

/** `/metrics`, for the bearer of `token` only. */
export function metricsRoutes(metrics: Metrics, token: string | null) {
  if (!token) throw new Error('metrics need a token')
  const r = new Hono<AppEnv>()
  r.get('/metrics', async (c) => {
    const given = Buffer.from(c.req.header('authorization')?.replace(/^Bearer\s+/i, '') ?? '')
    const expected = Buffer.from(token)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return c.json({ message: 'a metrics token is required', code: 'UNAUTHORIZED' }, 401)
    return c.body(await metrics.registry.metrics(), 200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' })
  })
  return r
}
