import type { Principal } from '../../auth/principal.js'
import type { Db, Queryable } from '../../db/index.js'
import type { RecipientInput, RecipientPatch } from '../common/inputs.js'
import { badRequest, issue, notFound } from '../../errors.js'
import { editEnvelope } from '../envelope/changes.js'
import { correctRecipients, type CorrectionContext } from './corrections.js'
import { newId } from '../common/ids.js'
import { recipientAuthFrom, recipientAuthPatch, type RecipientAuthGiven } from './auth.js'
import { toRecipient, type RecipientRow } from '../common/rows.js'
import { findParent } from '../envelope/lookup.js'
import { tokenView } from './link-holders.js'
import type { EnvelopeType } from '../common/status.js'

/** A recipient to write: as the API takes it, or as a copy carries it over (its methods included). */
export type NewRecipient = Omit<RecipientInput, 'accessAuth' | 'actionAuth' | 'authOptions'> & RecipientAuthGiven

/**
 * New recipients of an envelope, in one statement however many (rows in the order given: ids
 * are assigned in insertion order, and the rows are inserted in that order).
 */
export async function insertRecipients(tx: Queryable, envelopeId: string, list: NewRecipient[]): Promise<RecipientRow[]> {
  if (!list.length) return []
  const rows = await tx.query<RecipientRow>(
    `insert into recipients (envelope_id, email, name, role, token, signing_order, auth_options)
     select $1, r.email, r.name, r.role, r.token, r.signing_order, r.auth_options
     from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::jsonb[]) with ordinality as r (email, name, role, token, signing_order, auth_options, n)
     order by r.n
     returning *`,
    [
      envelopeId,
      list.map((r) => r.email.toLowerCase()),
      list.map((r) => r.name),
      list.map((r) => r.role),
      list.map(() => newId.recipientToken()),
      list.map((r) => r.signingOrder ?? null),
      list.map((r) => {
        const auth = recipientAuthFrom(r)
        return auth && (auth.accessAuth.length || auth.actionAuth.length) ? JSON.stringify(auth) : null
      }),
    ],
  )
  return rows.sort((a, b) => a.id - b.id)
}

export type Recipient = ReturnType<typeof toRecipient>

export type { RecipientPatch } from '../common/inputs.js'

// Each operation below may be limited to envelopes of one `type` (another is 404): the deprecated
// /document/... and /template/... routes.

/** Adds recipients to a draft envelope. */
export function createRecipients(db: Db, p: Principal, envelopeId: string, data: RecipientInput[], type?: EnvelopeType): Promise<Recipient[]> {
  return editEnvelope(db, p, { envelopeId, type }, async (tx, e) => (await insertRecipients(tx, e.id, data)).map((row) => toRecipient(row, e, tokenView(p, e))))
}

/**
 * Changes recipients of a draft envelope; an id not on it is a 400 naming the entry (issue paths
 * `data.N`). On a pending document only a name or e-mail of a recipient who has not acted yet may
 * be corrected (corrections.ts).
 */
export function updateRecipients(db: Db, p: Principal, envelopeId: string, data: RecipientPatch[], type?: EnvelopeType, o: CorrectionContext = {}): Promise<Recipient[]> {
  return editEnvelope(db, p, { envelopeId, type, pending: true }, async (tx, e) => {
    if (e.status === 'PENDING') return (await correctRecipients(tx, p, e, data, o)).map((row) => toRecipient(row, e, tokenView(p, e)))
    const rows: RecipientRow[] = []
    for (const [i, d] of data.entries()) {
      // The lists given replace theirs; one left out stays.
      const auth = recipientAuthPatch(d)
      const [row] = await tx.query<RecipientRow>(
        `update recipients set email = coalesce($3, email), name = coalesce($4, name), role = coalesce($5, role),
           signing_order = case when $6 then $7 else signing_order end,
           auth_options = case when $8 then coalesce(auth_options, '{"accessAuth": [], "actionAuth": []}'::jsonb) || $9::jsonb else auth_options end
         where id = $1 and envelope_id = $2 returning *`,
        [
          d.id,
          e.id,
          d.email?.toLowerCase() ?? null,
          d.name ?? null,
          d.role ?? null,
          d.signingOrder !== undefined,
          d.signingOrder ?? null,
          auth !== undefined,
          JSON.stringify(auth ?? {}),
        ],
      )
      if (!row) throw badRequest(`invalid request: data.${i}.id: Recipient not found in this envelope`, [issue(['data', i, 'id'], 'Recipient not found in this envelope')])
      rows.push(row)
    }
    return rows.map((row) => toRecipient(row, e, tokenView(p, e)))
  })
}

export async function deleteRecipient(db: Db, p: Principal, recipientId: number, type?: EnvelopeType): Promise<void> {
  await editEnvelope(db, p, { table: 'recipients', id: recipientId, what: 'recipient', type }, async (tx) => {
    await tx.query('delete from recipients where id = $1', [recipientId])
  })
}

export async function getRecipient(db: Queryable, p: Principal, recipientId: number, type?: EnvelopeType): Promise<Recipient> {
  const e = await findParent(db, p, 'recipients', recipientId, 'recipient')
  if (type && e.type !== type) throw notFound('recipient')
  const [row] = await db.query<RecipientRow>('select * from recipients where id = $1', [recipientId])
  if (!row) throw notFound('recipient')
  return toRecipient(row, e, tokenView(p, e))
}
