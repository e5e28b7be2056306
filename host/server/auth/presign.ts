import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto'
import { errors as joseErrors, jwtVerify } from 'jose'
import { parsePresignScope, type PresignScope, type PresignTokenResponse } from '../../../src/protocol/index.js'
import { ApiError } from '../errors.js'
import type { Queryable } from '../db/index.js'
import { isRole, type Role } from '../people/roles.js'

/**
 * The HS256 key in the two forms it is used in, both imported once: a KeyObject for minting with
 * node:crypto's synchronous HMAC, a non-extractable CryptoKey for jose's verification.
 */
export interface PresignKey {
  sign: KeyObject
  verify: CryptoKey
}

/** Generated on first start and kept in the database, so every process shares it. */
export async function loadPresignSecret(db: Queryable): Promise<PresignKey> {
  await db.query(`insert into settings (key, value) values ('presign_secret', $1) on conflict do nothing`, [
    randomBytes(32).toString('base64url'),
  ])
  const [row] = await db.query<{ value: string }>(`select value from settings where key = 'presign_secret'`)
  return presignKey(new Uint8Array(Buffer.from(row!.value, 'base64url')))
}

export async function presignKey(bytes: Uint8Array<ArrayBuffer>): Promise<PresignKey> {
  return {
    sign: createSecretKey(bytes),
    verify: await crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']),
  }
}

export interface PresignClaims {
  teamId: string
  /** The API token that minted it. */
  tokenId: string
  /** As minted (`envelopeId:envelope_...`), or null for a team-wide token. */
  scope: string | null
  parsedScope: PresignScope | null
  expiresAt: Date
  /** Minted for a console member: the role it may never exceed (the `role` claim). */
  role: Role | null
}

/** The constant protected header, encoded once. */
const HS256_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')

/** Signatures made this second, per key, by signing input (see signature). */
const recent = new WeakMap<PresignKey, { second: number; byInput: Map<string, string> }>()
const RECENT_MAX = 256

/**
 * The HS256 signature of `input`. Tokens minted in the same second for the same API token, expiry
 * and scope are the same bytes (the claims hold whole seconds and no nonce), as every page load of
 * a busy customer's embed is; their signature is computed once per second and reused, which in a
 * loaded server saves more than the HMAC itself (each native HMAC costs ~10 µs there: bench/host.ts).
 */
function signature(key: PresignKey, input: string, second: number): string {
  let memo = recent.get(key)
  if (!memo || memo.second !== second) recent.set(key, (memo = { second, byInput: new Map() }))
  let sig = memo.byInput.get(input)
  if (sig === undefined) {
    sig = createHmac('sha256', key.sign).update(input).digest('base64url')
    if (memo.byInput.size < RECENT_MAX) memo.byInput.set(input, sig)
  }
  return sig
}

/**
 * A compact HS256 JWT (RFC 7515/7519) with `aud` team, `sub` API token id, `iat`, `exp`, and the
 * optional `scope` claim (docs/protocol.md); the same bytes jose's SignJWT produces. Signed with
 * node:crypto because WebCrypto (all jose offers) runs every HMAC as an async thread-pool job,
 * which costs several times the hash itself; verification stays with jose.
 */
export function mintPresignToken(
  key: PresignKey,
  o: { teamId: string; tokenId: string; expiresInMinutes: number; scope?: string | undefined; role?: Role | undefined },
  now = Date.now(),
): PresignTokenResponse {
  const iat = Math.floor(now / 1000)
  const exp = iat + o.expiresInMinutes * 60
  const claims = { ...(o.scope ? { scope: o.scope } : {}), ...(o.role ? { role: o.role } : {}), aud: o.teamId, sub: o.tokenId, iat, exp }
  const input = `${HS256_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
  const token = `${input}.${signature(key, input, iat)}`
  return { token, expiresAt: new Date(exp * 1000).toISOString(), expiresIn: exp - iat }
}

/**
 * Checks signature and expiry only (no database): expired -> 401 TOKEN_EXPIRED, anything else
 * wrong -> 401 INVALID_TOKEN. The API additionally requires the minting API token to be alive.
 */
export async function verifyPresignToken(key: PresignKey, token: string): Promise<PresignClaims> {
  try {
    const { payload } = await jwtVerify(token, key.verify, { algorithms: ['HS256'] })
    const scope = typeof payload.scope === 'string' ? payload.scope : null
    const parsedScope = scope === null ? null : parsePresignScope(scope)
    const role = payload.role === undefined ? null : isRole(payload.role) ? payload.role : undefined
    if (typeof payload.aud !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number' || (scope !== null && !parsedScope) || role === undefined) {
      throw new ApiError(401, 'INVALID_TOKEN', 'the presign token is malformed')
    }
    return { teamId: payload.aud, tokenId: payload.sub, scope, parsedScope, expiresAt: new Date(payload.exp * 1000), role }
  } catch (err) {
    if (err instanceof ApiError) throw err
    if (err instanceof joseErrors.JWTExpired) throw new ApiError(401, 'TOKEN_EXPIRED', 'the presign token has expired; mint a new one')
    throw new ApiError(401, 'INVALID_TOKEN', 'the presign token is invalid')
  }
}
