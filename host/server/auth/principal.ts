import type { PresignScope } from '../../../src/protocol/index.js'
import { ApiError } from '../errors.js'
import type { Cache } from '../cache.js'
import type { Db } from '../db/index.js'
import type { PresignKey } from './presign.js'
import { assertEmbeddingAllowed } from '../domain/team/plans.js'
import { findToken, isLive, type Bound, type TokenOwner } from './api-tokens.js'
import { verifyPresignToken } from './presign.js'
import { atLeast, weaker, type Role } from '../people/roles.js'

/**
 * Who is calling: a team's API token, a presign token acting for that team (maybe scoped), or a
 * member signed in to the console (whose role and the envelope's visibility decide what they see;
 * tokenId names the session for rate limits and the audit log). A token a member made carries
 * that member (`member`), at their current role capped by the token's ceiling: it never grants
 * more than they have. Tokens of the operator (CLI) have none and act for the whole team.
 */
export type Principal =
  | { kind: 'api'; teamId: string; plan: string; tokenId: string; member?: Bound | null }
  | { kind: 'user'; teamId: string; plan: string; tokenId: string; userId: string; role: Role; email: string; name: string }
  | {
      kind: 'presign'
      teamId: string
      plan: string
      tokenId: string
      scope: PresignScope | null
      scopeText: string | null
      expiresAt: Date
      member?: Bound | null
    }

/** The member whose role bounds what this principal sees and does: the console member, or a token's maker; null for the team's own. */
export const memberOf = (p: Principal): Bound | null => (p.kind === 'user' ? { userId: p.userId, role: p.role } : (p.member ?? null))

/** `Authorization: <token>` or `Authorization: Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | null {
  const value = header?.replace(/^Bearer\s+/i, '').trim()
  return value ? value : null
}

/** Tokens are looked up through the cache: revocation notifies it, expiry is checked on every use. */
export async function authenticate(ctx: { db: Db; presignSecret: PresignKey; cache: { tokens: Cache<TokenOwner> } }, header: string | undefined): Promise<Principal> {
  const token = tokenFromHeader(header)
  if (!token) throw new ApiError(401, 'UNAUTHORIZED', 'the Authorization header with an API token or presign token is required')
  if (token.startsWith('api_')) {
    // Keyed by the token as presented, so a known token costs one map lookup and no digest (the
    // database holds digests only; findToken makes one on a miss). Only tokens that exist are kept.
    const owner = await ctx.cache.tokens.load(`token:${token}`, () => findToken(ctx.db, { token }))
    if (!isLive(owner)) throw new ApiError(401, 'INVALID_API_TOKEN', 'the API token is unknown, revoked or expired, or its maker left the team')
    return { kind: 'api', tokenId: owner.tokenId, teamId: owner.teamId, plan: owner.plan, member: owner.member }
  }
  const claims = await verifyPresignToken(ctx.presignSecret, token)
  if (claims.tokenId.startsWith(SESSION_PREFIX)) return memberEditorToken(ctx, claims)
  const owner = await ctx.cache.tokens.load(`id:${claims.tokenId}`, () => findToken(ctx.db, { id: claims.tokenId }))
  if (!isLive(owner) || owner.teamId !== claims.teamId) {
    throw new ApiError(401, 'INVALID_TOKEN', 'the API token that minted this presign token was revoked or has expired, or its maker left the team')
  }
  assertEmbeddingAllowed(owner.plan)
  return {
    kind: 'presign',
    teamId: owner.teamId,
    plan: owner.plan,
    tokenId: owner.tokenId,
    scope: claims.parsedScope,
    scopeText: claims.scope,
    expiresAt: claims.expiresAt,
    member: owner.member,
  }
}

const SESSION_PREFIX = 'session_'

/**
 * A presign token the console minted for a member to open one envelope in the editor: scoped to
 * that envelope, alive while the member's session is and they are still in the team, and bounded
 * by their role now (never above the role it was minted with): an envelope that leaves their reach
 * is 404 from the next request. Not an embedding: no plan is needed.
 */
async function memberEditorToken(ctx: { db: Db }, claims: Awaited<ReturnType<typeof verifyPresignToken>>): Promise<Principal> {
  const [row] = await ctx.db.query<{ plan: string; user_id: string; role: Role }>(
    `select t.plan, m.user_id, m.role from user_sessions s join team_members m on m.user_id = s.user_id join teams t on t.id = m.team_id
     where s.id = $1 and s.expires_at > now() and not s.second_factor_due and m.team_id = $2`,
    [claims.tokenId, claims.teamId],
  )
  if (!row || !claims.parsedScope || !claims.role) throw new ApiError(401, 'INVALID_TOKEN', 'the session that minted this token has ended')
  const member = { userId: row.user_id, role: weaker(row.role, claims.role) }
  return { kind: 'presign', teamId: claims.teamId, plan: row.plan, tokenId: claims.tokenId, scope: claims.parsedScope, scopeText: claims.scope, expiresAt: claims.expiresAt, member }
}

/** Creating envelopes and minting presign tokens need more than a scoped presign token. */
export function assertMayCreate(p: Principal): void {
  if (p.kind === 'presign' && p.scope) throw new ApiError(403, 'FORBIDDEN', `a presign token scoped to ${p.scopeText} cannot create envelopes`)
}

/**
 * A direct link lets anyone make documents from its template: outside any one envelope, so
 * creating, toggling or deleting one needs an unscoped token.
 */
export function assertMayPublish(p: Principal): void {
  if (p.kind === 'presign' && p.scope) throw new ApiError(403, 'FORBIDDEN', `a presign token scoped to ${p.scopeText} cannot manage direct links`)
}

export function assertApiToken(p: Principal, what: string): void {
  if (p.kind === 'presign') throw new ApiError(403, 'FORBIDDEN', `${what} requires an API token, not a presign token`)
}

/**
 * A team setting (webhooks, framing origins): API tokens may, presign tokens may not, and a console
 * member, or the member who made the token, needs `role` or above.
 */
export function assertTeamRole(p: Principal, what: string, role: Role): void {
  assertApiToken(p, what)
  const member = memberOf(p)
  if (member && !atLeast(member.role, role)) throw new ApiError(403, 'FORBIDDEN', `${what} needs the ${role} role or above`)
}

/** Who acts, for a team's activity log: the console member, or null for a token. */
export const actingUser = (p: Principal): string | null => (p.kind === 'user' ? p.userId : null)
