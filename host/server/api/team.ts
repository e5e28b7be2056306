/**
 * The calling team's settings (an extension of this host): which origins may frame its embedded
 * pages. API tokens only: a presign token lives in a browser and must not widen its own framing.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { assertTeamRole } from '../auth/principal.js'
import { teamSettings, updateTeamSettings } from '../domain/team/settings.js'
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../domain/retention/retention.js'
import { teamEmbedding } from '../domain/team/teams.js'
import { teamConsentRoutes } from './team-consent.js'
import { ApiError } from '../errors.js'
import { jsonBody, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import type { V2Answer } from '../contract/api-v2.js'

/** `https://app.example.com` or `http://localhost:3000`: a scheme, a host, a port; nothing else. */
export const Origin = z
  .string()
  .max(300)
  .refine((s) => {
    try {
      const u = new URL(s)
      return /^https?:$/.test(u.protocol) && u.origin === s
    } catch {
      return false
    }
  }, 'Expected an origin such as https://app.example.com (no path, no trailing slash)')

export const TeamUpdateBody = z.object({
  /** The origins allowed to frame the team's authoring and signing pages; null: any origin. */
  embedOrigins: z.array(Origin).max(50).nullable().optional(),
  /** Days a completed, rejected or cancelled envelope is kept before it is purged; null: for good. */
  retentionDays: z.int().min(MIN_RETENTION_DAYS).max(MAX_RETENTION_DAYS).nullable().optional(),
})

export const TeamSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    number: { type: 'integer' },
    name: { type: 'string' },
    plan: { type: 'string' },
    embedOrigins: { type: ['array', 'null'], items: { type: 'string' }, description: 'origins allowed to frame the embedded pages; null: any' },
    retentionDays: { type: ['integer', 'null'], description: 'days a finished envelope is kept before it is purged; null: for good' },
    retention: {
      type: ['object', 'null'],
      description: 'with a retention: envelopes due for purging within 7 days, and when the next is purged',
      properties: { dueWithin7Days: { type: 'integer' }, nextPurgeAt: { type: ['string', 'null'], format: 'date-time' } },
    },
  },
}

export function teamRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  r.get('/team', async (c) => {
    const p = principal(c)
    assertTeamRole(p, 'reading team settings', 'MEMBER')
    return c.json(await teamSettings(ctx.db, p.teamId, ctx.clock.now()) satisfies V2Answer<'GET /team'>)
  })

  r.post('/team/update', async (c) => {
    const p = principal(c)
    assertTeamRole(p, 'changing team settings', 'ADMIN')
    const body = await jsonBody(c, TeamUpdateBody)
    return c.json(await updateTeamSettings(ctx.db, p, body, ctx.clock.now()) satisfies V2Answer<'POST /team/update'>)
  })

  r.route('/', teamConsentRoutes(ctx))
  return r
}

/** The embedding session's parent check: a team that lists origins refuses a page framed by another. */
export async function assertParentAllowed(ctx: HostContext, teamId: string, parentOrigin: string | undefined, ownOrigin?: string): Promise<void> {
  // The host's own console frames the editor for its members, whatever the team's list says.
  if (!parentOrigin || parentOrigin === ownOrigin) return
  const { origins } = await teamEmbedding(ctx.db, ctx.cache.teams, teamId)
  if (origins && !origins.includes(parentOrigin)) throw new ApiError(403, 'FRAME_ANCESTOR_NOT_ALLOWED', `this team's pages may not be embedded by ${parentOrigin}`)
}
