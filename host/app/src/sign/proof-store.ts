/**
 * What a recipient proved on this device, kept for as long as it counts, so a reload or a second
 * tab does not ask again: the access grant (the service's `X-Recipient-Auth`, valid 2 hours and
 * bound to this recipient, address and link; docs/security.md), and the last code sent (until it
 * expires, so a reload shows the code box and the wait before another, instead of sending one).
 * Kept in localStorage, shared by the tabs of this origin (in a customer's frame, of that site),
 * under a digest of the link's token. The service stays the judge: a grant it no longer takes
 * only means the check is asked again. Nothing is kept where the browser refuses storage.
 */
import type { Api } from '../page/api.js'
import { GRANT_HEADER } from './auth-info.js'

const PREFIX = 'envelope-embed.proof.'
/** Until when a grant counts, in ms: it says so itself (`id.methods.expiresInSeconds.mac`). */
const grantExpiry = (grant: string): number => Number(grant.split('.')[2]) * 1000 || 0

/** A short digest of the link's token (FNV-1a): a name for the entry, not a secret's protection. */
function digest(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(36)
}

function read<T>(key: string): (T & { until: number }) | null {
  try {
    const value = JSON.parse(localStorage.getItem(PREFIX + key) ?? 'null') as (T & { until: number }) | null
    if (value && value.until > Date.now()) return value
    localStorage.removeItem(PREFIX + key)
  } catch {
    /* storage refused or unreadable: nothing kept */
  }
  return null
}

function write(key: string, value: { until: number; [more: string]: unknown }): void {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value))
  } catch {
    /* storage refused or full: the proof lasts this page only */
  }
}

/** The scope of a link's proofs, for the code memory (`proofScope` of an api made by keepingProofs). */
export type ProofScope = string
export const scopeOf = (api: Api): ProofScope | undefined => (api as { proofScope?: ProofScope }).proofScope

/**
 * `api` sending the grant this device holds for `token`, and keeping every grant it is given:
 * the one door by which the signing page, the embed, multi-sign and a direct link's new document
 * set it.
 */
export function keepingProofs(api: Api, token: string): Api & { proofScope: ProofScope } {
  const scope = digest(token)
  const held = read<{ grant: string }>(`grant.${scope}`)
  if (held) api.setHeader(GRANT_HEADER, held.grant)
  return {
    ...api,
    proofScope: scope,
    setHeader: (name, value) => {
      if (name === GRANT_HEADER) write(`grant.${scope}`, { grant: value, until: grantExpiry(value) })
      api.setHeader(name, value)
    },
  }
}

/** A code sent: when it stops working and when another may be asked for (the service's answer). */
export interface SentCode {
  expiresAt: number
  resendAt: number
}

const codeKey = (scope: ProofScope, purpose: string, to = '') => `code.${scope}.${purpose}.${digest(to.toLowerCase())}`

export function rememberCode(scope: ProofScope | undefined, purpose: string, to: string | undefined, sent: SentCode): void {
  if (scope) write(codeKey(scope, purpose, to), { ...sent, until: sent.expiresAt })
}

/** The live code this device was sent for `purpose` (and a direct link visitor's address), if any. */
export function rememberedCode(scope: ProofScope | undefined, purpose: string, to?: string): SentCode | null {
  return scope ? read<SentCode>(codeKey(scope, purpose, to)) : null
}
