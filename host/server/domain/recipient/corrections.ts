/**
 * Correcting a recipient of a sent (pending) document before they act: a misspelt name or a wrong
 * e-mail address. Only those two change; everything else of a sent document stays as it was sent.
 * A new address gets a new signing link (the old one stops working at once), its signing request
 * when it is their turn, and a fresh link deadline; the audit log keeps old -> new. Only who may
 * hold the links (link-holders.ts) may give a recipient a new address; anyone who sees the document
 * may correct a name.
 */
import type { Principal } from '../../auth/principal.js'
import type { Queryable } from '../../db/index.js'
import { ApiError, badRequest, issue } from '../../errors.js'
import { mailTurn } from '../../mail/notify.js'
import { aboutRecipient, audit, teamActor, type Client } from '../evidence/audit.js'
import { setDeadlines } from '../signing/deadlines.js'
import { assertMayRedirectLinks } from './link-holders.js'
import { newId } from '../common/ids.js'
import { recipientAuthPatch } from './auth.js'
import type { EnvelopeRow, RecipientRow } from '../common/rows.js'
import type { RecipientPatch } from '../common/inputs.js'

/** Where a correction comes from, for its audit entry, and the time its new link's deadline counts from. */
export interface CorrectionContext {
  client?: Client | undefined
  now?: Date | undefined
}

const NO_CLIENT: Client = { ipAddress: null, userAgent: null }

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) => JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort())

/** The first thing `d` would change beyond the name and e-mail (a value equal to the stored one changes nothing), or null. */
function beyondCorrection(d: RecipientPatch, row: RecipientRow): string | null {
  if (d.role !== undefined && d.role !== row.role) return 'role'
  if (d.signingOrder !== undefined && d.signingOrder !== row.signing_order) return 'signingOrder'
  const auth = recipientAuthPatch(d)
  if (auth?.accessAuth && !sameList(auth.accessAuth, row.auth_options?.accessAuth)) return 'accessAuth'
  if (auth?.actionAuth && !sameList(auth.actionAuth, row.auth_options?.actionAuth)) return 'actionAuth'
  return null
}

/**
 * Applies `data` to recipients of the pending document `e` (locked by the caller): checks every
 * entry before writing any, so a refusal leaves the document as it was.
 */
export async function correctRecipients(tx: Queryable, p: Principal, e: EnvelopeRow, data: RecipientPatch[], o: CorrectionContext = {}): Promise<RecipientRow[]> {
  const all = await tx.query<RecipientRow>('select * from recipients where envelope_id = $1 order by id for update', [e.id])
  const plan = data.map((d, i) => {
    const row = all.find((r) => r.id === d.id)
    if (!row) throw badRequest(`invalid request: data.${i}.id: Recipient not found in this envelope`, [issue(['data', i, 'id'], 'Recipient not found in this envelope')])
    const beyond = beyondCorrection(d, row)
    if (beyond) {
      throw new ApiError(400, 'ENVELOPE_NOT_EDITABLE', `a document in status PENDING can no longer be changed: only a recipient's name and e-mail can be corrected (data.${i}.${beyond})`, [
        issue(['data', i, beyond], 'Only the name and e-mail of a recipient of a sent document can be corrected'),
      ])
    }
    if (row.signing_status !== 'NOT_SIGNED') {
      const did = row.signing_status === 'SIGNED' ? 'completed' : 'rejected'
      throw new ApiError(400, 'RECIPIENT_NOT_EDITABLE', `recipient ${row.id} has ${did} the document: their name and e-mail stay as they acted`, [issue(['data', i, 'id'], `The recipient has ${did} the document`)])
    }
    const email = d.email?.toLowerCase() ?? row.email
    if (!email) throw badRequest(`invalid request: data.${i}.email: a recipient of a sent document needs an e-mail address`, [issue(['data', i, 'email'], 'A recipient of a sent document needs an e-mail address')])
    // A new address is sent a new live link: only a link holder may send one elsewhere.
    if (email !== row.email) assertMayRedirectLinks(p, e, ['data', i, 'email'])
    return { row, name: d.name ?? row.name, email }
  })

  const out: RecipientRow[] = []
  const readdressed: RecipientRow[] = []
  for (const { row, name, email } of plan) {
    const changes = [
      ...(name !== row.name ? [{ type: 'NAME', from: row.name, to: name }] : []),
      ...(email !== row.email ? [{ type: 'EMAIL', from: row.email, to: email }] : []),
    ]
    if (!changes.length) {
      out.push(row)
      continue
    }
    const newAddress = email !== row.email
    // A new address is a new person: a new link (the old one dies), and nothing opened yet.
    const [updated] = await tx.query<RecipientRow>(
      `update recipients set name = $2, email = $3,
         token = case when $4 then $5 else token end,
         read_status = case when $4 then 'NOT_OPENED' else read_status end
       where id = $1 returning *`,
      [row.id, name, email, newAddress, newId.recipientToken()],
    )
    await audit(tx, e, 'RECIPIENT_UPDATED', teamActor(p, o.client ?? NO_CLIENT), { ...aboutRecipient(updated!), changes })
    if (newAddress) readdressed.push(updated!)
    out.push(updated!)
  }
  if (readdressed.length) {
    await setDeadlines(tx, e, readdressed, o.now ?? new Date())
    // Only those whose turn it is hear now; in sequential order the others hear when it comes.
    await mailTurn(tx, e.id, readdressed.map((r) => r.id))
  }
  return out
}
