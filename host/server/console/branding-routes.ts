/**
 * The team's branding and document defaults in the console (docs/branding.md): any member reads
 * them, an admin changes them. The logo travels as a `data:` URL in JSON (the console's calls are
 * JSON); its bytes are checked by the domain, never trusted by the type the URL names.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { Answer } from '../../shared/console-contract.js'
import type { HostContext } from '../context.js'
import { BrandingPatch, removeLogo, setLogo, teamBranding, updateBranding } from '../domain/team/branding.js'
import { badRequest, issue } from '../errors.js'
import { LOGO_BODY_LIMIT, LOGO_ROUTE } from '../images/logo.js'
import { memberPrincipal, requireTeam, type ConsoleEnv } from './gate.js'
import { consoleBody } from './session-routes.js'

const LogoBody = z.object({ image: z.string().min(1).max(LOGO_BODY_LIMIT) })

/** The bytes of a base64 `data:` URL (its declared type is ignored: the bytes say what they are). */
function dataUrlBytes(value: string): Uint8Array {
  const m = /^data:[\w.+/-]*(?:;[\w=.+-]+)*;base64,([A-Za-z0-9+/=\s]*)$/.exec(value)
  if (!m) throw badRequest('the image must be a base64 data: URL', [issue(['image'], 'Expected a data:…;base64, URL')])
  return new Uint8Array(Buffer.from(m[1]!, 'base64'))
}

export function brandingRoutes(ctx: HostContext) {
  const r = new Hono<ConsoleEnv>()
  r.get('/team/branding', async (c) => {
    const team = requireTeam(c.get('caller'), 'MEMBER')
    return c.json((await teamBranding(ctx.db, team.teamId)) satisfies Answer<'GET /team/branding'>)
  })
  r.post('/team/branding', async (c) => {
    requireTeam(c.get('caller'), 'ADMIN')
    const patch = await consoleBody(c, BrandingPatch)
    return c.json((await updateBranding(ctx.db, memberPrincipal(c.get('caller')), patch)) satisfies Answer<'POST /team/branding'>)
  })
  r.post(LOGO_ROUTE, async (c) => {
    requireTeam(c.get('caller'), 'ADMIN')
    const { image } = await consoleBody(c, LogoBody)
    return c.json((await setLogo(ctx.db, memberPrincipal(c.get('caller')), dataUrlBytes(image))) satisfies Answer<'POST /team/branding/logo'>)
  })
  r.post('/team/branding/logo/remove', async (c) => {
    requireTeam(c.get('caller'), 'ADMIN')
    return c.json((await removeLogo(ctx.db, memberPrincipal(c.get('caller')))) satisfies Answer<'POST /team/branding/logo/remove'>)
  })
  return r
}
