import type { z } from 'zod'
import type { Principal } from '../../auth/principal.js'
import type { CoordinateField, PlaceholderField } from '../common/inputs.js'
import type { Db, Queryable } from '../../db/index.js'
import { badRequest, issue, notFound, type ApiIssue } from '../../errors.js'
import { placeFromPlaceholders } from '../../pdf/placeholders.js'
import { editEnvelope } from '../envelope/changes.js'
import type { FieldPlacement } from '../common/inputs.js'
import { itemsOf } from '../item/items.js'
import type { EnvelopeRow, FieldRow, ItemRow } from '../common/rows.js'
import { findParent } from '../envelope/lookup.js'
import type { EnvelopeType } from '../common/status.js'

/** Percentages come from floating-point arithmetic: 6/612*100 + 606/612*100 is 100.00000000000001. */
const EPSILON = 1e-6

/**
 * The rules a placed field must satisfy beyond its schema: its item belongs to the envelope, its
 * page exists in that item, it fits on the page, and its recipient belongs to the envelope.
 */
export function placementIssues(
  f: Omit<FieldPlacement, 'envelopeItemId'> & { envelopeItemId: string | undefined },
  path: (string | number)[],
  items: Pick<ItemRow, 'id' | 'page_count'>[],
  recipientIds: Set<number> | null,
): ApiIssue[] {
  const out: ApiIssue[] = []
  const item = items.find((i) => i.id === f.envelopeItemId)
  if (!item) out.push(issue([...path, 'envelopeItemId'], 'Envelope item not found in this envelope'))
  else if (f.page > item.page_count) out.push(issue([...path, 'page'], `Page ${f.page} does not exist: the item has ${item.page_count} page(s)`))
  if (f.positionX + f.width > 100 + EPSILON) out.push(issue([...path, 'width'], 'positionX + width must not exceed 100 (percent of the page)'))
  if (f.positionY + f.height > 100 + EPSILON) out.push(issue([...path, 'height'], 'positionY + height must not exceed 100 (percent of the page)'))
  if (recipientIds && !recipientIds.has(f.recipientId)) out.push(issue([...path, 'recipientId'], 'Recipient not found in this envelope'))
  return out
}

export function throwIfIssues(issues: ApiIssue[]): void {
  if (issues.length) throw badRequest(`invalid request: ${issues[0]!.path}: ${issues[0]!.message}`, issues)
}

/** A field to write: its placement, and a value filled in ahead of signing (a copy's prefill). */
export type NewField = FieldPlacement & { value?: string | null | undefined }

/**
 * New fields of an envelope, in one statement however many (rows in the order given, as
 * insertRecipients); a field with a value is written inserted, holding it.
 */
export async function insertFields(tx: Queryable, envelopeId: string, list: NewField[]): Promise<FieldRow[]> {
  if (!list.length) return []
  const rows = await tx.query<FieldRow>(
    `insert into fields (envelope_id, envelope_item_id, recipient_id, type, page, position_x, position_y, width, height, field_meta, inserted, custom_text)
     select $1, f.item, f.recipient, f.type, f.page, f.x, f.y, f.width, f.height, f.meta, f.value is not null, f.value
     from unnest($2::text[], $3::int[], $4::text[], $5::int[], $6::float8[], $7::float8[], $8::float8[], $9::float8[], $10::jsonb[], $11::text[])
       with ordinality as f (item, recipient, type, page, x, y, width, height, meta, value, n)
     order by f.n
     returning *`,
    [
      envelopeId,
      list.map((f) => f.envelopeItemId),
      list.map((f) => f.recipientId),
      list.map((f) => f.type),
      list.map((f) => f.page),
      list.map((f) => f.positionX),
      list.map((f) => f.positionY),
      list.map((f) => f.width),
      list.map((f) => f.height),
      list.map((f) => (f.fieldMeta == null ? null : JSON.stringify(f.fieldMeta))),
      list.map((f) => f.value ?? null),
    ],
  )
  return rows.sort((a, b) => a.id - b.id)
}

// ---- field operations (every door: API v2, the deprecated route maps) ------------------------
// Each may be limited to envelopes of one `type` (another is 404): the deprecated
// /document/... and /template/... routes.

export type CoordinateEntry = z.infer<typeof CoordinateField>
export type PlaceholderEntry = z.infer<typeof PlaceholderField>
/** Entries already checked against their schema, with their index in the request. */
export interface FieldEntries {
  coordinate: { index: number; value: CoordinateEntry }[]
  placeholder: { index: number; value: PlaceholderEntry }[]
}

export interface FieldPatch {
  id: number
  recipientId?: number | undefined
  envelopeItemId?: string | undefined
  type?: string | undefined
  page?: number | undefined
  positionX?: number | undefined
  positionY?: number | undefined
  width?: number | undefined
  height?: number | undefined
  fieldMeta?: Record<string, unknown> | null | undefined
}

/** The ids of an envelope's recipients, to check the ones a request names. */
export const recipientIdsOf = async (tx: Queryable, envelopeId: string) =>
  new Set((await tx.query<{ id: number }>('select id from recipients where envelope_id = $1', [envelopeId])).map((x) => x.id))

/** Places fields on a draft (by coordinates, or where placeholder text occurs); stored in request order. */
export function createFields(db: Db, p: Principal, envelopeId: string, entries: FieldEntries, type?: EnvelopeType): Promise<FieldRow[]> {
  const fieldPaths = new Map<number, (string | number)[]>()
  return editEnvelope(db, p, { envelopeId, type, fieldPaths }, async (tx, e) => {
    const items = await itemsOf(tx, e.id)
    const recipients = await recipientIdsOf(tx, e.id)
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
    rows.forEach((row, n) => fieldPaths.set(row.id, ['data', placed[n]!.index]))
    return rows
  })
}

/** Changes fields of a draft: each patch merged onto the stored field, then checked like a new one. */
export function updateFields(db: Db, p: Principal, envelopeId: string, data: FieldPatch[], type?: EnvelopeType): Promise<FieldRow[]> {
  const fieldPaths = new Map(data.map((d, i) => [d.id, ['data', i] as (string | number)[]]))
  return editEnvelope(db, p, { envelopeId, type, fieldPaths }, async (tx, e) => {
    const items = await itemsOf(tx, e.id)
    const recipients = await recipientIdsOf(tx, e.id)
    const existing = new Map((await tx.query<FieldRow>('select * from fields where envelope_id = $1', [e.id])).map((f) => [f.id, f]))
    const issues: ApiIssue[] = []
    const merged: { id: number; field: FieldPlacement }[] = []
    for (const [i, d] of data.entries()) {
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
}

export async function deleteField(db: Db, p: Principal, fieldId: number, type?: EnvelopeType): Promise<void> {
  await editEnvelope(db, p, { table: 'fields', id: fieldId, what: 'field', type }, async (tx) => {
    await tx.query('delete from fields where id = $1', [fieldId])
  })
}

/** A field with the envelope it is on. */
export async function getField(db: Queryable, p: Principal, fieldId: number, type?: EnvelopeType): Promise<{ field: FieldRow; envelope: EnvelopeRow }> {
  const envelope = await findParent(db, p, 'fields', fieldId, 'field')
  if (type && envelope.type !== type) throw notFound('field')
  const [field] = await db.query<FieldRow>('select * from fields where id = $1', [fieldId])
  if (!field) throw notFound('field')
  return { field, envelope }
}
