import type { Principal } from '../../auth/principal.js'
import type { Db } from '../../db/index.js'
import { ApiError, issue } from '../../errors.js'
import { editEnvelope } from '../envelope/changes.js'
import { dropFilesOf, type ItemFileIds, type UploadedPdf } from './files.js'
import { insertFields, recipientIdsOf, throwIfIssues } from '../field/fields.js'
import { fieldsFromForm } from '../field/form-import.js'
import { insertItems, itemsOf, type NewItem } from './items.js'
import type { ItemRow } from '../common/rows.js'

/**
 * Appends checked PDFs to a draft as new items, after its existing ones; with `importFormFields`,
 * each file's own form fields become fields of that recipient of the draft.
 */
export function createItems(db: Db, p: Principal, envelopeId: string, files: (NewItem & Pick<UploadedPdf, 'formFields'>)[], importFormFields?: { recipientId: number }): Promise<ItemRow[]> {
  return editEnvelope(db, p, { envelopeId }, async (tx, e) => {
    const owner = importFormFields?.recipientId
    if (owner !== undefined && !(await recipientIdsOf(tx, e.id)).has(owner)) {
      throwIfIssues([issue(['payload', 'importFormFields', 'recipientId'], 'Recipient not found in this envelope')])
    }
    const items = await insertItems(tx, e.id, files)
    if (owner !== undefined) {
      await insertFields(tx, e.id, files.flatMap((f, i) => fieldsFromForm(f).map((field) => ({ ...field, recipientId: owner, envelopeItemId: items[i]!.id }))))
    }
    return items
  })
}

export interface ItemPatch {
  envelopeItemId: string
  order?: number | undefined
  title?: string | undefined
}

/** Renames or reorders items of a draft; every item named must belong to it (`data[i].envelopeItemId` otherwise). */
export function updateItems(db: Db, p: Principal, envelopeId: string, data: ItemPatch[]): Promise<ItemRow[]> {
  return editEnvelope(db, p, { envelopeId }, async (tx, e) => {
    const items = new Set((await itemsOf(tx, e.id)).map((i) => i.id))
    throwIfIssues(data.flatMap((d, i) => (items.has(d.envelopeItemId) ? [] : [issue(['data', i, 'envelopeItemId'], 'Envelope item not found in this envelope')])))
    const out: ItemRow[] = []
    for (const d of data) {
      const [row] = await tx.query<ItemRow>(
        'update envelope_items set title = coalesce($2, title), item_order = coalesce($3, item_order) where id = $1 returning *',
        [d.envelopeItemId, d.title ?? null, d.order ?? null],
      )
      out.push(row!)
    }
    return out
  })
}

/** Removes an item of a draft and the fields placed on it; an envelope keeps at least one item. */
export async function deleteItem(db: Db, p: Principal, envelopeItemId: string): Promise<void> {
  await editEnvelope(db, p, { table: 'envelope_items', id: envelopeItemId, what: 'envelope item' }, async (tx, e) => {
    if ((await itemsOf(tx, e.id)).length <= 1) {
      throw new ApiError(400, 'LAST_ENVELOPE_ITEM', 'the last item of an envelope cannot be deleted')
    }
    // A draft's file does not outlive it (unless another item names the same bytes).
    await dropFilesOf(tx, await tx.query<ItemFileIds>('delete from envelope_items where id = $1 returning document_data_id, signed_document_data_id', [envelopeItemId]))
  })
}
