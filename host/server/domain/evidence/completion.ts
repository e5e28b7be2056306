/**
 * Sealing a completed envelope, as a job: the last recipient's action commits COMPLETED and
 * enqueues it, so no request (and, on the embedded database, no other team) waits for the PDF
 * work. DOCUMENT_COMPLETED (webhooks and the e-mails with the sealed PDFs) goes out when the
 * sealed files exist. A failed attempt is recorded in the envelope's audit log and retried on the
 * queue's schedule.
 */
import { CHANNELS } from '../../cache.js'
import { iso, type Db, type Queryable } from '../../db/index.js'
import { enqueue, type JobHandler } from '../../jobs/enqueue.js'
import { mailCompleted } from '../../mail/notify.js'
import { sealEnvelope, type SealInput, type SealOptions, type SealRecipient } from '../../pdf/seal.js'
import type { SealingKey } from '../../pdf/sealing-key.js'
import { audit, auditPage, type Actor } from './audit.js'
import { auditChainHead } from './audit-chain.js'
import { DEFAULT_DOCUMENT_META } from '../envelope/document-meta.js'
import { fileBytes, sha256Hex, storeFile } from '../item/files.js'
import { assertNotPurged } from '../retention/retention.js'
import { emitFor } from '../envelope/emit.js'
import { HEAVY_LIMITS } from '../../workers/heavy.js'
import { toField, type EnvelopeRow, type FieldRow, type RecipientRow } from '../common/rows.js'
import { visibleAtSeal } from '../field/logic.js'

export const SEAL_JOB = 'seal'

/** The audit-log entries the evidence pages read; an envelope's log holds far fewer (reminders are bounded). */
const MAX_AUDIT_ENTRIES = 10_000

const ACTIONS: Record<string, SealRecipient['action']> = {
  SIGNER: 'SIGNED',
  APPROVER: 'APPROVED',
  VIEWER: 'VIEWED',
  ASSISTANT: 'ASSISTED',
  CC: 'CC',
}

/** The service itself, as the author of what it records on its own. */
const SERVICE: Actor = { name: null, email: null, recipientId: null, tokenId: null, ipAddress: null, userAgent: null }

/**
 * What the sealed PDFs and the certificate are made of: the originals, the values, who did what
 * from where. Each original is checked against the hash stored with it and the one recorded when
 * the envelope was sent: a mismatch stops sealing rather than certify other bytes.
 */
export async function sealInput(tx: Queryable, e: EnvelopeRow): Promise<SealInput> {
  // A purged envelope's files are gone: nothing to seal, no certificate or audit log PDF to make.
  await assertNotPurged(tx, e.id)
  const rows = await tx.query<{ id: string; title: string; bytes: Uint8Array | null; sha256: string; sealed_sha256: string | null }>(
    `select i.id, i.title, d.bytes, d.sha256, s.sha256 as sealed_sha256 from envelope_items i join document_data d on d.id = i.document_data_id
     left join document_data s on s.id = i.signed_document_data_id
     where i.envelope_id = $1 order by i.item_order, i.created_at, i.id`,
    [e.id],
  )
  const items = await Promise.all(rows.map(async (i) => ({ ...i, bytes: await fileBytes(tx, i) })))
  const sent = await sentHashes(tx, e.id)
  for (const i of items) {
    const actual = sha256Hex(i.bytes)
    if (actual !== i.sha256 || (sent && sent.get(i.id) !== actual)) {
      throw new Error(`envelope ${e.id}: item ${i.id} is not the file that was sent (sha256 ${actual})`)
    }
  }
  const fields = await tx.query<FieldRow>('select * from fields where envelope_id = $1 order by id', [e.id])
  const recipients = await tx.query<RecipientRow>('select * from recipients where envelope_id = $1 order by id', [e.id])
  const auditLog = (await auditPage(tx, e.id, { page: 1, perPage: MAX_AUDIT_ENTRIES, desc: false })).data
  const from = new Map(auditLog.filter((a) => a.type === 'DOCUMENT_RECIPIENT_COMPLETED').map((a) => [a.recipientId, { ip_address: a.ipAddress, user_agent: a.userAgent }]))
  // How each recipient was verified, as the audit log recorded it when they opened and acted.
  const methods = (type: string, key: 'accessAuth' | 'actionAuth', recipientId: number): string[] => {
    const entry = auditLog.find((a) => a.type === type && a.recipientId === recipientId && Array.isArray((a.data as Record<string, unknown>)[key]))
    return entry ? ((entry.data as Record<string, string[]>)[key] ?? []) : []
  }
  const meta = { ...DEFAULT_DOCUMENT_META, ...e.document_meta }
  const signatureOf = (recipientId: number) =>
    fields.find((f) => f.recipient_id === recipientId && (f.type === 'SIGNATURE' || f.type === 'FREE_SIGNATURE') && f.custom_text?.startsWith('data:image/'))?.custom_text
  return {
    envelope: { id: e.id, title: e.title, completedAt: iso(e.completed_at) ?? new Date().toISOString() },
    items: items.map((i) => ({ id: i.id, title: i.title, pdf: new Uint8Array(i.bytes), sha256: i.sha256, sealedSha256: i.sealed_sha256 ?? undefined })),
    meta: {
      dateFormat: meta.dateFormat,
      timezone: meta.timezone,
      language: meta.language,
      includeSigningCertificate: meta.includeSigningCertificate,
      includeAuditLog: meta.includeAuditLog,
    },
    auditLog,
    auditChainHead: await auditChainHead(tx, e.id),
    fields: visibleAtSeal(fields).map((f) => ({ ...toField(f), customText: f.custom_text })),
    recipients: recipients.map((r) => ({
      name: r.name,
      email: r.email,
      role: r.role as SealRecipient['role'],
      action: ACTIONS[r.role] ?? 'SIGNED',
      completedAt: iso(r.signed_at),
      ipAddress: from.get(r.id)?.ip_address ?? null,
      userAgent: from.get(r.id)?.user_agent ?? null,
      id: r.id,
      signatureImage: signatureOf(r.id) ?? null,
      direct: e.source === 'TEMPLATE_DIRECT_LINK' && r.role === 'SIGNER',
      accessAuth: methods('DOCUMENT_OPENED', 'accessAuth', r.id),
      actionAuth: methods('DOCUMENT_RECIPIENT_COMPLETED', 'actionAuth', r.id),
    })),
  }
}

/** Each item's SHA-256 as DOCUMENT_SENT recorded it, or null for an envelope never sent (a direct link's). */
export async function sentHashes(db: Queryable, envelopeId: string): Promise<Map<string, string> | null> {
  const [row] = await db.query<{ data: { documents?: { envelopeItemId: string; sha256: string }[] } }>(
    `select data from audit_logs where envelope_id = $1 and type = 'DOCUMENT_SENT' order by id limit 1`,
    [envelopeId],
  )
  const documents = row?.data.documents
  return documents ? new Map(documents.map((d) => [d.envelopeItemId, d.sha256])) : null
}

/** In the transaction that completes `e`: its sealing job (which then announces the completion). */
export async function scheduleSealing(tx: Queryable, e: EnvelopeRow): Promise<void> {
  await enqueue(tx, { kind: SEAL_JOB, payload: { envelopeId: e.id } })
}

const isSealed = async (db: Queryable, envelopeId: string) =>
  !(await db.query('select 1 from envelope_items where envelope_id = $1 and signed_document_data_id is null limit 1', [envelopeId])).length

/**
 * The sealing job: reads the completed envelope (its parts no longer change), seals outside any
 * transaction, then stores the sealed files, emits DOCUMENT_COMPLETED and queues the completion
 * e-mails in one short transaction. Runs once per envelope even when retried or raced.
 */
export function sealJob(db: Db, sealingKey: () => Promise<SealingKey>, maxAttempts: number, options: SealOptions = {}): JobHandler {
  const handler: JobHandler = async (job) => {
    const envelopeId = String(job.payload.envelopeId)
    const [e] = await db.query<EnvelopeRow>('select * from envelopes where id = $1', [envelopeId])
    if (!e || e.status !== 'COMPLETED' || (await isSealed(db, e.id))) return
    try {
      const sealed = await sealEnvelope(await sealInput(db, e), await sealingKey(), options)
      await db.transaction(async (tx) => {
        const [locked] = await tx.query<EnvelopeRow>('select * from envelopes where id = $1 for update', [e.id])
        if (!locked || (await isSealed(tx, e.id))) return
        for (const { itemId, pdf } of sealed) {
          // page_count stays the original's: fields address those pages; the certificate follows them.
          const [item] = await tx.query<{ page_count: number }>('select page_count from envelope_items where id = $1', [itemId])
          const file = await storeFile(tx, locked.team_id, pdf, item!.page_count)
          await tx.query('update envelope_items set signed_document_data_id = $2 where id = $1', [itemId, file.id])
        }
        await tx.notify(CHANNELS.envelopes, e.id)
        if (locked.deleted_at) return
        await emitFor(tx, locked, 'DOCUMENT_COMPLETED')
        await mailCompleted(tx, e.id)
      })
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err)
      await audit(db, e, 'DOCUMENT_SEALING_FAILED', SERVICE, { attempt: job.attempts, final: job.attempts >= maxAttempts, error: error.slice(0, 500) })
      throw err
    }
  }
  // The queue runs many jobs at once, most of them waiting on the network: a process takes as many
  // envelopes to seal (their files read into memory) as it has threads to seal them, and leaves the
  // others in the table, for itself later or for another process.
  handler.limit = HEAVY_LIMITS.threads
  return handler
}
