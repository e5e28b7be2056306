import { ApiError } from '../errors.js'
import type { Queryable } from '../db/index.js'
import { newId } from '../domain/ids.js'
import { defaultTeamId } from '../domain/teams.js'
import { isEmail, normaliseEmail } from './emails.js'
import { addMember } from './members.js'
import { hashPassword, passwordProblem } from './passwords.js'

export interface User {
  id: string
  number: number
  email: string
  name: string
  emailVerified: boolean
  hasPassword: boolean
  totpEnabled: boolean
  createdAt: string
}

interface UserRow {
  id: string
  number: number
  email: string
  name: string
  password_hash: string | null
  email_verified_at: Date | null
  totp_enabled_at: Date | null
  created_at: Date
}

const COLUMNS = 'id, number, email, name, password_hash, email_verified_at, totp_enabled_at, created_at'

const toUser = (r: UserRow): User => ({
  id: r.id,
  number: r.number,
  email: r.email,
  name: r.name,
  emailVerified: r.email_verified_at !== null,
  hasPassword: r.password_hash !== null,
  totpEnabled: r.totp_enabled_at !== null,
  createdAt: new Date(r.created_at).toISOString(),
})

export async function userById(db: Queryable, id: string): Promise<User | null> {
  const [row] = await db.query<UserRow>(`select ${COLUMNS} from users where id = $1`, [id])
  return row ? toUser(row) : null
}

/** The account of an address (compared normalised), with its password hash for the sign-in check. */
export async function userByEmail(db: Queryable, email: string): Promise<(User & { passwordHash: string | null }) | null> {
  const [row] = await db.query<UserRow>(`select ${COLUMNS} from users where email = $1`, [normaliseEmail(email)])
  return row ? { ...toUser(row), passwordHash: row.password_hash } : null
}

export async function hasUsers(db: Queryable): Promise<boolean> {
  return (await db.query('select 1 from users limit 1')).length > 0
}

/**
 * A new account. On an instance without accounts, the first one becomes the ADMIN of the default
 * team (the team that CLI-made tokens and their documents belong to), so whoever sets the instance
 * up can run it from the console; unless the caller is about to put it in a team (joinsTeam). 409 EMAIL_TAKEN when the address has an account.
 */
export async function createUser(
  tx: Queryable,
  o: { email: string; name?: string | undefined; password?: string | undefined; verified?: boolean; joinsTeam?: boolean },
): Promise<{ user: User; firstOnInstance: boolean }> {
  const email = normaliseEmail(o.email)
  if (!isEmail(email)) throw new ApiError(400, 'INVALID_REQUEST', 'a valid e-mail address is required')
  const name = (o.name ?? '').trim().slice(0, 255)
  if (o.password !== undefined) {
    const problem = passwordProblem(o.password)
    if (problem) throw new ApiError(400, 'INVALID_REQUEST', problem)
  }
  // One account at a time decides who is first (the advisory lock covers concurrent sign-ups).
  await tx.query('select pg_advisory_xact_lock(7310452)')
  const first = !(await hasUsers(tx))
  const hash = o.password === undefined ? null : await hashPassword(o.password)
  const rows = await tx.query<UserRow>(
    `insert into users (id, email, name, password_hash, email_verified_at) values ($1, $2, $3, $4, $5)
     on conflict (email) do nothing returning ${COLUMNS}`,
    [newId.user(), email, name, hash, o.verified ? new Date() : null],
  )
  if (!rows[0]) throw new ApiError(409, 'EMAIL_TAKEN', 'an account with this e-mail address exists')
  const user = toUser(rows[0])
  // Unless the caller puts the account in a team of its own choosing (joinsTeam).
  if (first && !o.joinsTeam) await addMember(tx, { teamId: await defaultTeamId(tx), userId: user.id, role: 'ADMIN' })
  return { user, firstOnInstance: first }
}

export async function setPassword(tx: Queryable, userId: string, password: string): Promise<void> {
  const problem = passwordProblem(password)
  if (problem) throw new ApiError(400, 'INVALID_REQUEST', problem)
  await tx.query('update users set password_hash = $2 where id = $1', [userId, await hashPassword(password)])
}

export async function markEmailVerified(tx: Queryable, userId: string): Promise<void> {
  await tx.query('update users set email_verified_at = coalesce(email_verified_at, now()) where id = $1', [userId])
}
