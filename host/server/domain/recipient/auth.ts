/**
 * Recipient authentication: who may open a document (access) and what a recipient proves when
 * signing, approving or rejecting (action), as the deployed service's `authOptions`.
 *
 * - access ACCOUNT: signed in with the account whose verified e-mail is the recipient's;
 *   access TWO_FACTOR_AUTH: a one-time code (sent to the recipient's address, or from the
 *   account's authenticator app).
 * - action ACCOUNT, PASSWORD (the account's password again), PASSKEY (an assertion with a passkey
 *   of the recipient's account), TWO_FACTOR_AUTH (a fresh code), checked at the moment of acting;
 *   EXPLICIT_NONE lifts the envelope's requirement for that recipient.
 * - A recipient's own methods override the envelope's; several methods mean "any of these".
 *
 * Passing an access check gives the page a grant: a short-lived token kept in the page's memory
 * and sent as the `X-Recipient-Auth` header. No cookie is involved, so the flows work in a
 * customer's frame where the browser blocks third-party cookies. Grants, codes and every other
 * proof are issued and checked in signing/proof-binding.ts, bound to the recipient they prove.
 */
import { z } from 'zod'
import type { EnvelopeRow, RecipientRow } from '../common/rows.js'

export const ACCESS_METHODS = ['ACCOUNT', 'TWO_FACTOR_AUTH'] as const
export const ACTION_METHODS = ['ACCOUNT', 'PASSKEY', 'TWO_FACTOR_AUTH', 'PASSWORD', 'EXPLICIT_NONE'] as const
export type AccessMethod = (typeof ACCESS_METHODS)[number]
export type ActionMethod = (typeof ACTION_METHODS)[number]

export interface RecipientAuth {
  accessAuth: AccessMethod[]
  actionAuth: ActionMethod[]
}
export interface EnvelopeAuth {
  globalAccessAuth: AccessMethod[]
  globalActionAuth: Exclude<ActionMethod, 'EXPLICIT_NONE'>[]
}

// What the doors take: each list bare or inside `authOptions`, null or [] for none.
const list = <T extends readonly [string, ...string[]]>(values: T) => z.array(z.enum(values)).max(values.length).nullish()
const accessList = list(ACCESS_METHODS)
const actionList = list(ACTION_METHODS)
const globalActionList = list(['ACCOUNT', 'PASSKEY', 'TWO_FACTOR_AUTH', 'PASSWORD'] as const)

/** A recipient's methods in a request body (create, update, template recipients, v1 and deprecated doors). */
export const RecipientAuthInput = {
  accessAuth: accessList,
  actionAuth: actionList,
  authOptions: z.object({ accessAuth: accessList, actionAuth: actionList }).partial().nullish(),
}
/** An envelope's methods in a request body (create, update). */
export const EnvelopeAuthInput = {
  globalAccessAuth: accessList,
  globalActionAuth: globalActionList,
  authOptions: z.object({ globalAccessAuth: accessList, globalActionAuth: globalActionList }).partial().nullish(),
}

type Lists<K extends string> = { [P in K]?: readonly string[] | null | undefined }
/** A recipient's methods as a body or a stored row gives them: bare, inside authOptions, or both. */
export type RecipientAuthGiven = Lists<'accessAuth' | 'actionAuth'> & { authOptions?: Lists<'accessAuth' | 'actionAuth'> | null | undefined }
export type EnvelopeAuthGiven = Lists<'globalAccessAuth' | 'globalActionAuth'> & { authOptions?: Lists<'globalAccessAuth' | 'globalActionAuth'> | null | undefined }

/** Known methods, once each, in the order given. */
const only = <T extends string>(known: readonly T[], given: readonly string[] | null | undefined): T[] =>
  [...new Set(given ?? [])].filter((m): m is T => (known as readonly string[]).includes(m))

/**
 * The lists a request gives: a key left out stays as it is on update (undefined), one given as
 * null or [] means none; `authOptions: null` clears both.
 */
function given<K extends string>(input: Lists<K> & { authOptions?: Lists<K> | null | undefined }, keys: readonly K[]): Partial<Record<K, readonly string[]>> | undefined {
  const out: Partial<Record<K, readonly string[]>> = {}
  for (const key of keys) {
    const value = input[key] !== undefined ? input[key] : input.authOptions === null ? null : input.authOptions?.[key]
    if (value !== undefined) out[key] = value ?? []
  }
  return Object.keys(out).length ? out : undefined
}

/** The recipient's methods a request changes (see given), known methods only. */
export function recipientAuthPatch(input: RecipientAuthGiven): Partial<RecipientAuth> | undefined {
  const g = given(input, ['accessAuth', 'actionAuth'] as const)
  if (!g) return undefined
  return { ...(g.accessAuth && { accessAuth: only(ACCESS_METHODS, g.accessAuth) }), ...(g.actionAuth && { actionAuth: only(ACTION_METHODS, g.actionAuth) }) }
}

/** The recipient's methods a new recipient gets, or undefined when the request gives none. */
export function recipientAuthFrom(input: RecipientAuthGiven): RecipientAuth | undefined {
  const patch = recipientAuthPatch(input)
  return patch && { accessAuth: patch.accessAuth ?? [], actionAuth: patch.actionAuth ?? [] }
}

/** The envelope's methods a request changes (see given). */
export function envelopeAuthPatch(input: EnvelopeAuthGiven): Partial<EnvelopeAuth> | undefined {
  const g = given(input, ['globalAccessAuth', 'globalActionAuth'] as const)
  if (!g) return undefined
  return {
    ...(g.globalAccessAuth && { globalAccessAuth: only(ACCESS_METHODS, g.globalAccessAuth) }),
    ...(g.globalActionAuth && { globalActionAuth: only(['ACCOUNT', 'PASSKEY', 'TWO_FACTOR_AUTH', 'PASSWORD'] as const, g.globalActionAuth) }),
  }
}

/** The envelope's methods a new envelope gets, or undefined. */
export function envelopeAuthFrom(input: EnvelopeAuthGiven): EnvelopeAuth | undefined {
  const patch = envelopeAuthPatch(input)
  return patch && { globalAccessAuth: patch.globalAccessAuth ?? [], globalActionAuth: patch.globalActionAuth ?? [] }
}

export interface Required {
  access: AccessMethod[]
  action: Exclude<ActionMethod, 'EXPLICIT_NONE'>[]
}

/** What `r` must prove: their own methods where they have any, else the envelope's. */
export function requiredAuth(e: Pick<EnvelopeRow, 'auth_options'>, r: Pick<RecipientRow, 'auth_options'>): Required {
  const own = r.auth_options ?? { accessAuth: [], actionAuth: [] }
  const global = e.auth_options ?? { globalAccessAuth: [], globalActionAuth: [] }
  const access = (own.accessAuth?.length ? own.accessAuth : global.globalAccessAuth ?? []) as AccessMethod[]
  const ownAction = (own.actionAuth ?? []) as ActionMethod[]
  const action = ownAction.includes('EXPLICIT_NONE') ? [] : ownAction.length ? ownAction : ((global.globalActionAuth ?? []) as ActionMethod[])
  return { access, action: action.filter((m): m is Required['action'][number] => m !== 'EXPLICIT_NONE') }
}

/** Masks an address for the page ("j***@example.com"): the recipient recognises it, an onlooker learns little. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@')
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(1, Math.min(5, local.length - 1)))}@${domain}`
}
