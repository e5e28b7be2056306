import { Hono } from 'hono'
import { z } from 'zod'
import { ApiError, badRequest, issue, notFound } from '../errors.js'
import { editEnvelope } from '../domain/changes.js'
import { insertItems, itemPdf, itemsOf } from '../domain/items.js'
import { dropFilesOf, type ItemFileIds } from '../domain/files.js'
import { findParent, toItem, type ItemRow } from '../domain/resources.js'
import { jsonBody, multipartBody, parse, storedPdfResponse, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { EnvelopeId, ItemId, stringParam } from './schemas.js'

export const CreateManyPayload = z.object({ envelopeId: EnvelopeId })
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
    const rows = await editEnvelope(ctx.db, p, { envelopeId: payload.envelopeId }, (tx, e) =>
      insertItems(tx, e.id, files),
    )
    return c.json({ data: rows.map(toItem) })
  })

  r.post('/envelope/item/update-many', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, UpdateMany)
    const rows = await editEnvelope(ctx.db, p, { envelopeId: body.envelopeId }, async (tx, e) => {
      const items = new Set((await itemsOf(tx, e.id)).map((i) => i.id))
      const missing = body.data.flatMap((d, i) => (items.has(d.envelopeItemId) ? [] : [issue(['data', i, 'envelopeItemId'], 'Envelope item not found in this envelope')]))
      if (missing.length) throw badRequest(`invalid request: ${missing[0]!.path}: ${missing[0]!.message}`, missing)
      const out: ItemRow[] = []
      for (const d of body.data) {
        const [row] = await tx.query<ItemRow>(
          'update envelope_items set title = coalesce($2, title), item_order = coalesce($3, item_order) where id = $1 returning *',
          [d.envelopeItemId, d.title ?? null, d.order ?? null],
        )
        out.push(row!)
      }
      return out
    })
    return c.json({ data: rows.map(toItem) })
  })

  /** Extension: removes an item and the fields placed on it; an envelope keeps at least one item. */
  r.post('/envelope/item/delete', async (c) => {
    const p = principal(c)
    const { envelopeItemId } = await jsonBody(c, DeleteBody)
    await editEnvelope(ctx.db, p, { table: 'envelope_items', id: envelopeItemId, what: 'envelope item' }, async (tx, e) => {
      if ((await itemsOf(tx, e.id)).length <= 1) {
        throw new ApiError(400, 'LAST_ENVELOPE_ITEM', 'the last item of an envelope cannot be deleted')
      }
      // A draft's file does not outlive it (unless another item names the same bytes).
      await dropFilesOf(tx, await tx.query<ItemFileIds>('delete from envelope_items where id = $1 returning document_data_id, signed_document_data_id', [envelopeItemId]))
    })
    return c.json({ success: true })
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
