/**
 * Who may hold a recipient's signing link (docs/security.md, "Who holds a signing link"): whoever
 * speaks for the envelope's creator (envelope/ownership.ts): the creator, the team's managers and admins,
 * and the team-wide principals (the operator's tokens, the presign tokens they mint, the team's
 * own jobs and events). Everyone else who sees the envelope gets WITHHELD_LINK in place of each
 * token and signing URL, and may not point a link at another address. Every answer that shows a
 * recipient picks its TokenView here (common/rows.ts requires one), webhooks are told the same way
 * (holdsLinksSql), and corrections ask assertMayRedirectLinks.
 */
import type { Principal } from '../../auth/principal.js'
import { ApiError, issue } from '../../errors.js'
import { ROLES, atLeast } from '../../people/roles.js'
import { speaksForCreator } from '../envelope/ownership.js'
import type { EnvelopeRow, TokenView } from '../common/rows.js'

/**
 * What stands for a token and a signing URL the caller may not hold: the empty string. The
 * deployed clients' models take any string there (`token: z.string()`, `signingUrl: z.string()`),
 * it is falsy, and no signing route answers it (a fixed word could pass for a token and be opened).
 */
export const WITHHELD_LINK = ''

export const mayHoldLinks = (p: Principal, e: Pick<EnvelopeRow, 'created_by'>): boolean => speaksForCreator(p, e)

/** Tokens as they are: for those who hold them, and for what the team itself keeps (events before delivery). */
export const SHOWN: TokenView = (token) => token
export const WITHHELD: TokenView = () => WITHHELD_LINK

/** How `p`'s answers about envelope `e` show its recipients' tokens. */
export const tokenView = (p: Principal, e: Pick<EnvelopeRow, 'created_by'>): TokenView => (mayHoldLinks(p, e) ? SHOWN : WITHHELD)

/**
 * A correction that gives a recipient a new address sends a new live link there: only a link
 * holder may (a MEMBER would otherwise send another's link to their own inbox).
 */
export function assertMayRedirectLinks(p: Principal, e: Pick<EnvelopeRow, 'created_by' | 'type'>, path: (string | number)[]): void {
  if (mayHoldLinks(p, e)) return
  const what = e.type === 'TEMPLATE' ? 'templates' : 'documents'
  const message = `a MEMBER may change a recipient's e-mail address (which sends them a new signing link) only on the ${what} they created: ask a manager or an admin of the team`
  throw new ApiError(403, 'NOT_CREATOR', message, [issue(path, 'Only the sender, managers and admins can send a signing link to another address')])
}

/**
 * SQL: whether webhook `w` may be told the signing links of the envelope whose id is the SQL
 * expression `envelopeId` (mayHoldLinks, for the webhook's maker): an operator's webhook
 * (no ceiling) always; a member's while the weaker of its ceiling and their role now is MANAGER
 * or above, or they created the envelope. Deliveries that may not carry them withheldPayload.
 */
export function holdsLinksSql(envelopeId: string): string {
  const strong = `array[${ROLES.filter((r) => atLeast(r, 'MANAGER')).map((r) => `'${r}'`).join(', ')}]::text[]`
  return `(w.role_ceiling is null or exists (
    select 1 from team_members m where m.team_id = w.team_id and m.user_id = w.created_by
      and ((m.role = any(${strong}) and w.role_ceiling = any(${strong}))
        or exists (select 1 from envelopes env where env.id = ${envelopeId} and env.created_by = m.user_id))))`
}

/**
 * An event's payload (events/index.ts: the envelope with its recipients, under `recipients` and the
 * deployed service's `Recipient`) with every recipient's token withheld.
 */
export function withheldPayload(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload
  const isRecipient = (r: unknown): r is Record<string, unknown> => typeof r === 'object' && r !== null && 'token' in r && 'email' in r
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(payload)) out[k] = Array.isArray(v) ? v.map((r) => (isRecipient(r) ? { ...r, token: WITHHELD_LINK } : r)) : v
  return out
}
