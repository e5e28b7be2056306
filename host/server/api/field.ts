import { Hono } from 'hono'
import { z } from 'zod'
import { issue, notFound, type ApiIssue } from '../errors.js'
import { editEnvelope } from '../domain/changes.js'
import { insertFields, placementIssues, throwIfIssues, type FieldPlacement } from '../domain/fields.js'
import { itemsOf } from '../domain/items.js'
import { findParent, toField, type FieldRow } from '../domain/resources.js'
import { placeFromPlaceholders } from '../pdf/placeholders.js'
import { jsonBody, principal, type AppEnv, type HostContext } from './http.js'
import { numericParam } from './recipient.js'
import { FIELD_TYPES } from '../../../src/protocol/index.js'
import { CoordinateField, EnvelopeId, FieldMeta, ItemId, NumericId, PlaceholderField } from './schemas.js'

const CreateMany = z.object({ envelopeId: EnvelopeId, data: z.array(z.unknown()).min(1).max(500) })

const FieldPatch = z
  .object({
    id: NumericId,
    recipientId: NumericId.optional(),
    envelopeItemId: ItemId.optional(),
    type: z.enum(FIELD_TYPES).optional(),
    page: z.int().min(1).optional(),
    positionX: z.number().min(0).max(100).optional(),
    positionY: z.number().min(0).max(100).optional(),
    width: z.number().min(0).max(100).optional(),
    height: z.number().min(0).max(100).optional(),
    fieldMeta: FieldMeta,
  })
  .strict()
const UpdateMany = z.object({ envelopeId: EnvelopeId, data: z.array(FieldPatch).min(1).max(500) })

/** Each entry parsed on its own, so issues name the entry; all of them reported at once. */
function parseEntries(entries: unknown[]) {
  const issues: ApiIssue[] = []
  const coordinate: { index: number; value: z.infer<typeof CoordinateField> }[] = []
  const placeholder: { index: number; value: z.infer<typeof PlaceholderField> }[] = []
  for (const [index, raw] of entries.entries()) {
    const isPlaceholder = typeof raw === 'object' && raw !== null && 'placeholder' in raw
    const r = (isPlaceholder ? PlaceholderField : CoordinateField).safeParse(raw)
    if (!r.success) issues.push(...r.error.issues.map((i) => issue(['data', index, ...(i.path as (string | number)[])], i.message)))
    else if (isPlaceholder) placeholder.push({ index, value: r.data as z.infer<typeof PlaceholderField> })
    else coordinate.push({ index, value: r.data as z.infer<typeof CoordinateField> })
  }
  throwIfIssues(issues)
  return { coordinate, placeholder }
}

export function fieldRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/envelope/field/create-many', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, CreateMany)
    const entries = parseEntries(body.data)
    const rows = await editEnvelope(ctx.db, p, { envelopeId: body.envelopeId }, async (tx, e) => {
      const items = await itemsOf(tx, e.id)
      const recipients = new Set((await tx.query<{ id: number }>('select id from recipients where envelope_id = $1', [e.id])).map((x) => x.id))
      const placed: { index: number; field: FieldPlacement }[] = []
      const issues: ApiIssue[] = []
      for (const { index, value } of entries.coordinate) {
        const field = { ...value, envelopeItemId: value.envelopeItemId ?? items[0]!.id }
        issues.push(...placementIssues(field, ['data', index], items, recipients))
        placed.push({ index, field })
      }
      if (entries.placeholder.length) {
        const found = await placeFromPlaceholders(tx, items, entries.placeholder)
        for (const f of found.issues) issues.push(f)
        for (const f of found.fields) {
          issues.push(...placementIssues(f.field, ['data', f.index], items, recipients))
          placed.push(f)
        }
      }
      throwIfIssues(issues)
      // Stored in request order, however each entry was placed.
      placed.sort((a, b) => a.index - b.index)
      const rows = await insertFields(tx, e.id, placed.map((x) => x.field))
      return rows
    })
    return c.json({ data: rows.map(toField) })
  })

  r.post('/envelope/field/update-many', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, UpdateMany)
    const rows = await editEnvelope(ctx.db, p, { envelopeId: body.envelopeId }, async (tx, e) => {
      const items = await itemsOf(tx, e.id)
      const recipients = new Set((await tx.query<{ id: number }>('select id from recipients where envelope_id = $1', [e.id])).map((x) => x.id))
      const existing = new Map(
        (await tx.query<FieldRow>('select * from fields where envelope_id = $1', [e.id])).map((f) => [f.id, f]),
      )
      const issues: ApiIssue[] = []
      const merged: { id: number; field: FieldPlacement }[] = []
      for (const [i, d] of body.data.entries()) {
        const old = existing.get(d.id)
        if (!old) {
          issues.push(issue(['data', i, 'id'], 'Field not found in this envelope'))
          continue
        }
        const field: FieldPlacement = {
          recipientId: d.recipientId ?? old.recipient_id,
          envelopeItemId: d.envelopeItemId ?? old.envelope_item_id,
          type: d.type ?? old.type,
          page: d.page ?? old.page,
          positionX: d.positionX ?? old.position_x,
          positionY: d.positionY ?? old.position_y,
          width: d.width ?? old.width,
          height: d.height ?? old.height,
          fieldMeta: d.fieldMeta === undefined ? old.field_meta : d.fieldMeta,
        }
        issues.push(...placementIssues(field, ['data', i], items, recipients))
        merged.push({ id: d.id, field })
      }
      throwIfIssues(issues)
      const out: FieldRow[] = []
      for (const { id, field: f } of merged) {
        const [row] = await tx.query<FieldRow>(
          `update fields set recipient_id = $2, envelope_item_id = $3, type = $4, page = $5, position_x = $6, position_y = $7,
             width = $8, height = $9, field_meta = $10 where id = $1 returning *`,
          [id, f.recipientId, f.envelopeItemId, f.type, f.page, f.positionX, f.positionY, f.width, f.height, f.fieldMeta == null ? null : JSON.stringify(f.fieldMeta)],
        )
        out.push(row!)
      }
      return out
    })
    return c.json({ data: rows.map(toField) })
  })

  r.post('/envelope/field/delete', async (c) => {
    const p = principal(c)
    const { fieldId } = await jsonBody(c, z.object({ fieldId: NumericId }))
    await editEnvelope(ctx.db, p, { table: 'fields', id: fieldId, what: 'field' }, async (tx) => {
      await tx.query('delete from fields where id = $1', [fieldId])
    })
    return c.json({ success: true })
  })

  r.get('/envelope/field/:id', async (c) => {
    const p = principal(c)
    const id = numericParam(c.req.param('id'), 'field')
    await findParent(ctx.db, p, 'fields', id, 'field')
    const [row] = await ctx.db.query<FieldRow>('select * from fields where id = $1', [id])
    if (!row) throw notFound('field')
    return c.json(toField(row))
  })

  return r
}

