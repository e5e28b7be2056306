/**
 * A team's people and settings, as its admins run them: members and their roles (the last admin
 * stays), a new team, the name, usage, and the activity log. Each change opens its transaction and
 * records its activity entry in it.
 */
import { CHANNELS } from '../cache.js'
import { setSessionTeam } from '../auth/sessions.js'
import type { Db, Queryable } from '../db/index.js'
import { ApiError } from '../errors.js'
import { createTeam } from '../domain/team/teams.js'
import { FREE_PLAN_DOCUMENTS_PER_MONTH, usageMonth } from '../domain/team/plans.js'
import { recordActivity } from './activity.js'
import { addMember } from './members.js'
import type { Role } from './roles.js'

export type { Member } from '../../shared/console-contract.js'
import type { Member } from '../../shared/console-contract.js'

export async function listMembers(db: Queryable, teamId: string): Promise<Member[]> {
  const rows = await db.query<{ user_id: string; email: string; name: string; role: Role; created_at: Date }>(
    `select m.user_id, u.email, u.name, m.role, m.created_at from team_members m join users u on u.id = m.user_id
     where m.team_id = $1 order by m.created_at, u.email`,
    [teamId],
  )
  return rows.map((r) => ({ userId: r.user_id, email: r.email, name: r.name, role: r.role, joinedAt: new Date(r.created_at).toISOString() }))
}

/** The member row, locked, with the team's admin count; 404 when the user is not a member. */
async function lockedMember(tx: Queryable, teamId: string, userId: string): Promise<{ role: Role; admins: number }> {
  // Members of one team change one at a time, so two demotions cannot both see "another admin left".
  await tx.query('select id from teams where id = $1 for update', [teamId])
  const [row] = await tx.query<{ role: Role; admins: number }>(
    `select role, (select count(*)::int from team_members where team_id = $1 and role = 'ADMIN') as admins
     from team_members where team_id = $1 and user_id = $2`,
    [teamId, userId],
  )
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'member not found')
  return row
}

const lastAdmin = () => new ApiError(409, 'LAST_ADMIN', 'a team keeps at least one admin: make another member an admin first')

export function changeRole(db: Db, o: { teamId: string; userId: string; role: Role; by: string | null }): Promise<void> {
  return db.transaction(async (tx) => {
    const member = await lockedMember(tx, o.teamId, o.userId)
    if (member.role === o.role) return
    if (member.role === 'ADMIN' && member.admins <= 1) throw lastAdmin()
    await tx.query('update team_members set role = $3 where team_id = $1 and user_id = $2', [o.teamId, o.userId, o.role])
    // The member's tokens are bounded by their role now: cached ones are dropped (auth/api-tokens.ts).
    await tx.notify(CHANNELS.apiTokens, o.userId)
    await recordActivity(tx, { teamId: o.teamId, userId: o.by, action: 'member.role_changed', target: o.userId, details: { from: member.role, to: o.role } })
  })
}

/** Removes a member (or lets one leave); their sessions in this team move to no team. */
export function removeMember(db: Db, o: { teamId: string; userId: string; by: string | null }): Promise<void> {
  return db.transaction(async (tx) => {
    const member = await lockedMember(tx, o.teamId, o.userId)
    if (member.role === 'ADMIN' && member.admins <= 1) throw lastAdmin()
    await tx.query('delete from team_members where team_id = $1 and user_id = $2', [o.teamId, o.userId])
    await tx.query('update user_sessions set team_id = null where user_id = $1 and team_id = $2', [o.userId, o.teamId])
    // Their tokens die with their membership: cached ones are dropped (auth/api-tokens.ts).
    await tx.notify(CHANNELS.apiTokens, o.userId)
    await recordActivity(tx, { teamId: o.teamId, userId: o.by, action: 'member.removed', target: o.userId, details: { role: member.role, left: o.by === o.userId } })
  })
}

/**
 * A new team on the free plan, with its creator as admin, and the session they made it from
 * switched to it. With invite-only sign-up, only someone an invitation (or the operator) let into a
 * team may found one: an account a signing page made for a recipient holds no team, and must not
 * turn the instance into an open one.
 */
export function createTeamFor(db: Db, o: { userId: string; sessionId: string; name: string; signup: 'invite' | 'open' }): Promise<{ id: string }> {
  const { userId, name } = o
  return db.transaction(async (tx) => {
    if (o.signup === 'invite' && !(await tx.query('select 1 from team_members where user_id = $1 limit 1', [userId])).length) {
      throw new ApiError(403, 'SIGNUP_CLOSED', 'this service takes new teams from members of a team only: ask a team admin to invite you')
    }
    const team = await createTeam(tx, { name, plan: 'free' })
    await addMember(tx, { teamId: team.id, userId, role: 'ADMIN' })
    await recordActivity(tx, { teamId: team.id, userId, action: 'team.updated', details: { created: true, name } })
    await setSessionTeam(tx, o.sessionId, team.id)
    return team
  })
}

export function renameTeam(db: Db, o: { teamId: string; name: string; by: string | null }): Promise<void> {
  return db.transaction(async (tx) => {
    const [before] = await tx.query<{ name: string }>('select name from teams where id = $1', [o.teamId])
    await tx.query('update teams set name = $2 where id = $1', [o.teamId, o.name])
    await recordActivity(tx, { teamId: o.teamId, userId: o.by, action: 'team.updated', details: { name: o.name, from: { name: before?.name ?? null } } })
  })
}

/** The plan and this month's documents against its limit (null: no limit). */
export async function teamUsage(db: Queryable, teamId: string, now = new Date()) {
  const month = usageMonth(now)
  const [row] = await db.query<{ name: string; plan: string; email: string | null; documents: number | null }>(
    `select t.name, t.plan, t.email, (select documents from team_usage u where u.team_id = t.id and u.month = $2) as documents from teams t where t.id = $1`,
    [teamId, month],
  )
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'team not found')
  return {
    name: row.name,
    plan: row.plan,
    month,
    documents: row.documents ?? 0,
    documentLimit: row.plan === 'free' ? FREE_PLAN_DOCUMENTS_PER_MONTH : null,
    embedding: row.plan === 'enterprise',
  }
}

export type { ActivityEntry } from '../../shared/console-contract.js'
import type { ActivityEntry } from '../../shared/console-contract.js'

export async function listActivity(db: Queryable, teamId: string, o: { page: number; perPage: number }) {
  const rows = await db.query<{ id: string; action: string; target: string | null; details: Record<string, unknown>; created_at: Date; user_id: string | null; email: string | null; name: string | null; total: number }>(
    `select a.id, a.action, a.target, a.details, a.created_at, a.user_id, u.email, u.name, count(*) over ()::int as total
     from team_activity a left join users u on u.id = a.user_id where a.team_id = $1 order by a.id desc limit $2 offset $3`,
    [teamId, o.perPage, (o.page - 1) * o.perPage],
  )
  const count = rows[0]?.total ?? 0
  const data: ActivityEntry[] = rows.map((r) => ({
    id: Number(r.id),
    action: r.action,
    target: r.target,
    details: r.details,
    createdAt: new Date(r.created_at).toISOString(),
    by: r.user_id ? { userId: r.user_id, email: r.email ?? '', name: r.name ?? '' } : null,
  }))
  return { data, count, currentPage: o.page, perPage: o.perPage, totalPages: Math.ceil(count / o.perPage) }
}
