/**
 * What a recipient proves on the signing pages, and the checks of it: the access check before
 * anything of the document is shown, the action proof before a signature or approval counts, a
 * direct link visitor's proofs, and the account made with an e-mailed code. recipient/auth.ts
 * holds the methods; proof-binding.ts issues, binds and checks every grant, code, consent and
 * passkey challenge, so a proof of one address or link never counts for another. Every secret is
 * checked under the throttle of the recipient's address and the caller's network address
 * (people/throttle.ts): a locked recipient is told when to try again (429 with Retry-After), and
 * the sender sees the lock in the audit log.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import type { HostContext } from '../../context.js'
import type { Queryable } from '../../db/index.js'
import { ApiError } from '../../errors.js'
import { finishAuthentication } from '../../people/passkeys.js'
import { normaliseEmail } from '../../people/emails.js'
import { passwordProblem, verifyPassword } from '../../people/passwords.js'
import { throttled, THROTTLE_WINDOW_MS, type Factor } from '../../people/throttle.js'
import { totpState, useTotpCode } from '../../people/totp.js'
import { createUser, markEmailVerified, setPassword, userByEmail } from '../../people/users.js'
import { aboutRecipient, audit, recipientActor, type Client } from '../evidence/audit.js'
import type { DirectContext } from '../template/direct-links.js'
import type { RecipientContext } from './lifecycle.js'
import { grantMethods, passkeyBinding, recipientSubject, useCode, visitorSubject, type CodePurpose, type ProofSubject } from './proof-binding.js'
import { requiredAuth, type AccessMethod, type Required } from '../recipient/auth.js'

/** The request a proof comes with: its client (throttle, audit log), the page's grant, and the request (a passkey's relying party). */
export interface ProofRequest {
  client: Client
  grant: string | undefined
  c: Context
}

/** A password, an e-mailed or authenticator code, a passkey assertion: the pieces of a proof. */
export const Secret = z.string().min(1).max(256)
export const Code = z.string().trim().min(4).max(12)
export const Passkey = z.object({ challengeId: z.string().min(1).max(200), response: z.record(z.string(), z.unknown()) })

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

export const authRequired = (what: string, methods: readonly string[]) =>
  new ApiError(401, 'AUTH_REQUIRED', `${what} needs one of: ${methods.join(', ')}`)
const authFailed = () => new ApiError(401, 'AUTH_FAILED', 'that did not check out: try again')

/** The access check of the signing routes: the methods the grant proves, or 401 AUTH_REQUIRED. */
export function assertAccess(ctx: HostContext, req: ProofRequest, { e, r }: RecipientContext): AccessMethod[] {
  const { access } = requiredAuth(e, r)
  if (!access.length) return []
  const passed = grantMethods(ctx.linkKey, recipientSubject(r), req.grant, ctx.clock.now()).filter((m) => access.includes(m))
  if (!passed.length) throw authRequired('this document', access)
  return passed.slice(0, 1)
}

/** The recipient's account, when one with a verified address is theirs. */
export async function accountOf(db: Queryable, email: string) {
  const user = await userByEmail(db, email)
  return user && user.emailVerified ? user : null
}

/** What a check is for (`access`, `action`, or the `account` made with a code) and its method, as the audit log names them. */
interface Check {
  stage: 'access' | 'action' | 'account'
  method: string
}

/**
 * Runs `attempt` under the throttle of the recipient's address for `factor` and the caller's
 * network address (counted before the secret is checked): refused while locked (429,
 * Retry-After), the lock written to the audit log when it begins, a failure answered 401 and
 * written to a document's audit log (RECIPIENT_AUTH_FAILED, with what the check was for; a
 * direct link's visitor is no document's recipient yet).
 */
async function guarded(ctx: HostContext, req: ProofRequest, rc: RecipientContext, factor: Factor, check: Check, attempt: () => Promise<boolean>): Promise<void> {
  const now = ctx.clock.now()
  const ok = await throttled(ctx.db, { email: rc.r.email, ip: req.client.ipAddress ?? '', factor }, now, attempt, async () => {
    await audit(ctx.db, rc.e, 'RECIPIENT_AUTH_LOCKED', recipientActor(rc.r, req.client), {
      ...aboutRecipient(rc.r),
      until: new Date(now.getTime() + THROTTLE_WINDOW_MS).toISOString(),
    })
    throw new ApiError(429, 'TOO_MANY_ATTEMPTS', `too many failed attempts: try again in ${THROTTLE_WINDOW_MS / 60_000} minutes`, undefined, {
      'Retry-After': String(THROTTLE_WINDOW_MS / 1000),
    })
  })
  if (!ok) {
    if (rc.e.type === 'DOCUMENT') await audit(ctx.db, rc.e, 'RECIPIENT_AUTH_FAILED', recipientActor(rc.r, req.client), { ...aboutRecipient(rc.r), ...check })
    throw authFailed()
  }
}

/** A code of the account's authenticator app, or else the code e-mailed to `s` as it is now. */
async function codeMatches(ctx: HostContext, s: ProofSubject, purpose: CodePurpose, code: string): Promise<boolean> {
  const user = await accountOf(ctx.db, s.email)
  if (user) {
    const totp = await totpState(ctx.db, user.id)
    if (totp.enabled && totp.secret && /^\d{6}$/.test(code) && (await useTotpCode(ctx.db, user.id, totp.secret, code, ctx.clock.now()))) return true
  }
  return ctx.db.transaction((tx) => useCode(tx, ctx.linkKey, s, purpose, code, ctx.clock.now()))
}

/** An account sign-in, the access check's (or a direct link's) proof. */
const ACCOUNT_ACCESS: Check = { stage: 'access', method: 'ACCOUNT' }

/**
 * The account's password, then its authenticator code when it has one: each counted under its
 * own factor, so a right password never clears the count of wrong codes.
 */
async function proveAccount(ctx: HostContext, req: ProofRequest, rc: RecipientContext, password: string, code: string | undefined): Promise<void> {
  let user: Awaited<ReturnType<typeof userByEmail>> = null
  await guarded(ctx, req, rc, 'password', ACCOUNT_ACCESS, async () => {
    user = await userByEmail(ctx.db, rc.r.email)
    return (await verifyPassword(password, user?.emailVerified ? user.passwordHash : null)) && !!user?.emailVerified
  })
  const { id } = user!
  const totp = await totpState(ctx.db, id)
  if (!totp.enabled) return
  if (!code) throw new ApiError(401, 'TOTP_REQUIRED', 'this account also needs a code from its authenticator app')
  await guarded(ctx, req, rc, 'second-factor', ACCOUNT_ACCESS, () => useTotpCode(ctx.db, id, totp.secret!, code, ctx.clock.now()))
}

/**
 * The action proof of complete: the methods it proves (for the audit log), [] when
 * none is required; 401 AUTH_REQUIRED or AUTH_FAILED otherwise. `s`: whom the proof is about (a
 * direct link's visitor at the address they gave), so both doors check it alike.
 */
export async function proveAction(ctx: HostContext, req: ProofRequest, rc: RecipientContext, proof: ActionProof | undefined, s: ProofSubject = recipientSubject(rc.r)): Promise<Required['action']> {
  const { action } = requiredAuth(rc.e, rc.r)
  if (!action.length) return []
  if (!proof || !(action as string[]).includes(proof.method)) throw authRequired('this action', action)
  switch (proof.method) {
    case 'ACCOUNT':
      if (!grantMethods(ctx.linkKey, s, req.grant, ctx.clock.now()).includes('ACCOUNT')) throw authRequired('this action', ['ACCOUNT (sign in first)'])
      break
    case 'PASSWORD':
      await guarded(ctx, req, rc, 'password', { stage: 'action', method: 'PASSWORD' }, async () => verifyPassword(proof.password, (await accountOf(ctx.db, s.email))?.passwordHash ?? null))
      break
    case 'TWO_FACTOR_AUTH':
      await guarded(ctx, req, rc, 'second-factor', { stage: 'action', method: 'TWO_FACTOR_AUTH' }, () => codeMatches(ctx, s, 'action', proof.code))
      break
    case 'PASSKEY': {
      // Only a passkey of the address's own account, over a challenge asked for this same subject.
      const user = await accountOf(ctx.db, s.email)
      await guarded(ctx, req, rc, 'passkey', { stage: 'action', method: 'PASSKEY' }, async () => {
        if (!user) return false
        const response = proof.passkey.response as unknown as Parameters<typeof finishAuthentication>[3]['response']
        return ctx.db
          .transaction((tx) => finishAuthentication(tx, ctx, req.c, { challengeId: proof.passkey.challengeId, response }, user.id, passkeyBinding(s)))
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
 * for access and action; an account sign-in for ACCOUNT or PASSWORD); else the action is proved
 * as a recipient's is (proveAction), about the visitor at that address: a passkey of that
 * address's account, an account grant issued to the visitor there.
 */
export async function proveDirect(
  ctx: HostContext,
  req: ProofRequest,
  link: DirectContext,
  email: string,
  proofs: { access?: AccessProof | undefined; auth?: ActionProof | undefined },
): Promise<{ accessAuth: string[]; actionAuth: string[] }> {
  const { access, action } = requiredAuth(link.e, link.r)
  const visitor: RecipientContext = { ...link, r: { ...link.r, email: email.trim().toLowerCase() } }
  const subject = visitorSubject(link.link, visitor.r.email)
  let accessAuth: string[] = []
  if (access.length) {
    const proof = proofs.access
    if (!proof || !(access as string[]).includes(proof.method)) throw authRequired('this document', access)
    if (proof.method === 'ACCOUNT') await proveAccount(ctx, req, visitor, proof.password, proof.code)
    else await guarded(ctx, req, visitor, 'second-factor', { stage: 'access', method: 'TWO_FACTOR_AUTH' }, () => codeMatches(ctx, subject, 'access', proof.code))
    accessAuth = [proof.method]
  }
  if (!action.length) return { accessAuth, actionAuth: [] }
  // What the access proof of this same request already shows.
  const covered = action.find((m) => (accessAuth[0] === 'TWO_FACTOR_AUTH' && m === 'TWO_FACTOR_AUTH') || (accessAuth[0] === 'ACCOUNT' && (m === 'ACCOUNT' || m === 'PASSWORD')))
  if (covered) return { accessAuth, actionAuth: [covered] }
  return { accessAuth, actionAuth: await proveAction(ctx, req, visitor, proofs.auth, subject) }
}

/**
 * Makes the account of `rc.r.email` (or sets the first password of one it cannot use) with the
 * code of purpose "account" e-mailed to `subject` (the recipient as it is now, or a direct link
 * visitor at the address they gave): a code mailed before the address or link changed is void.
 */
export async function makeAccount(
  ctx: HostContext,
  req: ProofRequest,
  rc: RecipientContext,
  { name, password, code }: { name?: string | undefined; password: string; code: string },
  subject: ProofSubject = recipientSubject(rc.r),
): Promise<void> {
  assertAccountAsked(requiredAuth(rc.e, rc.r))
  const problem = passwordProblem(password)
  if (problem) throw new ApiError(400, 'INVALID_REQUEST', problem)
  if (normaliseEmail(subject.email) !== normaliseEmail(rc.r.email)) throw new ApiError(400, 'INVALID_REQUEST', 'the code proves another address')
  await guarded(ctx, req, rc, 'second-factor', { stage: 'account', method: 'TWO_FACTOR_AUTH' }, () => ctx.db.transaction((tx) => useCode(tx, ctx.linkKey, subject, 'account', code, ctx.clock.now())))
  await ctx.db.transaction(async (tx) => {
    const existing = await userByEmail(tx, rc.r.email)
    if (!existing) return void (await createUser(tx, { email: rc.r.email, name: name || rc.r.name, password, verified: true }))
    if (existing.emailVerified && existing.passwordHash) throw new ApiError(409, 'EMAIL_TAKEN', 'an account with this e-mail address exists')
    await markEmailVerified(tx, existing.id)
    await setPassword(tx, existing.id, password)
  })
}

/** 400 unless the recipient is asked for something only an account gives. */
export function assertAccountAsked({ access, action }: Required): void {
  if (![...access, ...action].some((m) => m === 'ACCOUNT' || m === 'PASSWORD' || m === 'PASSKEY')) {
    throw new ApiError(400, 'INVALID_REQUEST', 'no account is asked of this recipient')
  }
}

/** The access check's proof on the recipient's own page: a code, or the account's password (and its second factor). */
export async function proveAccess(ctx: HostContext, req: ProofRequest, rc: RecipientContext, proof: AccessProof): Promise<void> {
  if (proof.method === 'ACCOUNT') await proveAccount(ctx, req, rc, proof.password, proof.code)
  else await guarded(ctx, req, rc, 'second-factor', { stage: 'access', method: 'TWO_FACTOR_AUTH' }, () => codeMatches(ctx, recipientSubject(rc.r), 'access', proof.code))
}
