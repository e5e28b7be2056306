import { downloadName } from '../../../src/protocol/index.js'
import type { Queryable } from '../db/index.js'
import { ApiError, notFound } from '../errors.js'
import { newId } from './ids.js'
import type { ItemRow } from './resources.js'

export interface NewItem {
  name: string
  bytes: Uint8Array
  pageCount: number
}

/**
 * Stores each PDF and appends it as an item after the envelope's existing ones (`fresh`: the
 * envelope was made in this transaction and has none yet, so their order is not looked up).
 */
export async function insertItems(tx: Queryable, envelopeId: string, files: NewItem[], fresh = false): Promise<ItemRow[]> {
  const [{ max }] = fresh
    ? [{ max: 0 }]
    : ((await tx.query<{ max: number }>(
        'select coalesce(max(item_order), 0)::int as max from envelope_items where envelope_id = $1',
        [envelopeId],
      )) as [{ max: number }])
  const rows: ItemRow[] = []
  for (const [i, f] of files.entries()) {
    // The file and its item in one statement (one round trip fewer per file).
    const [row] = await tx.query<ItemRow>(
      `with data as (insert into document_data (id, bytes, size, page_count) values ($5, $7, $8, $6))
       insert into envelope_items (id, envelope_id, title, item_order, document_data_id, page_count)
       values ($1, $2, $3, $4, $5, $6) returning *`,
      [newId.envelopeItem(), envelopeId, f.name.slice(0, 255), max + i + 1, newId.documentData(), f.pageCount, f.bytes, f.bytes.byteLength],
    )
    rows.push(row!)
  }
  return rows
}

export async function itemsOf(tx: Queryable, envelopeId: string): Promise<ItemRow[]> {
  return tx.query<ItemRow>('select * from envelope_items where envelope_id = $1 order by item_order, created_at, id', [envelopeId])
}

export type PdfVersion = 'signed' | 'original'

/**
 * An item's file: the sealed one once its envelope completed (the default then), else the
 * original; asking for `signed` before completion is a 400.
 */
export async function itemPdf(db: Queryable, itemId: string, version?: PdfVersion): Promise<{ title: string; bytes: Uint8Array }> {
  const [item] = await db.query<{ title: string; document_data_id: string; signed_document_data_id: string | null }>(
    'select title, document_data_id, signed_document_data_id from envelope_items where id = $1',
    [itemId],
  )
  if (!item) throw notFound('envelope item')
  if (version === 'signed' && !item.signed_document_data_id) {
    throw new ApiError(400, 'DOCUMENT_NOT_COMPLETED', 'the signed version exists once every recipient has completed')
  }
  const signed = version !== 'original' && item.signed_document_data_id
  const [data] = await db.query<{ bytes: Uint8Array }>('select bytes from document_data where id = $1', [
    signed ? item.signed_document_data_id : item.document_data_id,
  ])
  return { title: downloadName(item.title, signed ? 'signed' : 'original'), bytes: new Uint8Array(data!.bytes) }
}
