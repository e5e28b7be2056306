import type { Queryable } from '../db/index.js'
import { newId } from './ids.js'
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
