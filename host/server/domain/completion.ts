import { iso, type Queryable } from '../db/index.js'
import { sealEnvelope, type SealInput, type SealRecipient } from '../pdf/seal.js'
import type { SealingKey } from '../pdf/sealing-key.js'
import { newId } from './ids.js'
import { toField, type EnvelopeRow, type FieldRow, type RecipientRow } from './resources.js'

const ACTIONS: Record<string, SealRecipient['action']> = {
  SIGNER: 'SIGNED',
  APPROVER: 'APPROVED',
  VIEWER: 'VIEWED',
  ASSISTANT: 'ASSISTED',
  CC: 'CC',
}

/** What the sealed PDFs and the certificate are made of: the originals, the values, who did what from where. */
export async function sealInput(tx: Queryable, e: EnvelopeRow): Promise<SealInput> {
  const items = await tx.query<{ id: string; title: string; bytes: Uint8Array }>(
    `select i.id, i.title, d.bytes from envelope_items i join document_data d on d.id = i.document_data_id
     where i.envelope_id = $1 order by i.item_order, i.created_at, i.id`,
    [e.id],
  )
  const fields = await tx.query<FieldRow>('select * from fields where envelope_id = $1 order by id', [e.id])
  const recipients = await tx.query<RecipientRow>('select * from recipients where envelope_id = $1 order by id', [e.id])
  const completions = await tx.query<{ recipient_id: number; ip_address: string | null; user_agent: string | null }>(
    `select recipient_id, ip_address, user_agent from audit_logs
     where envelope_id = $1 and type = 'DOCUMENT_RECIPIENT_COMPLETED' order by id`,
    [e.id],
  )
  const from = new Map(completions.map((c) => [c.recipient_id, c]))
  return {
    envelope: { id: e.id, title: e.title, completedAt: iso(e.completed_at) ?? new Date().toISOString() },
    items: items.map((i) => ({ id: i.id, title: i.title, pdf: new Uint8Array(i.bytes) })),
    fields: fields.map((f) => ({ ...toField(f), customText: f.custom_text })),
    recipients: recipients.map((r) => ({
      name: r.name,
      email: r.email,
      role: r.role as SealRecipient['role'],
      action: ACTIONS[r.role] ?? 'SIGNED',
      completedAt: iso(r.signed_at),
      ipAddress: from.get(r.id)?.ip_address ?? null,
      userAgent: from.get(r.id)?.user_agent ?? null,
    })),
  }
}

/** Seals every item of a completed envelope and stores the results beside the originals. */
export async function sealCompleted(tx: Queryable, e: EnvelopeRow, key: SealingKey): Promise<void> {
  const [row] = await tx.query<{ completed_at: Date }>('select completed_at from envelopes where id = $1', [e.id])
  e.completed_at = row!.completed_at
  const sealed = await sealEnvelope(await sealInput(tx, e), key)
  for (const { itemId, pdf } of sealed) {
    const dataId = newId.documentData()
    // page_count stays the original's: fields address those pages; the certificate follows them.
    await tx.query(
      `insert into document_data (id, bytes, size, page_count)
       select $1, $2, $3, page_count from envelope_items where id = $4`,
      [dataId, pdf, pdf.byteLength, itemId],
    )
    await tx.query('update envelope_items set signed_document_data_id = $2 where id = $1', [itemId, dataId])
  }
}
