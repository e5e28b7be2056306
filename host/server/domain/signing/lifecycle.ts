/**
 * The envelope lifecycle after creation (docs/api-notes.md, "Sending and signing"): distribute, resend,
 * cancel, and what recipients do (open, complete, reject). Each is one operation that opens its
 * transaction, whichever door (API, signing pages) calls it; distribute, open and complete are also
 * steps that a template's use and a direct link's signing run in theirs.
 */
import type { SigningCompleteRequest, SigningResult } from '../../../../src/protocol/index.js'
import type { Principal } from '../../auth/principal.js'
import { CHANNELS } from '../../cache.js'
import type { Db, Queryable } from '../../db/index.js'
import { ApiError, badRequest, issue, notFound, UnknownLinkError, type ApiIssue } from '../../errors.js'
import { aboutRecipient, audit, recipientActor, type Actor, type Client } from '../evidence/audit.js'
import { randomId } from '../common/ids.js'
import { DEFAULT_DOCUMENT_META, type DocumentMeta } from '../envelope/document-meta.js'
import { isAutoFilled, isRequired, storedValue } from '../field/values.js'
import { formatSigningDate } from './date.js'
import type { EnvelopeRow, FieldRow, RecipientRow } from '../common/rows.js'
import { findEnvelope } from '../envelope/lookup.js'
import { nextStatus } from '../common/status.js'
import { assertMayEnd } from '../envelope/ownership.js'
import { mustAct, nextAfter, signingState, waitingBefore } from './turns.js'
import { scheduleReminders, setDeadlines } from './deadlines.js'
import { mailCancelled, mailRejected, mailTurn } from '../../mail/notify.js'
import { scheduleSealing } from '../evidence/completion.js'
import { emitFor, teamPrincipal } from '../envelope/emit.js'
import { throwIfIssues } from '../field/fields.js'
import { giveConsent, requireConsent, type ConsentGiven, type ConsentInput } from './consent.js'
import { holdToLogic } from '../field/logic.js'

const recipientsOf = (tx: Queryable, envelopeId: string) =>
  tx.query<RecipientRow>('select * from recipients where envelope_id = $1 order by id for update', [envelopeId])

async function setStatus(tx: Queryable, e: EnvelopeRow, status: EnvelopeRow['status'], completed = false): Promise<void> {
  await tx.query(`update envelopes set status = $2, updated_at = now()${completed ? ', completed_at = now()' : ''} where id = $1`, [e.id, status])
  e.status = status
  await tx.notify(CHANNELS.envelopes, e.id)
}

/** Recipients who may act now and have not: everyone in parallel order, the next ones in sequence. */
const whoseTurn = (e: EnvelopeRow, all: RecipientRow[]) =>
  all.filter((x) => mustAct(x) && x.signing_status === 'NOT_SIGNED' && !waitingBefore(e, all, x).length)

/** Tells recipients it is their turn (a job each; each job records its EMAIL_SENT once the message left). */
async function sendTurn(tx: Queryable, e: EnvelopeRow, recipients: RecipientRow[], opts: { resending?: boolean } = {}): Promise<void> {
  if (recipients.length) await mailTurn(tx, e.id, recipients.map((r) => r.id), opts)
}

/** Recipients whose turn has just begun: told so, and reminded later if they do not act. */
async function turnsBegan(tx: Queryable, e: EnvelopeRow, recipients: RecipientRow[], now: Date): Promise<void> {
  if (!recipients.length) return
  await sendTurn(tx, e, recipients)
  await scheduleReminders(tx, e, recipients, now)
}

// ---- the team's side -------------------------------------------------------------------------

export interface DistributeInput {
  envelopeId: string
  meta?: Partial<DocumentMeta> | undefined
}

/**
 * DRAFT -> PENDING: checks the document can be signed, applies `meta`, marks every recipient
 * sent. Writes nothing when it refuses.
 */
export async function distribute(
  tx: Queryable,
  p: Principal,
  actor: Actor,
  input: DistributeInput,
  now: Date,
): Promise<{ envelope: EnvelopeRow; recipients: RecipientRow[] }> {
  const e = await findEnvelope(tx, p, input.envelopeId, true)
  const to = nextStatus(e.type, e.status, 'distribute')
  const recipients = await recipientsOf(tx, e.id)
  if (!recipients.some(mustAct)) {
    throw new ApiError(400, 'NO_RECIPIENTS', 'the document needs at least one recipient who signs, approves or views it')
  }
  // A role not yet filled in (a template's "Client") has no address to send to: named, so the sender knows whom to add.
  const unaddressed = recipients.flatMap((r, i) => (r.email ? [] : [issue(['recipients', i, 'email'], `${r.name || `Recipient ${r.id}`} has no e-mail address yet`)]))
  if (unaddressed.length) throw new ApiError(400, 'RECIPIENT_WITHOUT_ADDRESS', `every recipient needs an e-mail address before sending: ${unaddressed[0]!.message}`, unaddressed)
  const signatures = await tx.query<{ recipient_id: number }>(
    `select distinct recipient_id from fields where envelope_id = $1 and type in ('SIGNATURE', 'FREE_SIGNATURE')`,
    [e.id],
  )
  const withSignature = new Set(signatures.map((s) => s.recipient_id))
  const missing: ApiIssue[] = recipients.flatMap((r, i) =>
    r.role === 'SIGNER' && !withSignature.has(r.id) ? [issue(['recipients', i], `Signer ${r.email} has no signature field`)] : [],
  )
  if (missing.length) throw new ApiError(400, 'MISSING_SIGNATURE_FIELD', `every signer needs a signature field: ${missing[0]!.message}`, missing)

  e.document_meta = { ...DEFAULT_DOCUMENT_META, ...e.document_meta, ...input.meta }
  await tx.query('update envelopes set document_meta = $2, language_chosen = language_chosen or $3 where id = $1', [e.id, JSON.stringify(e.document_meta), input.meta?.language !== undefined])
  const sent = (await tx.query<RecipientRow>(`update recipients set send_status = 'SENT' where envelope_id = $1 returning *`, [e.id])).sort(
    (a, b) => a.id - b.id,
  )
  await setStatus(tx, e, to)
  await setDeadlines(tx, e, sent, now)
  // The evidence of what was sent: each file's hash. Its bytes can no longer change (migration 8).
  const documents = await tx.query<{ envelopeItemId: string; title: string; documentDataId: string; sha256: string }>(
    `select i.id as "envelopeItemId", i.title, d.id as "documentDataId", d.sha256
     from envelope_items i join document_data d on d.id = i.document_data_id
     where i.envelope_id = $1 order by i.item_order, i.created_at, i.id`,
    [e.id],
  )
  await audit(tx, e, 'DOCUMENT_SENT', actor, { recipients: sent.map((r) => r.id), meta: input.meta ?? {}, documents })
  await emitFor(tx, e, 'DOCUMENT_SENT')
  await turnsBegan(tx, e, whoseTurn(e, sent), now)
  return { envelope: e, recipients: sent }
}

/** distribute, in its own transaction: what the doors call. */
export function distributeEnvelope(db: Db, p: Principal, actor: Actor, input: DistributeInput, now: Date): Promise<{ envelope: EnvelopeRow; recipients: RecipientRow[] }> {
  return db.transaction((tx) => distribute(tx, p, actor, input, now))
}

/**
 * Sends a pending document again to those of `recipientIds` who have not completed: renews their
 * links, and mails those whose turn it is (in sequential order the others hear when it comes).
 */
export function redistribute(
  db: Db,
  p: Principal,
  _actor: Actor,
  input: { envelopeId: string; recipients: number[] },
  now: Date,
): Promise<{ envelope: EnvelopeRow; recipients: RecipientRow[] }> {
  return db.transaction(async (tx) => {
    const e = await findEnvelope(tx, p, input.envelopeId, true)
    if (e.type !== 'DOCUMENT' || e.status !== 'PENDING') {
      throw new ApiError(400, 'INVALID_STATUS_TRANSITION', `only a pending document can be sent again; this ${e.type.toLowerCase()} is ${e.status}`)
    }
    const all = await recipientsOf(tx, e.id)
    const unknown = input.recipients.flatMap((id, i) => (all.some((r) => r.id === id) ? [] : [issue(['recipients', i], `Recipient ${id} is not on this envelope`)]))
    throwIfIssues(unknown)
    const chosen = all.filter((r) => input.recipients.includes(r.id) && r.signing_status === 'NOT_SIGNED')
    // Sending again renews an expired or expiring link.
    await setDeadlines(tx, e, chosen, now)
    await sendTurn(tx, e, chosen.filter((r) => whoseTurn(e, all).includes(r)), { resending: true })
    return { envelope: e, recipients: chosen }
  })
}

/** PENDING -> CANCELLED: every signing link stops working with this commit. */
export function cancel(db: Db, p: Principal, actor: Actor, input: { envelopeId: string; reason?: string | undefined }): Promise<void> {
  return db.transaction(async (tx) => {
    const e = await findEnvelope(tx, p, input.envelopeId, true)
    assertMayEnd(p, e, 'cancel')
    await setStatus(tx, e, nextStatus(e.type, e.status, 'cancel'))
    await audit(tx, e, 'DOCUMENT_CANCELLED', actor, input.reason ? { reason: input.reason } : {})
    await emitFor(tx, e, 'DOCUMENT_CANCELLED')
    await mailCancelled(tx, e.id, input.reason)
  })
}

/** The team rejects for one of its recipients (the deployed service's reject-on-behalf); the recipient and the envelope after. */
export function rejectForRecipient(
  db: Db,
  p: Principal,
  actor: Actor,
  input: { recipientId: number; envelopeId?: string | undefined; reason: string },
): Promise<{ recipient: RecipientRow; envelope: EnvelopeRow }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ envelope_id: string }>('select envelope_id from recipients where id = $1', [input.recipientId])
    if (!row || (input.envelopeId && row.envelope_id !== input.envelopeId)) throw notFound('recipient')
    const e = await findEnvelope(tx, p, row.envelope_id, true)
    // It ends the document for the whole team, as cancelling does.
    assertMayEnd(p, e, 'reject')
    const all = await recipientsOf(tx, e.id)
    const recipient = await reject(tx, e, all.find((r) => r.id === input.recipientId)!, input.reason, actor)
    return { recipient, envelope: await findEnvelope(tx, p, recipient.envelope_id) }
  })
}

// ---- the recipient's side (the recipient token is the credential) ----------------------------

export interface RecipientContext {
  e: EnvelopeRow
  r: RecipientRow
  all: RecipientRow[]
}

/** The recipient holding `token` with its envelope, both locked when `lock`; 404 for anything else. */
export async function byToken(tx: Queryable, token: string, lock: boolean): Promise<RecipientContext> {
  const [found] = await tx.query<{ envelope_id: string }>('select envelope_id from recipients where token = $1', [token])
  const [e] = found
    ? await tx.query<EnvelopeRow>(`select * from envelopes where id = $1 and deleted_at is null${lock ? ' for update' : ''}`, [found.envelope_id])
    : []
  if (!e) throw new UnknownLinkError('this signing link is not valid')
  const all = await tx.query<RecipientRow>(`select * from recipients where envelope_id = $1 order by id${lock ? ' for update' : ''}`, [e.id])
  return { e, r: all.find((x) => x.token === token)!, all }
}

/**
 * The first view of a sent document: readStatus OPENED and DOCUMENT_OPENED, once. A link that
 * shows only a wait or end screen (not your turn, expired...) has not shown the document.
 */
export async function open(tx: Queryable, token: string, client: Client, accessAuth: string[] = []): Promise<void> {
  const { e, r, all } = await byToken(tx, token, true)
  if (r.read_status === 'OPENED' || signingState(e, all, r) !== 'READY') return
  await tx.query(`update recipients set read_status = 'OPENED' where id = $1`, [r.id])
  await tx.notify(CHANNELS.envelopes, e.id)
  await audit(tx, e, 'DOCUMENT_OPENED', recipientActor(r, client), { ...aboutRecipient(r), accessAuth })
  await emitFor(tx, e, 'DOCUMENT_OPENED')
}

/** open, in its own transaction: what the signing pages call. */
export function openByToken(db: Db, token: string, client: Client, accessAuth: string[] = []): Promise<void> {
  return db.transaction((tx) => open(tx, token, client, accessAuth))
}

/** A state other than READY, as the refusal of an action. */
function refuseUnlessReady(ctx: RecipientContext): void {
  const state = signingState(ctx.e, ctx.all, ctx.r)
  if (state !== 'READY') throw new ApiError(400, state, `this recipient cannot act now: ${state.toLowerCase().replaceAll('_', ' ')}`)
  if (!mustAct(ctx.r)) throw new ApiError(400, 'CC_CANNOT_ACT', 'a CC recipient receives a copy and has nothing to sign')
}

/**
 * The recipient completes their part: fills their fields (DATE stamped now), signs, approves or
 * confirms viewing; maybe names the next signer. When nobody else has to act, the envelope
 * completes in the same transaction and its sealing job is queued (DOCUMENT_COMPLETED follows
 * once the sealed files exist: domain/evidence/completion.ts).
 */
export async function complete(
  tx: Queryable,
  token: string,
  client: Client,
  input: SigningCompleteRequest,
  now: Date,
  /** The methods the recipient proved for this action (domain/recipient/auth.ts), for the audit log. */
  actionAuth: string[] = [],
): Promise<SigningResult> {
  const ctx = await byToken(tx, token, true)
  refuseUnlessReady(ctx)
  await requireConsent(tx, ctx.e, ctx.r)
  const { e, r, all } = ctx
  const meta = { ...DEFAULT_DOCUMENT_META, ...e.document_meta }
  const allFields = await tx.query<FieldRow>('select * from fields where envelope_id = $1 order by id', [e.id])
  const fields = allFields.filter((f) => f.recipient_id === r.id)
  const waiting = whoseTurn(e, all)

  const submitted = new Map<number, string>()
  const paths = new Map<number, (string | number)[]>()
  const issues: ApiIssue[] = []
  for (const [i, v] of input.fields.entries()) {
    const f = fields.find((x) => x.id === v.id)
    if (!f) issues.push(issue(['fields', i, 'id'], `Field ${v.id} is not one of this recipient's fields`))
    // Filled in ahead (a template's prefill) stays as it was; auto-filled ones are the service's.
    else if (!f.inserted && !isAutoFilled(f.type)) {
      const stored = storedValue(f, v.value, ['fields', i, 'value'])
      if (typeof stored === 'string') {
        if (stored !== '' && stored !== '[]') submitted.set(f.id, stored)
        paths.set(f.id, ['fields', i, 'value'])
      } else issues.push(stored)
    }
  }
  // Conditions and formulas decided here, from the stored and submitted values, whatever the page said.
  const held = holdToLogic(allFields, fields.filter((f) => !f.inserted && !isAutoFilled(f.type)), submitted, paths)
  const values = held ? held.values : submitted
  if (held) issues.push(...held.issues)
  for (const f of fields) {
    if (f.inserted || (held && !held.shown(f))) continue
    if (isAutoFilled(f.type)) values.set(f.id, formatSigningDate(now, meta.dateFormat, meta.timezone, meta.language))
    else if ((held ? held.required(f) : isRequired(f)) && !values.has(f.id)) issues.push(issue(['fields'], `Field ${f.id} (${f.type.toLowerCase()}) is required`))
  }
  let next: RecipientRow | null = null
  if (input.nextSigner) {
    next = meta.allowDictateNextSigner && meta.signingOrder === 'SEQUENTIAL' ? nextAfter(all, r) : null
    if (!next) issues.push(issue(['nextSigner'], 'This document does not let its signers choose the next signer'))
  }
  throwIfIssues(issues)

  for (const [id, text] of values) {
    await tx.query('update fields set inserted = true, custom_text = $2, inserted_at = $3 where id = $1', [id, text, now])
  }
  await tx.query(`update recipients set signing_status = 'SIGNED', signed_at = $2 where id = $1`, [r.id, now])
  r.signing_status = 'SIGNED'
  const actor = recipientActor(r, client)
  if (next && input.nextSigner) {
    const email = input.nextSigner.email.trim().toLowerCase()
    await tx.query('update recipients set name = $2, email = $3 where id = $1', [next.id, input.nextSigner.name.trim(), email])
    await audit(tx, e, 'RECIPIENT_UPDATED', actor, {
      ...aboutRecipient({ ...next, name: input.nextSigner.name.trim(), email }),
      changes: [
        { type: 'NAME', from: next.name, to: input.nextSigner.name.trim() },
        { type: 'EMAIL', from: next.email, to: email },
      ],
      dictatedBy: r.id,
    })
  }
  await audit(tx, e, 'DOCUMENT_RECIPIENT_COMPLETED', actor, { ...aboutRecipient(r), actionAuth, fields: [...values.keys()] })
  if (r.role === 'SIGNER') await emitFor(tx, e, 'DOCUMENT_SIGNED')
  await emitFor(tx, e, 'DOCUMENT_RECIPIENT_COMPLETED')

  if (all.filter(mustAct).every((x) => x.signing_status === 'SIGNED')) {
    await setStatus(tx, e, nextStatus(e.type, e.status, 'complete'), true)
    await audit(tx, e, 'DOCUMENT_COMPLETED', actor, { transactionId: randomId(24) })
    await scheduleSealing(tx, e)
  } else {
    await tx.notify(CHANNELS.envelopes, e.id)
    await turnsBegan(tx, e, whoseTurn(e, all).filter((x) => !waiting.includes(x)), now)
  }
  return { status: e.status, redirectUrl: meta.redirectUrl }
}

/** complete, in its own transaction: what the signing pages call. */
export function completeByToken(db: Db, token: string, client: Client, input: SigningCompleteRequest, now: Date, actionAuth: string[] = []): Promise<SigningResult> {
  return db.transaction((tx) => complete(tx, token, client, input, now, actionAuth))
}

/** The recipient declines with a reason (`data`: more for the audit entry, e.g. consentWithdrawn). */
export function rejectByToken(
  db: Db,
  token: string,
  client: Client,
  reason: string,
  actionAuth: string[] = [],
  data: Record<string, unknown> = {},
): Promise<void> {
  return db.transaction(async (tx) => {
    const ctx = await byToken(tx, token, true)
    refuseUnlessReady(ctx)
    await reject(tx, ctx.e, ctx.r, reason, recipientActor(ctx.r, client), actionAuth, data)
  })
}

/** The recipient consents to sign electronically (domain/signing/consent.ts), while they may act. */
export function consentByToken(db: Db, token: string, client: Client, input: ConsentInput): Promise<ConsentGiven> {
  return db.transaction(async (tx) => {
    const ctx = await byToken(tx, token, true)
    refuseUnlessReady(ctx)
    return giveConsent(tx, ctx.e, ctx.r, client, input)
  })
}

/**
 * One recipient declines: their signingStatus REJECTED with the reason, DOCUMENT_REJECTED (its
 * payload still PENDING, as in API v2's sample), then the envelope REJECTED: nobody else can act.
 */
async function reject(
  tx: Queryable,
  e: EnvelopeRow,
  r: RecipientRow,
  reason: string,
  actor: Actor,
  actionAuth: string[] = [],
  data: Record<string, unknown> = {},
): Promise<RecipientRow> {
  if (e.status !== 'PENDING') throw new ApiError(400, 'INVALID_STATUS_TRANSITION', `cannot reject for a recipient of a ${e.type.toLowerCase()} in status ${e.status}`)
  if (r.signing_status !== 'NOT_SIGNED') throw new ApiError(400, 'ALREADY_COMPLETED', `recipient ${r.id} has already ${r.signing_status === 'SIGNED' ? 'completed' : 'rejected'}`)
  if (!mustAct(r)) throw new ApiError(400, 'CC_CANNOT_ACT', 'a CC recipient has nothing to reject')
  const [updated] = await tx.query<RecipientRow>(
    `update recipients set signing_status = 'REJECTED', rejection_reason = $2 where id = $1 returning *`,
    [r.id, reason],
  )
  await audit(tx, e, 'DOCUMENT_RECIPIENT_REJECTED', actor, { ...aboutRecipient(r), reason, isExternal: actor.recipientId === null, actionAuth, ...data })
  await emitFor(tx, e, 'DOCUMENT_REJECTED')
  await setStatus(tx, e, nextStatus(e.type, e.status, 'reject'))
  await mailRejected(tx, e.id, r.id, reason)
  return updated!
}
