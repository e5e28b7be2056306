/**
 * The console's own session: who is signed in (with the anti-forgery token the console sends
 * back), signing in with a password, signing out, switching team.
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { clientOf, jsonBody, type Ctx } from '../api/http.js'
import type { Answer } from '../../shared/console-contract.js'
import type { HostContext } from '../context.js'
import { getCookie } from 'hono/cookie'
import { csrfToken, revokeSession, rotateSession, sessionCookieName, setSessionTeam, startSession } from '../auth/sessions.js'
import { ApiError } from '../errors.js'
import { userByEmail } from '../people/users.js'
import { verifyPassword, MAX_PASSWORD_LENGTH } from '../people/passwords.js'
import { teamsOf } from '../people/members.js'
import { throttled } from '../people/throttle.js'
import { callerOf, clearSessionCookie, secureCookies, setSessionCookie, type ConsoleCaller, type ConsoleEnv } from './gate.js'

export const consoleBody = <S extends z.ZodType>(c: Context, schema: S) => jsonBody(c as unknown as Ctx, schema)

/** What the console needs to draw itself for the signed-in user. */
export function meAnswer(caller: ConsoleCaller) {
  return {
    user: caller.user,
    teams: caller.teams,
    team: caller.team,
    sessionId: caller.session.id,
    csrfToken: csrfToken(caller.token),
  }
}

/**
 * A fresh session for `userId`, in the cookie; `secondFactorDue` while TOTP or a passkey is still
 * owed. The session the browser presented, if any, ends: a token known before the sign-in (a
 * half-signed-in one, or one planted in the browser) never carries over.
 */
export async function signIn(c: Context, ctx: HostContext, userId: string, secondFactorDue: boolean): Promise<void> {
  const client = clientOf(c)
  const teams = await teamsOf(ctx.db, userId)
  const { session, token } = await startSession(ctx.db, {
    previousToken: getCookie(c, sessionCookieName(secureCookies(ctx))),
    userId,
    teamId: teams[0]?.teamId ?? null,
    secondFactorDue,
    userAgent: client.userAgent ?? '',
    ip: client.ipAddress ?? '',
    lifetimeMs: ctx.config.sessionLifetimeMs,
    now: ctx.clock.now(),
  })
  setSessionCookie(c, ctx, token, new Date(session.expiresAt))
}

/** The session's proof was just renewed (second factor, or a password or code given again): a new token in the cookie. */
export async function renewSession(c: Context, ctx: HostContext, sessionId: string): Promise<void> {
  const { session, token } = await rotateSession(ctx.db, sessionId, ctx.clock.now())
  setSessionCookie(c, ctx, token, new Date(session.expiresAt))
}

/** One answer for every failed password sign-in: it never says whether the account exists. */
export const badCredentials = () => new ApiError(401, 'INVALID_CREDENTIALS', 'the e-mail address or the password is wrong')

const SignInBody = z.object({ email: z.string().max(254), password: z.string().max(MAX_PASSWORD_LENGTH) })
const SwitchBody = z.object({ teamId: z.string().max(100) })

export function sessionRoutes(ctx: HostContext) {
  const r = new Hono<ConsoleEnv>()

  const who = (caller: ConsoleCaller) =>
    // Half signed in: the second-factor step sends its code with the anti-forgery token too.
    caller.session.secondFactorDue
      ? ({ secondFactorDue: true, user: { email: caller.user.email }, csrfToken: csrfToken(caller.token) } satisfies Answer<'GET /me'>)
      : (meAnswer(caller) satisfies Answer<'GET /me'>)

  r.get('/me', async (c) => {
    const caller = await callerOf(c, ctx, { secondFactorDue: true })
    if (!caller) throw new ApiError(401, 'SIGNED_OUT', 'not signed in')
    return c.json(who(caller))
  })

  // The console's first question on every page: signed out is a state, not an error (no 401 in
  // the browser's console). It opens nothing /me does not: no session, no user data.
  r.get('/session', async (c) => {
    c.header('Cache-Control', 'no-store')
    const caller = await callerOf(c, ctx, { secondFactorDue: true }).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 401) return null
      throw err
    })
    if (caller) return c.json(who(caller) satisfies Answer<'GET /session'>)
    // A cookie of a session that ended is of no further use: the browser forgets it.
    if (getCookie(c, sessionCookieName(secureCookies(ctx)))) clearSessionCookie(c, ctx)
    return c.json({ signedIn: false } satisfies Answer<'GET /session'>)
  })

  r.post('/auth/sign-in', async (c) => {
    const body = await consoleBody(c, SignInBody)
    const user = await userByEmail(ctx.db, body.email)
    // The same work whether or not the account exists (verifyPassword hashes either way), and the
    // same throttle: the address typed is counted, account or not.
    const ok = await throttled(ctx.db, { email: body.email, ip: clientOf(c).ipAddress ?? '' }, ctx.clock.now(), async () =>
      (await verifyPassword(body.password, user?.passwordHash ?? null)) && !!user,
    )
    if (!user || !ok) throw badCredentials()
    if (!user.emailVerified) throw new ApiError(403, 'EMAIL_NOT_VERIFIED', 'confirm your e-mail address first: follow the link we sent you')
    await signIn(c, ctx, user.id, user.totpEnabled)
    return c.json({ secondFactorDue: user.totpEnabled } satisfies Answer<'POST /auth/sign-in'>)
  })

  r.post('/auth/sign-out', async (c) => {
    const caller = c.get('caller')
    await revokeSession(ctx.db, caller.user.id, caller.session.id)
    clearSessionCookie(c, ctx)
    return c.json({ signedOut: true } satisfies Answer<'POST /auth/sign-out'>)
  })

  r.post('/teams/switch', async (c) => {
    const caller = c.get('caller')
    const { teamId } = await consoleBody(c, SwitchBody)
    if (!caller.teams.some((t) => t.teamId === teamId)) throw new ApiError(404, 'NOT_FOUND', `team ${teamId} not found`)
    await setSessionTeam(ctx.db, caller.session.id, teamId)
    return c.json({ teamId } satisfies Answer<'POST /teams/switch'>)
  })
  return r
}
