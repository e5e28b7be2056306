import { parseArgs } from 'node:util'
import { setFlagsFromString } from 'node:v8'
import { TOKEN_EXPIRIES, type ApiTokenInfo, type TokenExpiry } from './auth/api-tokens.js'
import { configFromEnv, type HostConfig } from './config.js'
import { openDb } from './db/index.js'
import { PLANS, type Plan } from './domain/team/plans.js'
import { ADMIN_SECRET_HEADER, DataDirBusy, lockDataDir, readLock } from './lock.js'
import { EVENT_NAMES, type EventName } from './events/index.js'
import type { Webhook, WebhookCall } from './webhooks/store.js'
import { operatorOps, type JobCount, type OperatorOps, type OperatorUser } from './people/operator-ops.js'
import { isRole, type Role } from './people/roles.js'
import { bufferLog } from './log.js'
import { loadPresignSecret } from './auth/presign.js'
import { accountLinkKey, personOrigin } from './people/sign-in-link.js'
import type { AuditChainCheck } from './domain/evidence/audit-chain.js'
import type { ArchiveDue } from './domain/evidence/archive-renewal.js'
import type { DueEnvelope, PurgedEnvelope } from './domain/retention/retention.js'

const USAGE = `usage: npm run host -- <command>
  serve                                     start the host (PORT, HOST, DATA_DIR, DATABASE_URL, PUBLIC_URL, MAX_UPLOAD_BYTES)
  token create --name NAME [--expires ${TOKEN_EXPIRIES.join('|')}] [--team ID]
                                            create an API token; the token is the last line printed
  token list                                list API tokens (never their values)
  token revoke ID                           revoke (delete) an API token
  team create --name NAME --plan ${PLANS.join('|')}
                                            create a team; prints its id
  webhook create --url URL --events all|EVENT,EVENT... [--secret S] [--team ID]
                                            register a webhook; prints its signing key (shown this once), then its id
  webhook list [--team ID]                  id, enabled, events, url
  webhook calls ID [--team ID]              the webhook's latest deliveries
  user create --email EMAIL [--name NAME] [--team ID] [--role ADMIN|MANAGER|MEMBER | --admin]
                                            an account (verified) in a team (the default team with --admin and no --team),
                                            and a one-time sign-in link e-mailed to it (SMTP or the local mailbox); nothing secret is printed
  user link EMAIL                           a fresh one-time sign-in link for the account (good for 15 minutes; replaces
                                            the earlier ones), printed here: open it in a browser on this machine
  user list                                 accounts, their teams and roles
  jobs                                      queued work by kind and state (pending, running, done, failed)
  jobs retry [--kind KIND]                  run failed jobs again (e.g. --kind seal), with fresh attempts
  audit check [--envelope ID]               recompute the audit log's hash chain of one envelope (else of every one):
                                            ok and its head, or the first entry that was changed; exit code 1 on a break
  archive due                               sealed B-LTA files and when each gets its next document timestamp: item,
                                            envelope, title, last timestamp, its authority's certificate end, due (now)
  retention due [--team ID] [--days N]      finished envelopes past their team's retention (within N more days with
                                            --days): envelope, team, status, when it finished, when it is due
  retention run [--team ID]                 purge now every envelope due: its files deleted, its personal data redacted
  move --to-database URL [--to-storage URL] move the embedded database in DATA_DIR (stopped) and its files to an empty
                                            PostgreSQL database and, with --to-storage, an S3-compatible bucket; checked`

/**
 * The operator actions, run either on the database or through a running server's admin endpoints
 * (people/operator-ops.ts both ways); a sign-in link opens where this command's host is reached.
 */
type Ops = Omit<OperatorOps, 'signInLink'> & { signInLink(email: string): ReturnType<OperatorOps['signInLink']> }

class CliError extends Error {}

function remoteOps(url: string, secret: string): Ops {
  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/_admin${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { [ADMIN_SECRET_HEADER]: secret, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const json = (await res.json()) as T & { message?: string }
    if (!res.ok) throw new CliError(json.message ?? `server answered ${res.status}`)
    return json
  }
  return {
    createTeam: (o) => call('/teams', o),
    createToken: (o) => call('/tokens', o),
    listTokens: async () => (await call<{ data: ApiTokenInfo[] }>('/tokens')).data,
    revokeToken: async (id) => void (await call('/tokens/revoke', { id })),
    createWebhook: (o) => call('/webhooks', o),
    listWebhooks: async (teamId) => (await call<{ data: Webhook[] }>(`/webhooks${teamId ? `?team=${encodeURIComponent(teamId)}` : ''}`)).data,
    webhookCalls: async (id, teamId) =>
      (await call<{ data: WebhookCall[] }>(`/webhooks/${encodeURIComponent(id)}/calls${teamId ? `?team=${encodeURIComponent(teamId)}` : ''}`)).data,
    createUser: (o) => call('/users', o),
    listUsers: async () => (await call<{ data: OperatorUser[] }>('/users')).data,
    signInLink: (email) => call('/users/link', { email }),
    listJobs: async () => (await call<{ data: JobCount[] }>('/jobs')).data,
    retryJobs: async (kind) => (await call<{ retried: number }>('/jobs/retry', kind ? { kind } : {})).retried,
    checkAudit: async (envelopeId) => (await call<{ data: AuditChainCheck[] }>(`/audit/check${envelopeId ? `?envelope=${encodeURIComponent(envelopeId)}` : ''}`)).data,
    archiveDue: async () => (await call<{ data: ArchiveDue[] }>('/archive/due')).data,
    retentionDue: async (o) =>
      (await call<{ data: DueEnvelope[] }>(`/retention/due?days=${o.days}${o.teamId ? `&team=${encodeURIComponent(o.teamId)}` : ''}`)).data,
    retentionRun: async (teamId) => (await call<{ data: PurgedEnvelope[] }>('/retention/run', teamId ? { teamId } : {})).data,
  }
}

async function withDb<T>(config: HostConfig, fn: (ops: Ops) => Promise<T>): Promise<T> {
  const db = await openDb(config)
  try {
    const ops = operatorOps(db, { config, now: () => new Date(), linkKey: async () => accountLinkKey(await loadPresignSecret(db)) })
    return await fn({ ...ops, signInLink: (email) => ops.signInLink(email, config.publicUrl ?? personOrigin(config.hostname, config.port)) })
  } finally {
    await db.close()
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * PostgreSQL: straight to the database. Embedded: through the server holding DATA_DIR when one
 * runs, else on the database under the same lock a server takes; waits while another command holds it.
 */
async function withOps<T>(config: HostConfig, fn: (ops: Ops) => Promise<T>): Promise<T> {
  if (config.databaseUrl) return withDb(config, fn)
  const deadline = Date.now() + 60_000
  let told = false
  for (;;) {
    const holder = await readLock(config.dataDir)
    if (holder?.url && holder.adminSecret) {
      const ops = remoteOps(holder.url, holder.adminSecret)
      try {
        return await fn(ops)
      } catch (err) {
        if (err instanceof CliError) throw err
        // Server starting or stopping: look again.
      }
    } else if (!holder) {
      try {
        const lock = await lockDataDir(config.dataDir)
        try {
          return await withDb(config, fn)
        } finally {
          await lock.release()
        }
      } catch (err) {
        if (!(err instanceof DataDirBusy)) throw err
      }
    }
    if (Date.now() > deadline) throw new CliError(`gave up waiting for ${config.dataDir}: it stays in use by process ${holder?.pid}`)
    if (!told && holder) {
      console.error(`waiting: ${config.dataDir} is in use by process ${holder.pid}`)
      told = true
    }
    await sleep(250)
  }
}

/** The command line: the command and its words, and the flags of every command. */
function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      expires: { type: 'string' },
      team: { type: 'string' },
      plan: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      secret: { type: 'string' },
      kind: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      admin: { type: 'boolean' },
      'to-database': { type: 'string' },
      'to-storage': { type: 'string' },
      envelope: { type: 'string' },
      days: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

/** One command as given: its second and third words, its flags, and the host's configuration. */
interface Command {
  sub: string | undefined
  arg: string | undefined
  values: ReturnType<typeof parseCommandLine>['values']
  config: HostConfig
}

/** A group of commands (token, webhook, ...): false when it has none of this name. */
type CommandGroup = (c: Command) => Promise<boolean>

const need = (v: string | undefined, flag: string) => {
  if (!v) throw new CliError(`${flag} is required\n${USAGE}`)
  return v
}

/** `serve`: starts the host and tells the operator how to sign in; it runs until SIGINT or SIGTERM. */
async function serve(config: HostConfig): Promise<void> {
  const { startHost } = await import('./start.js')
  bufferLog()
  // Without HOST, the host is reached by name: passkeys refuse an IP address such as 127.0.0.1.
  const host = await startHost(process.env.HOST ? config : { ...config, hostname: 'localhost' })
  console.log(`listening on ${host.config.publicUrl ? `http://${config.hostname}:${host.config.port}` : host.url}`)
  // Nobody becomes an administrator by signing up first: the operator names the first.
  const { hasUsers } = await import('./people/users.js')
  if (!(await hasUsers(host.db))) console.error('no account yet: make the first administrator with `user create --email EMAIL --admin` (a sign-in link is e-mailed)')
  else console.error('a fresh sign-in link for an account: `npm run host -- user link EMAIL`')
  const stop = () => void host.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

/** `token create|list|revoke`: the team's API tokens. */
async function tokenCommands({ sub, arg, values, config }: Command): Promise<boolean> {
  if (sub === 'create') {
    const expires = (values.expires ?? 'never') as TokenExpiry
    if (!TOKEN_EXPIRIES.includes(expires)) throw new CliError(`--expires must be one of ${TOKEN_EXPIRIES.join(', ')}`)
    const t = await withOps(config, (ops) =>
      ops.createToken({ name: need(values.name, '--name'), expires, ...(values.team ? { teamId: values.team } : {}) }),
    )
    console.error(`API token ${t.id} for team ${t.teamId}, expires ${t.expiresAt ?? 'never'}. It is shown only this once:`)
    console.log(t.token)
    return true
  }
  if (sub === 'list') {
    const tokens = await withOps(config, (ops) => ops.listTokens())
    if (!tokens.length) console.error('no API tokens')
    for (const t of tokens) {
      console.log([t.id, t.teamId, t.expired ? 'expired' : `expires ${t.expiresAt ?? 'never'}`, JSON.stringify(t.name)].join('\t'))
    }
    return true
  }
  if (sub === 'revoke') {
    const id = need(arg, 'the token id')
    await withOps(config, (ops) => ops.revokeToken(id))
    console.log(`revoked ${id}`)
    return true
  }
  return false
}

/** `webhook create|list|calls`: the team's webhooks and their latest deliveries. */
async function webhookCommands({ sub, arg, values, config }: Command): Promise<boolean> {
  if (sub === 'create') {
    const list = need(values.events, '--events')
    const events = (list === 'all' ? [...EVENT_NAMES] : list.split(',').map((x) => x.trim().toUpperCase())) as EventName[]
    const unknown = events.filter((x) => !EVENT_NAMES.includes(x))
    if (unknown.length) throw new CliError(`unknown event ${unknown.join(', ')}; events: ${EVENT_NAMES.join(', ')}`)
    const hook = await withOps(config, (ops) => ops.createWebhook({ teamId: values.team, url: need(values.url, '--url'), events, secret: values.secret }))
    // The key its calls are signed with, shown this once; the id last, for scripts.
    console.log(`signing key (shown once): ${hook.signingKey}`)
    console.log(hook.id)
    return true
  }
  if (sub === 'list') {
    const hooks = await withOps(config, (ops) => ops.listWebhooks(values.team))
    if (!hooks.length) console.error('no webhooks')
    for (const h of hooks) console.log([h.id, h.enabled ? 'enabled' : 'disabled', h.events.join(','), h.url].join('\t'))
    return true
  }
  if (sub === 'calls') {
    const id = need(arg, 'the webhook id')
    const calls = await withOps(config, (ops) => ops.webhookCalls(id, values.team))
    if (!calls.length) console.error('no deliveries yet')
    for (const c of calls) {
      console.log([c.createdAt, c.event, `attempt ${c.attempt}`, c.responseStatus ?? c.error ?? '', `${c.durationMs} ms`].join('\t'))
    }
    return true
  }
  return false
}

/** `user create|link|list`: accounts, their teams and roles, and their one-time sign-in links. */
async function userCommands({ sub, arg, values, config }: Command): Promise<boolean> {
  if (sub === 'create') {
    const role = (values.admin ? 'ADMIN' : values.role?.toUpperCase()) as Role | undefined
    if (role && !isRole(role)) throw new CliError('--role must be ADMIN, MANAGER or MEMBER')
    const email = need(values.email, '--email')
    const out = await withOps(config, (ops) => ops.createUser({ email, ...(values.name && { name: values.name }), ...(values.team && { teamId: values.team }), ...(role && { role }) }))
    console.error(`${out.created ? 'created' : 'found'} ${email}; a one-time sign-in link is e-mailed to it (sent by the host's queue, through SMTP or to the local mailbox)`)
    console.log(out.userId)
    return true
  }
  if (sub === 'link') {
    const email = need(arg ?? values.email, 'the e-mail address')
    const link = await withOps(config, (ops) => ops.signInLink(email))
    console.error(`a one-time sign-in link for ${link.email}, good until ${link.expiresAt} (it replaces the earlier ones):`)
    console.log(link.url)
    return true
  }
  if (sub === 'list') {
    const users = await withOps(config, (ops) => ops.listUsers())
    if (!users.length) console.error('no accounts')
    for (const u of users) console.log([u.id, u.email, u.verified ? 'verified' : 'unverified', u.teams.map((t) => `${t.teamId}:${t.role}`).join(',')].join('\t'))
    return true
  }
  return false
}

/** `jobs [retry]`: the queue by kind and state, and failed jobs run again. */
async function jobsCommands({ sub, values, config }: Command): Promise<boolean> {
  if (!sub) {
    const counts = await withOps(config, (ops) => ops.listJobs())
    if (!counts.length) console.error('no jobs')
    for (const j of counts) console.log([j.kind, j.status, j.count, j.next ?? ''].join('\t'))
    return true
  }
  if (sub === 'retry') {
    const n = await withOps(config, (ops) => ops.retryJobs(values.kind))
    console.log(`${n} failed job(s) queued again`)
    return true
  }
  return false
}

/** `audit check`: the audit log's hash chain recomputed; a break sets the exit code. */
async function auditCommands({ sub, values, config }: Command): Promise<boolean> {
  if (sub !== 'check') return false
  const checks = await withOps(config, (ops) => ops.checkAudit(values.envelope))
  if (!checks.length) console.error(values.envelope ? `no audit entries for envelope ${values.envelope}` : 'no audit entries')
  for (const c of checks) {
    console.log(c.ok ? [c.envelopeId, 'ok', `${c.entries} entries`, `head ${c.head}`, ...(c.redacted ? [`${c.redacted} redacted by its purge`] : [])].join('\t') : [c.envelopeId, 'BROKEN', `entry ${c.broken.id}`, c.broken.reason].join('\t'))
  }
  // A break is the operator's to look into: scripts see it in the exit code.
  if (checks.some((c) => !c.ok)) process.exitCode = 1
  return true
}

/** `retention due|run`: the finished envelopes past their team's retention, and their purge. */
async function retentionCommands({ sub, values, config }: Command): Promise<boolean> {
  if (sub === 'due') {
    const days = values.days === undefined ? 0 : Number(values.days)
    if (!Number.isInteger(days) || days < 0 || days > 36500) throw new CliError('--days must be a whole number of days from 0 to 36500')
    const due = await withOps(config, (ops) => ops.retentionDue({ teamId: values.team, days }))
    for (const d of due) console.log([d.envelopeId, d.teamId, d.status, `finished ${d.finishedAt}`, `due ${d.dueAt}`].join('\t'))
    console.log(`${due.length} envelope(s) due${days ? ` within ${days} day(s)` : ''}`)
    return true
  }
  if (sub === 'run') {
    const purged = await withOps(config, (ops) => ops.retentionRun(values.team))
    for (const p of purged) console.log([p.envelopeId, p.teamId, `purged ${p.purgedAt}`, `${p.files} file(s) deleted`, `${p.auditEntries} audit entries redacted`, `copies: ${Object.entries(p.copies).map(([k, n]) => `${k} ${n}`).join(', ')}`].join('\t'))
    console.log(`${purged.length} envelope(s) purged`)
    return true
  }
  return false
}

/** `archive due`: the sealed B-LTA files and when each gets its next document timestamp. */
async function archiveCommands({ sub, config }: Command): Promise<boolean> {
  if (sub !== 'due') return false
  const archives = await withOps(config, (ops) => ops.archiveDue())
  for (const a of archives) {
    console.log([a.itemId, a.envelopeId, a.title, `timestamped ${a.timestampAt}`, `authority until ${a.tsaValidTo}`, `${a.due ? 'due now' : 'due'} ${a.dueAt}`].join('\t'))
  }
  console.log(`${archives.filter((a) => a.due).length} of ${archives.length} B-LTA file(s) due now`)
  return true
}

/** `move`: the embedded database and its files to PostgreSQL (and an S3-compatible bucket). */
async function moveCommand({ values, config }: Command): Promise<boolean> {
  if (config.databaseUrl) throw new CliError('move: DATABASE_URL is set; the source is the embedded database in DATA_DIR (give the target as --to-database)')
  // The data directory stays locked for the whole move: no server may change it meanwhile.
  const lock = await lockDataDir(config.dataDir)
  try {
    const { moveInstance } = await import('./db/move.js')
    const report = await moveInstance({
      dataDir: config.dataDir,
      databaseUrl: need(values['to-database'], '--to-database'),
      storageUrl: values['to-storage'],
      log: (line) => console.error(line),
    })
    console.log(`moved ${Object.values(report.tables).reduce((a, b) => a + b, 0)} rows and ${report.files} files (${report.bytes} bytes); start the hosts with DATABASE_URL${values['to-storage'] ? ' and STORAGE_URL' : ''} set to the target`)
  } finally {
    await lock.release()
  }
  return true
}

/** `team create`: a team on a plan; prints its id. */
async function teamCommands({ sub, values, config }: Command): Promise<boolean> {
  if (sub !== 'create') return false
  const plan = need(values.plan, '--plan') as Plan
  if (!PLANS.includes(plan)) throw new CliError(`--plan must be one of ${PLANS.join(', ')}`)
  const team = await withOps(config, (ops) => ops.createTeam({ name: need(values.name, '--name'), plan }))
  console.log(team.id)
  return true
}

/** Each command's first word and the group that runs it. */
const COMMANDS: Record<string, CommandGroup> = {
  token: tokenCommands,
  webhook: webhookCommands,
  user: userCommands,
  jobs: jobsCommands,
  audit: auditCommands,
  retention: retentionCommands,
  archive: archiveCommands,
  move: moveCommand,
  team: teamCommands,
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv)
  const [cmd, sub, arg] = positionals
  const config = configFromEnv()
  if (values.help || !cmd) {
    console.log(USAGE)
    return
  }
  if (cmd === 'serve') return serve(config)
  // Every other command ends soon: where it opens the embedded database, V8 would spend some 1.2 s
  // of CPU compiling optimized code for its WebAssembly that never pays off. Set before that module
  // is compiled; a long command (a move) still gets the optimized code where it runs hot.
  setFlagsFromString('--wasm-tiering-budget=100000000')
  const group = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined
  if (group && (await group({ sub, arg, values, config }))) return
  throw new CliError(`unknown command: ${positionals.join(' ')}\n${USAGE}`)
}

// Output piped into a closed reader (| head): nothing more to say.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0)
  throw err
})

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof CliError || err instanceof DataDirBusy ? err.message : err instanceof Error ? err.message : String(err))
  process.exit(1)
})
