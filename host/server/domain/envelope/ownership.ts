import { memberOf, type Principal } from '../../auth/principal.js'
import { ApiError } from '../../errors.js'
import { atLeast } from '../../people/roles.js'
import type { EnvelopeRow } from '../common/rows.js'

/**
 * The one ownership rule: who speaks for an envelope's creator. A MEMBER only for the envelopes
 * they created; a MANAGER or ADMIN for any their visibility shows. The member is the console
 * member or the one who made the credential (their API token, the presign tokens it mints, the
 * console's editor token), so no credential gives a MEMBER more. The operator's tokens (CLI,
 * `/_admin`), the team's own principal (jobs, events) and the presign tokens they mint have no
 * member and act for the whole team. Two rights follow from it: ending an envelope (assertMayEnd)
 * and holding its recipients' signing links (recipient/link-holders.ts).
 */
export function speaksForCreator(p: Principal, e: Pick<EnvelopeRow, 'created_by'>): boolean {
  const member = memberOf(p)
  return !member || atLeast(member.role, 'MANAGER') || e.created_by === member.userId
}

/**
 * Every way a document ends for the whole team, each through assertMayEnd (test/host/ending-rights-doors.test.ts
 * walks the doors): cancel, delete, reject on a recipient's behalf, and purge at the end of the
 * team's retention (the operator's, after an ADMIN set the retention). What the refusal says.
 */
const ENDING: Record<EndAction, string> = {
  cancel: 'cancel',
  delete: 'delete',
  reject: "end, by rejecting on a recipient's behalf,",
  purge: 'purge',
}
export type EndAction = 'cancel' | 'delete' | 'reject' | 'purge'

/**
 * Ending an envelope ends it for everyone in the team: only who speaks for its creator may.
 * Called after findEnvelope: an envelope the principal cannot see stays 404.
 */
export function assertMayEnd(p: Principal, e: Pick<EnvelopeRow, 'created_by' | 'type'>, action: EndAction): void {
  if (speaksForCreator(p, e)) return
  const what = e.type === 'TEMPLATE' ? 'templates' : 'documents'
  throw new ApiError(403, 'NOT_CREATOR', `a MEMBER may ${ENDING[action]} only the ${what} they created: ask a manager or an admin of the team`)
}
