import type { Queryable } from '../db/index.js'
import { badRequest, issue, type ApiIssue } from '../errors.js'
import type { FieldRow, ItemRow } from './resources.js'

export interface FieldPlacement {
  recipientId: number
  envelopeItemId: string
  type: string
  page: number
  positionX: number
  positionY: number
  width: number
  height: number
  fieldMeta?: Record<string, unknown> | null | undefined
}

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

export async function insertFields(tx: Queryable, envelopeId: string, list: FieldPlacement[]): Promise<FieldRow[]> {
  const rows: FieldRow[] = []
  for (const f of list) {
    const [row] = await tx.query<FieldRow>(
      `insert into fields (envelope_id, envelope_item_id, recipient_id, type, page, position_x, position_y, width, height, field_meta)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *`,
      [
        envelopeId,
        f.envelopeItemId,
        f.recipientId,
        f.type,
        f.page,
        f.positionX,
        f.positionY,
        f.width,
        f.height,
        f.fieldMeta == null ? null : JSON.stringify(f.fieldMeta),
      ],
    )
    rows.push(row!)
  }
  return rows
}

export async function touch(tx: Queryable, envelopeId: string): Promise<void> {
  await tx.query('update envelopes set updated_at = now() where id = $1', [envelopeId])
}
