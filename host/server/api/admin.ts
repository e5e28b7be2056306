import { timingSafeEqual } from 'node:crypto'
import { getConnInfo } from '@hono/node-server/conninfo'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { TOKEN_EXPIRIES, createApiToken, listApiTokens, revokeApiToken } from '../auth/api-tokens.js'
import { ApiError } from '../errors.js'
import { PLANS } from '../domain/plans.js'
import { createTeam, defaultTeamId } from '../domain/teams.js'
import { listUsers, mailOperatorSignIn } from '../people/operator.js'
import { ROLES } from '../people/roles.js'
import { ADMIN_SECRET_HEADER } from '../lock.js'
import { EVENT_NAMES } from '../events/index.js'
import { webhookOps } from '../webhooks/store.js'
import { jobSummary, retryFailed } from '../jobs/job-table.js'
import { checkAuditChains } from '../domain/audit-chain.js'
import { archivesDue } from '../domain/archive-renewal.js'
import { purgeDue, retentionDue } from '../domain/retention.js'
import { jsonBody, parse, publicOrigin } from './http.js'
import { operatorSignInLink } from '../people/sign-in-link.js'
import type { AppEnv, HostContext } from '../context.js'
import { StringId, stringParam } from './schemas.js'

const isLoopback = (address: string | undefined) =>
  !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))

/**
 * Operator endpoints for the CLI while a server holds the embedded database: loopback callers only,
 * with the secret the server wrote to DATA_DIR/host.json (mode 0600). Absent (404) without a secret.
 */
export function adminRoutes(ctx: HostContext, secret: string | null) {
  const r = new Hono<AppEnv>()
  r.use('*', async (c, next) => {
    const given = Buffer.from(c.req.header(ADMIN_SECRET_HEADER) ?? '')
    const ok =
      secret !== null &&
      isLoopback(getConnInfo(c).remote.address) &&
      given.length === Buffer.byteLength(secret) &&
      timingSafeEqual(given, Buffer.from(secret))
    if (!ok) return c.notFound()
    // Answers hold tokens' values and webhooks' secrets: never kept by a cache.
    c.header('Cache-Control', 'no-store')
    await next()
  })
  r.post('/teams', async (c) => {
    const body = await jsonBody(c, z.object({ name: z.string().trim().min(1).max(255), plan: z.enum(PLANS) }))
    return c.json(await ctx.db.transaction((tx) => createTeam(tx, body)))
  })
  r.post('/tokens', async (c) => {
    const body = await jsonBody(
      c,
      z.object({ name: z.string().trim().min(1).max(255), teamId: StringId.optional(), expires: z.enum(TOKEN_EXPIRIES).optional() }),
    )
    return c.json(await ctx.db.transaction((tx) => createApiToken(tx, body)))
  })
  r.get('/tokens', async (c) => c.json({ data: await listApiTokens(ctx.db) }))
  r.get('/jobs', async (c) => c.json({ data: await jobSummary(ctx.db) }))
  r.get('/audit/check', async (c) => c.json({ data: await checkAuditChains(ctx.db, c.req.query('envelope') || undefined) }))
  // Sealed B-LTA files and when each gets its next document timestamp (jobs/renew-archives.ts).
  r.get('/archive/due', async (c) => c.json({ data: await archivesDue(ctx.db, ctx.clock.now(), ctx.config.archive) }))
  r.post('/users', async (c) => {
    const body = await jsonBody(c, z.object({ email: z.string().max(254), name: z.string().max(255).optional(), teamId: StringId.optional(), role: z.enum(ROLES).optional() }))
    return c.json(
      await ctx.db.transaction(async (tx) => mailOperatorSignIn(tx, { ...body, teamId: body.teamId ?? (body.role === 'ADMIN' ? await defaultTeamId(tx) : undefined) })),
    )
  })
  r.post('/users/link', async (c) => {
    const { email } = await jsonBody(c, z.object({ email: z.string().min(1).max(254) }))
    return c.json(await ctx.db.transaction((tx) => operatorSignInLink(tx, { email, origin: publicOrigin(ctx, c), linkKey: ctx.linkKey })))
  })
  r.get('/users', async (c) => c.json({ data: await listUsers(ctx.db) }))
  r.post('/jobs/retry', async (c) => {
    const { kind } = await jsonBody(c, z.object({ kind: z.string().min(1).max(50).optional() }))
    return c.json({ retried: await retryFailed(ctx.db, kind) })
  })
  r.post('/tokens/revoke', async (c) => {
    const { id } = await jsonBody(c, z.object({ id: StringId }))
    await ctx.db.transaction((tx) => revokeApiToken(tx, id))
    return c.json({ success: true })
  })
  const hooks = webhookOps(ctx.db, ctx.config.webhookAllowPrivateUrls)
  r.post('/webhooks', async (c) => {
    const body = await jsonBody(
      c,
      z.object({ teamId: StringId.optional(), url: z.url({ protocol: /^https?$/ }), events: z.array(z.enum(EVENT_NAMES)).min(1), secret: z.string().max(255).optional() }),
    )
    return c.json(await hooks.createWebhook(body))
  })
  const teamQuery = (c: Context) => (c.req.query('team') === undefined ? undefined : stringParam(c.req.query('team'), 'team'))
  // Retention: what is due (by now, or within `days`), and purging it now.
  r.get('/retention/due', async (c) => {
    const days = c.req.query('days') === undefined ? 0 : parse(z.coerce.number().int().min(0).max(36500), c.req.query('days'))
    const before = new Date(ctx.clock.now().getTime() + days * 24 * 3600_000)
    return c.json({ data: await retentionDue(ctx.db, { before, teamId: teamQuery(c) }) })
  })
  r.post('/retention/run', async (c) => {
    const { teamId } = await jsonBody(c, z.object({ teamId: StringId.optional() }))
    return c.json({ data: await purgeDue(ctx.db, ctx.clock.now(), teamId) })
  })
  r.get('/webhooks', async (c) => c.json({ data: await hooks.listWebhooks(teamQuery(c)) }))
  r.get('/webhooks/:id/calls', async (c) => c.json({ data: await hooks.webhookCalls(stringParam(c.req.param('id'), 'webhook'), teamQuery(c)) }))
  r.all('*', () => {
    throw new ApiError(404, 'NOT_FOUND', 'no such admin endpoint')
  })
  return r
}
