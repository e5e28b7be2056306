import type { SigningSession } from '../../../../src/protocol/index.js'
import { iso, type Queryable } from '../../db/index.js'
import { pageBranding } from '../team/branding.js'
import { DEFAULT_DOCUMENT_META } from '../envelope/document-meta.js'
import { fieldsOfRecipient } from '../field/lists.js'
import { itemsOf } from '../item/items.js'
import type { RecipientContext } from './lifecycle.js'
import { toField } from '../common/rows.js'
import { nextAfter, signingState, waitingBefore } from './turns.js'

/** What the page shows for this recipient now (a direct link's visitor: always ready, nobody ahead). */
export async function signingSession(db: Queryable, { e, r, all }: RecipientContext, direct = false): Promise<SigningSession> {
  const items = await itemsOf(db, e.id)
  const fields = await fieldsOfRecipient(db, r.id, true)
  const meta = { ...DEFAULT_DOCUMENT_META, ...e.document_meta }
  const branding = await pageBranding(db, e.team_id)
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
    ...(direct ? { roles: all.filter((x) => x.id !== r.id && !x.email).map((x) => ({ id: x.id, name: x.name, role: x.role as SigningSession['recipient']['role'] })) } : {}),
  }
}
