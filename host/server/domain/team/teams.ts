import { CHANNELS, type Cache } from '../../cache.js'
import type { Queryable } from '../../db/index.js'
import { newId } from '../common/ids.js'
import type { Plan } from './plans.js'

export async function createTeam(db: Queryable, o: { name: string; plan: Plan }): Promise<{ id: string }> {
  const id = newId.team()
  await db.query('insert into teams (id, name, plan) values ($1, $2, $3)', [id, o.name, o.plan])
  return { id }
}

/** The enterprise team used when no team is named; created on first use. */
export async function defaultTeamId(db: Queryable): Promise<string> {
  await db.query(
    `insert into teams (id, name, plan, is_default) values ($1, 'Default team', 'enterprise', true)
     on conflict do nothing`,
    [newId.team()],
  )
  const [row] = await db.query<{ id: string }>('select id from teams where is_default')
  return row!.id
}

export async function teamExists(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('select 1 from teams where id = $1', [id])).length > 0
}

/** Who may frame a team's embedded pages: a list of origins, or null for anyone. */
export interface TeamEmbedding {
  origins: string[] | null
}

export async function teamEmbedding(db: Queryable, cache: Cache<TeamEmbedding>, teamId: string): Promise<TeamEmbedding> {
  const loaded = await cache.load(teamId, async () => {
    const [row] = await db.query<{ embed_origins: string[] | null }>('select embed_origins from teams where id = $1', [teamId])
    return row ? { origins: row.embed_origins } : null
  })
  return loaded ?? { origins: null }
}

export async function setEmbedOrigins(tx: Queryable, teamId: string, origins: string[] | null): Promise<void> {
  await tx.query('update teams set embed_origins = $2 where id = $1', [teamId, origins && JSON.stringify([...new Set(origins)])])
  await tx.notify(CHANNELS.teams, teamId)
}


/** The team of the envelope whose recipient holds `token`, or null. */
export async function teamOfRecipientToken(db: Queryable, token: string): Promise<string | null> {
  const [row] = await db.query<{ team_id: string }>('select e.team_id from recipients r join envelopes e on e.id = r.envelope_id where r.token = $1', [token])
  return row?.team_id ?? null
}

/** The team of the template whose direct link is `token`, or null. */
export async function teamOfDirectLinkToken(db: Queryable, token: string): Promise<string | null> {
  const [row] = await db.query<{ team_id: string }>('select e.team_id from template_direct_links l join envelopes e on e.id = l.envelope_id where l.token = $1', [token])
  return row?.team_id ?? null
}
