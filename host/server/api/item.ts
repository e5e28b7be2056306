import { Hono } from 'hono'
import { z } from 'zod'
import { badRequest, issue } from '../errors.js'
import { createItems, deleteItem, updateItems } from '../domain/item/edits.js'
import { itemPdf } from '../domain/item/items.js'
import { fieldsFromForm } from '../domain/field/form-import.js'
import { toItem } from '../domain/common/rows.js'
import { findParent } from '../domain/envelope/lookup.js'
import { jsonBody, multipartBody, parse, storedPdfResponse, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { EnvelopeId, ItemId, NumericId, stringParam } from './schemas.js'
import type { V2Answer } from '../contract/api-v2.js'

export const CreateManyPayload = z.object({
  envelopeId: EnvelopeId,
  /** Extension: each file's own form fields become fields of this recipient of the envelope. */
  importFormFields: z.object({ recipientId: NumericId }).strict().optional(),
})
export const FormFieldsPayload = z.object({})
export const UpdateMany = z.object({
  envelopeId: EnvelopeId,
  data: z
    .array(
      z
        .object({
          envelopeItemId: ItemId,
          order: z.int().min(1).max(10000).optional(),
          title: z.string().trim().min(1).max(255).optional(),
        })
        .strict(),
    )
    .min(1)
    .max(100),
})

export const DeleteBody = z.object({ envelopeItemId: ItemId })
export const DownloadQuery = z.object({ version: z.enum(['signed', 'original']).optional() })

export function itemRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/envelope/item/create-many', async (c) => {
    const p = principal(c)
    const { payload, files } = await multipartBody(c, CreateManyPayload)
    if (!files.length) throw badRequest('at least one PDF is required in the files parts', [issue(['files'], 'At least one file is required')])
    return c.json({ data: (await createItems(ctx.db, p, payload.envelopeId, files, payload.importFormFields)).map(toItem) } satisfies V2Answer<'POST /envelope/item/create-many'>)
  })

  /** Extension: the form fields of PDFs not stored (the editor's question before it places them). */
  r.post('/pdf/form-fields', async (c) => {
    const { files } = await multipartBody(c, FormFieldsPayload, undefined, { optionalPayload: true })
    if (!files.length) throw badRequest('at least one PDF is required in the files parts', [issue(['files'], 'At least one file is required')])
    const data = files.map((f) => ({ name: f.name, pageCount: f.pageCount, fields: fieldsFromForm(f) }))
    return c.json({ data } satisfies V2Answer<'POST /pdf/form-fields'>)
  })

  r.post('/envelope/item/update-many', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, UpdateMany)
    return c.json({ data: (await updateItems(ctx.db, p, body.envelopeId, body.data)).map(toItem) } satisfies V2Answer<'POST /envelope/item/update-many'>)
  })

  /** Extension: removes an item and the fields placed on it; an envelope keeps at least one item. */
  r.post('/envelope/item/delete', async (c) => {
    const { envelopeItemId } = await jsonBody(c, DeleteBody)
    await deleteItem(ctx.db, principal(c), envelopeItemId)
    return c.json({ success: true } satisfies V2Answer<'POST /envelope/item/delete'>)
  })

  r.get('/envelope/item/:id/download', async (c) => {
    const id = stringParam(c.req.param('id'), 'envelope item')
    const { version } = parse(DownloadQuery, c.req.query())
    await findParent(ctx.db, principal(c), 'envelope_items', id, 'envelope item')
    const { title, file } = await itemPdf(ctx.db, id, version)
    return storedPdfResponse(c, ctx, file, title)
  })

  return r
}
