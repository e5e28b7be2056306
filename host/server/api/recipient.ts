import { Hono } from 'hono'
import { z } from 'zod'
import { badRequest, issue, notFound } from '../errors.js'
import { editEnvelope } from '../domain/changes.js'
import { insertRecipients } from '../domain/recipients.js'
import { findParent, toRecipient, type RecipientRow } from '../domain/resources.js'
import { jsonBody, principal, type AppEnv, type HostContext } from './http.js'
import { EnvelopeId, NumericId, RecipientInput } from './schemas.js'

const UpdateMany = z.object({
  envelopeId: EnvelopeId,
  data: z
    .array(
      z
        .object({
          id: NumericId,
          email: RecipientInput.shape.email.optional(),
          name: z.string().trim().max(255).optional(),
          role: RecipientInput.shape.role.optional(),
          signingOrder: RecipientInput.shape.signingOrder,
        })
        .strict(),
    )
    .min(1)
    .max(100),
})

/** Path ids of numeric resources: anything else cannot exist. */
export function numericParam(value: string, what: string): number {
  const n = Number(value)
  if (!/^[1-9]\d{0,9}$/.test(value) || n > 2147483647) throw notFound(what)
  return n
}

export function recipientRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/envelope/recipient/create-many', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, z.object({ envelopeId: EnvelopeId, data: z.array(RecipientInput).min(1).max(100) }))
    const out = await editEnvelope(ctx.db, p, { envelopeId: body.envelopeId }, async (tx, e) => {
      const rows = await insertRecipients(tx, e.id, body.data)
      return rows.map((row) => toRecipient(row, e))
    })
    return c.json({ data: out })
  })

  r.post('/envelope/recipient/update-many', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, UpdateMany)
    const out = await editEnvelope(ctx.db, p, { envelopeId: body.envelopeId }, async (tx, e) => {
      const rows: RecipientRow[] = []
      for (const [i, d] of body.data.entries()) {
        const [row] = await tx.query<RecipientRow>(
          `update recipients set email = coalesce($3, email), name = coalesce($4, name), role = coalesce($5, role),
             signing_order = case when $6 then $7 else signing_order end
           where id = $1 and envelope_id = $2 returning *`,
          [d.id, e.id, d.email?.toLowerCase() ?? null, d.name ?? null, d.role ?? null, d.signingOrder !== undefined, d.signingOrder ?? null],
        )
        if (!row) throw badRequest(`invalid request: data.${i}.id: Recipient not found in this envelope`, [issue(['data', i, 'id'], 'Recipient not found in this envelope')])
        rows.push(row)
      }
      return rows.map((row) => toRecipient(row, e))
    })
    return c.json({ data: out })
  })

  r.post('/envelope/recipient/delete', async (c) => {
    const p = principal(c)
    const { recipientId } = await jsonBody(c, z.object({ recipientId: NumericId }))
    await editEnvelope(ctx.db, p, { table: 'recipients', id: recipientId, what: 'recipient' }, async (tx) => {
      await tx.query('delete from recipients where id = $1', [recipientId])
    })
    return c.json({ success: true })
  })

  r.get('/envelope/recipient/:id', async (c) => {
    const p = principal(c)
    const id = numericParam(c.req.param('id'), 'recipient')
    const e = await findParent(ctx.db, p, 'recipients', id, 'recipient')
    const [row] = await ctx.db.query<RecipientRow>('select * from recipients where id = $1', [id])
    if (!row) throw notFound('recipient')
    return c.json(toRecipient(row, e))
  })

  return r
}
