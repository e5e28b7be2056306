/**
 * The console's view of a webhook's deliveries (GET /api/console/webhooks/:id/calls): the API v2
 * log with what a person reads first, the document, the request headers (secrets hidden) and the
 * start of the answer. Changing webhooks stays on API v2, which the console calls with its session.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { Answer } from '../../shared/console-contract.js'
import type { HostContext } from '../context.js'
import { memberOf } from '../auth/principal.js'
import { ApiError } from '../errors.js'
import { callLog } from '../webhooks/call-log.js'
import { memberPrincipal, requireTeam, type ConsoleEnv } from './gate.js'

const WebhookId = z.string().regex(/^webhook_[a-z0-9]+$/)
const Page = z.object({ page: z.coerce.number().int().min(1).default(1), perPage: z.coerce.number().int().min(1).max(100).default(20) })

export function webhookRoutes(ctx: HostContext) {
  const r = new Hono<ConsoleEnv>()
  r.get('/webhooks/:id/calls', async (c) => {
    const caller = c.get('caller')
    requireTeam(caller, 'MANAGER')
    const id = WebhookId.safeParse(c.req.param('id'))
    if (!id.success) throw new ApiError(404, 'NOT_FOUND', 'webhook not found')
    const page = Page.safeParse(c.req.query())
    if (!page.success) throw new ApiError(400, 'INVALID_REQUEST', 'page and perPage must be positive integers (perPage at most 100)')
    const p = memberPrincipal(caller)
    const log = await callLog(ctx.db, { teamId: p.teamId, member: memberOf(p) }, id.data, page.data)
    return c.json(log satisfies Answer<'GET /webhooks/:id/calls'>)
  })
  return r
}
