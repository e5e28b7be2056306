import type { AuditLogEntryAnswer } from '../../contract/answers.js'
import type { Principal } from '../../auth/principal.js'
import { iso, type Queryable } from '../../db/index.js'
import type { RecipientRow } from '../common/rows.js'

/** Where a request came from, as the audit trail and the signing certificate record it. */
export interface Client {
  ipAddress: string | null
  userAgent: string | null
}

/** Who did something: the team (through an API or presign token) or one recipient. */
export interface Actor extends Client {
  name: string | null
  email: string | null
  recipientId: number | null
  /** The API token that acted for the team; null for recipients. */
  tokenId: string | null
}

/** A token acts for the team as a whole; a console member is named (their session is not a token). */
export const teamActor = (p: Principal, client: Client): Actor => ({
  name: p.kind === 'user' ? p.name || null : null,
  email: p.kind === 'user' ? p.email : null,
  recipientId: null,
  tokenId: p.kind === 'user' ? null : p.tokenId,
  ...client,
})

export const recipientActor = (r: Pick<RecipientRow, 'id' | 'name' | 'email'>, client: Client): Actor => ({
  name: r.name,
  email: r.email,
  recipientId: r.id,
  tokenId: null,
  ...client,
})

/** The audit types this host writes, with the deployed service's names and data shapes. */
export type AuditType =
  | 'DOCUMENT_CREATED'
  | 'DOCUMENT_TITLE_UPDATED'
  | 'DOCUMENT_EXTERNAL_ID_UPDATED'
  | 'DOCUMENT_VISIBILITY_UPDATED'
  | 'DOCUMENT_META_UPDATED'
  | 'DOCUMENT_SENT'
  | 'EMAIL_SENT'
  | 'DOCUMENT_OPENED'
  | 'DOCUMENT_RECIPIENT_COMPLETED'
  | 'DOCUMENT_RECIPIENT_REJECTED'
  | 'RECIPIENT_UPDATED'
  | 'DOCUMENT_COMPLETED'
  | 'DOCUMENT_SEALING_FAILED'
  | 'DOCUMENT_CANCELLED'
  | 'DOCUMENT_DELETED'
  | 'DOCUMENT_RECIPIENT_EXPIRED'
  | 'RECIPIENT_AUTH_CODE_SENT'
  | 'RECIPIENT_AUTH_FAILED'
  | 'RECIPIENT_AUTH_LOCKED'
  | 'RECIPIENT_CONSENT_GIVEN'
  | 'DOCUMENT_ARCHIVE_RENEWED'
  | 'DOCUMENT_PURGED'

/**
 * The types this host adds to the deployed service's list. Its clients read an audit log as a
 * closed union (one unknown type fails the whole page), so API v2 lists these only when asked
 * (`include=all`); the certificate, the audit-log PDF, the evidence and the chain hold them all.
 */
export const HOST_AUDIT_TYPES: readonly AuditType[] = [
  'DOCUMENT_SEALING_FAILED',
  'RECIPIENT_AUTH_CODE_SENT',
  'RECIPIENT_AUTH_FAILED',
  'RECIPIENT_AUTH_LOCKED',
  'RECIPIENT_CONSENT_GIVEN',
  'DOCUMENT_ARCHIVE_RENEWED',
  'DOCUMENT_PURGED',
]

/** Who an entry is about, as the deployed service's audit data names it. */
export const aboutRecipient = (r: Pick<RecipientRow, 'id' | 'name' | 'email' | 'role'>) => ({
  recipientEmail: r.email,
  recipientName: r.name,
  recipientId: r.id,
  recipientRole: r.role,
})

const EMAIL_TYPES: Record<string, string> = {
  SIGNER: 'SIGNING_REQUEST',
  VIEWER: 'VIEW_REQUEST',
  APPROVER: 'APPROVE_REQUEST',
  ASSISTANT: 'ASSISTING_REQUEST',
  CC: 'CC',
}

/**
 * The emailType of a message to a recipient, by mail template (mail/templates.ts): a request for
 * what the recipient's role does, a reminder, or the completed document. Null for the notices the
 * deployed service's audit log has no type for (rejected, cancelled): its clients read emailType
 * as a closed list, so those messages are not entered.
 */
export function emailTypeOf(template: string, role: string): string | null {
  if (template === 'signing-request') return EMAIL_TYPES[role] ?? 'SIGNING_REQUEST'
  if (template === 'reminder') return 'REMINDER'
  if (template === 'completed') return 'DOCUMENT_COMPLETED'
  return null
}

/** EMAIL_SENT data: the message of type `emailType` that went to `to`. Written only by the mail job, once the transport took it (mail/job.ts). */
export const emailSent = (
  r: Pick<RecipientRow, 'id' | 'name' | 'email' | 'role'>,
  o: { emailType: string; to: string; resending?: boolean | undefined },
) => ({
  ...aboutRecipient(r),
  recipientEmail: o.to,
  emailType: o.emailType,
  isResending: o.resending ?? false,
})

/** The audit_logs row of one action (its id and time are the table's defaults). */
export const auditRow = (e: { id: string; team_id: string }, type: AuditType, actor: Actor, data: Record<string, unknown> = {}) => ({
  envelope_id: e.id,
  team_id: e.team_id,
  type,
  name: actor.name,
  email: actor.email,
  recipient_id: actor.recipientId,
  ip_address: actor.ipAddress,
  user_agent: actor.userAgent,
  data: actor.tokenId ? { ...data, tokenId: actor.tokenId } : data,
})

/** Records one action inside the caller's transaction: it exists exactly when the action committed. */
export async function audit(
  tx: Queryable,
  e: { id: string; team_id: string },
  type: AuditType,
  actor: Actor,
  data: Record<string, unknown> = {},
): Promise<void> {
  const row = auditRow(e, type, actor, data)
  await tx.query(
    `insert into audit_logs (envelope_id, team_id, type, name, email, recipient_id, ip_address, user_agent, data)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [row.envelope_id, row.team_id, row.type, row.name, row.email, row.recipient_id, row.ip_address, row.user_agent, JSON.stringify(row.data)],
  )
}

interface AuditRow {
  id: string
  envelope_id: string
  type: string
  created_at: Date
  name: string | null
  email: string | null
  recipient_id: number | null
  ip_address: string | null
  user_agent: string | null
  data: Record<string, unknown>
}

export const toAuditEntry = (r: AuditRow): AuditLogEntryAnswer => ({
  id: String(r.id),
  envelopeId: r.envelope_id,
  type: r.type,
  createdAt: iso(r.created_at)!,
  name: r.name,
  email: r.email,
  userId: null,
  recipientId: r.recipient_id,
  ipAddress: r.ip_address,
  userAgent: r.user_agent,
  data: r.data,
})
export type AuditEntry = AuditLogEntryAnswer

/** One page of an envelope's trail, oldest first unless `desc`; without the types in `except`. */
export async function auditPage(
  db: Queryable,
  envelopeId: string,
  o: { page: number; perPage: number; desc: boolean; except?: readonly string[] },
): Promise<{ data: AuditEntry[]; count: number; currentPage: number; perPage: number; totalPages: number }> {
  const except = [...(o.except ?? [])]
  const [{ count }] = (await db.query<{ count: number }>(
    'select count(*)::int as count from audit_logs where envelope_id = $1 and type <> all($2::text[])',
    [envelopeId, except],
  )) as [{ count: number }]
  const rows = await db.query<AuditRow>(
    `select * from audit_logs where envelope_id = $1 and type <> all($4::text[]) order by id ${o.desc ? 'desc' : 'asc'} limit $2 offset $3`,
    [envelopeId, o.perPage, (o.page - 1) * o.perPage, except],
  )
  return { data: rows.map(toAuditEntry), count, currentPage: o.page, perPage: o.perPage, totalPages: Math.ceil(count / o.perPage) }
}

/** Every entry of an envelope's trail about its recipients' actions, oldest first (the certificate reads it). */
export async function recipientTrail(db: Queryable, envelopeId: string): Promise<AuditEntry[]> {
  const rows = await db.query<AuditRow>('select * from audit_logs where envelope_id = $1 and recipient_id is not null order by id', [envelopeId])
  return rows.map(toAuditEntry)
}
