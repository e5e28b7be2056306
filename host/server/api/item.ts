import { Hono } from 'hono'
import { z } from 'zod'
import { ApiError, badRequest, issue, notFound } from '../errors.js'
import { editEnvelope } from '../domain/changes.js'
import { insertItems, itemsOf } from '../domain/items.js'
import { findParent, toItem, type ItemRow } from '../domain/resources.js'
import { jsonBody, multipartBody, principal, type AppEnv, type HostContext } from './http.js'
import { EnvelopeId, ItemId } from './schemas.js'

const UpdateMany = z.object({
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

export function itemRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/envelope/item/create-many', async (c) => {
    const p = principal(c)
    const { payload, files } = await multipartBody(c, z.object({ envelopeId: EnvelopeId }))
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
    const { envelopeItemId } = await jsonBody(c, z.object({ envelopeItemId: ItemId }))
    await editEnvelope(ctx.db, p, { table: 'envelope_items', id: envelopeItemId, what: 'envelope item' }, async (tx, e) => {
      if ((await itemsOf(tx, e.id)).length <= 1) {
        throw new ApiError(400, 'LAST_ENVELOPE_ITEM', 'the last item of an envelope cannot be deleted')
      }
      await tx.query('delete from envelope_items where id = $1', [envelopeItemId])
    })
    return c.json({ success: true })
  })

  r.get('/envelope/item/:id/download', async (c) => {
    const p = principal(c)
    const id = c.req.param('id')
    await findParent(ctx.db, p, 'envelope_items', id, 'envelope item')
    const [row] = await ctx.db.query<{ bytes: Uint8Array; title: string }>(
      'select d.bytes, i.title from envelope_items i join document_data d on d.id = i.document_data_id where i.id = $1',
      [id],
    )
    if (!row) throw notFound('envelope item')
    const name = /\.pdf$/i.test(row.title) ? row.title : `${row.title}.pdf`
    return c.body(new Uint8Array(row.bytes), 200, {
        'Content-Type': 'application/pdf',
        'Content-Length': String(row.bytes.byteLength),
        'Content-Disposition': `attachment; filename="${name.replace(/[^\w. -]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'Cache-Control': 'private, no-store',
    })
  })

  return r
}
