/**
 * The handler of `mail` jobs (notify.ts enqueues them): renders the message now, in the
 * envelope's language, and hands it to the transport. A transport failure throws, so the queue
 * retries with its backoff; a signing request or reminder that is no longer due (the document
 * was completed, cancelled, rejected or deleted, or the recipient acted meanwhile) is dropped.
 * A request, reminder or completed document that the transport took for a recipient is recorded
 * as EMAIL_SENT with the job's end, so the audit trail names exactly the messages that left; a
 * dropped or failed one writes nothing.
 */
import { downloadName, signPath } from '../../../src/protocol/index.js'
import type { Db } from '../db/index.js'
import { auditRow, emailSent, emailTypeOf } from '../domain/evidence/audit.js'
import type { Job, JobHandler } from '../jobs/queue.js'
import { MAIL_TEMPLATES, render as renderMail, type MailData, type MailTemplate, type RenderedMail } from './templates.js'
import type { MailAttachmentRef, MailMessage, MailTransport } from './transport.js'
import { teamLook, type TeamLook } from './team-look.js'
import type { MailJobPayload } from './notify.js'

export interface MailJobDeps {
  db: Db
  transport: MailTransport
  /** The public origin for signing links (PUBLIC_URL or the listening origin), no trailing slash needed. */
  publicUrl: () => string
}

function payloadOf(job: Job): MailJobPayload {
  const p = job.payload as Partial<MailJobPayload>
  if (
    !p ||
    !MAIL_TEMPLATES.includes(p.template as MailTemplate) ||
    typeof p.envelopeId !== 'string' ||
    typeof p.to !== 'string' ||
    !p.to ||
    !p.vars ||
    typeof p.vars.title !== 'string'
  ) {
    throw new Error(`mail job ${job.id}: malformed payload`)
  }
  return p as MailJobPayload
}

/** "contract.pdf" -> "contract (signed).pdf": the same name as every other download of it. */
export const signedFileName = (title: string): string => downloadName(title, 'signed')

interface RecipientState {
  id: number
  name: string
  email: string
  role: string
  team_id: string
  token: string
  signing_status: string
  send_status: string
  envelope_status: string
  deleted_at: Date | string | null
}

/** The sealed PDFs of a completed envelope, as attachments; throws while any item is not sealed. */
async function sealedFiles(db: Db, envelopeId: string): Promise<MailAttachmentRef[]> {
  const items = await db.query<{ title: string; signed_document_data_id: string | null }>(
    'select title, signed_document_data_id from envelope_items where envelope_id = $1 order by item_order, created_at, id',
    [envelopeId],
  )
  return items.map((i) => {
    if (!i.signed_document_data_id) throw new Error(`envelope ${envelopeId}: item "${i.title}" has no sealed PDF yet`)
    return { filename: signedFileName(i.title), documentDataId: i.signed_document_data_id }
  })
}

/** The message a job stands for, or null when it is no longer due. */
export async function prepareMail(db: Db, p: MailJobPayload, origin: string): Promise<MailMessage | null> {
  return (await prepare(db, p, origin))?.mail ?? null
}

/** The message, with the recipient it is for as they are now (null for the team's address, or once the envelope is gone). */
async function prepare(db: Db, p: MailJobPayload, origin: string): Promise<{ mail: MailMessage; recipient: RecipientState | null } | null> {
  const base = origin.replace(/\/+$/, '')
  let recipient: RecipientState | undefined
  if (p.recipientId !== null && p.recipientId !== undefined) {
    ;[recipient] = await db.query<RecipientState>(
      `select r.id, r.name, r.email, r.role, e.team_id, r.token, r.signing_status, r.send_status, e.status as envelope_status, e.deleted_at
       from recipients r join envelopes e on e.id = r.envelope_id where r.id = $1 and r.envelope_id = $2`,
      [p.recipientId, p.envelopeId],
    )
  }
  const link = recipient ? base + signPath('page', recipient.token) : null
  let attachments: MailAttachmentRef[] = []
  switch (p.template) {
    case 'signing-request':
    case 'reminder': {
      const due =
        recipient &&
        recipient.envelope_status === 'PENDING' &&
        !recipient.deleted_at &&
        recipient.send_status === 'SENT' &&
        recipient.signing_status === 'NOT_SIGNED' &&
        // An address corrected since (domain/recipient/corrections.ts): the old one never gets the new link.
        recipient.email === p.to
      if (!due || !link) return null
      break
    }
    case 'completed':
    case 'team-completed':
      attachments = await sealedFiles(db, p.envelopeId)
      break
  }
  // The team's sender, Reply-To, colour and logo (docs/branding.md), as they are when the message leaves.
  const look = await teamLook(db, p.teamId, p.vars.teamName, base)
  return { mail: composeMail(p, look, link, attachments), recipient: recipient ?? null }
}

/**
 * The message of a job, rendered in the job's language and the team's look (`teamLook`). `link` is
 * the recipient's signing link (none for the team's address), `attachments` the sealed PDFs of a
 * completed document. The review before sending (send-preview.ts) renders its previews with it too.
 */
export function composeMail(p: MailJobPayload, look: TeamLook, link: string | null, attachments: MailAttachmentRef[] = []): MailMessage {
  const v = p.vars
  // Every message of the job in the team's look.
  const render = <K extends MailTemplate>(kind: K, data: MailData[K], language?: string | null) => renderMail(kind, data, language, look.brand)
  const files = attachments.map((a) => a.filename)
  let rendered: RenderedMail
  switch (p.template) {
    case 'signing-request':
    case 'reminder':
      rendered = render(p.template, { ...v, role: v.role ?? 'SIGNER', signingUrl: link ?? '', subject: v.subject, message: v.message }, p.language)
      break
    case 'completed':
      rendered = render('completed', { ...v, signingUrl: link, files }, p.language)
      break
    case 'team-completed':
      rendered = render('team-completed', { ...v, files, recipients: v.recipients ?? [] }, p.language)
      break
    case 'rejected':
      rendered = render('rejected', { ...v, rejectedBy: v.rejectedBy ?? '', reason: v.reason ?? '' }, p.language)
      break
    case 'cancelled':
      rendered = render('cancelled', { ...v, reason: v.reason }, p.language)
      break
  }
  return {
    to: p.to,
    toName: v.recipientName,
    ...rendered,
    ...look.sender,
    attachments,
    template: p.template,
    teamId: p.teamId ?? null,
    envelopeId: p.envelopeId,
    recipientId: p.recipientId ?? null,
  }
}

/** The handler for jobs of kind `mail`. */
export function mailJob(deps: MailJobDeps): JobHandler {
  return async (job, end) => {
    const p = payloadOf(job)
    const prepared = await prepare(deps.db, p, deps.publicUrl())
    if (!prepared) return
    const { mail, recipient } = prepared
    await deps.transport.send(mail)
    // Written in the statement that records the job done: the entry exists exactly when the job
    // ended having handed this message over. The recipient is the one it is about and for.
    const emailType = recipient && emailTypeOf(p.template, recipient.role)
    if (recipient && emailType) {
      const who = { name: recipient.name, email: recipient.email, recipientId: recipient.id, tokenId: null, ipAddress: null, userAgent: null }
      const data = emailSent(recipient, { emailType, to: mail.to, resending: p.resending })
      end.insert('audit_logs', auditRow({ id: p.envelopeId, team_id: recipient.team_id }, 'EMAIL_SENT', who, data))
    }
  }
}
