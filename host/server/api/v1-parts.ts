/**
 * API v1 recipients and fields of a legacy document (`/documents/{id}/recipients[/{recipientId}]`,
 * `/documents/{id}/fields[/{fieldId}]`): the document's number and the v1 field names translated,
 * then the operations of /envelope/recipient and /envelope/field, limited to documents. A
 * recipient or field of another document is 404.
 */
import { AUTH_AT } from './auth-options.js'
import { Hono } from 'hono'
import { z } from 'zod'
import { createFields, deleteField, getField, updateFields } from '../domain/field/fields.js'
import { createRecipients, deleteRecipient, getRecipient, updateRecipients } from '../domain/recipient/recipients.js'
import { notFound } from '../errors.js'
import { legacyField } from './deprecated-shared.js'
import { FieldPatch, parseFieldEntries } from './field.js'
import { clientOf, jsonBody, principal, type Ctx } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { RecipientPatch } from './recipient.js'
import { RecipientInput } from './schemas.js'
import { pathNumber, resolveV1, v1Field, v1FieldNames } from './v1-shared.js'

const NewRecipient = RecipientInput
/** A change of the recipient the path names (an `id` in the body is ignored). */
const changedRecipient = (id: number) => z.preprocess((v) => ({ ...(v as object), id }), RecipientPatch)
/** A change of the field the path names, with v1 names. */
const changedField = (id: number) => z.preprocess((v) => ({ ...(v1FieldNames(v) as object), id }), FieldPatch)
const NewFields = z.union([z.array(z.record(z.string(), z.unknown())).min(1).max(500), z.record(z.string(), z.unknown())])

export function v1PartRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  const document = (c: Ctx) => resolveV1(ctx.db, principal(c), 'document', pathNumber(c, 'id', 'document'))

  /** The recipient the path names, on the document the path names (else 404). */
  const recipientOf = async (c: Ctx) => {
    const e = await document(c)
    const rec = await getRecipient(ctx.db, principal(c), pathNumber(c, 'recipientId', 'recipient'), 'DOCUMENT')
    if (rec.envelopeId !== e.id) throw notFound('recipient')
    return { e, rec }
  }
  const fieldOf = async (c: Ctx) => {
    const e = await document(c)
    const { field } = await getField(ctx.db, principal(c), pathNumber(c, 'fieldId', 'field'), 'DOCUMENT')
    if (field.envelope_id !== e.id) throw notFound('field')
    return { e, field }
  }

  // ---- recipients ----------------------------------------------------------------------------
  r.post('/documents/:id/recipients', async (c) => {
    const e = await document(c)
    const body = await jsonBody(c, NewRecipient, { authAt: AUTH_AT.v1Recipient })
    const [out] = await createRecipients(ctx.db, principal(c), e.id, [body], 'DOCUMENT')
    return c.json(out)
  })
  r.patch('/documents/:id/recipients/:recipientId', async (c) => {
    const { e, rec } = await recipientOf(c)
    const body = await jsonBody(c, changedRecipient(rec.id), { authAt: AUTH_AT.v1Recipient })
    const [out] = await updateRecipients(ctx.db, principal(c), e.id, [body], 'DOCUMENT', { client: clientOf(c), now: ctx.clock.now() })
    return c.json(out)
  })
  // The recipient as it was.
  r.delete('/documents/:id/recipients/:recipientId', async (c) => {
    const { rec } = await recipientOf(c)
    await deleteRecipient(ctx.db, principal(c), rec.id, 'DOCUMENT')
    return c.json(rec)
  })

  // ---- fields: one field object (answered as one field) or an array (answered as {fields}) ----
  r.post('/documents/:id/fields', async (c) => {
    const e = await document(c)
    const body = await jsonBody(c, NewFields)
    const list = Array.isArray(body) ? body : [body]
    const rows = await createFields(ctx.db, principal(c), e.id, parseFieldEntries(list.map(v1FieldNames)), 'DOCUMENT')
    const views = rows.map((f) => v1Field(legacyField(f, e)))
    return c.json(Array.isArray(body) ? { fields: views } : views[0])
  })
  r.patch('/documents/:id/fields/:fieldId', async (c) => {
    const { e, field } = await fieldOf(c)
    const body = await jsonBody(c, changedField(field.id))
    const [row] = await updateFields(ctx.db, principal(c), e.id, [body], 'DOCUMENT')
    return c.json(v1Field(legacyField(row!, e)))
  })
  r.delete('/documents/:id/fields/:fieldId', async (c) => {
    const { e, field } = await fieldOf(c)
    await deleteField(ctx.db, principal(c), field.id, 'DOCUMENT')
    return c.json(v1Field(legacyField(field, e)))
  })

  return r
}
