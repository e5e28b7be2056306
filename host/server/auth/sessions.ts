import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { Db, Queryable } from '../db/index.js'
import { newId } from '../domain/common/ids.js'

/**
 * A signed-in browser: a random token in an HttpOnly cookie, of which the database keeps the
 * SHA-256 only. Sessions are listed on the account page and revoked there (or by signing out);
 * a revoked or expired session is refused at its next request.
 */
export interface Session {
  id: string
  userId: string
  teamId: string | null
  secondFactorDue: boolean
  /** When the person last gave a password, a second factor or an e-mailed link in this session (null: never). */
  provedAt: string | null
  createdAt: string
  lastSeenAt: string
  expiresAt: string
  userAgent: string
  ip: string
}

interface SessionRow {
  id: string
  user_id: string
  team_id: string | null
  second_factor_due: boolean
  proved_at: Date | null
  created_at: Date
  last_seen_at: Date
  expires_at: Date
  user_agent: string
  ip: string
}

const toSession = (r: SessionRow): Session => ({
  id: r.id,
  userId: r.user_id,
  teamId: r.team_id,
  secondFactorDue: r.second_factor_due,
  provedAt: r.proved_at ? new Date(r.proved_at).toISOString() : null,
  createdAt: new Date(r.created_at).toISOString(),
  lastSeenAt: new Date(r.last_seen_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
  userAgent: r.user_agent,
  ip: r.ip,
})

const digest = (token: string) => createHash('sha256').update(token).digest('hex')

/** The cookie's name: `__Host-` prefixed (and Secure) when the host is served over HTTPS. */
export const sessionCookieName = (secure: boolean) => (secure ? '__Host-envelope_session' : 'envelope_session')

export async function createSession(
  tx: Queryable,
  o: { userId: string; teamId: string | null; secondFactorDue: boolean; userAgent: string; ip: string; lifetimeMs: number; now?: Date },
): Promise<{ session: Session; token: string }> {
  const token = newId.sessionToken()
  const now = o.now ?? new Date()
  // A session that opens the console was opened with a proof (password and second factor, a passkey, a link).
  const [row] = await tx.query<SessionRow>(
    `insert into user_sessions (id, user_id, token_hash, team_id, second_factor_due, user_agent, ip, created_at, last_seen_at, expires_at, proved_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10) returning *`,
    [newId.session(), o.userId, digest(token), o.teamId, o.secondFactorDue, o.userAgent.slice(0, 512), o.ip.slice(0, 64), now, new Date(now.getTime() + o.lifetimeMs), o.secondFactorDue ? null : now],
  )
  return { session: toSession(row!), token }
}

/** The live session of a cookie's token, or null (unknown, revoked or expired). */
/**
 * A fresh session for the user, in one transaction with the end of the one the browser presented
 * (`previousToken`, if any): a token known before a sign-in never carries over.
 */
export function startSession(db: Db, o: Parameters<typeof createSession>[1] & { previousToken?: string | undefined }): Promise<{ session: Session; token: string }> {
  const { previousToken, ...session } = o
  return db.transaction(async (tx) => {
    if (previousToken) await endSessionOfToken(tx, previousToken)
    return createSession(tx, session)
  })
}

export async function findSession(db: Queryable, token: string, now = new Date()): Promise<Session | null> {
  const [row] = await db.query<SessionRow>('select * from user_sessions where token_hash = $1 and expires_at > $2', [digest(token), now])
  return row ? toSession(row) : null
}

/** Records that the session was used; at most once a minute, so a busy console does not write on every request. */
export async function touchSession(db: Queryable, s: Session, now = new Date()): Promise<void> {
  if (now.getTime() - new Date(s.lastSeenAt).getTime() < 60_000) return
  await db.query('update user_sessions set last_seen_at = $2 where id = $1', [s.id, now])
}

export async function listSessions(db: Queryable, userId: string, now = new Date()): Promise<Session[]> {
  const rows = await db.query<SessionRow>('select * from user_sessions where user_id = $1 and expires_at > $2 order by last_seen_at desc, id', [userId, now])
  return rows.map(toSession)
}

/** Ends one of the user's sessions; false when it is not theirs (or already gone). */
export async function revokeSession(tx: Queryable, userId: string, sessionId: string): Promise<boolean> {
  return (await tx.query('delete from user_sessions where id = $1 and user_id = $2 returning id', [sessionId, userId])).length > 0
}

/** Ends the session of a cookie's token, whoever's it is (a sign-in replaces what the browser held). */
export async function endSessionOfToken(tx: Queryable, token: string): Promise<void> {
  await tx.query('delete from user_sessions where token_hash = $1', [digest(token)])
}

/** Ends every session of a user but `keep` (after a password reset or change). */
export async function revokeOtherSessions(tx: Queryable, userId: string, keep: string | null): Promise<void> {
  await tx.query('delete from user_sessions where user_id = $1 and id is distinct from $2', [userId, keep])
}

export async function setSessionTeam(tx: Queryable, sessionId: string, teamId: string): Promise<void> {
  await tx.query('update user_sessions set team_id = $2 where id = $1', [sessionId, teamId])
}

/**
 * The person proved themselves again in this session (the second factor of a sign-in, or a
 * password or code given to unlock a sensitive change): the session opens the console, counts as
 * freshly proven, and gets a new token, so a token seen before the proof (the half-signed-in
 * cookie) opens nothing after it. The caller sets the new token's cookie.
 */
export async function rotateSession(tx: Queryable, sessionId: string, now = new Date()): Promise<{ session: Session; token: string }> {
  const token = newId.sessionToken()
  const [row] = await tx.query<SessionRow>('update user_sessions set second_factor_due = false, proved_at = $3, token_hash = $2 where id = $1 returning *', [
    sessionId,
    digest(token),
    now,
  ])
  return { session: toSession(row!), token }
}

/** How long a proof stays fresh for a sensitive change (adding a passkey, turning two-factor off, ...). */
export const FRESH_PROOF_MS = 10 * 60_000

/** Whether the session's last proof is recent enough for a sensitive change. */
export const freshlyProven = (s: Pick<Session, 'provedAt'>, now = new Date()) => s.provedAt !== null && now.getTime() - new Date(s.provedAt).getTime() <= FRESH_PROOF_MS

/**
 * The session's anti-forgery token: derived from the cookie's value, so it needs no storage; the
 * console reads it from GET /api/console/me (same origin only) and sends it as `X-CSRF-Token`.
 */
export const csrfToken = (sessionToken: string) => createHmac('sha256', sessionToken).update('csrf').digest('base64url')

export function csrfMatches(sessionToken: string, presented: string | undefined): boolean {
  if (!presented) return false
  const want = Buffer.from(csrfToken(sessionToken))
  const got = Buffer.from(presented)
  return want.length === got.length && timingSafeEqual(want, got)
}
