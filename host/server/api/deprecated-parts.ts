/**
 * The deprecated field, recipient and attachment routes under /document and /template: legacy
 * numbers and old field names translated, then the operations of /envelope/field, /recipient and
 * /attachment, limited to envelopes of the route's type.
 */
import { AUTH_AT } from './auth-options.js'
import { Hono } from 'hono'
import { z } from 'zod'
import { createAttachment, deleteAttachment, listAttachments, updateAttachment } from '../domain/envelope/attachments.js'
import { createFields, deleteField, getField, updateFields } from '../domain/field/fields.js'
import { createRecipients, deleteRecipient, getRecipient, updateRecipients } from '../domain/recipient/recipients.js'
import { badRequest, issue } from '../errors.js'
import { AttachmentData, AttachmentId } from './attachment.js'
import { ID_KEY, TYPE, legacyField, newFieldNames, recipientsWithFields, resolve, type Kind } from './deprecated-shared.js'
import { FieldPatch, parseFieldEntries } from './field.js'
import { clientOf, jsonBody, parse, principal, type Ctx } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { RecipientPatch, numericParam } from './recipient.js'
import { NumericId, RecipientInput } from './schemas.js'

export const Legacy = z.object({ documentId: z.unknown(), templateId: z.unknown() }).partial()

/** Renames each entry's keys, then validates the list (issue paths name the legacy key and entry). */
const entries = <S extends z.ZodType>(schema: S, map: (v: unknown) => unknown, min = 1, max = 500) =>
  z.array(z.preprocess(map, schema)).min(min).max(max)

const NewRecipient = RecipientInput
const ChangedRecipient = RecipientPatch

/** The bodies and queries of the deprecated part routes (the same for /document and /template). */
export const PartSchemas = {
  fieldCreate: Legacy.extend({ field: z.record(z.string(), z.unknown()) }),
  fieldCreateMany: Legacy.extend({ fields: z.array(z.unknown()).min(1).max(500) }),
  fieldUpdate: Legacy.extend({ field: z.preprocess(newFieldNames, FieldPatch) }),
  fieldUpdateMany: Legacy.extend({ fields: entries(FieldPatch, newFieldNames) }),
  fieldDelete: z.object({ fieldId: NumericId }),
  recipientCreate: Legacy.extend({ recipient: NewRecipient }),
  recipientCreateMany: Legacy.extend({ recipients: z.array(NewRecipient).min(1).max(100) }),
  recipientUpdate: Legacy.extend({ recipient: ChangedRecipient }),
  recipientUpdateMany: Legacy.extend({ recipients: z.array(ChangedRecipient).min(1).max(100) }),
  recipientDelete: z.object({ recipientId: NumericId }),
  attachmentQuery: z.object({ documentId: z.coerce.number().pipe(NumericId) }),
  attachmentCreate: Legacy.extend({ data: AttachmentData }),
  attachmentUpdate: z.object({ id: AttachmentId, data: AttachmentData }),
  attachmentDelete: z.object({ id: AttachmentId }),
}
const S = PartSchemas

export function partRoutes(ctx: HostContext, kind: Kind) {
  const r = new Hono<AppEnv>()
  const type = TYPE[kind]
  const base = `/${kind}`

  /** The envelope a body's documentId / templateId names (resolved before the operation locks it). */
  const envelopeOf = async (c: Ctx, body: Record<string, unknown>) => {
    const key = ID_KEY[kind]
    const n = NumericId.safeParse(body[key])
    if (!n.success) throw badRequest(`invalid request: ${key}: Expected a ${kind} id (a positive integer)`, [issue([key], 'Expected a positive integer')])
    return resolve(ctx.db, principal(c), kind, n.data)
  }

  // ---- fields --------------------------------------------------------------------------------
  const createFieldsFrom = async (c: Ctx, body: Record<string, unknown>, list: unknown[]) => {
    const e = await envelopeOf(c, body)
    return { e, rows: await createFields(ctx.db, principal(c), e.id, parseFieldEntries(list.map(newFieldNames)), type) }
  }
  r.post(`${base}/field/create`, async (c) => {
    const body = await jsonBody(c, S.fieldCreate)
    const { e, rows } = await createFieldsFrom(c, body, [body.field])
    return c.json(legacyField(rows[0]!, e))
  })
  r.post(`${base}/field/create-many`, async (c) => {
    const body = await jsonBody(c, S.fieldCreateMany)
    const { e, rows } = await createFieldsFrom(c, body, body.fields)
    return c.json({ fields: rows.map((f) => legacyField(f, e)) })
  })
  r.post(`${base}/field/update`, async (c) => {
    const body = await jsonBody(c, S.fieldUpdate)
    const e = await envelopeOf(c, body)
    const [row] = await updateFields(ctx.db, principal(c), e.id, [body.field], type)
    return c.json(legacyField(row!, e))
  })
  r.post(`${base}/field/update-many`, async (c) => {
    const body = await jsonBody(c, S.fieldUpdateMany)
    const e = await envelopeOf(c, body)
    const rows = await updateFields(ctx.db, principal(c), e.id, body.fields, type)
    return c.json({ fields: rows.map((f) => legacyField(f, e)) })
  })
  r.post(`${base}/field/delete`, async (c) => {
    const { fieldId } = await jsonBody(c, S.fieldDelete)
    await deleteField(ctx.db, principal(c), fieldId, type)
    return c.json({ success: true })
  })
  r.get(`${base}/field/:id{[0-9]+}`, async (c) => {
    const { field, envelope } = await getField(ctx.db, principal(c), numericParam(c.req.param('id'), 'field'), type)
    return c.json(legacyField(field, envelope))
  })

  // ---- recipients ----------------------------------------------------------------------------
  r.post(`${base}/recipient/create`, async (c) => {
    const body = await jsonBody(c, S.recipientCreate, { authAt: AUTH_AT.legacyRecipient })
    const e = await envelopeOf(c, body)
    const [out] = await createRecipients(ctx.db, principal(c), e.id, [body.recipient], type)
    return c.json((await recipientsWithFields(ctx.db, e, [out!]))[0])
  })
  r.post(`${base}/recipient/create-many`, async (c) => {
    const body = await jsonBody(c, S.recipientCreateMany, { authAt: AUTH_AT.legacyRecipients })
    const e = await envelopeOf(c, body)
    return c.json({ recipients: await recipientsWithFields(ctx.db, e, await createRecipients(ctx.db, principal(c), e.id, body.recipients, type)) })
  })
  r.post(`${base}/recipient/update`, async (c) => {
    const body = await jsonBody(c, S.recipientUpdate, { authAt: AUTH_AT.legacyRecipient })
    const e = await envelopeOf(c, body)
    const [out] = await updateRecipients(ctx.db, principal(c), e.id, [body.recipient], type, { client: clientOf(c), now: ctx.clock.now() })
    return c.json((await recipientsWithFields(ctx.db, e, [out!]))[0])
  })
  r.post(`${base}/recipient/update-many`, async (c) => {
    const body = await jsonBody(c, S.recipientUpdateMany, { authAt: AUTH_AT.legacyRecipients })
    const e = await envelopeOf(c, body)
    return c.json({ recipients: await recipientsWithFields(ctx.db, e, await updateRecipients(ctx.db, principal(c), e.id, body.recipients, type, { client: clientOf(c), now: ctx.clock.now() })) })
  })
  r.post(`${base}/recipient/delete`, async (c) => {
    const { recipientId } = await jsonBody(c, S.recipientDelete)
    await deleteRecipient(ctx.db, principal(c), recipientId, type)
    return c.json({ success: true })
  })
  r.get(`${base}/recipient/:id{[0-9]+}`, async (c) => {
    const r = await getRecipient(ctx.db, principal(c), numericParam(c.req.param('id'), 'recipient'), type)
    const e = { id: r.envelopeId, type, secondary_number: (r.documentId ?? r.templateId)! }
    return c.json((await recipientsWithFields(ctx.db, e, [r]))[0])
  })

  // ---- attachments (documents only) ----------------------------------------------------------
  if (kind === 'document') {
    r.get('/document/attachment', async (c) => {
      const q = parse(S.attachmentQuery, c.req.query())
      const e = await resolve(ctx.db, principal(c), kind, q.documentId)
      return c.json({ data: await listAttachments(ctx.db, principal(c), e.id, undefined, type) })
    })
    r.post('/document/attachment/create', async (c) => {
      const body = await jsonBody(c, S.attachmentCreate)
      const e = await envelopeOf(c, body)
      return c.json({ id: await createAttachment(ctx.db, principal(c), e.id, body.data, type) })
    })
    r.post('/document/attachment/update', async (c) => {
      const body = await jsonBody(c, S.attachmentUpdate)
      await updateAttachment(ctx.db, principal(c), body.id, body.data, type)
      return c.json({ success: true })
    })
    r.post('/document/attachment/delete', async (c) => {
      const { id } = await jsonBody(c, S.attachmentDelete)
      await deleteAttachment(ctx.db, principal(c), id, type)
      return c.json({ success: true })
    })
  }

  return r
}
