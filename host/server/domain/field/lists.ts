import type { Queryable } from '../../db/index.js'
import type { FieldRow } from '../common/rows.js'

/** Every field of an envelope, oldest first. */
export function fieldsOfEnvelope(db: Queryable, envelopeId: string): Promise<FieldRow[]> {
  return db.query<FieldRow>('select * from fields where envelope_id = $1 order by id', [envelopeId])
}

/**
 * A recipient's fields: oldest first, or `byPlace` in reading order (page, then top to bottom,
 * then left to right), as the signing page walks them.
 */
export function fieldsOfRecipient(db: Queryable, recipientId: number, byPlace = false): Promise<FieldRow[]> {
  return db.query<FieldRow>(
    `select * from fields where recipient_id = $1 order by ${byPlace ? 'page, position_y, position_x, id' : 'id'}`,
    [recipientId],
  )
}
