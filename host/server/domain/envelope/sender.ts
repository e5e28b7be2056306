/**
 * Who sent an envelope, as the console's envelope page shows it: the member who created it, or
 * nobody (made through a team API token or a link), and whether that is the caller.
 */
import { memberOf, type Principal } from '../../auth/principal.js'
import type { Queryable } from '../../db/index.js'
import type { EnvelopeSender } from '../../../shared/console-contract.js'
import { findEnvelope } from './lookup.js'

/** The creator of an envelope the principal sees (404 otherwise). */
export async function envelopeSender(db: Queryable, p: Principal, envelopeId: string): Promise<EnvelopeSender> {
  const e = await findEnvelope(db, p, envelopeId)
  if (!e.created_by) return { createdBy: null, mine: false }
  const [user] = await db.query<{ id: string; name: string; email: string }>('select id, name, email from users where id = $1', [e.created_by])
  return {
    createdBy: user ? { userId: user.id, name: user.name, email: user.email } : null,
    mine: memberOf(p)?.userId === e.created_by,
  }
}
