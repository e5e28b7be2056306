/** What the recipient's authentication steps know and send (host/server/api/signing-auth.ts). */
import { useEffect, useRef } from 'react'
import { ApiError, type Api } from '../page/api.js'
import { post } from '../page/bridge.js'
import { inTime, t } from '../i18n/index.js'

export interface AuthInfo {
  access: { required: ('ACCOUNT' | 'TWO_FACTOR_AUTH')[]; satisfied: boolean }
  action: { required: ('ACCOUNT' | 'PASSKEY' | 'TWO_FACTOR_AUTH' | 'PASSWORD')[] }
  signedIn: boolean
  email: string
  language: string
  languageChosen: boolean
  /** Told only once the page proved the address (a code, or the account's sign-in); null before. */
  account: { exists: boolean; password: boolean; totp: boolean; passkeys: boolean } | null
}

export type ActionProof =
  | { method: 'PASSWORD'; password: string }
  | { method: 'TWO_FACTOR_AUTH'; code: string }
  | { method: 'ACCOUNT' }
  | { method: 'PASSKEY'; passkey: { challengeId: string; response: unknown } }

export const GRANT_HEADER = 'X-Recipient-Auth'
export const loadAuthInfo = (api: Api) => api.get<AuthInfo>('/auth')

/** The embedding page hears of each step once (`onAuthRequired`) and of each refusal (`onAuthFailed`). */
export function useAnnounce(step: 'access' | 'action') {
  const said = useRef(false)
  useEffect(() => {
    if (!said.current) post({ action: 'auth-required', data: step })
    said.current = true
  }, [step])
}
/** A refusal of what the recipient typed (wrong, expired, locked): told where they typed it. */
export const isAuthFailure = (e: unknown): e is ApiError => e instanceof ApiError && (e.status === 401 || e.status === 429 || e.code === 'CODE_EXPIRED')
export const announceFailure = (e: unknown) => {
  // A code asked for again too soon is a wait, not a proof that failed.
  if (isAuthFailure(e) && e.code !== 'CODE_COOLDOWN') post({ action: 'auth-failed', data: e.code })
}

/** Runs `act` with the proofs the recipient gives when signing (at once when none is asked); false when they closed the dialog. */
export type Prove = (act: (proofs: object | undefined) => Promise<void>, email?: string) => Promise<boolean>

/** A refusal in the steps' words. */
export function messageOf(e: unknown): string {
  if (!(e instanceof ApiError)) return t('sign.auth.error', { message: String(e) })
  announceFailure(e)
  if (e.code === 'AUTH_FAILED') return t('sign.auth.failed')
  if (e.code === 'CODE_EXPIRED') return t('sign.auth.expired')
  if (e.status === 429) {
    // Said with the wait the service gave (Retry-After), never its raw English.
    const when = inTime(e.retryAfter ?? 60)
    if (e.code === 'CODE_COOLDOWN') return t('sign.auth.cooldown', { when })
    if (e.code === 'TOO_MANY_REQUESTS') return t('sign.auth.tooManyCodes', { when })
    return t('sign.auth.locked', { when })
  }
  return t('sign.auth.error', { message: e.message })
}

/** What a direct link's visitor must prove, from `/api/signing/direct/auth`. */
export interface DirectAuthInfo {
  access: { required: AuthInfo['access']['required'] }
  action: { required: AuthInfo['action']['required'] }
  language: string
  languageChosen: boolean
}
export type AccessProof = { method: 'TWO_FACTOR_AUTH'; code: string } | { method: 'ACCOUNT'; password: string; code?: string }

/** The action method a direct link still needs after `access` (the service counts one proof for both where they match). */
export function directActionStep(info: DirectAuthInfo): 'PASSWORD' | 'TWO_FACTOR_AUTH' | 'PASSKEY' | 'ACCOUNT' | 'NONE' {
  const access = info.access.required[0]
  const action = info.action.required
  if (!action.length) return 'NONE'
  if ((access === 'TWO_FACTOR_AUTH' && action.includes('TWO_FACTOR_AUTH')) || (access === 'ACCOUNT' && (action.includes('ACCOUNT') || action.includes('PASSWORD')))) return 'NONE'
  // What needs the fewest steps of a visitor first: a code or a password, then a passkey, then a sign-in.
  return (['TWO_FACTOR_AUTH', 'PASSWORD', 'PASSKEY', 'ACCOUNT'] as const).find((m) => action.includes(m))!
}
