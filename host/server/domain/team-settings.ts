import { actingUser, type Principal } from '../auth/principal.js'
import type { Db, Queryable } from '../db/index.js'
import { recordActivity } from '../people/activity.js'
import { setEmbedOrigins } from './teams.js'

/** A team's settings as the API shows them. */
export interface TeamSettings {
  id: string
  number: number
  name: string
  plan: string
  /** The origins allowed to frame the team's pages; null: any. */
  embedOrigins: string[] | null
}

export async function teamSettings(db: Queryable, teamId: string): Promise<TeamSettings> {
  const [row] = await db.query<{ id: string; number: number; name: string; plan: string; embed_origins: string[] | null }>(
    'select id, number, name, plan, embed_origins from teams where id = $1',
    [teamId],
  )
  return { id: row!.id, number: row!.number, name: row!.name, plan: row!.plan, embedOrigins: row!.embed_origins }
}

/** Sets which origins may frame the principal's team's pages (recorded in its activity); the settings after. */
export async function updateEmbedOrigins(db: Db, p: Principal, embedOrigins: string[] | null): Promise<TeamSettings> {
  await db.transaction(async (tx) => {
    await setEmbedOrigins(tx, p.teamId, embedOrigins)
    await recordActivity(tx, { teamId: p.teamId, userId: actingUser(p), action: 'team.updated', details: { embedOrigins } })
  })
  return teamSettings(db, p.teamId)
}
