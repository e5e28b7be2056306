/**
 * A template's direct link (source TEMPLATE_DIRECT_LINK): a public link for one of its recipients.
 * Whoever opens it gives a name and an e-mail, fills that recipient's fields and signs; a document
 * is then made from the template, sent, and signed for them in one transaction, and goes on like
 * any other. The team manages the link (create, toggle, delete); the signing pages use it.
 */
import type { DirectCompleteRequest, DirectSigningResult } from '../../../../src/protocol/index.js'
import { assertMayPublish, type Principal } from '../../auth/principal.js'
import type { Db, Queryable } from '../../db/index.js'
import { ApiError, badRequest, issue, notFound, UnknownLinkError, type ApiIssue } from '../../errors.js'
import { recipientActor, type Actor, type Client } from '../evidence/audit.js'
import { recordChange } from '../envelope/changes.js'
import { throwIfIssues } from '../field/fields.js'
import { newId, randomId } from '../common/ids.js'
import { insertRecipients } from '../recipient/recipients.js'
import { complete, open } from '../signing/lifecycle.js'
import { giveConsent, type ConsentInput } from '../signing/consent.js'
import { toDirectLink, type EnvelopeRow, type RecipientRow, type DirectLink, type DirectLinkRow } from '../common/rows.js'
import { findEnvelope } from '../envelope/lookup.js'
import { mustAct } from '../signing/turns.js'
import { useTemplate } from './templates.js'

/** The recipient a link makes when none is named, as the deployed service does; the author gives it fields. */
export const PLACEHOLDER_RECIPIENT = { email: 'direct.link@recipient.invalid', name: 'Direct link recipient' }

async function templateOf(tx: Queryable, p: Principal, envelopeId: string): Promise<EnvelopeRow> {
  assertMayPublish(p)
  const e = await findEnvelope(tx, p, envelopeId, true)
  if (e.type !== 'TEMPLATE') throw new ApiError(400, 'NOT_A_TEMPLATE', `${e.id} is a document; only a template has a direct link`)
  return e
}

const linkOf = async (tx: Queryable, e: EnvelopeRow) =>
  (await tx.query<DirectLinkRow>('select * from template_direct_links where envelope_id = $1', [e.id]))[0]

/** A template's link for `recipientId` (one of its recipients who acts), or for a new placeholder recipient. */
export function createDirectLink(db: Db, p: Principal, input: { envelopeId: string; recipientId?: number | undefined }): Promise<DirectLink> {
  return db.transaction(async (tx) => {
    const e = await templateOf(tx, p, input.envelopeId)
    if (await linkOf(tx, e)) throw new ApiError(400, 'DIRECT_LINK_EXISTS', `template ${e.id} has a direct link already; delete it first`)
    let recipientId = input.recipientId
    if (recipientId === undefined) {
      const [r] = await insertRecipients(tx, e.id, [{ ...PLACEHOLDER_RECIPIENT, role: 'SIGNER' }])
      recipientId = r!.id
    } else {
      const [r] = await tx.query<RecipientRow>('select * from recipients where id = $1 and envelope_id = $2', [recipientId, e.id])
      if (!r) throw new ApiError(400, 'INVALID_RECIPIENT', `recipient ${recipientId} is not on template ${e.id}`, [issue(['directRecipientId'], 'Not a recipient of this template')])
      if (!mustAct(r)) throw new ApiError(400, 'INVALID_RECIPIENT', 'a CC recipient has nothing to do: the direct link needs a recipient who signs, approves or views', [issue(['directRecipientId'], 'A CC recipient cannot use a direct link')])
    }
    const [link] = await tx.query<DirectLinkRow>(
      'insert into template_direct_links (id, envelope_id, token, recipient_id) values ($1, $2, $3, $4) returning *',
      [`direct_link_${randomId()}`, e.id, newId.directLinkToken(), recipientId],
    )
    await recordChange(tx, p, e)
    return toDirectLink(link!, e.secondary_number)
  })
}

export function toggleDirectLink(db: Db, p: Principal, input: { envelopeId: string; enabled: boolean }): Promise<DirectLink> {
  return db.transaction(async (tx) => {
    const e = await templateOf(tx, p, input.envelopeId)
    const [link] = await tx.query<DirectLinkRow>('update template_direct_links set enabled = $2 where envelope_id = $1 returning *', [e.id, input.enabled])
    if (!link) throw notFound('direct link')
    await recordChange(tx, p, e)
    return toDirectLink(link, e.secondary_number)
  })
}

/** Removes the link (its recipient stays on the template); documents made through it are kept. */
export function deleteDirectLink(db: Db, p: Principal, input: { envelopeId: string }): Promise<void> {
  return db.transaction(async (tx) => {
    const e = await templateOf(tx, p, input.envelopeId)
    const [gone] = await tx.query('delete from template_direct_links where envelope_id = $1 returning id', [e.id])
    if (!gone) throw notFound('direct link')
    await recordChange(tx, p, e)
  })
}

// ---- the visitor's side (the link's token is the credential) --------------------------------

export interface DirectContext {
  link: DirectLinkRow
  /** The template. */
  e: EnvelopeRow
  /** The direct recipient, as the visitor sees it: no name or e-mail until they give theirs. */
  r: RecipientRow
  all: RecipientRow[]
  plan: string
}

/** The enabled link holding `token` with its live template; 404 for anything else. */
export async function byDirectToken(tx: Queryable, token: string): Promise<DirectContext> {
  const [found] = await tx.query<DirectLinkRow & { plan: string }>(
    `select l.*, t.plan from template_direct_links l join envelopes e on e.id = l.envelope_id join teams t on t.id = e.team_id
     where l.token = $1 and l.enabled and e.deleted_at is null`,
    [token],
  )
  if (!found) throw new UnknownLinkError('this link is not valid or has been turned off')
  const { plan, ...link } = found
  const [e] = await tx.query<EnvelopeRow>('select * from envelopes where id = $1', [link.envelope_id])
  const all = await tx.query<RecipientRow>('select * from recipients where envelope_id = $1 order by id', [link.envelope_id])
  const r = all.find((x) => x.id === link.recipient_id)!
  return { link, e: e!, r: { ...r, name: '', email: '' }, all, plan }
}

/**
 * The visitor signs: a document from the template (the link's recipient named as they say, acting
 * first), sent, opened and completed by them, in one transaction. Field ids are the
 * template's, as the visitor saw them. Any refusal writes nothing.
 */
export function signDirectLink(
  db: Db,
  token: string,
  client: Client,
  input: DirectCompleteRequest,
  now: Date,
  /** The methods the visitor proved (signing/proofs.ts proveDirect), for the audit log. */
  proved: { accessAuth: string[]; actionAuth: string[] } = { accessAuth: [], actionAuth: [] },
  /** The visitor's consent to sign electronically, recorded on the document made (domain/signing/consent.ts). */
  consent?: ConsentInput,
): Promise<DirectSigningResult> {
  return db.transaction(async (tx) => {
    const { link, e: template, plan, all } = await byDirectToken(tx, token)
    // Locks the template against a concurrent edit or deletion while the copy is made.
    await tx.query('select id from envelopes where id = $1 for update', [template.id])
    // Acting for the team on its own plan: a free team's monthly allowance counts these documents too.
    const p: Principal = { kind: 'api', teamId: template.team_id, plan, tokenId: link.id }
    const signer = { name: input.signer.name.trim(), email: input.signer.email.trim().toLowerCase() }
    const actor: Actor = { ...recipientActor({ id: link.recipient_id, ...signer }, client), recipientId: null }
    // The visitor names the people of the template's roles; a role left out is refused when the document is sent.
    const roles = (input.roles ?? []).map((x, i) => {
      const role = all.find((r) => r.id === x.id)
      if (!role || role.id === link.recipient_id || role.email) throw badRequest(`invalid request: roles.${i}.id: not a role of this template to fill in`, [issue(['roles', i, 'id'], 'Not a role of this template to fill in')])
      return { id: x.id, name: x.name.trim(), email: x.email.trim().toLowerCase() }
    })
    const made = await useTemplate(
      tx,
      p,
      actor,
      { envelopeId: template.id, externalId: input.externalId, recipients: [{ id: link.recipient_id, ...signer }, ...roles], distributeDocument: true },
      [],
      now,
      { source: 'TEMPLATE_DIRECT_LINK', firstRecipient: link.recipient_id },
    )
    const me = made.recipients.find((x) => x.id === made.recipientIds.get(link.recipient_id))!
    const issues: ApiIssue[] = []
    const fields = input.fields.flatMap((f, i) => {
      const id = made.fieldIds.get(f.id)
      if (id === undefined) issues.push(issue(['fields', i, 'id'], `Field ${f.id} is not one of this recipient's fields`))
      return id === undefined ? [] : [{ ...f, id }]
    })
    throwIfIssues(issues)
    await open(tx, me.token, client, proved.accessAuth)
    if (consent) await giveConsent(tx, made.envelope, me, client, consent)
    const result = await complete(tx, me.token, client, { fields, ...(input.nextSigner ? { nextSigner: input.nextSigner } : {}) }, now, proved.actionAuth)
    return { ...result, token: me.token, documentId: made.envelope.secondary_number, recipientId: me.id, envelopeId: made.envelope.id }
  })
}
