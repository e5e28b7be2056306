import { ApiError } from '../errors.js'
import { revokeOtherSessions } from '../auth/sessions.js'
import type { Db, Queryable } from '../db/index.js'
import { newId } from '../domain/common/ids.js'
import { isEmail, normaliseEmail } from './emails.js'
import { hashPassword, passwordProblem } from './passwords.js'

/** An account as the console shows it: the contract's shape. */
export type { ConsoleUser as User } from '../../shared/console-contract.js'
import type { ConsoleUser as User } from '../../shared/console-contract.js'

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
 * A new account, in no team: who joins which team is decided by the caller (an invitation, the
 * operator). Nobody becomes an administrator by being first. 409 EMAIL_TAKEN when the address has
 * an account.
 */
export async function createUser(
  tx: Queryable,
  o: { email: string; name?: string | undefined; password?: string | undefined; verified?: boolean },
): Promise<{ user: User }> {
  const email = normaliseEmail(o.email)
  if (!isEmail(email)) throw new ApiError(400, 'INVALID_REQUEST', 'a valid e-mail address is required')
  const name = (o.name ?? '').trim().slice(0, 255)
  if (o.password !== undefined) {
    const problem = passwordProblem(o.password)
    if (problem) throw new ApiError(400, 'INVALID_REQUEST', problem)
  }
  const hash = o.password === undefined ? null : await hashPassword(o.password)
  const rows = await tx.query<UserRow>(
    `insert into users (id, email, name, password_hash, email_verified_at) values ($1, $2, $3, $4, $5)
     on conflict (email) do nothing returning ${COLUMNS}`,
    [newId.user(), email, name, hash, o.verified ? new Date() : null],
  )
  if (!rows[0]) throw new ApiError(409, 'EMAIL_TAKEN', 'an account with this e-mail address exists')
  return { user: toUser(rows[0]) }
}

export async function renameUser(db: Queryable, userId: string, name: string): Promise<void> {
  await db.query('update users set name = $2 where id = $1', [userId, name])
}

export async function setPassword(tx: Queryable, userId: string, password: string): Promise<void> {
  const problem = passwordProblem(password)
  if (problem) throw new ApiError(400, 'INVALID_REQUEST', problem)
  await tx.query('update users set password_hash = $2 where id = $1', [userId, await hashPassword(password)])
}

/** A new password (given with the current one, or in a freshly proven session), in one transaction with the end of the user's other sessions. */
export function changePassword(db: Db, o: { userId: string; keepSession: string; password: string }): Promise<void> {
  return db.transaction(async (tx) => {
    await setPassword(tx, o.userId, o.password)
    await revokeOtherSessions(tx, o.userId, o.keepSession)
  })
}

/**
 * The address of the account was just proven (an e-mailed link or code was used). When it was not
 * proven before, whatever was attached to the account until now was attached by someone who never
 * proved the address (perhaps to wait for its owner): its passkeys, two-factor secret, recovery
 * codes and sessions go, and its password too unless `keepPassword` (the same request proved it).
 */
export async function markEmailVerified(tx: Queryable, userId: string, o: { keepPassword?: boolean } = {}): Promise<void> {
  const [row] = await tx.query<{ id: string }>('update users set email_verified_at = now() where id = $1 and email_verified_at is null returning id', [userId])
  if (!row) return
  if (!o.keepPassword) await tx.query('update users set password_hash = null where id = $1', [userId])
  await tx.query('update users set totp_secret = null, totp_enabled_at = null, totp_last_step = null where id = $1', [userId])
  await tx.query('delete from recovery_codes where user_id = $1', [userId])
  await tx.query('delete from passkeys where user_id = $1', [userId])
  await tx.query('delete from user_sessions where user_id = $1', [userId])
}
