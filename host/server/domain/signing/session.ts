import type { SigningLogicField, SigningSession } from '../../../../src/protocol/index.js'
import { fieldsRead, hasLogic, logicFieldOf } from '../../../shared/field-logic/index.js'
import { iso, type Queryable } from '../../db/index.js'
import { pageBranding } from '../team/branding.js'
import { DEFAULT_DOCUMENT_META } from '../envelope/document-meta.js'
import { fieldsOfEnvelope, fieldsOfRecipient } from '../field/lists.js'
import { itemsOf } from '../item/items.js'
import type { RecipientContext } from './lifecycle.js'
import { toField, type FieldRow } from '../common/rows.js'
import { nextAfter, signingState, waitingBefore } from './turns.js'

/** What the page shows for this recipient now (a direct link's visitor: always ready, nobody ahead). */
export async function signingSession(db: Queryable, { e, r, all }: RecipientContext, direct = false): Promise<SigningSession> {
  const items = await itemsOf(db, e.id)
  const fields = await fieldsOfRecipient(db, r.id, true)
  const meta = { ...DEFAULT_DOCUMENT_META, ...e.document_meta }
  const branding = await pageBranding(db, e.team_id)
  // The other recipients' fields are read only when this recipient's own have logic (most have none).
  const logicFields = hasLogic(fields.map((f) => ({ fieldMeta: f.field_meta }))) ? logicFieldsFor(await fieldsOfEnvelope(db, e.id), r.id) : undefined
  const next = meta.allowDictateNextSigner && meta.signingOrder === 'SEQUENTIAL' ? nextAfter(all, r) : null
  return {
    state: direct ? 'READY' : signingState(e, all, r),
    ...(direct ? { direct } : {}),
    envelope: {
      id: e.id,
      documentId: e.secondary_number,
      title: e.title,
      status: e.status,
      documentMeta: meta,
      languageChosen: e.language_chosen,
      completedAt: iso(e.completed_at),
      items: items.map((i) => ({ id: i.id, title: i.title, order: i.item_order, pageCount: i.page_count })),
      // Past its team's retention the files are gone: the page says so rather than wait for them.
      ...(e.purged_at ? { purgedAt: iso(e.purged_at)! } : {}),
    },
    recipient: {
      id: r.id,
      name: r.name,
      email: r.email,
      role: r.role as SigningSession['recipient']['role'],
      readStatus: r.read_status as SigningSession['recipient']['readStatus'],
      signingStatus: r.signing_status as SigningSession['recipient']['signingStatus'],
      signedAt: iso(r.signed_at),
      rejectionReason: r.rejection_reason,
      signingOrder: r.signing_order,
      expiresAt: iso(r.expires_at),
    },
    // The field resource less what the page knows already, and no value until there is one.
    fields: fields.map((f) => {
      const { envelopeId: _e, recipientId: _r, ...field } = toField(f)
      return { ...field, type: field.type as SigningSession['fields'][number]['type'], customText: f.custom_text }
    }),
    // A role with no person yet is named by a direct link's visitor in `roles`, not as the next signer.
    nextSigner: next && next.email ? { id: next.id, name: next.name, email: next.email } : null,
    waitingFor: direct ? [] : waitingBefore(e, all, r).map((x) => ({ name: x.name, email: x.email })),
    ...(branding ? { branding } : {}),
    ...(logicFields ? { logicFields } : {}),
    ...(direct ? { roles: all.filter((x) => x.id !== r.id && !x.email).map((x) => ({ id: x.id, name: x.name, role: x.role as SigningSession['recipient']['role'] })) } : {}),
  }
}

/**
 * The other recipients' fields this recipient's conditions and formulas read (transitively), with
 * only what the logic needs of them.
 */
function logicFieldsFor(all: FieldRow[], recipientId: number): SigningLogicField[] {
  const logic = all.map((f) => logicFieldOf({ id: f.id, type: f.type, fieldMeta: f.field_meta }))
  const read = new Set(fieldsRead(logic, all.filter((f) => f.recipient_id === recipientId).map((f) => f.id)))
  return all.flatMap((f, i) => {
    if (!read.has(f.id) || f.recipient_id === recipientId) return []
    const { label, options, condition, formula } = logic[i]!
    return [{
      id: f.id,
      type: f.type as SigningLogicField['type'],
      fieldMeta: {
        label: label ?? '',
        ...(options ? { options } : {}),
        ...(condition !== undefined ? { condition } : {}),
        ...(formula !== undefined ? { formula } : {}),
      },
      value: f.inserted ? f.custom_text : null,
    }]
  })
}
