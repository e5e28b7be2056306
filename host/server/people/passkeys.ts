/**
 * Passkeys (WebAuthn): registered from the account page, used to sign in without an address
 * (discoverable credentials) or as the second factor. Each ceremony's challenge is a row of
 * auth_challenges that lives five minutes and is used once (deleted as it is checked).
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import type { Context } from 'hono'
import type { HostContext } from '../context.js'
import type { Db, Queryable } from '../db/index.js'
import { newId } from '../domain/common/ids.js'
import { ApiError } from '../errors.js'
import type { User } from './users.js'

const CHALLENGE_TTL_MS = 5 * 60_000
export type PasskeyCeremony = 'passkey-register' | 'passkey-sign-in' | 'passkey-second-factor'

export interface Passkey {
  id: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

/** Who the browser must be talking to: the host name and origin of PUBLIC_URL, else of the request. */
export function relyingParty(ctx: HostContext, c: Context): { rpID: string; origin: string } {
  const origin = ctx.config.publicUrl ?? new URL(c.req.url).origin
  return { rpID: new URL(origin).hostname, origin }
}

/**
 * `binding`: a signing page's challenge names the recipient it was asked for (domain/signing/proof-binding.ts);
 * it is answered only under the same binding, and a console challenge (null) only in the console.
 */
async function saveChallenge(tx: Queryable, purpose: PasskeyCeremony, userId: string | null, challenge: string, now: Date, binding: string | null = null): Promise<string> {
  await tx.query('delete from auth_challenges where expires_at <= $1', [now])
  const id = newId.challenge()
  await tx.query('insert into auth_challenges (id, purpose, user_id, challenge, expires_at, binding) values ($1, $2, $3, $4, $5, $6)', [
    id,
    purpose,
    userId,
    challenge,
    new Date(now.getTime() + CHALLENGE_TTL_MS),
    binding,
  ])
  return id
}

const invalid = () => new ApiError(400, 'PASSKEY_INVALID', 'the passkey could not be verified: try again')

/** The challenge, taken out of the table: a second use of the same challenge finds nothing. */
async function takeChallenge(tx: Queryable, id: string, purpose: PasskeyCeremony, userId: string | null, now: Date, binding: string | null = null): Promise<string> {
  const [row] = await tx.query<{ challenge: string; user_id: string | null; binding: string | null }>(
    'delete from auth_challenges where id = $1 and purpose = $2 and expires_at > $3 returning challenge, user_id, binding',
    [id, purpose, now],
  )
  if (!row || (userId !== null && row.user_id !== userId) || row.binding !== binding) throw invalid()
  return row.challenge
}

interface PasskeyRow {
  id: string
  user_id: string
  public_key: Uint8Array
  counter: string | number
  transports: AuthenticatorTransport[]
  name: string
  created_at: Date
  last_used_at: Date | null
}

const toPasskey = (r: PasskeyRow): Passkey => ({
  id: r.id,
  name: r.name,
  createdAt: new Date(r.created_at).toISOString(),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
})

export async function listPasskeys(db: Queryable, userId: string): Promise<Passkey[]> {
  const rows = await db.query<PasskeyRow>('select * from passkeys where user_id = $1 order by created_at, id', [userId])
  return rows.map(toPasskey)
}

export function registrationOptions(db: Db, ctx: HostContext, c: Context, user: User) {
  return db.transaction(async (tx) => {
    const { rpID } = relyingParty(ctx, c)
    const existing = await tx.query<PasskeyRow>('select id, transports from passkeys where user_id = $1', [user.id])
    const options = await generateRegistrationOptions({
      rpName: 'Envelope',
      rpID,
      userName: user.email,
      userDisplayName: user.name || user.email,
      // A stable handle per account: registering again on one authenticator replaces, not duplicates.
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    })
    const challengeId = await saveChallenge(tx, 'passkey-register', user.id, options.challenge, ctx.clock.now())
    return { challengeId, options }
  })
}

export function finishRegistration(
  db: Db,
  ctx: HostContext,
  c: Context,
  user: User,
  o: { challengeId: string; response: RegistrationResponseJSON; name: string },
): Promise<Passkey> {
  return db.transaction(async (tx) => {
    const expectedChallenge = await takeChallenge(tx, o.challengeId, 'passkey-register', user.id, ctx.clock.now())
    const { rpID, origin } = relyingParty(ctx, c)
    const result = await verifyRegistrationResponse({ response: o.response, expectedChallenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false }).catch(
      () => ({ verified: false as const }),
    )
    if (!result.verified) throw invalid()
    const cred = result.registrationInfo.credential
    const rows = await tx.query<PasskeyRow>(
      `insert into passkeys (id, user_id, public_key, counter, transports, name) values ($1, $2, $3, $4, $5, $6)
       on conflict (id) do nothing returning *`,
      [cred.id, user.id, Buffer.from(cred.publicKey), cred.counter, JSON.stringify(cred.transports ?? []), o.name.trim().slice(0, 100) || 'Passkey'],
    )
    if (!rows[0]) throw new ApiError(409, 'PASSKEY_EXISTS', 'this passkey is registered already')
    return toPasskey(rows[0])
  })
}

/**
 * Options to sign in: any passkey of this site (userId null) or one of the user's (second factor).
 * `listCredentials: false` (a signing page, where whoever holds the link must learn nothing of the
 * account): the same answer whether or not the account exists or has passkeys, and a challenge only
 * an assertion of `userId`'s passkeys can answer (none when userId is null).
 */
export function authenticationOptions(db: Db, ctx: HostContext, c: Context, userId: string | null, o: { listCredentials?: boolean; binding?: string } = {}) {
  return db.transaction(async (tx) => {
    const { rpID } = relyingParty(ctx, c)
    const list = o.listCredentials ?? true
    const mine = userId && list ? await tx.query<PasskeyRow>('select id, transports from passkeys where user_id = $1', [userId]) : []
    if (userId && list && !mine.length) throw new ApiError(409, 'NO_PASSKEY', 'this account has no passkey')
    const options = await generateAuthenticationOptions({
      rpID,
      userVerification: 'preferred',
      ...(userId && list && { allowCredentials: mine.map((p) => ({ id: p.id, transports: p.transports })) }),
    })
    const ceremony = userId || !list ? 'passkey-second-factor' : 'passkey-sign-in'
    const challengeId = await saveChallenge(tx, ceremony, userId, options.challenge, ctx.clock.now(), o.binding ?? null)
    return { challengeId, options }
  })
}

/** The account a passkey assertion proves (one of `userId`'s when given); 400 PASSKEY_INVALID otherwise. */
export async function finishAuthentication(
  tx: Queryable,
  ctx: HostContext,
  c: Context,
  o: { challengeId: string; response: AuthenticationResponseJSON },
  userId: string | null,
  /** A signing page's: the binding its challenge was asked under (see saveChallenge). */
  binding: string | null = null,
): Promise<string> {
  const now = ctx.clock.now()
  const expectedChallenge = await takeChallenge(tx, o.challengeId, userId ? 'passkey-second-factor' : 'passkey-sign-in', userId, now, binding)
  const [row] = await tx.query<PasskeyRow>('select * from passkeys where id = $1', [o.response.id])
  if (!row || (userId !== null && row.user_id !== userId)) throw invalid()
  const { rpID, origin } = relyingParty(ctx, c)
  const result = await verifyAuthenticationResponse({
    response: o.response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    // Without an address or password, the passkey is the whole proof: the authenticator must check its owner.
    requireUserVerification: userId === null,
    credential: { id: row.id, publicKey: new Uint8Array(row.public_key), counter: Number(row.counter), transports: row.transports },
  }).catch(() => ({ verified: false, authenticationInfo: null }))
  if (!result.verified || !result.authenticationInfo) throw invalid()
  await tx.query('update passkeys set counter = $2, last_used_at = $3 where id = $1', [row.id, result.authenticationInfo.newCounter, now])
  return row.user_id
}

export async function renamePasskey(tx: Queryable, userId: string, id: string, name: string): Promise<Passkey> {
  const [row] = await tx.query<PasskeyRow>('update passkeys set name = $3 where id = $1 and user_id = $2 returning *', [id, userId, name.trim().slice(0, 100) || 'Passkey'])
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'passkey not found')
  return toPasskey(row)
}

export async function deletePasskey(tx: Queryable, userId: string, id: string): Promise<void> {
  const rows = await tx.query('delete from passkeys where id = $1 and user_id = $2 returning id', [id, userId])
  if (!rows.length) throw new ApiError(404, 'NOT_FOUND', 'passkey not found')
}

export async function hasPasskeys(db: Queryable, userId: string): Promise<boolean> {
  return (await db.query('select 1 from passkeys where user_id = $1 limit 1', [userId])).length > 0
}
