/**
 * The console's API (`/api/console`): the routes only people signed in to the service use
 * (accounts, teams, members, settings). Documents are read and changed through API v2 itself,
 * with the session cookie in place of a token (console/gate.ts, cookiePrincipal), so the
 * console and every other door share one set of operations.
 */
import { Hono } from 'hono'
import type { HostContext } from '../context.js'
import { consoleGate, type ConsoleEnv } from './gate.js'
import { sessionRoutes } from './session-routes.js'
import { accountAuthRoutes } from './account-auth-routes.js'
import { accountRoutes } from './account-routes.js'
import { teamRoutes } from './team-routes.js'
import { documentRoutes } from './document-routes.js'
import { webhookRoutes } from './webhook-routes.js'
import { brandingRoutes } from './branding-routes.js'

/** Paths that need no session (they start one, or act on an e-mailed link). */
const OPEN = [/^\/(me|session)$/, /^\/auth\/(sign-in|sign-up|link|reset|verify|passkey)(\/|$)/, /^\/invitations\/(peek|accept)$/]
/** Paths a half-signed-in session (second factor owed) may call. */
const HALF_OPEN = [/^\/auth\/second-factor(\/|$)/, /^\/auth\/sign-out$/]

export function consoleRoutes(ctx: HostContext) {
  const r = new Hono<ConsoleEnv>()
  r.use('*', consoleGate(ctx, (p) => OPEN.some((re) => re.test(p)), (p) => HALF_OPEN.some((re) => re.test(p))))
  r.route('/', sessionRoutes(ctx))
  r.route('/', accountAuthRoutes(ctx))
  r.route('/', accountRoutes(ctx))
  r.route('/', teamRoutes(ctx))
  r.route('/', documentRoutes(ctx))
  r.route('/', webhookRoutes(ctx))
  r.route('/', brandingRoutes(ctx))
  return r
}
