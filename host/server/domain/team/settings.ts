import { actingUser, type Principal } from '../../auth/principal.js'
import type { Db, Queryable } from '../../db/index.js'
import { recordActivity } from '../../people/activity.js'
import { retentionOutlook, type RetentionOutlook } from '../retention/retention.js'
import { setEmbedOrigins } from './teams.js'

/** A team's settings as the API shows them. */
export interface TeamSettings {
  id: string
  number: number
  name: string
  plan: string
  /** The origins allowed to frame the team's pages; null: any. */
  embedOrigins: string[] | null
  /** Days a finished envelope is kept before it is purged (domain/retention/retention.ts); null: for good. */
  retentionDays: number | null
  /** What falls due for purging (only with a retention). */
  retention: RetentionOutlook | null
}

export async function teamSettings(db: Queryable, teamId: string, now: Date = new Date()): Promise<TeamSettings> {
  const [row] = await db.query<{ id: string; number: number; name: string; plan: string; embed_origins: string[] | null; retention_days: number | null }>(
    'select id, number, name, plan, embed_origins, retention_days from teams where id = $1',
    [teamId],
  )
  return {
    id: row!.id,
    number: row!.number,
    name: row!.name,
    plan: row!.plan,
    embedOrigins: row!.embed_origins,
    retentionDays: row!.retention_days,
    retention: row!.retention_days === null ? null : await retentionOutlook(db, teamId, now),
  }
}

/** What a team admin may change; an absent setting stays as it is. */
export interface TeamSettingsUpdate {
  embedOrigins?: string[] | null | undefined
  retentionDays?: number | null | undefined
}

/** Changes the principal's team's settings (recorded in its activity); the settings after. */
export async function updateTeamSettings(db: Db, p: Principal, u: TeamSettingsUpdate, now: Date = new Date()): Promise<TeamSettings> {
  await db.transaction(async (tx) => {
    if (u.embedOrigins !== undefined) await setEmbedOrigins(tx, p.teamId, u.embedOrigins)
    if (u.retentionDays !== undefined) await tx.query('update teams set retention_days = $2 where id = $1', [p.teamId, u.retentionDays])
    const details = Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined))
    await recordActivity(tx, { teamId: p.teamId, userId: actingUser(p), action: 'team.updated', details })
  })
  return teamSettings(db, p.teamId, now)
}

/** Sets which origins may frame the principal's team's pages (recorded in its activity); the settings after. */
export async function updateEmbedOrigins(db: Db, p: Principal, embedOrigins: string[] | null): Promise<TeamSettings> {
  await db.transaction(async (tx) => {
    await setEmbedOrigins(tx, p.teamId, embedOrigins)
    await recordActivity(tx, { teamId: p.teamId, userId: actingUser(p), action: 'team.updated', details: { embedOrigins } })
  })
  return teamSettings(db, p.teamId)
}
