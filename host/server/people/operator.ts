import type { Db, Queryable } from '../db/index.js'
import { ApiError } from '../errors.js'
import { defaultTeamId, teamExists } from '../domain/team/teams.js'
import { createLink } from './links.js'
import { sendAccountMail } from './mail.js'
import { addMember } from './members.js'
import type { Role } from './roles.js'
import { createUser, userByEmail } from './users.js'

/**
 * The way in for whoever runs the instance (`npm start`, `npm run host -- user create` without a
 * password): the account of `email` (created verified when missing), a member of `teamId` with
 * `role`, and a one-time sign-in link sent by e-mail (the local mailbox without SMTP). Nothing
 * that opens the console is printed.
 */
export async function mailOperatorSignIn(
  tx: Queryable,
  o: { email: string; name?: string; teamId?: string; role?: Role },
): Promise<{ userId: string; created: boolean }> {
  if (o.teamId && !(await teamExists(tx, o.teamId))) throw new ApiError(404, 'NOT_FOUND', `team ${o.teamId} not found`)
  const existing = await userByEmail(tx, o.email)
  const user = existing ?? (await createUser(tx, { email: o.email, name: o.name, verified: true })).user
  if (o.teamId) await addMember(tx, { teamId: o.teamId, userId: user.id, role: o.role ?? 'ADMIN' })
  const linkId = await createLink(tx, { purpose: 'signin', email: user.email, userId: user.id })
  await sendAccountMail(tx, { linkId, purpose: 'signin', to: user.email, language: 'en' })
  return { userId: user.id, created: !existing }
}

/**
 * `user create` and POST /_admin/users, in one transaction: mailOperatorSignIn, where an ADMIN
 * named without a team goes to the default team (created on first use).
 */
export function createOperatorUser(db: Db, o: { email: string; name?: string; teamId?: string; role?: Role }): Promise<{ userId: string; created: boolean }> {
  return db.transaction(async (tx) => mailOperatorSignIn(tx, { ...o, teamId: o.teamId ?? (o.role === 'ADMIN' ? await defaultTeamId(tx) : undefined) }))
}

/** Every account with its teams and roles, for the operator (`user list`). */
export async function listUsers(db: Queryable): Promise<{ id: string; email: string; name: string; verified: boolean; teams: { teamId: string; role: Role }[] }[]> {
  const rows = await db.query<{ id: string; email: string; name: string; email_verified_at: Date | null; teams: { teamId: string; role: Role }[] }>(
    `select u.id, u.email, u.name, u.email_verified_at,
       coalesce((select json_agg(json_build_object('teamId', m.team_id, 'role', m.role) order by m.created_at) from team_members m where m.user_id = u.id), '[]') as teams
     from users u order by u.created_at, u.email`,
  )
  return rows.map((r) => ({ id: r.id, email: r.email, name: r.name, verified: r.email_verified_at !== null, teams: r.teams }))
}
