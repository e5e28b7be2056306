import { randomBytes } from 'node:crypto'
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose'
import { parsePresignScope, type PresignScope, type PresignTokenResponse } from '../../../src/protocol/index.js'
import { ApiError } from '../errors.js'
import type { Queryable } from '../db/index.js'

/**
 * The HS256 key, generated on first start and kept in the database so every process shares it;
 * imported once as a non-extractable CryptoKey (re-importing raw bytes on every token costs more
 * than signing).
 */
export async function loadPresignSecret(db: Queryable): Promise<CryptoKey> {
  await db.query(`insert into settings (key, value) values ('presign_secret', $1) on conflict do nothing`, [
    randomBytes(32).toString('base64url'),
  ])
  const [row] = await db.query<{ value: string }>(`select value from settings where key = 'presign_secret'`)
  return presignKey(new Uint8Array(Buffer.from(row!.value, 'base64url')))
}

export function presignKey(bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
}

export interface PresignClaims {
  teamId: string
  /** The API token that minted it. */
  tokenId: string
  /** As minted (`envelopeId:envelope_...`), or null for a team-wide token. */
  scope: string | null
  parsedScope: PresignScope | null
  expiresAt: Date
}

/** `aud` team, `sub` API token id, `exp`, and the optional `scope` claim (PROTOCOL.md). */
export async function mintPresignToken(
  secret: CryptoKey,
  o: { teamId: string; tokenId: string; expiresInMinutes: number; scope?: string | undefined },
  now = Date.now(),
): Promise<PresignTokenResponse> {
  const iat = Math.floor(now / 1000)
  const exp = iat + o.expiresInMinutes * 60
  const token = await new SignJWT(o.scope ? { scope: o.scope } : {})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience(o.teamId)
    .setSubject(o.tokenId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(secret)
  return { token, expiresAt: new Date(exp * 1000).toISOString(), expiresIn: exp - iat }
}

/**
 * Checks signature and expiry only (no database): expired -> 401 TOKEN_EXPIRED, anything else
 * wrong -> 401 INVALID_TOKEN. The API additionally requires the minting API token to be alive.
 */
export async function verifyPresignToken(secret: CryptoKey, token: string): Promise<PresignClaims> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] })
    const scope = typeof payload.scope === 'string' ? payload.scope : null
    const parsedScope = scope === null ? null : parsePresignScope(scope)
    if (typeof payload.aud !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number' || (scope !== null && !parsedScope)) {
      throw new ApiError(401, 'INVALID_TOKEN', 'the presign token is malformed')
    }
    return { teamId: payload.aud, tokenId: payload.sub, scope, parsedScope, expiresAt: new Date(payload.exp * 1000) }
  } catch (err) {
    if (err instanceof ApiError) throw err
    if (err instanceof joseErrors.JWTExpired) throw new ApiError(401, 'TOKEN_EXPIRED', 'the presign token has expired; mint a new one')
    throw new ApiError(401, 'INVALID_TOKEN', 'the presign token is invalid')
  }
}
