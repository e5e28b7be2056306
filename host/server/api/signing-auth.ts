/**
 * The signing pages' authentication steps, mounted at /api/signing/auth beside the signing API:
 * what a recipient is asked for, codes by e-mail, the access check, an account made with a code,
 * and passkeys. The checks themselves are the domain's (domain/recipient-proofs.ts).
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { DirectContext } from '../domain/direct-links.js'
import type { RecipientContext } from '../domain/lifecycle.js'
import { grantMethods, issueGrant, passkeyBinding, recipientSubject, sendCode, visitorSubject } from '../domain/proof-binding.js'
import { maskEmail, requiredAuth } from '../domain/recipient-auth.js'
import {
  AccessProof,
  accountOf,
  assertAccountAsked,
  authRequired,
  Code,
  makeAccount,
  Passkey,
  proveAccess,
  Secret,
  type ProofRequest,
} from '../domain/recipient-proofs.js'
import { ApiError } from '../errors.js'
import { authenticationOptions, finishRegistration, hasPasskeys, registrationOptions } from '../people/passkeys.js'
import { spend } from '../people/throttle.js'
import { totpState } from '../people/totp.js'
import { clientOf, jsonBody } from './http.js'
import type { AppEnv, HostContext } from '../context.js'

export const GRANT_HEADER = 'x-recipient-auth'

/** The request's side of a recipient's proof: where it comes from and the grant the page holds. */
export const proofRequest = (c: Context): ProofRequest => ({ client: clientOf(c), grant: c.req.header(GRANT_HEADER), c })

const AccessBody = AccessProof
const CodeBody = z.object({ purpose: z.enum(['access', 'action', 'account']) })
const DirectCodeBody = z.object({ purpose: z.enum(['access', 'action', 'account']), email: z.email().max(320) })
const AccountBody = z.object({ name: z.string().trim().max(255).optional(), password: Secret, code: Code })
const DirectAccountBody = AccountBody.extend({ email: z.email().max(320) })
/** The document's language, and whether the sender chose it: the steps are shown in it only if so. */
const documentLanguage = (e: RecipientContext['e']) => ({ language: (e.document_meta as { language?: string } | null)?.language ?? 'en', languageChosen: e.language_chosen })
/** When a sent code stops working, and when a new one may be asked for (the page counts down to it). */
const codeTimes = (code: { expiresAt: Date; resendAt: Date }) => ({ expiresAt: code.expiresAt.toISOString(), resendAt: code.resendAt.toISOString() })

/** A direct link's steps: what its recipient asks for, and codes to the address the visitor gives. */
export function directAuthRoutes(ctx: HostContext, link: (c: Context) => Promise<DirectContext>) {
  const r = new Hono<AppEnv>()
  r.get('/', async (c) => {
    const rc = await link(c)
    const required = requiredAuth(rc.e, rc.r)
    return c.json({ access: { required: required.access }, action: { required: required.action }, ...documentLanguage(rc.e) })
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
    const code = await sendCode(ctx.db, visitorSubject(rc.link, to), purpose, now, { budget: `direct-code:${rc.r.id}:${to}`, ip: clientOf(c).ipAddress ?? '', visitor: true })
    return c.json({ sentTo: maskEmail(to), ...codeTimes(code) })
  })
  // A visitor without an account for the address they gave makes one with the code e-mailed to
  // it, then proves the link's methods with its password like any account holder.
  r.post('/account', async (c) => {
    const rc = await link(c)
    const { email, ...body } = await jsonBody(c, DirectAccountBody)
    const to = email.trim().toLowerCase()
    // The link's recipient name is the sender's placeholder, not the visitor's: without a name given, the address's own.
    await makeAccount(ctx, proofRequest(c), { ...rc, r: { ...rc.r, email: to, name: to.slice(0, to.indexOf('@')) } }, body, visitorSubject(rc.link, to))
    return c.json({ email: to })
  })
  return r
}

/** The routes; `recipient` reads the recipient of the request's token (401/404 otherwise). */
export function signingAuthRoutes(ctx: HostContext, recipient: (c: Context) => Promise<RecipientContext>) {
  const r = new Hono<AppEnv>()
  // A new grant keeps what the page's current one proves (an access code, then an account sign-in).
  const held = (c: Context, rc: RecipientContext) => grantMethods(ctx.linkKey, recipientSubject(rc.r), c.req.header(GRANT_HEADER), ctx.clock.now())

  // What the page must ask for; answered before any access check (it is what the check needs).
  // Whether the address has an account, and which factors it has, is told only once this page
  // proved the address (an e-mailed or authenticator code, or the account's own sign-in): the
  // link alone is in the sender's hands too.
  r.get('/', async (c) => {
    const rc = await recipient(c)
    const required = requiredAuth(rc.e, rc.r)
    const granted = held(c, rc)
    const user = granted.length ? await accountOf(ctx.db, rc.r.email) : null
    return c.json({
      access: { required: required.access, satisfied: !required.access.length || granted.some((m) => required.access.includes(m)) },
      signedIn: granted.includes('ACCOUNT'),
      action: { required: required.action },
      email: maskEmail(rc.r.email),
      ...documentLanguage(rc.e),
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
    const code = await sendCode(ctx.db, recipientSubject(rc.r), purpose, now, { budget: `recipient-code:${rc.r.id}`, ip: clientOf(c).ipAddress ?? '' })
    return c.json({ sentTo: maskEmail(rc.r.email), ...codeTimes(code) })
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
    await proveAccess(ctx, proofRequest(c), rc, body)
    return c.json(issueGrant(ctx.linkKey, recipientSubject(rc.r), [...held(c, rc), body.method], ctx.clock.now()))
  })

  // A recipient without an account makes one for their address with the code just e-mailed to it
  // (purpose "account"): the link alone proves nothing, the sender holds it too. The account is
  // made verified, in no team. The same code sets the first password of an account the address
  // has but cannot use here: one never confirmed (the address is proven now, and whatever someone
  // unproven attached to it goes, as on any first proof) or one without a password (what a reset
  // link e-mailed to the address would do). A confirmed account with a password is 409 EMAIL_TAKEN.
  r.post('/account', async (c) => {
    const rc = await recipient(c)
    await makeAccount(ctx, proofRequest(c), rc, await jsonBody(c, AccountBody))
    return c.json(issueGrant(ctx.linkKey, recipientSubject(rc.r), [...held(c, rc), 'ACCOUNT'], ctx.clock.now()))
  })

  // A WebAuthn challenge for a passkey of the recipient's account: the same answer whether or not
  // the address has an account or passkeys (no credential is listed; the browser offers its own).
  r.post('/passkey', async (c) => {
    const rc = await recipient(c)
    await spend(ctx.db, [{ key: `recipient-passkey:${rc.r.id}`, limit: 100 }], ctx.clock.now())
    const user = await accountOf(ctx.db, rc.r.email)
    return c.json(await ctx.db.transaction((tx) => authenticationOptions(tx, ctx, c, user?.id ?? null, { listCredentials: false, binding: passkeyBinding(rc.r) })))
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

