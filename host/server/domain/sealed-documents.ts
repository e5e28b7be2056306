import { iso, type Queryable } from '../db/index.js'

/** A completed document of this service, as anyone holding its sealed file may learn of it. */
export interface SealedDocument {
  title: string
  completedAt: string | null
  recipients: { name: string; role: string; completedAt: string | null }[]
}

/** The completed, not deleted document whose sealed file has exactly these bytes (by SHA-256), or null. */
export async function sealedDocument(db: Queryable, sha256: string): Promise<SealedDocument | null> {
  const [e] = await db.query<{ id: string; title: string; completed_at: Date | null }>(
    `select e.id, e.title, e.completed_at from document_data d
     join envelope_items i on i.signed_document_data_id = d.id join envelopes e on e.id = i.envelope_id
     where d.sha256 = $1 and e.status = 'COMPLETED' and e.deleted_at is null limit 1`,
    [sha256],
  )
  if (!e) return null
  const recipients = await db.query<{ name: string; role: string; signed_at: Date | null }>(
    'select name, role, signed_at from recipients where envelope_id = $1 order by signing_order nulls last, id',
    [e.id],
  )
  return { title: e.title, completedAt: iso(e.completed_at), recipients: recipients.map((x) => ({ name: x.name, role: x.role, completedAt: iso(x.signed_at) })) }
}
