import type { Queryable } from '../db/index.js'
import { newId } from './ids.js'
import type { ItemRow } from './resources.js'

export interface NewItem {
  name: string
  bytes: Uint8Array
  pageCount: number
}

/** Stores each PDF and appends it as an item after the envelope's existing ones. */
export async function insertItems(tx: Queryable, envelopeId: string, files: NewItem[]): Promise<ItemRow[]> {
  const [{ max }] = (await tx.query<{ max: number }>(
    'select coalesce(max(item_order), 0)::int as max from envelope_items where envelope_id = $1',
    [envelopeId],
  )) as [{ max: number }]
  const rows: ItemRow[] = []
  for (const [i, f] of files.entries()) {
    const dataId = newId.documentData()
    await tx.query('insert into document_data (id, bytes, size, page_count) values ($1, $2, $3, $4)', [
      dataId,
      f.bytes,
      f.bytes.byteLength,
      f.pageCount,
    ])
    const [row] = await tx.query<ItemRow>(
      `insert into envelope_items (id, envelope_id, title, item_order, document_data_id, page_count)
       values ($1, $2, $3, $4, $5, $6) returning *`,
      [newId.envelopeItem(), envelopeId, f.name.slice(0, 255), max + i + 1, dataId, f.pageCount],
    )
    rows.push(row!)
  }
  return rows
}

export async function itemsOf(tx: Queryable, envelopeId: string): Promise<ItemRow[]> {
  return tx.query<ItemRow>('select * from envelope_items where envelope_id = $1 order by item_order, created_at, id', [envelopeId])
}
