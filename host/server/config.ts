import path from 'node:path'

// Settings only: the constants and shapes they need are defined here, so that config.ts imports
// no other module of the host and everything may read it.

/** The sender of e-mail when MAIL_FROM is unset. */
export const DEFAULT_MAIL_FROM = 'Envelope <no-reply@localhost>'

/** The SubFilter values the PAdES signatures (pdf/pades.ts) may carry: SEALING_SUBFILTER. */
export const SUBFILTERS = ['ETSI.CAdES.detached', 'adbe.pkcs7.detached'] as const
export type SubFilter = (typeof SUBFILTERS)[number]

/** What the maintenance job (jobs/maintenance.ts) keeps, and how often it runs. */
export interface Retention {
  /** Jobs that ended well, kept this long after they did (failed ones stay for operators). */
  jobsDays: number
  /** Webhook calls (what was sent and answered), kept this long. */
  webhookCallsDays: number
  /** Objects no file names, kept this long after they were last written. */
  filesHours: number
  /** How often the job runs. */
  everyMs: number
}

/** The digest algorithms ARCHIVE_RETIRED_DIGESTS may name. */
export const DIGEST_NAMES = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const
export type DigestName = (typeof DIGEST_NAMES)[number]

/** When B-LTA archives get a new document timestamp (jobs/renew-archives.ts). */
export interface ArchiveRenewal {
  /** Renew when the last timestamp's authority certificate ends within this many days. */
  renewDays: number
  /** Renew at once when the last timestamp uses one of these digests. */
  retiredDigests: DigestName[]
  /** How often the job looks for what is due. */
  everyMs: number
}

/**
 * A presigned URL of the bucket cannot be taken back: it keeps working after the document is
 * deleted or the credential that asked for it is revoked, until it expires. So it lives a minute
 * at most, enough for the browser to follow the redirect.
 */
export const MAX_STORAGE_REDIRECT_SECONDS = 60

/** Settings of one host process; every field has an environment variable (docs/configuration.md). */
export interface HostConfig {
  port: number
  hostname: string
  dataDir: string
  /** PostgreSQL connection string; absent = embedded PGlite in dataDir. */
  databaseUrl: string | undefined
  /** Where files live: absent = in the database; `s3://…` = an S3-compatible bucket (storage/). */
  storageUrl: string | undefined
  /** Downloads from the bucket: 0 = streamed through the host; N = a redirect to a URL of the bucket valid N seconds (at most MAX_STORAGE_REDIRECT_SECONDS). */
  storageRedirectSeconds: number
  /** What the maintenance job keeps, and how often it runs (jobs/maintenance.ts). */
  retention: Retention
  /** Public origin of this host (links it hands out); absent = the listening origin. */
  publicUrl: string | undefined
  /** Largest accepted request body in bytes (uploads included). */
  maxUploadBytes: number
  /** The built authoring pages (index.html + assets/). */
  appDistDir: string
  /** Webhooks may point at loopback and private addresses (tests, demos, local development). */
  webhookAllowPrivateUrls: boolean
  /** A webhook receiver's time to answer. */
  webhookTimeoutMs: number
  /** Jobs this process runs at once; 0 = this process runs none (another one does). */
  queueConcurrency: number
  /** Orders of one team a process runs at once, outside e-mail's slots; 0: half of queueConcurrency. */
  queueTeamShare: number
  /** On SIGTERM: how long requests under way may take to finish before their connections are cut. */
  shutdownGraceMs: number
  /** The bearer token of /metrics; none: no /metrics. */
  metricsToken: string | null
  /** How often the queue looks for scheduled and retried jobs. */
  queuePollMs: number
  /** How long a running job belongs to its process before another may run it again. */
  queueLeaseMs: number
  /** Retry policy: attempts in all, first delay, growth factor, longest delay. */
  retryMaxAttempts: number
  retryBaseMs: number
  retryFactor: number
  retryMaxMs: number
  /** SMTP server for e-mail (`smtp://user:pass@host:587`). */
  smtpUrl: string | undefined
  /**
   * Without SMTP: keep e-mail in the local mailbox (/mailbox), a development aid that `npm start`
   * asks for (MAILBOX=1). Off by default: with neither, e-mail waits in the queue, retried.
   */
  mailbox: boolean
  /** The sender of every e-mail. */
  mailFrom: string
  /** Fair use: requests per token (or address) per window and process; 0 = no limit. */
  rateLimit: number
  rateLimitWindowSeconds: number
  /** On PostgreSQL: how often each process shares its counts with the others. */
  rateLimitSyncMs: number
  /** Time for a whole request, body included (0: none); a slower client gets 408. */
  requestTimeoutMs: number
  /** Time for a request's headers (at most requestTimeoutMs). */
  headersTimeoutMs: number
  /** POST /verify: requests per address and minute; 0 = no limit. */
  verifyRateLimit: number
  /** How completed documents are sealed: the signature's form and the timestamp servers. */
  sealing: { subFilter: SubFilter; tsaUrls: string[] }
  /** When sealed B-LTA files get a new document timestamp, to stay verifiable. */
  archive: ArchiveRenewal
  /** Who may create an account once the first one exists: `invite` (an invitation's address only) or `open` (anyone). */
  signup: 'invite' | 'open'
  /** How long a console session lasts after signing in. */
  sessionLifetimeMs: number
}

const here = path.dirname(new URL(import.meta.url).pathname)
export const DEFAULT_APP_DIST_DIR = path.resolve(here, '../app/dist')
export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024
/** Per minute: above what one process serves one token (benchmarks and load tests stay under it); a backstop, not a plan. */
export const DEFAULT_RATE_LIMIT = 1_000_000

/** A whole request: 25 MiB (the largest upload) at about 2 Mbit/s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000
export const DEFAULT_HEADERS_TIMEOUT_MS = 15_000

function intEnv(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`)
  return n
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): HostConfig {
  return {
    port: intEnv('PORT', env.PORT, 3100),
    hostname: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './.data'),
    databaseUrl: env.DATABASE_URL || undefined,
    storageUrl: env.STORAGE_URL?.trim() || undefined,
    storageRedirectSeconds: Math.min(MAX_STORAGE_REDIRECT_SECONDS, intEnv('STORAGE_REDIRECT_SECONDS', env.STORAGE_REDIRECT_SECONDS, 0)),
    retention: {
      jobsDays: intEnv('JOBS_RETENTION_DAYS', env.JOBS_RETENTION_DAYS, 7),
      webhookCallsDays: intEnv('WEBHOOK_CALLS_RETENTION_DAYS', env.WEBHOOK_CALLS_RETENTION_DAYS, 30),
      filesHours: intEnv('STORAGE_SWEEP_AFTER_HOURS', env.STORAGE_SWEEP_AFTER_HOURS, 24),
      everyMs: Math.max(1, intEnv('MAINTENANCE_EVERY_MINUTES', env.MAINTENANCE_EVERY_MINUTES, 60)) * 60_000,
    },
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    maxUploadBytes: intEnv('MAX_UPLOAD_BYTES', env.MAX_UPLOAD_BYTES, DEFAULT_MAX_UPLOAD_BYTES),
    appDistDir: path.resolve(env.APP_DIST_DIR || DEFAULT_APP_DIST_DIR),
    webhookAllowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS === '1' || env.WEBHOOK_ALLOW_PRIVATE_URLS === 'true',
    webhookTimeoutMs: intEnv('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 10_000),
    queueConcurrency: intEnv('QUEUE_CONCURRENCY', env.QUEUE_CONCURRENCY, 16),
    queueTeamShare: intEnv('QUEUE_TEAM_SHARE', env.QUEUE_TEAM_SHARE, 0),
    shutdownGraceMs: intEnv('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS, 10_000),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    queuePollMs: intEnv('QUEUE_POLL_MS', env.QUEUE_POLL_MS, 1000),
    queueLeaseMs: intEnv('QUEUE_LEASE_MS', env.QUEUE_LEASE_MS, 60_000),
    ...retryFromEnv(env),
    smtpUrl: env.SMTP_URL?.trim() || undefined,
    mailbox: env.MAILBOX === '1' || env.MAILBOX === 'true',
    mailFrom: env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM,
    rateLimit: intEnv('RATE_LIMIT', env.RATE_LIMIT, DEFAULT_RATE_LIMIT),
    rateLimitWindowSeconds: Math.max(1, intEnv('RATE_LIMIT_WINDOW', env.RATE_LIMIT_WINDOW, 60)),
    rateLimitSyncMs: Math.max(50, intEnv('RATE_LIMIT_SYNC_MS', env.RATE_LIMIT_SYNC_MS, 1000)),
    requestTimeoutMs: intEnv('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS),
    headersTimeoutMs: intEnv('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, DEFAULT_HEADERS_TIMEOUT_MS),
    verifyRateLimit: intEnv('VERIFY_RATE_LIMIT', env.VERIFY_RATE_LIMIT, 30),
    sealing: sealingFromEnv(env),
    archive: archiveFromEnv(env),
    signup: signupFromEnv(env.SIGNUP),
    sessionLifetimeMs: Math.max(1, intEnv('SESSION_DAYS', env.SESSION_DAYS, 30)) * 24 * 3600_000,
  }
}

function signupFromEnv(value: string | undefined): HostConfig['signup'] {
  const v = value?.trim() || 'invite'
  if (v !== 'invite' && v !== 'open') throw new Error(`SIGNUP must be invite or open, got "${value}"`)
  return v
}

/** SEALING_SUBFILTER (default PAdES) and SEALING_TSA_URLS (space- or comma-separated, tried in order). */
function sealingFromEnv(env: NodeJS.ProcessEnv): HostConfig['sealing'] {
  const subFilter = (env.SEALING_SUBFILTER?.trim() || 'ETSI.CAdES.detached') as SubFilter
  if (!SUBFILTERS.includes(subFilter)) throw new Error(`SEALING_SUBFILTER must be one of ${SUBFILTERS.join(', ')}, got "${subFilter}"`)
  const tsaUrls = (env.SEALING_TSA_URLS ?? '').split(/[\s,]+/).filter(Boolean)
  for (const url of tsaUrls) {
    if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url)) throw new Error(`SEALING_TSA_URLS: "${url}" is not an http(s) URL`)
  }
  return { subFilter, tsaUrls }
}

/** ARCHIVE_RENEW_DAYS (default 90), ARCHIVE_RETIRED_DIGESTS (default sha1 and md5), ARCHIVE_RENEW_EVERY_HOURS (default 24). */
function archiveFromEnv(env: NodeJS.ProcessEnv): ArchiveRenewal {
  const retired = (env.ARCHIVE_RETIRED_DIGESTS ?? 'md5,sha1').split(/[\s,]+/).filter(Boolean).map((d) => d.toLowerCase().replace('-', ''))
  for (const d of retired) {
    if (!DIGEST_NAMES.includes(d as DigestName)) throw new Error(`ARCHIVE_RETIRED_DIGESTS: "${d}" is not one of ${DIGEST_NAMES.join(', ')}`)
  }
  return {
    renewDays: intEnv('ARCHIVE_RENEW_DAYS', env.ARCHIVE_RENEW_DAYS, 90),
    retiredDigests: retired as DigestName[],
    everyMs: Math.max(1, intEnv('ARCHIVE_RENEW_EVERY_HOURS', env.ARCHIVE_RENEW_EVERY_HOURS, 24)) * 3600_000,
  }
}

/**
 * The retry schedule: by default about 10 s, 30 s, 1.5 min ... up to 6 h between attempts, 10
 * attempts; QUEUE_RETRY=short is the schedule of tests and demos (0.2 s, 0.4 s ... 2 s, 5 attempts);
 * each number can also be set alone.
 */
function retryFromEnv(env: NodeJS.ProcessEnv) {
  const short = env.QUEUE_RETRY === 'short'
  return {
    retryMaxAttempts: intEnv('QUEUE_MAX_ATTEMPTS', env.QUEUE_MAX_ATTEMPTS, short ? 5 : 10),
    retryBaseMs: intEnv('QUEUE_RETRY_BASE_MS', env.QUEUE_RETRY_BASE_MS, short ? 200 : 10_000),
    retryFactor: intEnv('QUEUE_RETRY_FACTOR', env.QUEUE_RETRY_FACTOR, short ? 2 : 3),
    retryMaxMs: intEnv('QUEUE_RETRY_MAX_MS', env.QUEUE_RETRY_MAX_MS, short ? 2000 : 6 * 3600_000),
  }
}
