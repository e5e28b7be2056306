import type { Queryable } from '../db/index.js'
import type { Role } from './roles.js'

export interface Membership {
  teamId: string
  teamName: string
  plan: string
  role: Role
}

/** The teams a user belongs to, oldest membership first. */
export async function teamsOf(db: Queryable, userId: string): Promise<Membership[]> {
  const rows = await db.query<{ team_id: string; name: string; plan: string; role: Role }>(
    `select m.team_id, t.name, t.plan, m.role from team_members m join teams t on t.id = m.team_id
     where m.user_id = $1 order by m.created_at, t.name, m.team_id`,
    [userId],
  )
  return rows.map((r) => ({ teamId: r.team_id, teamName: r.name, plan: r.plan, role: r.role }))
}

/** The user's membership of one team, or null. */
export async function membership(db: Queryable, userId: string, teamId: string): Promise<Membership | null> {
  return (await teamsOf(db, userId)).find((m) => m.teamId === teamId) ?? null
}

export async function addMember(tx: Queryable, o: { teamId: string; userId: string; role: Role }): Promise<void> {
  await tx.query('insert into team_members (team_id, user_id, role) values ($1, $2, $3) on conflict (team_id, user_id) do nothing', [o.teamId, o.userId, o.role])
}
