/**
 * The team's people and settings in the console: members and roles, invitations (and accepting
 * one), API tokens, a new team, the name, plan and usage, the activity log. Webhooks and framing
 * origins are API v2 routes the console calls with its session (api/webhook.ts, api/team.ts).
 * Who may: ADMIN everything; MANAGER reads members and runs API tokens and webhooks; MEMBER reads.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { LANGUAGE_CODES } from '../../shared/languages.js'
import type { Answer } from '../../shared/console-contract.js'
import type { HostContext } from '../context.js'
import { createApiToken, listTeamTokens, revokeApiToken, TOKEN_EXPIRIES } from '../auth/api-tokens.js'
import { ApiError } from '../errors.js'
import { acceptInvitation, invite, listInvitations, peekInvitation, resendInvitation, revokeInvitation } from '../people/invitations.js'
import { MAX_PASSWORD_LENGTH } from '../people/passwords.js'
import { ROLES } from '../people/roles.js'
import { changeRole, createTeamFor, listActivity, listMembers, removeMember, renameTeam, teamUsage } from '../people/team-admin.js'
import { setSessionTeam } from '../auth/sessions.js'
import { describeActivity } from '../people/activity.js'
import { callerOf, requireTeam, type ConsoleEnv } from './gate.js'
import { consoleBody, signIn } from './session-routes.js'

const Role = z.enum(ROLES)
const Id = z.string().min(1).max(100)
const Name = z.string().trim().min(1).max(100)
const Language = z.enum(LANGUAGE_CODES).default('en')
const Link = z.string().min(1).max(300)
const Page = z.object({ page: z.coerce.number().int().min(1).default(1), perPage: z.coerce.number().int().min(1).max(100).default(25) })

export function teamRoutes(ctx: HostContext) {
  const r = new Hono<ConsoleEnv>()
  const now = () => ctx.clock.now()

  // ---- members --------------------------------------------------------------------------------
  r.get('/team/members', async (c) => {
    const team = requireTeam(c.get('caller'), 'MEMBER')
    return c.json({ data: await listMembers(ctx.db, team.teamId) } satisfies Answer<'GET /team/members'>)
  })
  r.post('/team/members/role', async (c) => {
    const caller = c.get('caller')
    const team = requireTeam(caller, 'ADMIN')
    const body = await consoleBody(c, z.object({ userId: Id, role: Role }))
    await changeRole(ctx.db, { teamId: team.teamId, userId: body.userId, role: body.role, by: caller.user.id })
    return c.json({ data: await listMembers(ctx.db, team.teamId) } satisfies Answer<'POST /team/members/role'>)
  })
  /** Removing another member needs ADMIN; anyone may leave (the last admin may not). */
  r.post('/team/members/remove', async (c) => {
    const caller = c.get('caller')
    const body = await consoleBody(c, z.object({ userId: Id }))
    const team = requireTeam(caller, body.userId === caller.user.id ? 'MEMBER' : 'ADMIN')
    await removeMember(ctx.db, { teamId: team.teamId, userId: body.userId, by: caller.user.id })
    return c.json({ success: true } satisfies Answer<'POST /team/members/remove'>)
  })

  // ---- invitations ----------------------------------------------------------------------------
  r.get('/team/invitations', async (c) => {
    const team = requireTeam(c.get('caller'), 'MANAGER')
    return c.json({ data: await listInvitations(ctx.db, team.teamId, now()) } satisfies Answer<'GET /team/invitations'>)
  })
  r.post('/team/invitations', async (c) => {
    const caller = c.get('caller')
    const team = requireTeam(caller, 'ADMIN')
    const body = await consoleBody(c, z.object({ email: z.string().max(254), role: Role, language: Language }))
    return c.json((await invite(ctx.db, { teamId: team.teamId, email: body.email, role: body.role, by: caller.user.id, language: body.language, now: now() })) satisfies Answer<'POST /team/invitations'>)
  })
  r.post('/team/invitations/resend', async (c) => {
    const caller = c.get('caller')
    const team = requireTeam(caller, 'ADMIN')
    const body = await consoleBody(c, z.object({ id: Id, language: Language }))
    return c.json((await resendInvitation(ctx.db, { teamId: team.teamId, id: body.id, by: caller.user.id, language: body.language, now: now() })) satisfies Answer<'POST /team/invitations/resend'>)
  })
  r.post('/team/invitations/revoke', async (c) => {
    const caller = c.get('caller')
    const team = requireTeam(caller, 'ADMIN')
    const { id } = await consoleBody(c, z.object({ id: Id }))
    await revokeInvitation(ctx.db, { teamId: team.teamId, id, by: caller.user.id, now: now() })
    return c.json({ success: true } satisfies Answer<'POST /team/invitations/revoke'>)
  })
  // Open paths (the link is the credential): what the invitation is, and accepting it.
  r.post('/invitations/peek', async (c) => {
    const { link } = await consoleBody(c, z.object({ link: Link }))
    return c.json((await peekInvitation(ctx.db, ctx.linkKey, link, now())) satisfies Answer<'POST /invitations/peek'>)
  })
  r.post('/invitations/accept', async (c) => {
    const body = await consoleBody(c, z.object({ link: Link, name: z.string().max(255).optional(), password: z.string().max(MAX_PASSWORD_LENGTH).optional() }))
    const caller = await callerOf(c, ctx).catch(() => null)
    const joined = await acceptInvitation(ctx.db, ctx.linkKey, {
      value: body.link,
      signedInAs: caller ? { id: caller.user.id, email: caller.user.email } : null,
      ...(body.password !== undefined && { newAccount: { name: body.name ?? '', password: body.password } }),
      now: now(),
    })
    if (caller) await setSessionTeam(ctx.db, caller.session.id, joined.teamId)
    else await signIn(c, ctx, joined.userId, false)
    return c.json({ teamId: joined.teamId, created: joined.created } satisfies Answer<'POST /invitations/accept'>)
  })

  // ---- API tokens -----------------------------------------------------------------------------
  r.get('/team/tokens', async (c) => {
    const team = requireTeam(c.get('caller'), 'MANAGER')
    return c.json({ data: await listTeamTokens(ctx.db, team.teamId, now().getTime()) } satisfies Answer<'GET /team/tokens'>)
  })
  /** The value is in this answer only: it is stored as a digest and never sent again. */
  r.post('/team/tokens', async (c) => {
    const caller = c.get('caller')
    const team = requireTeam(caller, 'MANAGER')
    const body = await consoleBody(c, z.object({ name: Name, expires: z.enum(TOKEN_EXPIRIES) }))
    // The token never grants more than its maker's role (then, and as it is at each use).
    return c.json(
      (await createApiToken(ctx.db, { name: body.name, expires: body.expires, teamId: team.teamId, createdBy: caller.user.id, roleCeiling: team.role })) satisfies Answer<'POST /team/tokens'>,
    )
  })
  r.post('/team/tokens/revoke', async (c) => {
    const caller = c.get('caller')
    const team = requireTeam(caller, 'MANAGER')
    const { id } = await consoleBody(c, z.object({ id: Id }))
    await revokeApiToken(ctx.db, id, { teamId: team.teamId, by: caller.user.id })
    return c.json({ success: true } satisfies Answer<'POST /team/tokens/revoke'>)
  })

  // ---- the team itself ------------------------------------------------------------------------
  r.get('/team', async (c) => {
    const team = requireTeam(c.get('caller'), 'MEMBER')
    return c.json((await teamUsage(ctx.db, team.teamId, now())) satisfies Answer<'GET /team'>)
  })
  r.post('/team/rename', async (c) => {
    const caller = c.get('caller')
    const team = requireTeam(caller, 'ADMIN')
    const { name } = await consoleBody(c, z.object({ name: Name }))
    await renameTeam(ctx.db, { teamId: team.teamId, name, by: caller.user.id })
    return c.json((await teamUsage(ctx.db, team.teamId, now())) satisfies Answer<'POST /team/rename'>)
  })
  r.post('/teams', async (c) => {
    const caller = c.get('caller')
    const { name } = await consoleBody(c, z.object({ name: Name }))
    const team = await createTeamFor(ctx.db, { userId: caller.user.id, sessionId: caller.session.id, name, signup: ctx.config.signup })
    return c.json({ teamId: team.id } satisfies Answer<'POST /teams'>)
  })
  r.get('/team/activity', async (c) => {
    const team = requireTeam(c.get('caller'), 'MANAGER')
    const q = Page.safeParse(c.req.query())
    if (!q.success) throw new ApiError(400, 'INVALID_REQUEST', 'page and perPage must be positive integers (perPage at most 100)')
    const page = await listActivity(ctx.db, team.teamId, q.data)
    return c.json({ ...page, data: await describeActivity(ctx.db, team.teamId, page.data) } satisfies Answer<'GET /team/activity'>)
  })
  return r
}

