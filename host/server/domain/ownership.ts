import { memberOf, type Principal } from '../auth/principal.js'
import { ApiError } from '../errors.js'
import { atLeast } from '../people/roles.js'
import type { EnvelopeRow } from './rows.js'

/**
 * Cancelling or deleting ends an envelope for everyone in the team, so a MEMBER ends only those
 * they created; a MANAGER or ADMIN ends any their visibility shows. The member is the console
 * member or the one who made the credential (their API token, the presign tokens it mints, the
 * console's editor token), so no credential gives a MEMBER more. The operator's tokens (CLI,
 * `/_admin`) have no member and act for the whole team, as before. Called after findEnvelope:
 * an envelope the principal cannot see stays 404.
 */
export function assertMayEnd(p: Principal, e: Pick<EnvelopeRow, 'created_by' | 'type'>, action: 'cancel' | 'delete'): void {
  const member = memberOf(p)
  if (!member || atLeast(member.role, 'MANAGER') || e.created_by === member.userId) return
  const what = e.type === 'TEMPLATE' ? 'templates' : 'documents'
  throw new ApiError(403, 'NOT_CREATOR', `a MEMBER may ${action} only the ${what} they created: ask a manager or an admin of the team`)
}
