import { Hono } from 'hono'
import { z } from 'zod'
import { PRESIGN_EXPIRES_IN, parsePresignScope } from '../../../src/protocol/index.js'
import { assertApiToken, type Principal } from '../auth/principal.js'
import { mintPresignToken } from '../auth/presign.js'
import { ApiError } from '../errors.js'
import { assertEmbeddingAllowed } from '../domain/team/plans.js'
import { publicOrigin, jsonBody, parse, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { assertParentAllowed, Origin } from './team.js'
import type { V2Answer } from '../contract/api-v2.js'

export const SessionQuery = z.object({ parentOrigin: Origin.optional() })

/** An empty body means all defaults. */
export const PresignBody = z
  .object({
    expiresIn: z.int().min(PRESIGN_EXPIRES_IN.min).max(PRESIGN_EXPIRES_IN.max).default(PRESIGN_EXPIRES_IN.default),
    scope: z
      .string()
      .max(200)
      .refine((s) => parsePresignScope(s) !== null, 'Expected envelopeId:envelope_..., documentId:N or templateId:N')
      .optional(),
  })
  .prefault({})

/** What GET /embedding/session answers for a presign token (also inlined in the authoring page). */
export const sessionAnswer = (p: Extract<Principal, { kind: 'presign' }>) => ({ teamId: p.teamId, scope: p.scopeText, expiresAt: p.expiresAt.toISOString() })

export function embeddingRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/embedding/create-presign-token', async (c) => {
    const p = principal(c)
    assertApiToken(p, 'minting presign tokens')
    // A presign token is bounded by the API token that mints it (and that token's maker's role); a
    // console session's would have no such bound, so it may not mint one (its editor has its own).
    if (p.kind !== 'api') throw new ApiError(403, 'FORBIDDEN', 'minting presign tokens requires an API token')
    assertEmbeddingAllowed(p.plan)
    const body = await jsonBody(c, PresignBody)
    return c.json(mintPresignToken(ctx.presignSecret, { teamId: p.teamId, tokenId: p.tokenId, expiresInMinutes: body.expiresIn, scope: body.scope }) satisfies V2Answer<'POST /embedding/create-presign-token'>)
  })

  /**
   * Extension: what a presign token may do; the authoring page asks this first, naming the origin
   * that frames it (`parentOrigin`, as the browser reports it), which the team's list must allow.
   */
  r.get('/embedding/session', async (c) => {
    const p = principal(c)
    if (p.kind !== 'presign') throw new ApiError(403, 'FORBIDDEN', 'this endpoint takes a presign token, not an API token')
    const { parentOrigin } = parse(SessionQuery, c.req.query())
    await assertParentAllowed(ctx, p.teamId, parentOrigin, publicOrigin(ctx, c))
    return c.json(sessionAnswer(p) satisfies V2Answer<'GET /embedding/session'>)
  })

  return r
}
