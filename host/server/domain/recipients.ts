import type { Queryable } from '../db/index.js'
import type { RecipientInput } from '../api/schemas.js'
import { newId } from './ids.js'
import type { RecipientRow } from './resources.js'

export async function insertRecipients(tx: Queryable, envelopeId: string, list: RecipientInput[]): Promise<RecipientRow[]> {
  const rows: RecipientRow[] = []
  for (const r of list) {
    const [row] = await tx.query<RecipientRow>(
      `insert into recipients (envelope_id, email, name, role, token, signing_order)
       values ($1, $2, $3, $4, $5, $6) returning *`,
      [envelopeId, r.email.toLowerCase(), r.name, r.role, newId.recipientToken(), r.signingOrder ?? null],
    )
    rows.push(row!)
  }
  return rows
}
