/**
 * Presign tokens: the JWT jose would sign, signatures reused only for the same key, claims and
 * second, and the role a console member's token may never exceed.
 * Database: none (pure functions).
 */
import { randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { mintPresignToken, presignKey, verifyPresignToken } from '../../host/server/auth/presign.js'

const bytes = () => new Uint8Array(randomBytes(32))
// The start of a whole second (plus 250 ms), so NOW + 500 is the same second and NOW + 1000 the next.
const NOW = Math.floor(Date.now() / 1000) * 1000 + 250

describe('presign tokens', () => {
  it('are the HS256 JWT jose would sign, claim for claim', async () => {
    const raw = bytes()
    const key = await presignKey(raw)
    const minted = mintPresignToken(key, { teamId: 'team_a', tokenId: 'tok_1', expiresInMinutes: 30, scope: 'envelopeId:envelope_abc' }, NOW)
    const iat = Math.floor(NOW / 1000)
    const expected = await new SignJWT({ scope: 'envelopeId:envelope_abc' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience('team_a')
      .setSubject('tok_1')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 30 * 60)
      .sign(raw)
    expect(minted.token).toBe(expected)
    expect(minted).toMatchObject({ expiresIn: 1800, expiresAt: new Date((iat + 1800) * 1000).toISOString() })
  })

  it('reuse a signature only for the same key, claims and second', async () => {
    const [one, two] = [await presignKey(bytes()), await presignKey(bytes())]
    const claims = { teamId: 'team_a', tokenId: 'tok_1', expiresInMinutes: 60 }
    const first = mintPresignToken(one, claims, NOW).token
    // Same key, claims and second: the same bytes, as signing them again would give.
    expect(mintPresignToken(one, claims, NOW + 500).token).toBe(first)
    const others = [
      mintPresignToken(one, { ...claims, scope: 'documentId:7' }, NOW),
      mintPresignToken(one, { ...claims, expiresInMinutes: 61 }, NOW),
      mintPresignToken(one, { ...claims, teamId: 'team_b' }, NOW),
      mintPresignToken(one, claims, NOW + 1000),
    ].map((m) => m.token)
    expect(new Set([first, ...others]).size).toBe(5)
    for (const token of [first, ...others]) await expect(verifyPresignToken(one, token)).resolves.toMatchObject({ tokenId: 'tok_1' })
    // Another key never gets the first key's signature.
    const other = mintPresignToken(two, claims, NOW).token
    expect(other.split('.')[2]).not.toBe(first.split('.')[2])
    await expect(verifyPresignToken(two, other)).resolves.toMatchObject({ teamId: 'team_a' })
    await expect(verifyPresignToken(two, first)).rejects.toMatchObject({ code: 'INVALID_TOKEN' })
  })

  it("carry the role a console member's token may never exceed, and nothing that is not a role", async () => {
    const raw = bytes()
    const key = await presignKey(raw)
    const minted = mintPresignToken(key, { teamId: 'team_a', tokenId: 'session_1', expiresInMinutes: 5, scope: 'envelopeId:envelope_abc', role: 'MEMBER' }, NOW)
    await expect(verifyPresignToken(key, minted.token)).resolves.toMatchObject({ role: 'MEMBER', tokenId: 'session_1' })
    await expect(verifyPresignToken(key, mintPresignToken(key, { teamId: 'team_a', tokenId: 'tok_1', expiresInMinutes: 5 }).token)).resolves.toMatchObject({ role: null })
    const odd = await new SignJWT({ role: 'OWNER' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setAudience('team_a').setSubject('session_1').setIssuedAt().setExpirationTime('5m').sign(raw)
    await expect(verifyPresignToken(key, odd)).rejects.toMatchObject({ code: 'INVALID_TOKEN' })
  })
})
