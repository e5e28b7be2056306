import { AUTH_AT } from './auth-options.js'
import { RecipientAuthInput } from '../domain/recipient/auth.js'
import { Hono } from 'hono'
import { z } from 'zod'
import { notFound } from '../errors.js'
import { createRecipients, deleteRecipient, getRecipient, updateRecipients } from '../domain/recipient/recipients.js'
import { fieldsOfRecipient } from '../domain/field/lists.js'
import { toField } from '../domain/common/rows.js'
import { clientOf, jsonBody, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { EnvelopeId, NumericId, RecipientInput } from './schemas.js'
import type { V2Answer } from '../contract/api-v2.js'

/** One recipient change (update-many's entries). */
export const RecipientPatch = z
  .object({
    id: NumericId,
    email: RecipientInput.shape.email.optional(),
    name: z.string().trim().max(255).optional(),
    role: RecipientInput.shape.role.optional(),
    signingOrder: RecipientInput.shape.signingOrder,
    ...RecipientAuthInput,
  })
  .strict()
export const CreateMany = z.object({ envelopeId: EnvelopeId, data: z.array(RecipientInput).min(1).max(100) })
export const UpdateMany = z.object({ envelopeId: EnvelopeId, data: z.array(RecipientPatch).min(1).max(100) })

export const DeleteBody = z.object({ recipientId: NumericId })

/** Path ids of numeric resources: anything else cannot exist. */
export function numericParam(value: string, what: string): number {
  const n = Number(value)
  if (!/^[1-9]\d{0,9}$/.test(value) || n > 2147483647) throw notFound(what)
  return n
}

export function recipientRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/envelope/recipient/create-many', async (c) => {
    const body = await jsonBody(c, CreateMany, { authAt: AUTH_AT.recipients })
    return c.json({ data: await createRecipients(ctx.db, principal(c), body.envelopeId, body.data) } satisfies V2Answer<'POST /envelope/recipient/create-many'>)
  })

  r.post('/envelope/recipient/update-many', async (c) => {
    const body = await jsonBody(c, UpdateMany, { authAt: AUTH_AT.recipients })
    return c.json({ data: await updateRecipients(ctx.db, principal(c), body.envelopeId, body.data, undefined, { client: clientOf(c), now: ctx.clock.now() }) } satisfies V2Answer<'POST /envelope/recipient/update-many'>)
  })

  r.post('/envelope/recipient/delete', async (c) => {
    const { recipientId } = await jsonBody(c, DeleteBody)
    await deleteRecipient(ctx.db, principal(c), recipientId)
    return c.json({ success: true } satisfies V2Answer<'POST /envelope/recipient/delete'>)
  })

  r.get('/envelope/recipient/:id', async (c) => {
    const recipient = await getRecipient(ctx.db, principal(c), numericParam(c.req.param('id'), 'recipient'))
    // With the recipient's fields, as the deployed clients expect.
    const fields = await fieldsOfRecipient(ctx.db, recipient.id)
    return c.json({ ...recipient, fields: fields.map(toField) } satisfies V2Answer<'GET /envelope/recipient/:recipientId'>)
  })

  return r
}
