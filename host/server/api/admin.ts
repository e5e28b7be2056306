import { timingSafeEqual } from 'node:crypto'
import { getConnInfo } from '@hono/node-server/conninfo'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { TOKEN_EXPIRIES } from '../auth/api-tokens.js'
import { ApiError } from '../errors.js'
import { PLANS } from '../domain/team/plans.js'
import { operatorOps } from '../people/operator-ops.js'
import { ROLES } from '../people/roles.js'
import { ADMIN_SECRET_HEADER } from '../lock.js'
import { EVENT_NAMES } from '../events/index.js'
import { jsonBody, parse, publicOrigin } from './http.js'
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
  // The same operations as the CLI's on the database (people/operator-ops.ts).
  const ops = operatorOps(ctx.db, { config: ctx.config, now: () => ctx.clock.now(), linkKey: () => ctx.linkKey })
  r.post('/teams', async (c) => {
    const body = await jsonBody(c, z.object({ name: z.string().trim().min(1).max(255), plan: z.enum(PLANS) }))
    return c.json(await ops.createTeam(body))
  })
  r.post('/tokens', async (c) => {
    const body = await jsonBody(
      c,
      z.object({ name: z.string().trim().min(1).max(255), teamId: StringId.optional(), expires: z.enum(TOKEN_EXPIRIES).optional() }),
    )
    return c.json(await ops.createToken(body))
  })
  r.get('/tokens', async (c) => c.json({ data: await ops.listTokens() }))
  r.get('/jobs', async (c) => c.json({ data: await ops.listJobs() }))
  r.get('/audit/check', async (c) => c.json({ data: await ops.checkAudit(c.req.query('envelope') || undefined) }))
  // Sealed B-LTA files and when each gets its next document timestamp (jobs/renew-archives.ts).
  r.get('/archive/due', async (c) => c.json({ data: await ops.archiveDue() }))
  r.post('/users', async (c) => {
    const body = await jsonBody(c, z.object({ email: z.string().max(254), name: z.string().max(255).optional(), teamId: StringId.optional(), role: z.enum(ROLES).optional() }))
    return c.json(await ops.createUser(body))
  })
  r.post('/users/link', async (c) => {
    const { email } = await jsonBody(c, z.object({ email: z.string().min(1).max(254) }))
    return c.json(await ops.signInLink(email, publicOrigin(ctx, c)))
  })
  r.get('/users', async (c) => c.json({ data: await ops.listUsers() }))
  r.post('/jobs/retry', async (c) => {
    const { kind } = await jsonBody(c, z.object({ kind: z.string().min(1).max(50).optional() }))
    return c.json({ retried: await ops.retryJobs(kind) })
  })
  r.post('/tokens/revoke', async (c) => {
    const { id } = await jsonBody(c, z.object({ id: StringId }))
    await ops.revokeToken(id)
    return c.json({ success: true })
  })
  r.post('/webhooks', async (c) => {
    const body = await jsonBody(
      c,
      z.object({ teamId: StringId.optional(), url: z.url({ protocol: /^https?$/ }), events: z.array(z.enum(EVENT_NAMES)).min(1), secret: z.string().max(255).optional() }),
    )
    return c.json(await ops.createWebhook(body))
  })
  const teamQuery = (c: Context) => (c.req.query('team') === undefined ? undefined : stringParam(c.req.query('team'), 'team'))
  // Retention: what is due (by now, or within `days`), and purging it now.
  r.get('/retention/due', async (c) => {
    const days = c.req.query('days') === undefined ? 0 : parse(z.coerce.number().int().min(0).max(36500), c.req.query('days'))
    return c.json({ data: await ops.retentionDue({ days, teamId: teamQuery(c) }) })
  })
  r.post('/retention/run', async (c) => {
    const { teamId } = await jsonBody(c, z.object({ teamId: StringId.optional() }))
    return c.json({ data: await ops.retentionRun(teamId) })
  })
  r.get('/webhooks', async (c) => c.json({ data: await ops.listWebhooks(teamQuery(c)) }))
  r.get('/webhooks/:id/calls', async (c) => c.json({ data: await ops.webhookCalls(stringParam(c.req.param('id'), 'webhook'), teamQuery(c)) }))
  r.all('*', () => {
    throw new ApiError(404, 'NOT_FOUND', 'no such admin endpoint')
  })
  return r
}
