/**
 * What the lifecycle calls, inside its transaction, when something happened that people should
 * hear about. Each function only enqueues jobs of kind `mail`, one per message, so a message
 * exists exactly when its cause committed and one bad address never holds up the others. The job
 * (job.ts) renders and sends later, and records the message's EMAIL_SENT audit entry once the
 * transport took it: nothing here claims a message was sent.
 *
 * Who hears what:
 * - a recipient's turn (`mailTurn`): each given recipient who acts (not CC), has not completed and
 *   whose turn it is (sequential order) gets a signing request or a reminder;
 * - completion (`mailCompleted`): every recipient, CC included, with the sealed PDFs; and the team;
 * - rejection (`mailRejected`) and cancellation (`mailCancelled`): the recipients who were sent
 *   the document (see `wasSent`), and the team.
 * `documentMeta.distributionMethod` `NONE` silences every message to recipients (the customer
 * shares the links itself); `documentMeta.emailSettings` switches single kinds off. The team's
 * notices go to `teams.email` when it is set.
 */
import type { Queryable } from '../db/index.js'
import { DEFAULT_DOCUMENT_META, type DocumentMeta } from '../domain/envelope/document-meta.js'
import { mustAct, waitingBefore } from '../domain/signing/turns.js'
import type { RecipientRow } from '../domain/common/rows.js'
import { enqueue } from '../jobs/queue.js'
import type { MailTemplate } from './templates.js'

export const MAIL_JOB = 'mail'

/** The keys of documentMeta.emailSettings this service honours (the deployed service's names). */
export type EmailSetting = 'recipientSigningRequest' | 'documentCompleted' | 'ownerDocumentCompleted' | 'documentDeleted'

/**
 * A `mail` job: who gets which message, with what the message says as of its cause (the envelope
 * may be gone by the time it is sent: a pending document is deleted for good). Links are not in
 * here: the job reads the recipient's token when it sends.
 */
export interface MailJobPayload {
  template: MailTemplate
  envelopeId: string
  teamId: string
  /** The recipient this message is for; null for the team's address. */
  recipientId: number | null
  to: string
  language: string
  vars: MailVars
  /** The team sent the document again (redistribute): the EMAIL_SENT entry says so. */
  resending?: boolean
}

export interface MailVars {
  title: string
  teamName: string
  recipientName: string | null
  /** signing-request, reminder */
  role?: string
  subject?: string | null
  message?: string | null
  /** rejected */
  rejectedBy?: string
  /** rejected, cancelled */
  reason?: string | null
  /** team-completed */
  recipients?: { name: string; email: string; role: string }[]
}

interface EnvelopeInfo {
  id: string
  team_id: string
  title: string
  document_meta: Partial<DocumentMeta> | null
  team_name: string
  team_email: string | null
}

type Recipient = Pick<RecipientRow, 'id' | 'email' | 'name' | 'role' | 'send_status' | 'signing_status' | 'signing_order'>

interface Context {
  e: EnvelopeInfo
  meta: DocumentMeta
  recipients: Recipient[]
  /** Messages to recipients at all (distributionMethod is not NONE). */
  toRecipients: boolean
  teamEmail: string | null
}

async function load(tx: Queryable, envelopeId: string): Promise<Context> {
  const [e] = await tx.query<EnvelopeInfo>(
    `select e.id, e.team_id, e.title, e.document_meta, t.name as team_name, t.email as team_email
     from envelopes e join teams t on t.id = e.team_id where e.id = $1`,
    [envelopeId],
  )
  if (!e) throw new Error(`mail: no envelope ${envelopeId}`)
  const recipients = await tx.query<Recipient>(
    'select id, email, name, role, send_status, signing_status, signing_order from recipients where envelope_id = $1 order by id',
    [envelopeId],
  )
  const meta = { ...DEFAULT_DOCUMENT_META, ...(e.document_meta ?? {}) } as DocumentMeta
  return { e, meta, recipients, toRecipients: meta.distributionMethod !== 'NONE', teamEmail: e.team_email?.trim() || null }
}

/** emailSettings is an object of booleans; a key that is missing (or not a boolean) means on. */
export function emailEnabled(meta: Pick<DocumentMeta, 'emailSettings'>, key: EmailSetting): boolean {
  const settings = meta.emailSettings as unknown
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) return true
  return (settings as Record<string, unknown>)[key] !== false
}

const asTurnRow = (r: Recipient) => r as RecipientRow

/**
 * Whether `r` was sent the document, as a person sees it: someone who acts, marked sent, and
 * whose turn had come (everyone who acts in parallel order; in sequential order those before or
 * at the first who has not completed). CC recipients get nothing before completion; recipients
 * still waiting for their turn in sequential order have not heard of the document yet.
 */
function wasSent(ctx: Context, r: Recipient): boolean {
  if (!mustAct(r) || r.send_status !== 'SENT') return false
  if (r.signing_status === 'SIGNED') return true
  return waitingBefore({ document_meta: ctx.meta }, ctx.recipients.map(asTurnRow), asTurnRow(r)).length === 0
}

const common = (ctx: Context, recipientName: string | null) => ({
  title: ctx.e.title,
  teamName: ctx.e.team_name,
  recipientName,
})

type To = { recipient: Recipient } | { team: string }
type OwnVars = Omit<MailVars, 'title' | 'teamName' | 'recipientName'>

/** The job of one message: to whom, in which language, saying what. */
function payloadOf(ctx: Context, template: MailTemplate, to: To, vars: OwnVars, resending = false): MailJobPayload {
  const recipient = 'recipient' in to ? to.recipient : null
  return {
    template,
    envelopeId: ctx.e.id,
    teamId: ctx.e.team_id,
    recipientId: recipient?.id ?? null,
    to: recipient ? recipient.email : (to as { team: string }).team,
    language: ctx.meta.language,
    vars: { ...common(ctx, recipient ? recipient.name || null : null), ...vars },
    ...(resending && { resending }),
  }
}

async function add(tx: Queryable, ctx: Context, template: MailTemplate, to: To, vars: OwnVars, resending = false): Promise<void> {
  const recipient = 'recipient' in to ? to.recipient : null
  // One recipient's (or the team's) messages about one envelope go out in the order they were caused.
  await enqueue(tx, {
    kind: MAIL_JOB,
    payload: payloadOf(ctx, template, to, vars, resending) as unknown as Record<string, unknown>,
    orderingKey: `mail:${ctx.e.id}:${recipient ? recipient.id : 'team'}`,
  })
}

/** What a signing request or reminder to `r` says beyond the envelope: their role, the team's subject and message. */
const turnVars = (ctx: Context, r: Recipient): OwnVars => ({ role: r.role, subject: ctx.meta.subject, message: ctx.meta.message })

/** Signing requests reach recipients at all: e-mail to them is on, and requests are not switched off. */
const requestsOn = (ctx: Context) => ctx.toRecipients && emailEnabled(ctx.meta, 'recipientSigningRequest')

/**
 * A signing request (or, with `reminder`, a reminder) to each of `recipientIds` who acts, has not
 * completed and whose turn it is. Returns how many were enqueued. Call it after the recipients'
 * sendStatus is SENT (distribute), after a completion hands the turn on (sequential order: pass
 * the recipients who may act now), and for redistribute (resend) and reminders.
 */
export async function mailTurn(
  tx: Queryable,
  envelopeId: string,
  recipientIds: number[],
  opts: { reminder?: boolean; resending?: boolean } = {},
): Promise<number> {
  const ctx = await load(tx, envelopeId)
  if (!requestsOn(ctx)) return 0
  const wanted = new Set(recipientIds)
  const all = ctx.recipients.map(asTurnRow)
  let n = 0
  for (const r of ctx.recipients) {
    if (!wanted.has(r.id) || !mustAct(r) || r.signing_status !== 'NOT_SIGNED') continue
    if (waitingBefore({ document_meta: ctx.meta }, all, asTurnRow(r)).length) continue
    await add(tx, ctx, opts.reminder ? 'reminder' : 'signing-request', { recipient: r }, turnVars(ctx, r), opts.resending)
    n++
  }
  return n
}

/**
 * The signing requests that sending the envelope will mail, as their jobs will carry them, with
 * `change` (the subject and message about to be sent) in place of what is stored: one to each
 * recipient who acts (in sequential order the later ones when their turn comes); null when
 * signing requests reach no one (distributionMethod NONE, or switched off). Enqueues nothing:
 * what the review before sending shows (send-preview.ts).
 */
export async function requestsOnSend(tx: Queryable, envelopeId: string, change: Partial<Pick<DocumentMeta, 'subject' | 'message'>>): Promise<MailJobPayload[] | null> {
  const ctx = await load(tx, envelopeId)
  for (const key of ['subject', 'message'] as const) {
    const value = change[key]
    if (value !== undefined) ctx.meta[key] = value
  }
  if (!requestsOn(ctx)) return null
  return ctx.recipients.filter(mustAct).map((r) => payloadOf(ctx, 'signing-request', { recipient: r }, turnVars(ctx, r)))
}

/**
 * The envelope is complete: every recipient (CC included) gets "is complete" with the sealed
 * PDFs (documentCompleted), the team's address "was completed by everyone" (ownerDocumentCompleted).
 * The PDFs are read when the mail is sent, so this may be called before or after sealing in the
 * completing transaction.
 */
export async function mailCompleted(tx: Queryable, envelopeId: string): Promise<number> {
  const ctx = await load(tx, envelopeId)
  let n = 0
  if (ctx.toRecipients && emailEnabled(ctx.meta, 'documentCompleted')) {
    for (const r of ctx.recipients) {
      await add(tx, ctx, 'completed', { recipient: r }, {})
      n++
    }
  }
  if (ctx.teamEmail && emailEnabled(ctx.meta, 'ownerDocumentCompleted')) {
    await add(tx, ctx, 'team-completed', { team: ctx.teamEmail }, {
      recipients: ctx.recipients.map((r) => ({ name: r.name, email: r.email, role: r.role })),
    })
    n++
  }
  return n
}

/** A recipient rejected: the other recipients who were sent the document, and the team, hear who and why. */
export async function mailRejected(tx: Queryable, envelopeId: string, rejectedRecipientId: number, reason: string): Promise<number> {
  const ctx = await load(tx, envelopeId)
  const rejecter = ctx.recipients.find((r) => r.id === rejectedRecipientId)
  if (!rejecter) throw new Error(`mail: recipient ${rejectedRecipientId} is not on envelope ${envelopeId}`)
  const vars = { rejectedBy: rejecter.name || rejecter.email, reason }
  let n = 0
  if (ctx.toRecipients) {
    for (const r of ctx.recipients) {
      if (r.id === rejecter.id || !wasSent(ctx, r)) continue
      await add(tx, ctx, 'rejected', { recipient: r }, vars)
      n++
    }
  }
  if (ctx.teamEmail) {
    await add(tx, ctx, 'rejected', { team: ctx.teamEmail }, vars)
    n++
  }
  return n
}

/**
 * The team cancelled (or deleted) a pending document: the recipients who were sent it
 * (documentDeleted), and the team. Call it before a hard delete in the same transaction: it reads
 * the envelope.
 */
export async function mailCancelled(tx: Queryable, envelopeId: string, reason?: string | null): Promise<number> {
  const ctx = await load(tx, envelopeId)
  const vars = { reason: reason?.trim() || null }
  let n = 0
  if (ctx.toRecipients && emailEnabled(ctx.meta, 'documentDeleted')) {
    for (const r of ctx.recipients) {
      if (!wasSent(ctx, r)) continue
      await add(tx, ctx, 'cancelled', { recipient: r }, vars)
      n++
    }
  }
  if (ctx.teamEmail) {
    await add(tx, ctx, 'cancelled', { team: ctx.teamEmail }, vars)
    n++
  }
  return n
}
