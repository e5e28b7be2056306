import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { createServer, type Server } from 'node:http'
import { createApp } from './app.js'
import { withBaseHeaders } from './security-headers.js'
import { answerClientErrors, lingerBeforeClosing, requestBudgets } from './slow-requests.js'
import { RateLimiter } from './api/rate-limit.js'
import { Cache, CHANNELS } from './cache.js'
import type { HostCaches } from './context.js'
import type { TokenExpiry } from './auth/api-tokens.js'
import { loadPresignSecret } from './auth/presign.js'
import { configFromEnv, type HostConfig } from './config.js'
import { openDb, type Db } from './db/index.js'
import type { Plan } from './domain/team/plans.js'
import { lockDataDir, type DataDirLock } from './lock.js'
import { loadSealingKey, type SealingKey } from './pdf/sealing-key.js'
import { RECIPIENT_CODE_JOB } from './domain/signing/proof-binding.js'
import { recipientCodeJob } from './mail/code-mail.js'
import type { Runtime } from './health.js'
import { createMetrics, type Metrics } from './metrics.js'
import { systemClock, type Clock } from './jobs/clock.js'
import { requeueRunning } from './jobs/job-table.js'
import { Queue } from './jobs/queue.js'
import { MAINTENANCE_JOB, maintenanceJob, scheduleMaintenance } from './jobs/maintenance.js'
import { RENEW_ARCHIVES_JOB, renewArchivesJob, scheduleArchiveRenewal } from './jobs/renew-archives.js'
import { webhookJob } from './webhooks/deliver.js'
import { expiryJob, reminderJob, type DeadlineHooks } from './domain/signing/deadlines.js'
import { emitFor } from './domain/envelope/emit.js'
import { SEAL_JOB, sealJob } from './domain/evidence/completion.js'
import { BULK_SEND_JOB, bulkSendJob } from './domain/template/bulk-send.js'
import { mailJob } from './mail/job.js'
import { ACCOUNT_MAIL_JOB, accountMailJob } from './people/mail.js'
import type { KeyObject } from 'node:crypto'
import { MAIL_JOB, mailTurn } from './mail/notify.js'
import { createMailTransport, NO_MAIL_TRANSPORT, type MailTransport } from './mail/transport.js'
import { log } from './log.js'
import { accountLinkKey } from './people/sign-in-link.js'
import { operatorOps } from './people/operator-ops.js'

const deadlineHooks: DeadlineHooks = {
  emit: emitFor,
  remind: (tx, e, r) => mailTurn(tx, e.id, [r.id], { reminder: true }),
}

/** Any setting of HostConfig (else from the environment), and the clock of the queue. */
export type StartHostOptions = Partial<HostConfig> & {
  /** Time for the queue, reminders and deadlines; tests drive it. */
  clock?: Clock
}

export interface Host {
  /** Origin, no trailing slash. */
  url: string
  /** url + '/api/v2' */
  apiUrl: string
  close(): Promise<void>
  createTeam(o: { name: string; plan: Plan }): Promise<{ id: string }>
  /** Without teamId: the default enterprise team. */
  createApiToken(o: { name: string; teamId?: string; expires?: TokenExpiry }): Promise<{ id: string; token: string }>
  revokeApiToken(id: string): Promise<void>
  /** The open database (for operators and tests that inspect stored rows). */
  db: Db
  config: HostConfig
  /** The job queue (webhooks, e-mail, reminders, deadlines); `drain()` runs what is due now. */
  queue: Queue
}

/** Starts a host in this process: database opened and migrated, HTTP server listening. */
export async function startHost(opts: StartHostOptions = {}): Promise<Host> {
  const { clock = systemClock, ...settings } = opts
  const defined = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined))
  const config: HostConfig = { ...configFromEnv(), ...defined }
  const embedded = !config.databaseUrl
  const lock: DataDirLock | null = embedded ? await lockDataDir(config.dataDir) : null
  let db: Db
  try {
    db = await openDb(config)
  } catch (err) {
    await lock?.release()
    throw err
  }
  let server: Server | undefined
  try {
    const presignSecret = await loadPresignSecret(db)
    const linkKey = accountLinkKey(presignSecret)
    const adminSecret = embedded ? randomBytes(32).toString('base64url') : null
    let sealing: Promise<SealingKey> | undefined
    const sealingKey = () => {
      sealing ??= loadSealingKey(db)
      sealing.catch(() => (sealing = undefined))
      return sealing
    }
    const mail = createMailTransport({ smtpUrl: config.smtpUrl, mailbox: config.mailbox, from: config.mailFrom, db })
    if (mail.kind === 'none') log.warn(`${NO_MAIL_TRANSPORT}; e-mail waits in the queue and is retried until then`)
    // Several processes share one PostgreSQL: they count each token together.
    const shared = embedded ? undefined : { db, syncMs: config.rateLimitSyncMs }
    const rateLimit = new RateLimiter({ limit: config.rateLimit, windowSeconds: config.rateLimitWindowSeconds, clock, shared })
    let queue: Queue | undefined
    const runtime: Runtime = { queueRunning: () => queue?.active ?? false, queueExpected: config.queueConcurrency > 0, closing: false }
    // Measured only where someone may read it: nothing is counted without METRICS_TOKEN.
    const metrics = config.metricsToken ? createMetrics(db) : undefined
    const app = createApp({ db, cache: hostCaches(db), config, presignSecret, adminSecret, sealingKey, clock, rateLimit, linkKey, mailbox: mail.kind === 'local', runtime, metrics })
    const listener = withBaseHeaders(getRequestListener(app.fetch, { hostname: config.hostname }))
    const address = await new Promise<AddressInfo>((resolve, reject) => {
      const s = createServer(requestBudgets(config), listener)
      answerClientErrors(s)
      lingerBeforeClosing(s)
      server = s
      s.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          err.code === 'EADDRINUSE'
            ? new Error(`port ${config.port} on ${config.hostname} is taken by another program: set PORT to a free port (listen EADDRINUSE)`, { cause: err })
            : err,
        ),
      )
      s.listen(config.port, config.hostname, () => resolve(s.address() as AddressInfo))
    })
    // A wildcard listener is reached by name on this machine: passkeys refuse an IP address.
    const loopback = ['0.0.0.0', '::', ''].includes(config.hostname) ? 'localhost' : config.hostname
    const host = loopback.includes(':') ? `[${loopback}]` : loopback
    const listening = `http://${host}:${address.port}`
    await lock?.publish({ url: listening, adminSecret: adminSecret! })
    const url = config.publicUrl ?? listening
    queue = await startQueue(db, config, clock, embedded, mail, () => url, sealingKey, linkKey, metrics)
    const jobs = queue
    const operator = operatorOps(db, { config, now: () => clock.now(), linkKey: () => linkKey })
    // Started last: nothing below can fail, so close() is what stops it.
    rateLimit.start()
    let closing: Promise<void> | undefined
    return {
      url,
      apiUrl: `${url}/api/v2`,
      db,
      queue: jobs,
      config: { ...config, port: address.port },
      createTeam: operator.createTeam,
      createApiToken: async (o) => {
        const t = await operator.createToken(o)
        return { id: t.id, token: t.token }
      },
      revokeApiToken: operator.revokeToken,
      close: () =>
        (closing ??= (async () => {
          try {
            // Graceful: /readyz turns 503, no new connection is taken, idle ones close, and the
            // requests under way get SHUTDOWN_GRACE_MS to finish before the rest are cut.
            runtime.closing = true
            await new Promise<void>((resolve) => {
              const cut = setTimeout(() => server!.closeAllConnections(), config.shutdownGraceMs)
              server!.close(() => {
                clearTimeout(cut)
                resolve()
              })
              server!.closeIdleConnections()
            })
            // Jobs under way finish; nothing new is claimed (a job cut off is claimed again after its lease).
            await jobs.stop()
            rateLimit.stop()
            await mail.close()
            await db.close()
          } finally {
            await lock?.release()
          }
        })()),
    }
  } catch (err) {
    server?.close()
    await db.close()
    await lock?.release()
    throw err
  }
}

/**
 * The queue and its handlers. An embedded database belongs to this one process, so a job left
 * running by a process that died is this host's to run again at once; on PostgreSQL its lease
 * has to run out first (another process may still be running it).
 */
async function startQueue(
  db: Db,
  config: HostConfig,
  clock: Clock,
  embedded: boolean,
  transport: MailTransport,
  publicUrl: () => string,
  sealingKey: () => Promise<SealingKey>,
  linkKey: KeyObject,
  metrics: Metrics | undefined,
): Promise<Queue> {
  const queue = new Queue(
    db,
    {
      [SEAL_JOB]: sealJob(db, sealingKey, config.retryMaxAttempts, config.sealing),
      webhook: webhookJob(db, { timeoutMs: config.webhookTimeoutMs, allowPrivate: config.webhookAllowPrivateUrls }),
      [MAIL_JOB]: mailJob({ db, transport, publicUrl }),
      [ACCOUNT_MAIL_JOB]: accountMailJob({ db, transport, publicUrl, linkKey }),
      [RECIPIENT_CODE_JOB]: recipientCodeJob({ db, transport, linkKey, publicUrl }),
      [MAINTENANCE_JOB]: maintenanceJob(db, clock, config.retention),
      [RENEW_ARCHIVES_JOB]: renewArchivesJob(db, clock, { archive: config.archive, tsaUrls: config.sealing.tsaUrls, budgetMs: config.queueLeaseMs / 2 }),
      expiry: expiryJob(db, clock, deadlineHooks),
      reminder: reminderJob(db, clock, deadlineHooks),
      [BULK_SEND_JOB]: bulkSendJob(db, clock),
    },
    {
      concurrency: config.queueConcurrency,
      pollMs: config.queuePollMs,
      leaseMs: config.queueLeaseMs,
      clock,
      retry: { maxAttempts: config.retryMaxAttempts, baseDelayMs: config.retryBaseMs, factor: config.retryFactor, maxDelayMs: config.retryMaxMs },
      ...(metrics && { onFinished: metrics.jobFinished }),
      // E-mail has slots of its own: no team's slow webhooks hold up a signing request.
      lane: [MAIL_JOB, ACCOUNT_MAIL_JOB, RECIPIENT_CODE_JOB],
      ...(config.queueTeamShare > 0 && { teamShare: config.queueTeamShare }),
    },
  )
  if (embedded) await requeueRunning(db)
  await scheduleMaintenance(db, clock, config.retention)
  // Only a host that makes B-LTA seals (it has timestamp servers) can renew them.
  if (config.sealing.tsaUrls.length) await scheduleArchiveRenewal(db, clock, config.archive)
  if (config.queueConcurrency > 0) queue.start()
  return queue
}

/** The caches, each dropping what the notifications on its channel name. */
export function hostCaches(db: Db): HostCaches {
  const caches: HostCaches = { tokens: new Cache(db), envelopes: new Cache(db), teams: new Cache(db) }
  db.listen(CHANNELS.teams, (id) => caches.teams.invalidate(id))
  db.listen(CHANNELS.apiTokens, () => caches.tokens.invalidate(null))
  db.listen(CHANNELS.envelopes, (id) => caches.envelopes.invalidate(id))
  return caches
}
