/**
 * Getting into an account without a session: sign up, confirm the address, reset the password,
 * sign in with an e-mailed link or a passkey; and the second step of a sign-in when two-factor is
 * on (a TOTP code, a recovery code or a passkey). Answers about an address never tell whether it
 * has an account.
 */
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { clientOf } from '../api/http.js'
import { LANGUAGE_CODES } from '../../shared/languages.js'
import type { Answer } from '../../shared/console-contract.js'
import type { HostContext } from '../context.js'
import { ApiError } from '../errors.js'
import { confirmAddress, mailAccountLink, resetPassword, useSignInLink } from '../people/account-links.js'
import { peekLink } from '../people/links.js'
import { MAX_PASSWORD_LENGTH, verifyPassword } from '../people/passwords.js'
import { authenticationOptions, finishAuthentication, listPasskeys } from '../people/passkeys.js'
import { signUp } from '../people/sign-up.js'
import { throttled, spend, mailBudgets, CHALLENGES_PER_IP } from '../people/throttle.js'
import { totpState, useRecoveryCode, useTotpCode } from '../people/totp.js'
import { userByEmail, userById } from '../people/users.js'
import type { ConsoleEnv } from './gate.js'
import { badCredentials, consoleBody, renewSession, signIn } from './session-routes.js'

const Language = z.enum(LANGUAGE_CODES).default('en')
const Email = z.string().max(254)
const LinkValue = z.string().min(1).max(200)
const SignUpBody = z.object({ email: Email, name: z.string().max(255).default(''), password: z.string().max(MAX_PASSWORD_LENGTH), language: Language })
const AddressBody = z.object({ email: Email, language: Language })
const LinkBody = z.object({ link: LinkValue })
const VerifyBody = z.object({ link: LinkValue, password: z.string().max(MAX_PASSWORD_LENGTH) })
const ResetBody = z.object({ link: LinkValue, password: z.string().max(MAX_PASSWORD_LENGTH) })
const CodeBody = z.object({ code: z.string().max(64) })
const PasskeyBody = z.object({ challengeId: z.string().max(100), response: z.record(z.string(), z.unknown()) })

/** What every request about an address answers, whether or not it has an account. */
const SENT = { sent: true }

export const throttleKeys = (c: Context, email: string) => ({ email, ip: clientOf(c).ipAddress ?? '' })

export function accountAuthRoutes(ctx: HostContext) {
  const r = new Hono<ConsoleEnv>()
  const now = () => ctx.clock.now()

  r.post('/auth/sign-up', async (c) => {
    const body = await consoleBody(c, SignUpBody)
    await spend(ctx.db, mailBudgets(body.email, clientOf(c).ipAddress ?? ''), now())
    await signUp(ctx.db, ctx.config, { ...body, now: now() })
    return c.json(SENT satisfies Answer<'POST /auth/sign-up'>)
  })

  // The link proves the address, the password that the sign-up chose proves it is the same
  // person: whoever typed someone else's address into sign-up cannot have it confirmed for them.
  // A wrong password leaves the link good.
  r.post('/auth/verify', async (c) => {
    const { link, password } = await consoleBody(c, VerifyBody)
    const l = await peekLink(ctx.db, ctx.linkKey, link, 'verify', now())
    const user = l.userId ? await userById(ctx.db, l.userId) : null
    if (!user) throw new ApiError(400, 'LINK_INVALID', 'this link is not valid')
    const ok = await throttled(ctx.db, throttleKeys(c, user.email), now(), async () => verifyPassword(password, (await userByEmail(ctx.db, user.email))?.passwordHash ?? null))
    if (!ok) throw badCredentials()
    await confirmAddress(ctx.db, ctx.linkKey, { link, userId: user.id, now: now() })
    return c.json((await signInAfterLink(c, user.id)) satisfies Answer<'POST /auth/verify'>)
  })

  /** Mails a reset link when the address has an account; the same answer when it has none. */
  r.post('/auth/reset', async (c) => {
    const { email, language } = await consoleBody(c, AddressBody)
    await spend(ctx.db, mailBudgets(email, clientOf(c).ipAddress ?? ''), now())
    await mailAccountLink(ctx.db, { email, purpose: 'reset', language, now: now() })
    return c.json(SENT satisfies Answer<'POST /auth/reset'>)
  })

  r.post('/auth/reset/complete', async (c) => {
    const { link, password } = await consoleBody(c, ResetBody)
    const userId = await resetPassword(ctx.db, ctx.linkKey, { link, password, now: now() })
    // The passkeys the account has: a reset after a theft is when the owner may want some gone
    // (the page offers to remove them; the sign-in just made is a fresh proof for that).
    return c.json({ ...(await signInAfterLink(c, userId)), passkeys: await listPasskeys(ctx.db, userId) } satisfies Answer<'POST /auth/reset/complete'>)
  })

  r.post('/auth/link', async (c) => {
    const { email, language } = await consoleBody(c, AddressBody)
    await spend(ctx.db, mailBudgets(email, clientOf(c).ipAddress ?? ''), now())
    await mailAccountLink(ctx.db, { email, purpose: 'signin', language, now: now() })
    return c.json(SENT satisfies Answer<'POST /auth/link'>)
  })

  r.post('/auth/link/complete', async (c) => {
    const { link } = await consoleBody(c, LinkBody)
    const userId = await useSignInLink(ctx.db, ctx.linkKey, { link, now: now() })
    return c.json((await signInAfterLink(c, userId)) satisfies Answer<'POST /auth/link/complete'>)
  })

  // Passkey sign-in, without an address: any passkey of this site names its account.
  r.post('/auth/passkey/options', async (c) => {
    const ip = clientOf(c).ipAddress
    if (ip) await spend(ctx.db, [{ key: `challenge-ip:${ip}`, limit: CHALLENGES_PER_IP }], now())
    return c.json((await authenticationOptions(ctx.db, ctx, c, null)) satisfies Answer<'POST /auth/passkey/options'>)
  })

  r.post('/auth/passkey/verify', async (c) => {
    const body = await consoleBody(c, PasskeyBody)
    // No account is named before the passkey answers: only the network address's count applies.
    let userId = ''
    const ok = await throttled(ctx.db, { email: '', ip: clientOf(c).ipAddress ?? '', factor: 'passkey' }, now(), async () => {
      userId = await finishAuthentication(ctx.db, ctx, c, { challengeId: body.challengeId, response: body.response as unknown as AuthenticationResponseJSON }, null).catch(notVerified)
      return userId !== ''
    })
    if (!ok) throw passkeyInvalid()
    // A passkey with user verification is two factors in itself.
    await signIn(c, ctx, userId, false)
    return c.json({ secondFactorDue: false } satisfies Answer<'POST /auth/passkey/verify'>)
  })

  // The second step (half-open: the session from the password is there, the console is not yet).
  r.post('/auth/second-factor/totp', async (c) => {
    const caller = c.get('caller')
    const { code } = await consoleBody(c, CodeBody)
    const ok = await throttled(ctx.db, { ...throttleKeys(c, caller.user.email), factor: 'second-factor' }, now(), async () => {
      const { secret, enabled } = await totpState(ctx.db, caller.user.id)
      return enabled && secret !== null && (await useTotpCode(ctx.db, caller.user.id, secret, code, now()))
    })
    if (!ok) throw wrongCode()
    await renewSession(c, ctx, caller.session.id)
    return c.json({ secondFactorDue: false } satisfies Answer<'POST /auth/second-factor/totp'>)
  })

  r.post('/auth/second-factor/recovery', async (c) => {
    const caller = c.get('caller')
    const { code } = await consoleBody(c, CodeBody)
    const ok = await throttled(ctx.db, { ...throttleKeys(c, caller.user.email), factor: 'second-factor' }, now(), () => useRecoveryCode(ctx.db, caller.user.id, code))
    if (!ok) throw wrongCode()
    await renewSession(c, ctx, caller.session.id)
    return c.json({ secondFactorDue: false } satisfies Answer<'POST /auth/second-factor/recovery'>)
  })

  r.post('/auth/second-factor/passkey/options', async (c) => c.json((await authenticationOptions(ctx.db, ctx, c, c.get('caller').user.id)) satisfies Answer<'POST /auth/second-factor/passkey/options'>))

  r.post('/auth/second-factor/passkey/verify', async (c) => {
    const caller = c.get('caller')
    const body = await consoleBody(c, PasskeyBody)
    const ok = await throttled(ctx.db, { ...throttleKeys(c, caller.user.email), factor: 'passkey' }, now(), async () =>
      (await finishAuthentication(ctx.db, ctx, c, { challengeId: body.challengeId, response: body.response as unknown as AuthenticationResponseJSON }, caller.user.id).catch(notVerified)) !== '',
    )
    if (!ok) throw passkeyInvalid()
    await renewSession(c, ctx, caller.session.id)
    return c.json({ secondFactorDue: false } satisfies Answer<'POST /auth/second-factor/passkey/verify'>)
  })

  /** A link proves the address, not the second factor: with two-factor on, the session is half open. */
  async function signInAfterLink(c: Context, userId: string) {
    const user = await userById(ctx.db, userId)
    if (!user) throw new ApiError(400, 'LINK_INVALID', 'this link is not valid')
    await signIn(c, ctx, user.id, user.totpEnabled)
    return { secondFactorDue: user.totpEnabled }
  }

  return r
}

const wrongCode = () => new ApiError(401, 'INVALID_CODE', 'the code is wrong or was used already')
const passkeyInvalid = () => new ApiError(400, 'PASSKEY_INVALID', 'the passkey could not be verified: try again')
/** A passkey that did not check out is a failed attempt (''); anything else is thrown on. */
const notVerified = (err: unknown): string => {
  if (err instanceof ApiError && err.code === 'PASSKEY_INVALID') return ''
  throw err
}
