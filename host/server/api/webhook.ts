import { Hono } from 'hono'
import { z } from 'zod'
import { assertTeamRole, memberOf } from '../auth/principal.js'
import { EVENT_NAMES } from '../events/index.js'
import { sendTestEvent, getWebhook, listWebhooks, resendCall, webhookCalls, SECRET_CHARACTERS, SECRET_RULE, type WebhookCaller } from '../webhooks/store.js'
import { addTeamWebhook, changeTeamWebhook, removeTeamWebhook, rotateTeamWebhook } from '../webhooks/team-webhooks.js'
import { jsonBody, parse, principal, type Ctx } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { stringParam } from './schemas.js'
import type { V2Answer } from '../contract/api-v2.js'

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
  const allowPrivate = ctx.config.webhookAllowPrivateUrls

  r.post('/webhook/create', async (c) => {
    const who = team(c)
    const body = await jsonBody(c, CreateBody)
    return c.json(await addTeamWebhook(ctx.db, principal(c), who, body, allowPrivate) satisfies V2Answer<'POST /webhook/create'>)
  })
  r.get('/webhook', async (c) => c.json({ data: await listWebhooks(ctx.db, team(c)) } satisfies V2Answer<'GET /webhook'>))
  r.post('/webhook/update', async (c) => {
    const who = team(c)
    const { id, ...patch } = await jsonBody(c, UpdateBody)
    return c.json(await changeTeamWebhook(ctx.db, principal(c), who, id, patch, allowPrivate) satisfies V2Answer<'POST /webhook/update'>)
  })
  r.post('/webhook/delete', async (c) => {
    const who = team(c)
    const { id } = await jsonBody(c, DeleteBody)
    await removeTeamWebhook(ctx.db, principal(c), who, id)
    return c.json({ success: true } satisfies V2Answer<'POST /webhook/delete'>)
  })
  r.post('/webhook/call/:callId/resend', async (c) => {
    const who = team(c)
    await resendCall(ctx.db, who, stringParam(c.req.param('callId'), 'webhook call'))
    return c.json({ success: true } satisfies V2Answer<'POST /webhook/call/:callId/resend'>)
  })
  // A rotation answers the webhook with what it made, shown this once, and logs what changed (never the values).
  const rotation = (path: string, what: Parameters<typeof rotateTeamWebhook>[4]) =>
    r.post(path, async (c) => {
      const who = team(c)
      return c.json(await rotateTeamWebhook(ctx.db, principal(c), who, parse(WebhookId, c.req.param('id')), what) satisfies V2Answer<'POST /webhook/:webhookId/rotate-secret' | 'POST /webhook/:webhookId/rotate-signing-key'>)
    })
  rotation('/webhook/:id/rotate-secret', 'secret')
  rotation('/webhook/:id/rotate-signing-key', 'signingKey')
  r.post('/webhook/:id/test', async (c) => {
    const who = team(c)
    const id = parse(WebhookId, c.req.param('id'))
    await sendTestEvent(ctx.db, who, id)
    return c.json({ success: true } satisfies V2Answer<'POST /webhook/:webhookId/test'>)
  })
  r.get('/webhook/:id/calls', async (c) => {
    const who = team(c)
    return c.json(await webhookCalls(ctx.db, who, parse(WebhookId, c.req.param('id')), parse(CallsQuery, c.req.query())) satisfies V2Answer<'GET /webhook/:webhookId/calls'>)
  })
  r.get('/webhook/:id', async (c) => c.json(await getWebhook(ctx.db, team(c), parse(WebhookId, c.req.param('id'))) satisfies V2Answer<'GET /webhook/:webhookId'>))
  return r
}
