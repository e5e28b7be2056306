import { createHash, randomBytes } from 'node:crypto'
import { CHANNELS } from '../cache.js'
import { ApiError } from '../errors.js'
import type { Db, Queryable } from '../db/index.js'
import { newId } from '../domain/common/ids.js'
import { defaultTeamId, teamExists } from '../domain/team/teams.js'
import { recordActivity } from '../people/activity.js'
import { weaker, type Role } from '../people/roles.js'

/** The expiry choices API v2 offers for tokens: 7 days, 1/3/6/12 months, never. */
export const TOKEN_EXPIRIES = ['7d', '1m', '3m', '6m', '12m', 'never'] as const
export type TokenExpiry = (typeof TOKEN_EXPIRIES)[number]

export function expiryDate(choice: TokenExpiry, now = new Date()): Date | null {
  if (choice === 'never') return null
  const d = new Date(now)
  if (choice === '7d') d.setUTCDate(d.getUTCDate() + 7)
  else d.setUTCMonth(d.getUTCMonth() + Number(choice.slice(0, -1)))
  return d
}

/** Tokens are stored as this digest only; the clear value is shown once, at creation. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export interface ApiTokenInfo {
  id: string
  name: string
  teamId: string
  createdAt: string
  expiresAt: string | null
  expired: boolean
}

/** A new API token of the team (the default one when none is named), and its activity entry, in one transaction. */
export async function createApiToken(
  db: Db,
  o: {
    name: string
    teamId?: string | undefined
    expires?: TokenExpiry | undefined
    createdBy?: string | null
    /** The maker's role when a member makes it: the token never grants more (null: the operator's, full team rights). */
    roleCeiling?: Role | null
  },
): Promise<{ id: string; token: string; teamId: string; expiresAt: string | null }> {
  if (!o.name.trim() || o.name.length > 255) throw new ApiError(400, 'INVALID_REQUEST', 'token name must be 1 to 255 characters')
  const expires = o.expires ?? 'never'
  if (!TOKEN_EXPIRIES.includes(expires)) throw new ApiError(400, 'INVALID_REQUEST', `expires must be one of ${TOKEN_EXPIRIES.join(', ')}`)
  return db.transaction(async (tx) => {
    const teamId = o.teamId ?? (await defaultTeamId(tx))
    if (!(await teamExists(tx, teamId))) throw new ApiError(404, 'NOT_FOUND', `team ${teamId} not found`)
    const id = newId.apiToken()
    const token = `api_${randomBytes(24).toString('base64url')}`
    const expiresAt = expiryDate(expires)
    await tx.query('insert into api_tokens (id, team_id, name, token_hash, expires_at, created_by, role_ceiling) values ($1, $2, $3, $4, $5, $6, $7)', [
      id,
      teamId,
      o.name,
      hashToken(token),
      expiresAt,
      o.createdBy ?? null,
      o.roleCeiling ?? null,
    ])
    await recordActivity(tx, { teamId, userId: o.createdBy ?? null, action: 'token.created', target: id, details: { name: o.name, expires } })
    return { id, token, teamId, expiresAt: expiresAt?.toISOString() ?? null }
  })
}

export async function listApiTokens(db: Queryable): Promise<ApiTokenInfo[]> {
  const rows = await db.query<{ id: string; name: string; team_id: string; created_at: Date; expires_at: Date | null }>(
    'select id, name, team_id, created_at, expires_at from api_tokens order by created_at, id',
  )
  const now = Date.now()
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    teamId: r.team_id,
    createdAt: new Date(r.created_at).toISOString(),
    expiresAt: r.expires_at ? new Date(r.expires_at).toISOString() : null,
    expired: r.expires_at !== null && new Date(r.expires_at).getTime() <= now,
  }))
}

/**
 * Revoking deletes the token (of `teamId` when given), with its activity entry, in one transaction:
 * its next request, and those of presign tokens it minted, get 401.
 */
export function revokeApiToken(db: Db, id: string, o: { teamId?: string; by?: string | null } = {}): Promise<void> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ team_id: string; name: string }>(
      'delete from api_tokens where id = $1 and ($2::text is null or team_id = $2) returning team_id, name',
      [id, o.teamId ?? null],
    )
    if (!rows[0]) throw new ApiError(404, 'NOT_FOUND', `API token ${id} not found`)
    await tx.notify(CHANNELS.apiTokens, id)
    await recordActivity(tx, { teamId: rows[0].team_id, userId: o.by ?? null, action: 'token.revoked', target: id, details: { name: rows[0].name } })
  })
}

/** A team's tokens as its settings page lists them: never their values. */
export async function listTeamTokens(db: Queryable, teamId: string, now = Date.now()) {
  const rows = await db.query<{ id: string; name: string; created_at: Date; expires_at: Date | null; last_used_at: Date | null; email: string | null }>(
    `select a.id, a.name, a.created_at, a.expires_at, a.last_used_at, u.email from api_tokens a left join users u on u.id = a.created_by
     where a.team_id = $1 order by a.created_at desc, a.id`,
    [teamId],
  )
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: new Date(r.created_at).toISOString(),
    createdBy: r.email,
    expiresAt: r.expires_at ? new Date(r.expires_at).toISOString() : null,
    expired: r.expires_at !== null && new Date(r.expires_at).getTime() <= now,
    lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
  }))
}

/** When each token was last used: written at most once a minute per token and process, not per request. */
const lastWritten = new Map<string, number>()
export function noteTokenUse(db: Queryable, tokenId: string, now = Date.now()): void {
  if (!tokenId.startsWith('token_')) return // a console session's editor token: no API token to mark
  if (now - (lastWritten.get(tokenId) ?? 0) < 60_000) return
  if (lastWritten.size > 10_000) lastWritten.clear()
  lastWritten.set(tokenId, now)
  db.query('update api_tokens set last_used_at = $2 where id = $1', [tokenId, new Date(now)]).catch(() => lastWritten.delete(tokenId))
}

/** The member whose role bounds a credential, and that role as it is now (never above the credential's ceiling). */
export interface Bound {
  userId: string
  role: Role
}

export interface TokenOwner {
  tokenId: string
  teamId: string
  plan: string
  /** Epoch ms, or null for never. */
  expiresAt: number | null
  /** A member's token: its maker and the weaker of the maker's current role and the token's ceiling; null: the operator's. */
  member: Bound | null
  /** A member's token whose maker is no longer in the team: dead. */
  orphaned: boolean
}

/**
 * The API token with this value or id, with its team's plan and its maker's current role, expired
 * or not. Cached (auth/principal.ts): role changes and removals notify the cache as revocation does.
 */
export async function findToken(db: Queryable, by: { token: string } | { id: string }): Promise<TokenOwner | null> {
  const [row] = await db.query<{ id: string; team_id: string; plan: string; expires_at: Date | null; created_by: string | null; role_ceiling: Role | null; role: Role | null }>(
    `select a.id, a.team_id, t.plan, a.expires_at, a.created_by, a.role_ceiling, m.role from api_tokens a join teams t on t.id = a.team_id
     left join team_members m on m.team_id = a.team_id and m.user_id = a.created_by
     where ${'token' in by ? 'a.token_hash' : 'a.id'} = $1`,
    ['token' in by ? hashToken(by.token) : by.id],
  )
  if (!row) return null
  const member = row.role_ceiling && row.created_by && row.role ? { userId: row.created_by, role: weaker(row.role, row.role_ceiling) } : null
  return {
    tokenId: row.id,
    teamId: row.team_id,
    plan: row.plan,
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
    member,
    orphaned: row.role_ceiling !== null && !member,
  }
}

export const isLive = (t: TokenOwner | null, now = Date.now()): t is TokenOwner =>
  t !== null && !t.orphaned && (t.expiresAt === null || t.expiresAt > now)
