/**
 * Who is calling the console: the session in the cookie, checked on every request, and for every
 * request that changes something (and every API call made with the cookie) proof that the
 * console itself sent it: the request's Origin, when the browser gives one, is this host's, and
 * the `X-CSRF-Token` header matches the session.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { HostContext } from '../context.js'
import { ApiError } from '../errors.js'
import type { Principal } from '../auth/principal.js'
import { csrfMatches, findSession, sessionCookieName, touchSession, type Session } from '../auth/sessions.js'
import { teamsOf, type Membership } from '../people/members.js'
import { atLeast, type Role } from '../people/roles.js'
import { userById, type User } from '../people/users.js'

export interface ConsoleCaller {
  session: Session
  /** The cookie's value (the CSRF token derives from it). */
  token: string
  user: User
  /** Every team the user belongs to, and the one the session is in (null: none yet). */
  teams: Membership[]
  team: Membership | null
}

export type ConsoleEnv = { Variables: { caller: ConsoleCaller } }

export const CSRF_HEADER = 'x-csrf-token'

/** Whether the host is served over HTTPS (PUBLIC_URL says so): then the cookie is Secure and __Host-. */
export const secureCookies = (ctx: HostContext) => ctx.config.publicUrl?.startsWith('https://') ?? false

export function setSessionCookie(c: Context, ctx: HostContext, token: string, expiresAt: Date): void {
  const secure = secureCookies(ctx)
  setCookie(c, sessionCookieName(secure), token, { httpOnly: true, sameSite: 'Lax', secure, path: '/', expires: expiresAt })
}

export function clearSessionCookie(c: Context, ctx: HostContext): void {
  const secure = secureCookies(ctx)
  deleteCookie(c, sessionCookieName(secure), { path: '/', secure, httpOnly: true, sameSite: 'Lax' })
}

const cookieToken = (c: Context, ctx: HostContext) => getCookie(c, sessionCookieName(secureCookies(ctx))) || null

/** This host's origin, as the browser names it in Origin. */
const ownOrigin = (c: Context, ctx: HostContext) => ctx.config.publicUrl ?? new URL(c.req.url).origin

/** 403 when the browser says the request comes from another site. */
export function assertSameOrigin(c: Context, ctx: HostContext, required: boolean): void {
  const origin = c.req.header('origin')
  const fetchSite = c.req.header('sec-fetch-site')
  if (origin ? origin !== ownOrigin(c, ctx) : required || (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none')) {
    throw new ApiError(403, 'CROSS_SITE', 'the request does not come from this site')
  }
}

const signedOut = () => new ApiError(401, 'SIGNED_OUT', 'sign in first: the session is missing, expired or was ended')

/** The caller of a request with a session cookie, or null without one. */
export async function callerOf(c: Context, ctx: HostContext, o: { secondFactorDue?: boolean } = {}): Promise<ConsoleCaller | null> {
  const token = cookieToken(c, ctx)
  if (!token) return null
  const session = await findSession(ctx.db, token, ctx.clock.now())
  // Half signed in (a second factor still owed) opens only the second-factor step.
  if (!session || (session.secondFactorDue && !o.secondFactorDue)) throw signedOut()
  const user = await userById(ctx.db, session.userId)
  if (!user) throw signedOut()
  await touchSession(ctx.db, session, ctx.clock.now())
  const teams = await teamsOf(ctx.db, user.id)
  const team = teams.find((t) => t.teamId === session.teamId) ?? teams[0] ?? null
  return { session, token, user, teams, team }
}

/**
 * The console's gate: a live session, and for anything but GET the same-origin proof. `open`
 * paths (sign-in, sign-up, links) need no session, only the same-origin check.
 */
export function consoleGate(ctx: HostContext, open: (path: string) => boolean, halfOpen: (path: string) => boolean): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const changes = c.req.method !== 'GET' && c.req.method !== 'HEAD'
    if (changes) assertSameOrigin(c, ctx, true)
    const path = c.req.path.replace(/^\/api\/console/, '')
    if (open(path)) return next()
    const caller = await callerOf(c, ctx, { secondFactorDue: halfOpen(path) })
    if (!caller) throw signedOut()
    if (changes && !csrfMatches(caller.token, c.req.header(CSRF_HEADER))) throw new ApiError(403, 'CSRF', 'the X-CSRF-Token header is missing or wrong')
    c.set('caller', caller)
    await next()
  }
}

/** The caller's current team, at `role` or above: 409 NO_TEAM without one, 403 below the role. */
export function requireTeam(caller: ConsoleCaller, role: Role = 'MEMBER'): Membership {
  if (!caller.team) throw new ApiError(409, 'NO_TEAM', 'you are not a member of any team yet')
  if (!atLeast(caller.team.role, role)) throw new ApiError(403, 'FORBIDDEN', `this needs the ${role} role or above in ${caller.team.teamName}`)
  return caller.team
}

/** The console member as a principal of the domain operations (what API v2 calls with a token). */
export function memberPrincipal(caller: ConsoleCaller): Principal {
  const team = requireTeam(caller)
  return {
    kind: 'user',
    teamId: team.teamId,
    plan: team.plan,
    tokenId: caller.session.id,
    userId: caller.user.id,
    role: team.role,
    email: caller.user.email,
    name: caller.user.name,
  }
}

/**
 * API v2 called by the console with its cookie instead of a token: the same proof as a console
 * change, on every method (reads too: the answer is a team's documents). Null without a cookie.
 */
export async function cookiePrincipal(c: Context, ctx: HostContext): Promise<Principal | null> {
  if (!cookieToken(c, ctx)) return null
  assertSameOrigin(c, ctx, false)
  const caller = await callerOf(c, ctx)
  if (!caller || !csrfMatches(caller.token, c.req.header(CSRF_HEADER))) return null
  return memberPrincipal(caller)
}
