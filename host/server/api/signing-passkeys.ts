/**
 * The passkey steps of the signing pages, one set for both doors: a recipient's page, and a
 * direct link's visitor at the address they typed. A challenge to use a passkey of that address's
 * account, and a passkey of this device added to the account by someone signed in to it on this
 * page. The proof is checked when they act (domain/signing/proofs.ts proveAction), under the
 * binding of the same subject, so a passkey never counts for another address or link.
 */
import { Hono, type Context } from 'hono'
import type { AppEnv, HostContext } from '../context.js'
import type { RecipientContext } from '../domain/signing/lifecycle.js'
import { passkeyBinding, type ProofSubject } from '../domain/signing/proof-binding.js'
import { requiredAuth } from '../domain/recipient/auth.js'
import { accountOf, authRequired, Passkey } from '../domain/signing/proofs.js'
import { ApiError } from '../errors.js'
import { authenticationOptions, finishRegistration, registrationOptions } from '../people/passkeys.js'
import { spend } from '../people/throttle.js'
import { jsonBody } from './http.js'

/** Whose passkeys a request is about. */
export interface PasskeyHolder {
  /** The recipient (for a visitor: the link's, at the address they gave). */
  rc: RecipientContext
  subject: ProofSubject
  /** The page holds an account grant for `subject`: signed in to the account here. */
  signedIn: boolean
  /** The count challenges are spent on. */
  budget: string
}

/** Challenges (either kind) one holder may ask for in the throttle window. */
const CHALLENGES = 100

export function passkeyRoutes(ctx: HostContext, holder: (c: Context) => Promise<PasskeyHolder>) {
  const r = new Hono<AppEnv>()
  const spent = (h: PasskeyHolder) => spend(ctx.db, [{ key: h.budget, limit: CHALLENGES }], ctx.clock.now())

  // A WebAuthn challenge for a passkey of the address's account: the same answer whether or not
  // the address has an account or passkeys (no credential is listed; the browser offers its own).
  r.post('/passkey', async (c) => {
    const h = await holder(c)
    await spent(h)
    const user = await accountOf(ctx.db, h.subject.email)
    return c.json(await authenticationOptions(ctx.db, ctx, c, user?.id ?? null, { listCredentials: false, binding: passkeyBinding(h.subject) }))
  })

  // Someone asked for a passkey who has none on this device adds one to the account here, once
  // signed in to it on this page (an account grant: its password and second factor, or the
  // account just made with a code e-mailed to the address).
  const owner = async (c: Context) => {
    const h = await holder(c)
    if (!requiredAuth(h.rc.e, h.rc.r).action.includes('PASSKEY')) throw new ApiError(400, 'INVALID_REQUEST', 'no passkey is asked of this recipient')
    if (!h.signedIn) throw authRequired('adding a passkey', ['ACCOUNT (sign in first)'])
    await spent(h)
    const user = await accountOf(ctx.db, h.subject.email)
    if (!user) throw authRequired('adding a passkey', ['ACCOUNT (sign in first)'])
    return user
  }
  r.post('/passkey/register', async (c) => {
    const user = await owner(c)
    return c.json(await registrationOptions(ctx.db, ctx, c, user))
  })
  r.post('/passkey/register/finish', async (c) => {
    const user = await owner(c)
    const { challengeId, response } = await jsonBody(c, Passkey)
    const made = await finishRegistration(ctx.db, ctx, c, user, { challengeId, response: response as unknown as Parameters<typeof finishRegistration>[4]['response'], name: 'Added when signing' })
    return c.json({ id: made.id, name: made.name })
  })
  return r
}
