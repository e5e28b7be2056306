/**
 * The signing pages' authentication steps, mounted at /api/signing/auth beside the signing API:
 * what a recipient is asked for, codes by e-mail, the access check, an account made with a code,
 * and passkeys (signing-passkeys.ts). The checks themselves are the domain's (domain/signing/proofs.ts).
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { DirectContext } from '../domain/template/direct-links.js'
import type { RecipientContext } from '../domain/signing/lifecycle.js'
import { grantMethods, issueGrant, recipientSubject, sendCode, visitorSubject, type ProofSubject } from '../domain/signing/proof-binding.js'
import { maskEmail, requiredAuth } from '../domain/recipient/auth.js'
import {
  AccessProof,
  accountOf,
  assertAccountAsked,
  authRequired,
  Code,
  makeAccount,
  proveAccess,
  Secret,
  type ProofRequest,
} from '../domain/signing/proofs.js'
import { ApiError } from '../errors.js'
import { hasPasskeys } from '../people/passkeys.js'
import { totpState } from '../people/totp.js'
import { clientOf, jsonBody } from './http.js'
import { passkeyRoutes } from './signing-passkeys.js'
import type { AppEnv, HostContext } from '../context.js'

export const GRANT_HEADER = 'x-recipient-auth'

/** The request's side of a recipient's proof: where it comes from and the grant the page holds. */
export const proofRequest = (c: Context): ProofRequest => ({ client: clientOf(c), grant: c.req.header(GRANT_HEADER), c })

const AccessBody = AccessProof
const CodeBody = z.object({ purpose: z.enum(['access', 'action', 'account']) })
const DirectCodeBody = z.object({ purpose: z.enum(['access', 'action', 'account']), email: z.email().max(320) })
const AccountBody = z.object({ name: z.string().trim().max(255).optional(), password: Secret, code: Code })
const DirectAccountBody = AccountBody.extend({ email: z.email().max(320) })
const VisitorBody = z.object({ email: z.email().max(320) })
const DirectSignInBody = VisitorBody.extend({ method: z.literal('ACCOUNT'), password: Secret, code: Code.optional() })
/** The document's language, and whether the sender chose it: the steps are shown in it only if so. */
const documentLanguage = (e: RecipientContext['e']) => ({ language: (e.document_meta as { language?: string } | null)?.language ?? 'en', languageChosen: e.language_chosen })
/** When a sent code stops working, and when a new one may be asked for (the page counts down to it). */
const codeTimes = (code: { expiresAt: Date; resendAt: Date }) => ({ expiresAt: code.expiresAt.toISOString(), resendAt: code.resendAt.toISOString() })

/** A direct link's visitor at the address they gave: as the link's recipient, and as the subject of their proofs. */
function visitorAt(link: DirectContext, email: string) {
  const to = email.trim().toLowerCase()
  return { to, rc: { ...link, r: { ...link.r, email: to } }, subject: visitorSubject(link.link, to) }
}

/** A direct link's steps: what its recipient asks for, and codes to the address the visitor gives. */
export function directAuthRoutes(ctx: HostContext, link: (c: Context) => Promise<DirectContext>) {
  const r = new Hono<AppEnv>()
  /** An account grant for the visitor at `subject`'s address (bound to it and to this link). */
  const accountGrant = (subject: ProofSubject) => issueGrant(ctx.linkKey, subject, ['ACCOUNT'], ctx.clock.now())
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
    const { to, subject } = visitorAt(rc, email)
    const code = await sendCode(ctx.db, subject, purpose, ctx.clock.now(), { budget: `direct-code:${rc.r.id}:${to}`, ip: clientOf(c).ipAddress ?? '', visitor: true })
    return c.json({ sentTo: maskEmail(to), ...codeTimes(code) })
  })
  // A visitor without an account for the address they gave makes one with the code e-mailed to
  // it, then proves the link's methods with its password like any account holder (or, signed in
  // by the grant answered, adds a passkey).
  r.post('/account', async (c) => {
    const rc = await link(c)
    const { email, ...body } = await jsonBody(c, DirectAccountBody)
    const { to, rc: visitor, subject } = visitorAt(rc, email)
    // The link's recipient name is the sender's placeholder, not the visitor's: without a name given, the address's own.
    await makeAccount(ctx, proofRequest(c), { ...visitor, r: { ...visitor.r, name: to.slice(0, to.indexOf('@')) } }, body, subject)
    return c.json({ email: to, ...accountGrant(subject) })
  })
  // A visitor asked for a passkey (or an account) signs in to the account of their address, to
  // add a passkey of this device: the grant counts for that address and this link only. The
  // link's access check is still proved at complete.
  r.post('/access', async (c) => {
    const rc = await link(c)
    const { email, ...proof } = await jsonBody(c, DirectSignInBody)
    const v = visitorAt(rc, email)
    const { action } = requiredAuth(v.rc.e, v.rc.r)
    if (!action.includes('PASSKEY') && !action.includes('ACCOUNT')) throw new ApiError(400, 'INVALID_REQUEST', 'no account sign-in is asked of this recipient')
    await proveAccess(ctx, proofRequest(c), v.rc, proof)
    return c.json(accountGrant(v.subject))
  })
  r.route(
    '/',
    passkeyRoutes(ctx, async (c) => {
      const v = visitorAt(await link(c), (await jsonBody(c, VisitorBody)).email)
      const signedIn = grantMethods(ctx.linkKey, v.subject, c.req.header(GRANT_HEADER), ctx.clock.now()).includes('ACCOUNT')
      return { rc: v.rc, subject: v.subject, signedIn, budget: `direct-passkey:${v.rc.r.id}:${v.to}` }
    }),
  )
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

  r.route(
    '/',
    passkeyRoutes(ctx, async (c) => {
      const rc = await recipient(c)
      return { rc, subject: recipientSubject(rc.r), signedIn: held(c, rc).includes('ACCOUNT'), budget: `recipient-passkey:${rc.r.id}` }
    }),
  )

  return r
}

