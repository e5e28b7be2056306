/**
 * The team's disclosure for consent to sign electronically (docs/consent.md): read by any member,
 * changed by an admin; each change is a new version that signers are asked to agree to.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { assertTeamRole } from '../auth/principal.js'
import { currentDisclosure, DISCLOSURE_MAX, setDisclosure } from '../domain/signing/consent.js'
import { jsonBody, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import type { V2Answer } from '../contract/api-v2.js'

export const DisclosureBody = z.object({
  /** The disclosure signers agree to before signing electronically; null or blank: the default one, in the signer's language. */
  text: z.string().max(DISCLOSURE_MAX).nullable(),
})

export const DisclosureSchema = {
  type: 'object',
  description: 'the disclosure signers agree to before signing electronically; each change is a new version (0: the default, text null)',
  properties: { version: { type: 'integer' }, text: { type: ['string', 'null'] }, sha256: { type: ['string', 'null'] }, createdAt: { type: ['string', 'null'] } },
}

export function teamConsentRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  r.get('/team/consent-disclosure', async (c) => {
    const p = principal(c)
    assertTeamRole(p, 'reading team settings', 'MEMBER')
    return c.json(await currentDisclosure(ctx.db, p.teamId) satisfies V2Answer<'GET /team/consent-disclosure'>)
  })
  r.post('/team/consent-disclosure', async (c) => {
    const p = principal(c)
    assertTeamRole(p, 'changing team settings', 'ADMIN')
    const body = await jsonBody(c, DisclosureBody)
    return c.json(await setDisclosure(ctx.db, p, body.text) satisfies V2Answer<'POST /team/consent-disclosure'>)
  })
  return r
}
