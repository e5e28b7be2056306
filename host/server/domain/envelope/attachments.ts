/** Link attachments of an envelope: one operation each, whichever door (API v2, the deprecated routes) calls it. */
import type { Principal } from '../../auth/principal.js'
import type { Db, Queryable } from '../../db/index.js'
import { notFound } from '../../errors.js'
import { editEnvelope } from './changes.js'
import { newId } from '../common/ids.js'
import { toAttachment, type AttachmentRow } from '../common/rows.js'
import { findEnvelope } from './lookup.js'
import type { EnvelopeType } from '../common/status.js'

export interface AttachmentData {
  label: string
  data: string
}

/** The envelope's attachments; `token`, when given, must be a recipient token of the envelope. */
export async function listAttachments(db: Queryable, p: Principal, envelopeId: string, token?: string, type?: EnvelopeType) {
  const e = await findEnvelope(db, p, envelopeId)
  if (type && e.type !== type) throw notFound('envelope')
  if (token && !(await db.query('select 1 from recipients where envelope_id = $1 and token = $2', [e.id, token])).length) {
    throw notFound('recipient token')
  }
  const rows = await db.query<AttachmentRow>('select * from attachments where envelope_id = $1 order by created_at, id', [e.id])
  return rows.map(toAttachment)
}

export function createAttachment(db: Db, p: Principal, envelopeId: string, data: AttachmentData, type?: EnvelopeType): Promise<string> {
  return editEnvelope(db, p, { envelopeId, type }, async (tx, e) => {
    const id = newId.attachment()
    await tx.query('insert into attachments (id, envelope_id, label, data) values ($1, $2, $3, $4)', [id, e.id, data.label, data.data])
    return id
  })
}

export async function updateAttachment(db: Db, p: Principal, id: string, data: AttachmentData, type?: EnvelopeType): Promise<void> {
  await editEnvelope(db, p, { table: 'attachments', id, what: 'attachment', type }, async (tx) => {
    await tx.query('update attachments set label = $2, data = $3 where id = $1', [id, data.label, data.data])
  })
}

export async function deleteAttachment(db: Db, p: Principal, id: string, type?: EnvelopeType): Promise<void> {
  await editEnvelope(db, p, { table: 'attachments', id, what: 'attachment', type }, async (tx) => {
    await tx.query('delete from attachments where id = $1', [id])
  })
}
