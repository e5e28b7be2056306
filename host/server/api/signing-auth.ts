/**
 * The signing pages' authentication steps (domain/recipient-auth.ts), mounted at
 * /api/signing/auth beside the signing API, with the gates the signing routes call: the access
 * check before anything of the document is answered (rejecting needs no more), the action proof
 * before a signature or approval counts. Every secret is checked under the throttle of the recipient's
 * address and the caller's network address (people/throttle.ts): a locked recipient is told when
 * to try again (429 with Retry-After), and the sender sees the lock in the audit log.
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { Queryable } from '../db/index.js'
import { aboutRecipient, audit, recipientActor } from '../domain/audit.js'
import type { RecipientContext } from '../domain/lifecycle.js'
import {
  CODES_PER_RECIPIENT,
  grantMethods,
  issueGrant,
  maskEmail,
  requiredAuth,
  sendCode,
  useCode,
  type AccessMethod,
  type CodePurpose,
  type Required,
} from '../domain/recipient-auth.js'
import { ApiError } from '../errors.js'
import { authenticationOptions, finishAuthentication, finishRegistration, hasPasskeys, registrationOptions } from '../people/passkeys.js'
import { passwordProblem, verifyPassword } from '../people/passwords.js'
import { MAIL_REQUESTS_PER_IP, spend, throttled, THROTTLE_WINDOW_MS, type Factor } from '../people/throttle.js'
import { totpState, useTotpCode } from '../people/totp.js'
import { createUser, markEmailVerified, setPassword, userByEmail } from '../people/users.js'
import { clientOf, jsonBody } from './http.js'
import type { AppEnv, HostContext } from '../context.js'

export const GRANT_HEADER = 'x-recipient-auth'

const Secret = z.string().min(1).max(256)
const Code = z.string().trim().min(4).max(12)
const Passkey = z.object({ challengeId: z.string().min(1).max(200), response: z.record(z.string(), z.unknown()) })

/** What a recipient proves when signing or approving (the `auth` of complete). */
export const ActionProof = z.discriminatedUnion('method', [
  z.object({ method: z.literal('PASSWORD'), password: Secret }),
  z.object({ method: z.literal('TWO_FACTOR_AUTH'), code: Code }),
  z.object({ method: z.literal('PASSKEY'), passkey: Passkey }),
  z.object({ method: z.literal('ACCOUNT') }),
])
export type ActionProof = z.infer<typeof ActionProof>

/** The access check's proof: a code, or the account's password (and its authenticator code). */
export const AccessProof = z.discriminatedUnion('method', [
  z.object({ method: z.literal('TWO_FACTOR_AUTH'), code: Code }),
  z.object({ method: z.literal('ACCOUNT'), password: Secret, code: Code.optional() }),
])
export type AccessProof = z.infer<typeof AccessProof>
const AccessBody = AccessProof
const CodeBody = z.object({ purpose: z.enum(['access', 'action', 'account']) })
const DirectCodeBody = z.object({ purpose: z.enum(['access', 'action', 'account']), email: z.email().max(320) })
const AccountBody = z.object({ name: z.string().trim().max(255).optional(), password: Secret, code: Code })
const DirectAccountBody = AccountBody.extend({ email: z.email().max(320) })

const authRequired = (what: string, methods: readonly string[]) =>
  new ApiError(401, 'AUTH_REQUIRED', `${what} needs one of: ${methods.join(', ')}`)
const authFailed = () => new ApiError(401, 'AUTH_FAILED', 'that did not check out: try again')

/** The access check of the signing routes: the methods the grant proves, or 401 AUTH_REQUIRED. */
export function assertAccess(ctx: HostContext, c: Context, { e, r }: RecipientContext): AccessMethod[] {
  const { access } = requiredAuth(e, r)
  if (!access.length) return []
  const passed = grantMethods(ctx.linkKey, r, c.req.header(GRANT_HEADER), ctx.clock.now()).filter((m) => access.includes(m))
  if (!passed.length) throw authRequired('this document', access)
  return passed.slice(0, 1)
}

/** The recipient's account, when one with a verified address is theirs. */
async function accountOf(db: Queryable, email: string) {
  const user = await userByEmail(db, email)
  return user && user.emailVerified ? user : null
}

/**
 * Runs `attempt` under the throttle of the recipient's address for `factor` and the caller's
 * network address (counted before the secret is checked): refused while locked (429,
 * Retry-After), the lock written to the audit log when it begins, a failure answered 401.
 */
async function guarded(ctx: HostContext, c: Context, rc: RecipientContext, factor: Factor, attempt: () => Promise<boolean>): Promise<void> {
  const now = ctx.clock.now()
  const ok = await throttled(ctx.db, { email: rc.r.email, ip: clientOf(c).ipAddress ?? '', factor }, now, attempt, async () => {
    await audit(ctx.db, rc.e, 'RECIPIENT_AUTH_LOCKED', recipientActor(rc.r, clientOf(c)), {
      ...aboutRecipient(rc.r),
      until: new Date(now.getTime() + THROTTLE_WINDOW_MS).toISOString(),
    })
    throw new ApiError(429, 'TOO_MANY_ATTEMPTS', `too many failed attempts: try again in ${THROTTLE_WINDOW_MS / 60_000} minutes`, undefined, {
      'Retry-After': String(THROTTLE_WINDOW_MS / 1000),
    })
  })
  if (!ok) throw authFailed()
}

/** A code of the account's authenticator app, or else the code sent by e-mail (to `to`, a direct link visitor's address). */
async function codeMatches(ctx: HostContext, rc: RecipientContext, purpose: CodePurpose, code: string, to: string | null = null): Promise<boolean> {
  const user = await accountOf(ctx.db, rc.r.email)
  if (user) {
    const totp = await totpState(ctx.db, user.id)
    if (totp.enabled && totp.secret && /^\d{6}$/.test(code) && (await useTotpCode(ctx.db, user.id, totp.secret, code, ctx.clock.now()))) return true
  }
  return ctx.db.transaction((tx) => useCode(tx, ctx.linkKey, rc.r, purpose, code, ctx.clock.now(), to))
}

/**
 * The account's password, then its authenticator code when it has one: each counted under its
 * own factor, so a right password never clears the count of wrong codes.
 */
async function proveAccount(ctx: HostContext, c: Context, rc: RecipientContext, password: string, code: string | undefined): Promise<void> {
  let user: Awaited<ReturnType<typeof userByEmail>> = null
  await guarded(ctx, c, rc, 'password', async () => {
    user = await userByEmail(ctx.db, rc.r.email)
    return (await verifyPassword(password, user?.emailVerified ? user.passwordHash : null)) && !!user?.emailVerified
  })
  const { id } = user!
  const totp = await totpState(ctx.db, id)
  if (!totp.enabled) return
  if (!code) throw new ApiError(401, 'TOTP_REQUIRED', 'this account also needs a code from its authenticator app')
  await guarded(ctx, c, rc, 'second-factor', () => useTotpCode(ctx.db, id, totp.secret!, code, ctx.clock.now()))
}

/**
 * The action proof of complete: the methods it proves (for the audit log), [] when
 * none is required; 401 AUTH_REQUIRED or AUTH_FAILED otherwise.
 */
export async function proveAction(ctx: HostContext, c: Context, rc: RecipientContext, proof: ActionProof | undefined): Promise<Required['action']> {
  const { action } = requiredAuth(rc.e, rc.r)
  if (!action.length) return []
  if (!proof || !(action as string[]).includes(proof.method)) throw authRequired('this action', action)
  switch (proof.method) {
    case 'ACCOUNT':
      if (!grantMethods(ctx.linkKey, rc.r, c.req.header(GRANT_HEADER), ctx.clock.now()).includes('ACCOUNT')) throw authRequired('this action', ['ACCOUNT (sign in first)'])
      break
    case 'PASSWORD':
      await guarded(ctx, c, rc, 'password', async () => verifyPassword(proof.password, (await accountOf(ctx.db, rc.r.email))?.passwordHash ?? null))
      break
    case 'TWO_FACTOR_AUTH':
      await guarded(ctx, c, rc, 'second-factor', () => codeMatches(ctx, rc, 'action', proof.code))
      break
    case 'PASSKEY': {
      const user = await accountOf(ctx.db, rc.r.email)
      await guarded(ctx, c, rc, 'passkey', async () => {
        if (!user) return false
        const response = proof.passkey.response as unknown as Parameters<typeof finishAuthentication>[3]['response']
        return ctx.db
          .transaction((tx) => finishAuthentication(tx, ctx, c, { challengeId: proof.passkey.challengeId, response }, user.id))
          .then((id) => id === user.id)
          .catch((err) => {
            if (err instanceof ApiError && err.status === 400) return false
            throw err
          })
      })
      break
    }
  }
  return [proof.method]
}

/**
 * A template's direct link: the visitor proves the methods of the link's recipient for the
 * address they give, when they sign and before the document is made (the template itself is
 * public by the sender's choice). One proof covers both checks where the methods match (a code
 * for access and action; an account sign-in for ACCOUNT or PASSWORD). PASSKEY is not offered:
 * nothing names the visitor's account before they type its address.
 */
export async function proveDirect(
  ctx: HostContext,
  c: Context,
  link: RecipientContext,
  email: string,
  proofs: { access?: AccessProof | undefined; auth?: ActionProof | undefined },
): Promise<{ accessAuth: string[]; actionAuth: string[] }> {
  const { access, action } = requiredAuth(link.e, link.r)
  const visitor: RecipientContext = { ...link, r: { ...link.r, email: email.trim().toLowerCase() } }
  const to = visitor.r.email
  let accessAuth: string[] = []
  if (access.length) {
    const proof = proofs.access
    if (!proof || !(access as string[]).includes(proof.method)) throw authRequired('this document', access)
    if (proof.method === 'ACCOUNT') await proveAccount(ctx, c, visitor, proof.password, proof.code)
    else await guarded(ctx, c, visitor, 'second-factor', () => codeMatches(ctx, visitor, 'access', proof.code, to))
    accessAuth = [proof.method]
  }
  if (!action.length) return { accessAuth, actionAuth: [] }
  // What the access proof of this same request already shows.
  const covered = action.find((m) => (accessAuth[0] === 'TWO_FACTOR_AUTH' && m === 'TWO_FACTOR_AUTH') || (accessAuth[0] === 'ACCOUNT' && (m === 'ACCOUNT' || m === 'PASSWORD')))
  if (covered) return { accessAuth, actionAuth: [covered] }
  const proof = proofs.auth
  if (!proof || !(action as string[]).includes(proof.method) || proof.method === 'PASSKEY' || proof.method === 'ACCOUNT') throw authRequired('this action', action.filter((m) => m !== 'PASSKEY' && m !== 'ACCOUNT'))
  if (proof.method === 'PASSWORD') await guarded(ctx, c, visitor, 'password', async () => verifyPassword(proof.password, (await accountOf(ctx.db, to))?.passwordHash ?? null))
  else await guarded(ctx, c, visitor, 'second-factor', () => codeMatches(ctx, visitor, 'action', proof.code, to))
  return { accessAuth, actionAuth: [proof.method] }
}

/** A direct link's steps: what its recipient asks for, and codes to the address the visitor gives. */
export function directAuthRoutes(ctx: HostContext, link: (c: Context) => Promise<RecipientContext>) {
  const r = new Hono<AppEnv>()
  r.get('/', async (c) => {
    const rc = await link(c)
    const required = requiredAuth(rc.e, rc.r)
    return c.json({ access: { required: required.access }, action: { required: required.action }, language: (rc.e.document_meta as { language?: string } | null)?.language ?? 'en' })
  })
  r.post('/code', async (c) => {
    const rc = await link(c)
    const { purpose, email } = await jsonBody(c, DirectCodeBody)
    const required = requiredAuth(rc.e, rc.r)
    if (purpose === 'account') assertAccountAsked(required)
    else if (!(purpose === 'access' ? required.access : required.action).includes('TWO_FACTOR_AUTH')) {
      throw new ApiError(400, 'INVALID_REQUEST', 'no code is needed here')
    }
    const to = email.trim().toLowerCase()
    const now = ctx.clock.now()
    await spend(
      ctx.db,
      [
        { key: `direct-code:${rc.r.id}:${to}`, limit: CODES_PER_RECIPIENT },
        { key: `mail-ip:${clientOf(c).ipAddress ?? ''}`, limit: MAIL_REQUESTS_PER_IP },
      ],
      now,
    )
    const code = await sendCode(ctx.db, rc.r, purpose, now, to)
    return c.json({ sentTo: maskEmail(to), expiresAt: code.expiresAt.toISOString() })
  })
  // A visitor without an account for the address they gave makes one with the code e-mailed to
  // it, then proves the link's methods with its password like any account holder.
  r.post('/account', async (c) => {
    const rc = await link(c)
    const { email, ...body } = await jsonBody(c, DirectAccountBody)
    const to = email.trim().toLowerCase()
    // The link's recipient name is the sender's placeholder, not the visitor's: without a name given, the address's own.
    await makeAccount(ctx, c, { ...rc, r: { ...rc.r, email: to, name: to.slice(0, to.indexOf('@')) } }, body, to)
    return c.json({ email: to })
  })
  return r
}

/** The routes; `recipient` reads the recipient of the request's token (401/404 otherwise). */
export function signingAuthRoutes(ctx: HostContext, recipient: (c: Context) => Promise<RecipientContext>) {
  const r = new Hono<AppEnv>()
  // A new grant keeps what the page's current one proves (an access code, then an account sign-in).
  const held = (c: Context, rc: RecipientContext) => grantMethods(ctx.linkKey, rc.r, c.req.header(GRANT_HEADER), ctx.clock.now())

  // What the page must ask for; answered before any access check (it is what the check needs).
  // Whether the address has an account, and which factors it has, is told only once this page
  // proved the address (an e-mailed or authenticator code, or the account's own sign-in): the
  // link alone is in the sender's hands too.
  r.get('/', async (c) => {
    const rc = await recipient(c)
    const required = requiredAuth(rc.e, rc.r)
    const granted = grantMethods(ctx.linkKey, rc.r, c.req.header(GRANT_HEADER), ctx.clock.now())
    const user = granted.length ? await accountOf(ctx.db, rc.r.email) : null
    return c.json({
      access: { required: required.access, satisfied: !required.access.length || granted.some((m) => required.access.includes(m)) },
      signedIn: granted.includes('ACCOUNT'),
      action: { required: required.action },
      email: maskEmail(rc.r.email),
      account: !granted.length
        ? null
        : user
          ? { exists: true, password: Boolean(user.passwordHash), totp: (await totpState(ctx.db, user.id)).enabled, passkeys: await hasPasskeys(ctx.db, user.id) }
          : { exists: false, password: false, totp: false, passkeys: false },
    })
  })

  // A code by e-mail, for the access check or the action; a bounded number per recipient and address.
  r.post('/code', async (c) => {
    const rc = await recipient(c)
    const { purpose } = await jsonBody(c, CodeBody)
    const required = requiredAuth(rc.e, rc.r)
    if (purpose === 'account') assertAccountAsked(required)
    else {
      const methods: readonly string[] = purpose === 'access' ? required.access : required.action
      if (!methods.includes('TWO_FACTOR_AUTH')) throw new ApiError(400, 'INVALID_REQUEST', `no code is needed for ${purpose === 'access' ? 'opening this document' : 'this action'}`)
    }
    const now = ctx.clock.now()
    await spend(
      ctx.db,
      [
        { key: `recipient-code:${rc.r.id}`, limit: CODES_PER_RECIPIENT },
        { key: `mail-ip:${clientOf(c).ipAddress ?? ''}`, limit: MAIL_REQUESTS_PER_IP },
      ],
      now,
    )
    const code = await sendCode(ctx.db, rc.r, purpose, now)
    return c.json({ sentTo: maskEmail(rc.r.email), expiresAt: code.expiresAt.toISOString() })
  })

  // The access check: a code, or the account's password (and its second factor).
  r.post('/access', async (c) => {
    const rc = await recipient(c)
    const body = await jsonBody(c, AccessBody)
    // An account sign-in also proves ACCOUNT for actions, whatever the access check asks.
    const { access, action } = requiredAuth(rc.e, rc.r)
    // A passkey is added on this page by someone signed in to the account first.
    if (!access.includes(body.method) && !(body.method === 'ACCOUNT' && (action.includes('ACCOUNT') || action.includes('PASSKEY')))) {
      throw new ApiError(400, 'INVALID_REQUEST', `${body.method} is not asked of this recipient`)
    }
    if (body.method === 'ACCOUNT') await proveAccount(ctx, c, rc, body.password, body.code)
    else await guarded(ctx, c, rc, 'second-factor', () => codeMatches(ctx, rc, 'access', body.code))
    return c.json(issueGrant(ctx.linkKey, rc.r, [...held(c, rc), body.method], ctx.clock.now()))
  })

  // A recipient without an account makes one for their address with the code just e-mailed to it
  // (purpose "account"): the link alone proves nothing, the sender holds it too. The account is
  // made verified, in no team. The same code sets the first password of an account the address
  // has but cannot use here: one never confirmed (the address is proven now, and whatever someone
  // unproven attached to it goes, as on any first proof) or one without a password (what a reset
  // link e-mailed to the address would do). A confirmed account with a password is 409 EMAIL_TAKEN.
  r.post('/account', async (c) => {
    const rc = await recipient(c)
    await makeAccount(ctx, c, rc, await jsonBody(c, AccountBody))
    return c.json(issueGrant(ctx.linkKey, rc.r, [...held(c, rc), 'ACCOUNT'], ctx.clock.now()))
  })

  // A WebAuthn challenge for a passkey of the recipient's account: the same answer whether or not
  // the address has an account or passkeys (no credential is listed; the browser offers its own).
  r.post('/passkey', async (c) => {
    const rc = await recipient(c)
    await spend(ctx.db, [{ key: `recipient-passkey:${rc.r.id}`, limit: 100 }], ctx.clock.now())
    const user = await accountOf(ctx.db, rc.r.email)
    return c.json(await ctx.db.transaction((tx) => authenticationOptions(tx, ctx, c, user?.id ?? null, { listCredentials: false })))
  })

  // A recipient asked for a passkey who has none on this device adds one to their account here,
  // once signed in to it on this page (ACCOUNT in the grant: its password and second factor).
  const passkeyOwner = async (c: Context, rc: RecipientContext) => {
    if (!requiredAuth(rc.e, rc.r).action.includes('PASSKEY')) throw new ApiError(400, 'INVALID_REQUEST', 'no passkey is asked of this recipient')
    if (!held(c, rc).includes('ACCOUNT')) throw authRequired('adding a passkey', ['ACCOUNT (sign in first)'])
    await spend(ctx.db, [{ key: `recipient-passkey:${rc.r.id}`, limit: 100 }], ctx.clock.now())
    const user = await accountOf(ctx.db, rc.r.email)
    if (!user) throw authRequired('adding a passkey', ['ACCOUNT (sign in first)'])
    return user
  }
  r.post('/passkey/register', async (c) => {
    const rc = await recipient(c)
    const user = await passkeyOwner(c, rc)
    return c.json(await ctx.db.transaction((tx) => registrationOptions(tx, ctx, c, user)))
  })
  r.post('/passkey/register/finish', async (c) => {
    const rc = await recipient(c)
    const user = await passkeyOwner(c, rc)
    const { challengeId, response } = await jsonBody(c, Passkey)
    const made = await ctx.db.transaction((tx) =>
      finishRegistration(tx, ctx, c, user, { challengeId, response: response as unknown as Parameters<typeof finishRegistration>[4]['response'], name: 'Added when signing' }),
    )
    return c.json({ id: made.id, name: made.name })
  })

  return r
}

/**
 * Makes the account of `rc.r.email` (or sets the first password of one it cannot use) with the
 * code of purpose "account" e-mailed to it (to `to`, a direct link visitor's address).
 */
async function makeAccount(ctx: HostContext, c: Context, rc: RecipientContext, { name, password, code }: z.infer<typeof AccountBody>, to: string | null = null): Promise<void> {
  assertAccountAsked(requiredAuth(rc.e, rc.r))
  const problem = passwordProblem(password)
  if (problem) throw new ApiError(400, 'INVALID_REQUEST', problem)
  await guarded(ctx, c, rc, 'second-factor', () => ctx.db.transaction((tx) => useCode(tx, ctx.linkKey, rc.r, 'account', code, ctx.clock.now(), to)))
  await ctx.db.transaction(async (tx) => {
    const existing = await userByEmail(tx, rc.r.email)
    if (!existing) return void (await createUser(tx, { email: rc.r.email, name: name || rc.r.name, password, verified: true }))
    if (existing.emailVerified && existing.passwordHash) throw new ApiError(409, 'EMAIL_TAKEN', 'an account with this e-mail address exists')
    await markEmailVerified(tx, existing.id)
    await setPassword(tx, existing.id, password)
  })
}

/** 400 unless the recipient is asked for something only an account gives. */
function assertAccountAsked({ access, action }: Required): void {
  if (![...access, ...action].some((m) => m === 'ACCOUNT' || m === 'PASSWORD' || m === 'PASSKEY')) {
    throw new ApiError(400, 'INVALID_REQUEST', 'no account is asked of this recipient')
  }
}
