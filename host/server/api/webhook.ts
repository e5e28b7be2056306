import { Hono } from 'hono'
import { z } from 'zod'
import { actingUser, assertTeamRole, memberOf } from '../auth/principal.js'
import type { Queryable } from '../db/index.js'
import { recordActivity, type TeamAction } from '../people/activity.js'
import { EVENT_NAMES } from '../events/index.js'
import {
  sendTestEvent,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  resendCall,
  updateWebhook,
  webhookCalls,
  SECRET_CHARACTERS,
  SECRET_RULE,
  rotateWebhookSecret,
  rotateSigningKey,
  type WebhookCaller,
} from '../webhooks/store.js'
import { jsonBody, parse, principal, type Ctx } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { stringParam } from './schemas.js'

export const WebhookId = z.string().regex(/^webhook_[a-z0-9]+$/, 'Expected a webhook id (webhook_...)')
export const Fields = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2000),
  events: z.array(z.enum(EVENT_NAMES)).min(1).max(EVENT_NAMES.length * 2),
  secret: z.string().max(255).regex(SECRET_CHARACTERS, SECRET_RULE).optional(),
  /** false: calls carry no X-Service-Secret header (the receiver checks the signature with the signing key). */
  sendSecretHeader: z.boolean().optional(),
  enabled: z.boolean().optional(),
})
export const CreateBody = Fields.strict()
export const UpdateBody = Fields.partial().extend({ id: WebhookId }).strict()
export const DeleteBody = z.object({ id: WebhookId })
export const CallsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(20),
})

/** Webhook configuration of the calling team (API v2 leaves it to each host; docs/delivery.md, "Webhooks"). API tokens only. */
export function webhookRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  /** The team, and the member whose role bounds which webhooks they manage and what those receive. */
  const team = (c: Ctx): WebhookCaller => {
    const p = principal(c)
    assertTeamRole(p, 'managing webhooks', 'MANAGER')
    return { teamId: p.teamId, member: memberOf(p) }
  }
  // Done with a token and no member behind it: the log names the token.
  const log = (c: Ctx, tx: Queryable, action: TeamAction, target: string, details: object = {}) => {
    const p = principal(c)
    const userId = actingUser(p)
    return recordActivity(tx, { teamId: p.teamId, userId, action, target, details: { ...details, ...(!userId && { byToken: p.tokenId }) } })
  }
  const allowPrivate = ctx.config.webhookAllowPrivateUrls

  r.post('/webhook/create', async (c) => {
    const who = team(c)
    const body = await jsonBody(c, CreateBody)
    return c.json(
      await ctx.db.transaction(async (tx) => {
        const hook = await createWebhook(tx, who, body, allowPrivate)
        await log(c, tx, 'webhook.created', hook.id, { url: hook.url, events: hook.events })
        return hook
      }),
    )
  })
  r.get('/webhook', async (c) => c.json({ data: await listWebhooks(ctx.db, team(c)) }))
  r.post('/webhook/update', async (c) => {
    const who = team(c)
    const { id, ...patch } = await jsonBody(c, UpdateBody)
    return c.json(
      await ctx.db.transaction(async (tx) => {
        const before = await getWebhook(tx, who, id)
        const hook = await updateWebhook(tx, who, id, patch, allowPrivate)
        // What changed, old and new, without the secret's value.
        const from = { url: before.url, events: before.events, enabled: before.enabled, sendSecretHeader: before.sendSecretHeader }
        await log(c, tx, 'webhook.updated', id, { ...patch, ...(patch.secret !== undefined && { secret: 'changed' }), url: hook.url, from })
        return hook
      }),
    )
  })
  r.post('/webhook/delete', async (c) => {
    const who = team(c)
    const { id } = await jsonBody(c, DeleteBody)
    await ctx.db.transaction(async (tx) => {
      await deleteWebhook(tx, who, id)
      await log(c, tx, 'webhook.deleted', id)
    })
    return c.json({ success: true })
  })
  r.post('/webhook/call/:callId/resend', async (c) => {
    const who = team(c)
    await ctx.db.transaction((tx) => resendCall(tx, who, stringParam(c.req.param('callId'), 'webhook call')))
    return c.json({ success: true })
  })
  // A rotation answers the webhook with what it made, shown this once, and logs what changed (never the values).
  const rotation = (path: string, rotate: typeof rotateSigningKey, changed: Record<string, string>) =>
    r.post(path, async (c) => {
      const who = team(c)
      const id = parse(WebhookId, c.req.param('id'))
      return c.json(
        await ctx.db.transaction(async (tx) => {
          const hook = await rotate(tx, who, id)
          await log(c, tx, 'webhook.updated', id, changed)
          return hook
        }),
      )
    })
  rotation('/webhook/:id/rotate-secret', rotateWebhookSecret, { secret: 'rotated', signingKey: 'rotated' })
  rotation('/webhook/:id/rotate-signing-key', rotateSigningKey, { signingKey: 'rotated' })
  r.post('/webhook/:id/test', async (c) => {
    const who = team(c)
    const id = parse(WebhookId, c.req.param('id'))
    await ctx.db.transaction((tx) => sendTestEvent(tx, who, id))
    return c.json({ success: true })
  })
  r.get('/webhook/:id/calls', async (c) => {
    const who = team(c)
    return c.json(await webhookCalls(ctx.db, who, parse(WebhookId, c.req.param('id')), parse(CallsQuery, c.req.query())))
  })
  r.get('/webhook/:id', async (c) => c.json(await getWebhook(ctx.db, team(c), parse(WebhookId, c.req.param('id')))))
  return r
}
