/**
 * The account page's API: name, password, sessions, two-factor (TOTP and recovery codes) and
 * passkeys of the signed-in user. Changing the password or turning two-factor off needs proof
 * (the current password, or a code), under the same throttle as signing in. What would let a
 * stolen session outlive a password reset or lock the owner out (adding a passkey, setting up
 * two-factor, new recovery codes, a first password) needs a proof given in the last minutes
 * (the sign-in itself, or `POST /account/confirm` with the password or a code): 403
 * FRESH_PROOF_REQUIRED otherwise.
 */
import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import { Hono } from 'hono'
import { z } from 'zod'
import type { Answer } from '../../shared/console-contract.js'
import type { HostContext } from '../context.js'
import { freshlyProven, listSessions, revokeOtherSessions, revokeSession, type Session } from '../auth/sessions.js'
import { ApiError } from '../errors.js'
import { deletePasskey, finishRegistration, listPasskeys, registrationOptions, renamePasskey } from '../people/passkeys.js'
import { MAX_PASSWORD_LENGTH, verifyPassword } from '../people/passwords.js'
import { throttled } from '../people/throttle.js'
import { beginTotpSetup, confirmTotp, disableTotp, recoveryCodesLeft, renewRecoveryCodes, totpState, totpUri, useRecoveryCode, useTotpCode } from '../people/totp.js'
import { changePassword, renameUser, userByEmail } from '../people/users.js'
import { describeClient } from '../pdf/user-agent.js'
import { throttleKeys } from './account-auth-routes.js'
import type { ConsoleEnv } from './gate.js'
import { consoleBody, renewSession } from './session-routes.js'

const NameBody = z.object({ name: z.string().max(255) })
const PasswordBody = z.object({ current: z.string().max(MAX_PASSWORD_LENGTH), password: z.string().max(MAX_PASSWORD_LENGTH) })
const CodeBody = z.object({ code: z.string().max(64) })
const DisableBody = z.object({ code: z.string().max(64).optional(), password: z.string().max(MAX_PASSWORD_LENGTH).optional() })
const PasskeyName = z.string().max(100)
const RegisterBody = z.object({ challengeId: z.string().max(100), response: z.record(z.string(), z.unknown()), name: PasskeyName.default('') })

const ConfirmBody = z.object({ password: z.string().max(MAX_PASSWORD_LENGTH).optional(), code: z.string().max(64).optional() })

/** 403 FRESH_PROOF_REQUIRED unless the session was proven in the last minutes. */
function assertFresh(ctx: HostContext, session: Session): void {
  if (!freshlyProven(session, ctx.clock.now())) throw new ApiError(403, 'FRESH_PROOF_REQUIRED', 'confirm it is you first: give your password or a code again')
}

export function accountRoutes(ctx: HostContext) {
  const r = new Hono<ConsoleEnv>()
  profileRoutes(r, ctx)
  twoFactorRoutes(r, ctx)
  passkeyRoutes(r, ctx)
  return r
}

/** The proof given again, the account and its sessions, its name and its password. */
function profileRoutes(r: Hono<ConsoleEnv>, ctx: HostContext) {
  const now = () => ctx.clock.now()

  /**
   * The password, or a code of the authenticator app (or a recovery code), given again: the
   * session is freshly proven for some minutes, with a new token (the cookie is set anew).
   */
  r.post('/account/confirm', async (c) => {
    const { user, session } = c.get('caller')
    const body = await consoleBody(c, ConfirmBody)
    const keys = throttleKeys(c, user.email)
    let ok = false
    if (body.password) {
      const stored = await userByEmail(ctx.db, user.email)
      ok = await throttled(ctx.db, keys, now(), () => verifyPassword(body.password!, stored?.passwordHash ?? null))
    } else if (body.code) {
      const code = body.code
      ok = await throttled(ctx.db, { ...keys, factor: 'second-factor' }, now(), async () => {
        const { secret, enabled } = await totpState(ctx.db, user.id)
        if (!enabled || !secret) return false
        return /^\s*\d{3}\s*\d{3}\s*$/.test(code) ? useTotpCode(ctx.db, user.id, secret, code, now()) : useRecoveryCode(ctx.db, user.id, code)
      })
    }
    if (!ok) throw new ApiError(401, 'INVALID_CREDENTIALS', 'that is not your password or a current code')
    await renewSession(c, ctx, session.id)
    return c.json({ confirmed: true } satisfies Answer<'POST /account/confirm'>)
  })

  r.get('/account', async (c) => {
    const { user, session } = c.get('caller')
    const sessions = await listSessions(ctx.db, user.id, now())
    return c.json({
      user,
      sessions: sessions.map((s) => ({
        id: s.id,
        current: s.id === session.id,
        createdAt: s.createdAt,
        lastSeenAt: s.lastSeenAt,
        ip: s.ip,
        client: describeClient(s.userAgent),
      })),
      totp: { enabled: user.totpEnabled, recoveryCodesLeft: user.totpEnabled ? await recoveryCodesLeft(ctx.db, user.id) : 0 },
      passkeys: await listPasskeys(ctx.db, user.id),
    } satisfies Answer<'GET /account'>)
  })

  r.post('/account/name', async (c) => {
    const { name } = await consoleBody(c, NameBody)
    await renameUser(ctx.db, c.get('caller').user.id, name.trim())
    return c.json({ name: name.trim() } satisfies Answer<'POST /account/name'>)
  })

  r.post('/account/password', async (c) => {
    const { user, session } = c.get('caller')
    const body = await consoleBody(c, PasswordBody)
    const stored = await userByEmail(ctx.db, user.email)
    // Accounts made by link or passkey may have no password yet: they set one without a current one,
    // in a freshly proven session.
    if (!stored?.passwordHash) assertFresh(ctx, session)
    else {
      const ok = await throttled(ctx.db, throttleKeys(c, user.email), now(), () => verifyPassword(body.current, stored.passwordHash))
      if (!ok) throw new ApiError(401, 'INVALID_CREDENTIALS', 'the current password is wrong')
    }
    await changePassword(ctx.db, { userId: user.id, keepSession: session.id, password: body.password })
    return c.json({ changed: true } satisfies Answer<'POST /account/password'>)
  })

  r.post('/account/sessions/:id/revoke', async (c) => {
    const { user } = c.get('caller')
    const done = await revokeSession(ctx.db, user.id, c.req.param('id'))
    if (!done) throw new ApiError(404, 'NOT_FOUND', 'session not found')
    return c.json({ revoked: true } satisfies Answer<'POST /account/sessions/:id/revoke'>)
  })

  r.post('/account/sessions/revoke-others', async (c) => {
    const { user, session } = c.get('caller')
    await revokeOtherSessions(ctx.db, user.id, session.id)
    return c.json({ revoked: true } satisfies Answer<'POST /account/sessions/revoke-others'>)
  })
}

/** Two-factor authentication: the authenticator app's secret, its confirmation, turning it off, and recovery codes. */
function twoFactorRoutes(r: Hono<ConsoleEnv>, ctx: HostContext) {
  const now = () => ctx.clock.now()

  /** A new secret, not yet on: the account keeps signing in as before until a code confirms it. */
  r.post('/account/totp/setup', async (c) => {
    const { user, session } = c.get('caller')
    assertFresh(ctx, session)
    if (user.totpEnabled) throw new ApiError(409, 'TOTP_ENABLED', 'two-factor authentication is on already')
    const secret = await beginTotpSetup(ctx.db, user.id)
    return c.json({ secret, uri: totpUri(secret, user.email, 'Envelope') } satisfies Answer<'POST /account/totp/setup'>)
  })

  r.post('/account/totp/confirm', async (c) => {
    const { user } = c.get('caller')
    const { code } = await consoleBody(c, CodeBody)
    const { secret, enabled } = await totpState(ctx.db, user.id)
    if (enabled) throw new ApiError(409, 'TOTP_ENABLED', 'two-factor authentication is on already')
    if (!secret) throw new ApiError(409, 'TOTP_NOT_SET_UP', 'start setting up two-factor authentication first')
    const recoveryCodes = await confirmTotp(ctx.db, user.id, secret, code, now())
    return c.json({ recoveryCodes } satisfies Answer<'POST /account/totp/confirm'>)
  })

  r.post('/account/totp/disable', async (c) => {
    const { user } = c.get('caller')
    const body = await consoleBody(c, DisableBody)
    const { secret, enabled } = await totpState(ctx.db, user.id)
    if (!enabled || !secret) throw new ApiError(409, 'TOTP_NOT_ENABLED', 'two-factor authentication is off')
    const keys = throttleKeys(c, user.email)
    const code = body.code
    const ok = code
      ? await throttled(ctx.db, { ...keys, factor: 'second-factor' }, now(), () => useTotpCode(ctx.db, user.id, secret, code, now()))
      : body.password
        ? await throttled(ctx.db, keys, now(), async () => verifyPassword(body.password!, (await userByEmail(ctx.db, user.email))?.passwordHash ?? null))
        : false
    if (!ok) throw new ApiError(401, 'INVALID_CODE', 'give a current code from your app, or your password')
    await disableTotp(ctx.db, user.id)
    return c.json({ enabled: false } satisfies Answer<'POST /account/totp/disable'>)
  })

  r.post('/account/recovery-codes', async (c) => {
    const { user, session } = c.get('caller')
    assertFresh(ctx, session)
    if (!user.totpEnabled) throw new ApiError(409, 'TOTP_NOT_ENABLED', 'two-factor authentication is off')
    return c.json({ recoveryCodes: await renewRecoveryCodes(ctx.db, user.id) } satisfies Answer<'POST /account/recovery-codes'>)
  })
}

/** The account's passkeys: registering one (in a freshly proven session), renaming and deleting them. */
function passkeyRoutes(r: Hono<ConsoleEnv>, ctx: HostContext) {
  r.post('/account/passkeys/options', async (c) => {
    assertFresh(ctx, c.get('caller').session)
    return c.json((await registrationOptions(ctx.db, ctx, c, c.get('caller').user)) satisfies Answer<'POST /account/passkeys/options'>)
  })

  r.post('/account/passkeys', async (c) => {
    assertFresh(ctx, c.get('caller').session)
    const body = await consoleBody(c, RegisterBody)
    const passkey = await finishRegistration(ctx.db, ctx, c, c.get('caller').user, {
      challengeId: body.challengeId,
      response: body.response as unknown as RegistrationResponseJSON,
      name: body.name,
    })
    return c.json(passkey satisfies Answer<'POST /account/passkeys'>)
  })

  r.patch('/account/passkeys/:id', async (c) => {
    const { name } = await consoleBody(c, z.object({ name: PasskeyName }))
    return c.json((await renamePasskey(ctx.db, c.get('caller').user.id, c.req.param('id'), name)) satisfies Answer<'PATCH /account/passkeys/:id'>)
  })

  r.delete('/account/passkeys/:id', async (c) => {
    await deletePasskey(ctx.db, c.get('caller').user.id, c.req.param('id'))
    return c.json({ deleted: true } satisfies Answer<'DELETE /account/passkeys/:id'>)
  })
}
