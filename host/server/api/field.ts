import { Hono } from 'hono'
import { z } from 'zod'
import { issue, type ApiIssue } from '../errors.js'
import { createFields, deleteField, getField, throwIfIssues, updateFields, type FieldEntries } from '../domain/field/fields.js'
import { toField } from '../domain/common/rows.js'
import { jsonBody, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { numericParam } from './recipient.js'
import { FIELD_TYPES } from '../../../src/protocol/index.js'
import { CoordinateField, EnvelopeId, FieldMeta, ItemId, NumericId, PlaceholderField } from './schemas.js'
import type { V2Answer } from '../contract/api-v2.js'

export const CreateMany = z.object({ envelopeId: EnvelopeId, data: z.array(z.unknown()).min(1).max(500) })

export const FieldPatch = z
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
export const UpdateMany = z.object({ envelopeId: EnvelopeId, data: z.array(FieldPatch).min(1).max(500) })
export const DeleteBody = z.object({ fieldId: NumericId })

/** Each entry parsed on its own, so issues name the entry; all of them reported at once. */
export function parseFieldEntries(entries: unknown[]): FieldEntries {
  const issues: ApiIssue[] = []
  const coordinate: FieldEntries['coordinate'] = []
  const placeholder: FieldEntries['placeholder'] = []
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
    const body = await jsonBody(c, CreateMany)
    const rows = await createFields(ctx.db, principal(c), body.envelopeId, parseFieldEntries(body.data))
    return c.json({ data: rows.map(toField) } satisfies V2Answer<'POST /envelope/field/create-many'>)
  })

  r.post('/envelope/field/update-many', async (c) => {
    const body = await jsonBody(c, UpdateMany)
    const rows = await updateFields(ctx.db, principal(c), body.envelopeId, body.data)
    return c.json({ data: rows.map(toField) } satisfies V2Answer<'POST /envelope/field/update-many'>)
  })

  r.post('/envelope/field/delete', async (c) => {
    const { fieldId } = await jsonBody(c, DeleteBody)
    await deleteField(ctx.db, principal(c), fieldId)
    return c.json({ success: true } satisfies V2Answer<'POST /envelope/field/delete'>)
  })

  r.get('/envelope/field/:id', async (c) => {
    const { field } = await getField(ctx.db, principal(c), numericParam(c.req.param('id'), 'field'))
    return c.json(toField(field) satisfies V2Answer<'GET /envelope/field/:fieldId'>)
  })

  return r
}

