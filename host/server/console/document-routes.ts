/**
 * What the console does with documents beyond API v2 (which it calls with its session for
 * everything else): a token to open one envelope in the editor.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { Answer } from '../../shared/console-contract.js'
import type { HostContext } from '../context.js'
import { mintPresignToken } from '../auth/presign.js'
import { findEnvelope } from '../domain/resources.js'
import { memberPrincipal, type ConsoleEnv } from './gate.js'
import { consoleBody } from './session-routes.js'

/** An editing session's length; the token also dies with the console session. */
const EDITOR_MINUTES = 60

export function documentRoutes(ctx: HostContext) {
  const r = new Hono<ConsoleEnv>()
  r.post('/documents/editor', async (c) => {
    const caller = c.get('caller')
    const p = memberPrincipal(caller)
    const { envelopeId } = await consoleBody(c, z.object({ envelopeId: z.string().regex(/^envelope_[a-z0-9]+$/, 'Expected an envelope id') }))
    // Only an envelope this member sees (visibility), scoped to it alone, and never above their role
    // (the token is checked against their role at each use too: auth/principal.ts).
    await findEnvelope(ctx.db, p, envelopeId)
    const role = p.kind === 'user' ? p.role : undefined
    return c.json(mintPresignToken(ctx.presignSecret, { teamId: p.teamId, tokenId: caller.session.id, expiresInMinutes: EDITOR_MINUTES, scope: `envelopeId:${envelopeId}`, role }) satisfies Answer<'POST /documents/editor'>)
  })
  return r
}
