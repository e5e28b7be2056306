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
 * Passing an access check gives the page a grant: a short-lived token bound to the recipient's
 * link, kept in the page's memory and sent as the `X-Recipient-Auth` header. No cookie is
 * involved, so the flows work in a customer's frame where the browser blocks third-party cookies.
 */
import { createHmac, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto'
import { z } from 'zod'
import type { Db, Queryable } from '../db/index.js'
import { ApiError } from '../errors.js'
import { enqueue } from '../jobs/enqueue.js'
import type { EnvelopeRow, RecipientRow } from './resources.js'

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

// ---- Grants: proof of an access check (or an account sign-in), bound to the recipient's link.

/** How long a grant lasts: a sitting, not a day. */
export const GRANT_MS = 2 * 3600_000

const mac = (key: KeyObject, text: string) => createHmac('sha256', key).update(text).digest('base64url')

/** A grant for `r` proving `methods` (the access check passed, an account signed in), valid until now + GRANT_MS. */
export function issueGrant(key: KeyObject, r: Pick<RecipientRow, 'id' | 'token'>, methods: AccessMethod[], now: Date): { grant: string; expiresAt: string } {
  const expires = Math.floor((now.getTime() + GRANT_MS) / 1000)
  const body = `${r.id}.${[...new Set(methods)].sort().join('+')}.${expires}`
  return { grant: `${body}.${mac(key, `recipient-grant|${r.token}|${body}`)}`, expiresAt: new Date(expires * 1000).toISOString() }
}

/** The methods a grant presented for `r` proves; [] when absent, forged, another recipient's or expired. */
export function grantMethods(key: KeyObject, r: Pick<RecipientRow, 'id' | 'token'>, grant: string | undefined, now: Date): AccessMethod[] {
  if (!grant || grant.length > 200) return []
  const parts = grant.split('.')
  if (parts.length !== 4) return []
  const [id, methods, expires, tag] = parts as [string, string, string, string]
  const expected = Buffer.from(mac(key, `recipient-grant|${r.token}|${id}.${methods}.${expires}`))
  const given = Buffer.from(tag)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return []
  if (id !== String(r.id) || Number(expires) * 1000 <= now.getTime()) return []
  return methods.split('+').filter((m): m is AccessMethod => (ACCESS_METHODS as readonly string[]).includes(m))
}

// ---- One-time codes sent by e-mail.

export const CODE_MS = 10 * 60_000
/** Wrong codes per code; then a new one must be asked for. */
export const CODE_ATTEMPTS = 5
/** Codes one recipient may be sent in the throttle window (people/throttle.ts). */
export const CODES_PER_RECIPIENT = 5

/** access and action: the checks' codes; account: proves the address before an account is made for it. */
export type CodePurpose = 'access' | 'action' | 'account'

/** The six digits of code row `id`: derived with the host's key, never stored. */
export function codeValue(key: KeyObject, id: string): string {
  const n = createHmac('sha256', key).update(`recipient-code|${id}`).digest().readUInt32BE(0) % 1_000_000
  return String(n).padStart(6, '0')
}

/**
 * A new code for `r` (any older one of the purpose stops working); its row id, for the mail job.
 * `to`: a direct link visitor's address (the link's recipient has none of its own), else the recipient's.
 */
export async function newCode(tx: Queryable, r: Pick<RecipientRow, 'id'>, purpose: CodePurpose, now: Date, to: string | null = null): Promise<{ id: string; expiresAt: Date }> {
  await tx.query('update recipient_auth_codes set used_at = $3 where recipient_id = $1 and purpose = $2 and used_at is null and email is not distinct from $4', [r.id, purpose, now, to])
  const id = randomBytes(16).toString('base64url')
  const expiresAt = new Date(now.getTime() + CODE_MS)
  await tx.query('insert into recipient_auth_codes (id, recipient_id, purpose, expires_at, created_at, email) values ($1, $2, $3, $4, $5, $6)', [id, r.id, purpose, expiresAt, now, to])
  return { id, expiresAt }
}

/** The job that e-mails a new code (payload: `{ codeId }`). */
export const RECIPIENT_CODE_JOB = 'recipient-code'

/** A new code (as newCode), its e-mail queued in the same transaction. */
export function sendCode(db: Db, r: Pick<RecipientRow, 'id'>, purpose: CodePurpose, now: Date, to: string | null = null): Promise<{ id: string; expiresAt: Date }> {
  return db.transaction(async (tx) => {
    const made = await newCode(tx, r, purpose, now, to)
    await enqueue(tx, { kind: RECIPIENT_CODE_JOB, payload: { codeId: made.id } })
    return made
  })
}

/**
 * Uses the recipient's current code of `purpose` when `code` is it: true once; false for a wrong
 * code (counted: after CODE_ATTEMPTS the code is spent). 400 CODE_EXPIRED when there is no live code.
 */
export async function useCode(tx: Queryable, key: KeyObject, r: Pick<RecipientRow, 'id'>, purpose: CodePurpose, code: string, now: Date, to: string | null = null): Promise<boolean> {
  const [row] = await tx.query<{ id: string; attempts: number }>(
    `select id, attempts from recipient_auth_codes where recipient_id = $1 and purpose = $2 and used_at is null and expires_at > $3
       and email is not distinct from $4
     order by created_at desc limit 1 for update`,
    [r.id, purpose, now, to],
  )
  if (!row) throw new ApiError(400, 'CODE_EXPIRED', 'there is no valid code: ask for a new one')
  const expected = Buffer.from(codeValue(key, row.id))
  const given = Buffer.from(code.replace(/\s/g, ''))
  const ok = given.length === expected.length && timingSafeEqual(given, expected)
  if (ok) await tx.query('update recipient_auth_codes set used_at = $2 where id = $1', [row.id, now])
  else await tx.query('update recipient_auth_codes set attempts = attempts + 1, used_at = case when attempts + 1 >= $2 then $3::timestamptz else null end where id = $1', [row.id, CODE_ATTEMPTS, now])
  return ok
}

/** Masks an address for the page ("j***@example.com"): the recipient recognises it, an onlooker learns little. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@')
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(1, Math.min(5, local.length - 1)))}@${domain}`
}
