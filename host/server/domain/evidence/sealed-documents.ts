import { iso, type Queryable } from '../../db/index.js'
import { checkAuditChain } from './audit-chain.js'

/** A completed document of this service, as anyone holding its sealed file may learn of it. */
export interface SealedDocument {
  title: string
  completedAt: string | null
  recipients: { name: string; role: string; completedAt: string | null }[]
}

/** Whether the audit log of a sealed file's envelope still holds (a changed entry breaks it). */
export type AuditLogState = { intact: true; head: string | null } | { intact: false }

/** The sealed document with these bytes, and whether its envelope's audit log holds; nulls for an unknown file. */
export async function sealedDocumentAndLog(db: Queryable, sha256: string): Promise<{ document: SealedDocument | null; auditLog: AuditLogState | null }> {
  const found = await sealedEnvelope(db, sha256)
  if (!found) return { document: null, auditLog: null }
  const chain = await checkAuditChain(db, found.envelopeId)
  return { document: found.document, auditLog: chain.ok ? { intact: true, head: chain.head } : { intact: false } }
}

/**
 * The completed, not deleted document whose sealed file has exactly these bytes (by SHA-256), or
 * null; a sealed file that was renewed since (an archive's new timestamp) is still that document's.
 */
async function sealedEnvelope(db: Queryable, sha256: string): Promise<{ envelopeId: string; document: SealedDocument } | null> {
  const [e] = await db.query<{ id: string; title: string; completed_at: Date | null }>(
    `select e.id, e.title, e.completed_at from envelope_items i join envelopes e on e.id = i.envelope_id
     where i.id in (select s.id from document_data d join envelope_items s on s.signed_document_data_id = d.id where d.sha256 = $1
                    union all select r.item_id from archive_renewals r where r.old_sha256 = $1)
       and e.status = 'COMPLETED' and e.deleted_at is null limit 1`,
    [sha256],
  )
  if (!e) return null
  const recipients = await db.query<{ name: string; role: string; signed_at: Date | null }>(
    'select name, role, signed_at from recipients where envelope_id = $1 order by signing_order nulls last, id',
    [e.id],
  )
  const document = { title: e.title, completedAt: iso(e.completed_at), recipients: recipients.map((x) => ({ name: x.name, role: x.role, completedAt: iso(x.signed_at) })) }
  return { envelopeId: e.id, document }
}
