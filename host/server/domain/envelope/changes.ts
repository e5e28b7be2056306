import type { Principal } from '../../auth/principal.js'
import { CHANNELS } from '../../cache.js'
import type { Db, Queryable } from '../../db/index.js'
import { updatedEvent } from '../../events/index.js'
import { emitFor } from './emit.js'
import type { EnvelopeRow } from '../common/rows.js'
import { findEnvelope, findParent } from './lookup.js'
import { assertEditable, type EnvelopeType } from '../common/status.js'
import { notFound } from '../../errors.js'
import { checkStoredLogic } from '../field/logic.js'

/**
 * After any change to an envelope or its parts: bump updatedAt and emit its type's update event,
 * with the envelope as the team sees it (whoever changed it: each delivery withholds the signing
 * links from a webhook whose maker may not hold them, domain/recipient/link-holders.ts).
 */
export async function recordChange(tx: Queryable, _p: Principal, e: EnvelopeRow): Promise<void> {
  await touch(tx, e.id)
  await tx.notify(CHANNELS.envelopes, e.id)
  const event = updatedEvent(e.type)
  if (event) await emitFor(tx, e, event)
}

/** What an edit addresses: an envelope by id, or the envelope owning a child row. */
export type EditTarget = (
  | { envelopeId: string }
  | { table: Parameters<typeof findParent>[2]; id: string | number; what: string }
) & {
  /** Only an envelope of this type qualifies; another is 404 (the deprecated document/template routes). */
  type?: EnvelopeType | undefined
  /** Where each field the work wrote came in the request, for the issues of the logic check (by field id). */
  fieldPaths?: Map<number, (string | number)[]> | undefined
  /** A pending document qualifies too: the work applies its own, narrower rule (recipients' corrections). */
  pending?: boolean | undefined
}

/**
 * One edit of an envelope's parts, in one transaction: lock the envelope the principal may see,
 * check its status allows editing, do the work, then record the change.
 */
export function editEnvelope<T>(
  db: Db,
  p: Principal,
  target: EditTarget,
  work: (tx: Queryable, e: EnvelopeRow) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const e =
      'envelopeId' in target
        ? await findEnvelope(tx, p, target.envelopeId, true)
        : await findParent(tx, p, target.table, target.id, target.what, true)
    if (target.type && e.type !== target.type) throw notFound('envelopeId' in target ? 'envelope' : target.what)
    if (!(target.pending && e.type === 'DOCUMENT' && e.status === 'PENDING')) assertEditable(e)
    const result = await work(tx, e)
    // Whatever the edit changed (a field, a label, a recipient and its fields), the conditions and formulas still hold.
    await checkStoredLogic(tx, e.id, (id) => target.fieldPaths?.get(id))
    await recordChange(tx, p, e)
    return result
  })
}

/** The envelope's updated_at, moved to now. */
export async function touch(tx: Queryable, envelopeId: string): Promise<void> {
  await tx.query('update envelopes set updated_at = now() where id = $1', [envelopeId])
}
