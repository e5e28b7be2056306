/**
 * Stored files (`document_data`): addressed by their SHA-256, shared only while identical, never
 * changed once written (the database refuses any UPDATE of a row, migration 8). A transformation
 * of a file (white-out, sealing, replacement) is a new file that its own item points at.
 */
import { createHash } from 'node:crypto'
import type { Queryable } from '../db/index.js'
import { newId } from './ids.js'

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/**
 * The SQL of a `file` CTE naming the stored file with these bytes: the existing row of the same
 * hash, else a new one. Parameters from `$at`: id, sha256, bytes, size, page count.
 */
export function fileCte(at: number): string {
  const [id, hash, bytes, size, pages] = [0, 1, 2, 3, 4].map((i) => `$${at + i}`)
  return `found as (select id from document_data where sha256 = ${hash} limit 1),
    added as (insert into document_data (id, sha256, bytes, size, page_count)
      select ${id}, ${hash}, ${bytes}, ${size}, ${pages} where not exists (select 1 from found) returning id),
    file as (select id from found union all select id from added)`
}

/** The parameters of fileCte for `bytes`. */
export const fileParams = (bytes: Uint8Array, pageCount: number): unknown[] => [newId.documentData(), sha256Hex(bytes), bytes, bytes.byteLength, pageCount]

/** Stores `bytes` (or finds them stored) and answers the file's id and hash. */
export async function storeFile(tx: Queryable, bytes: Uint8Array, pageCount: number): Promise<{ id: string; sha256: string }> {
  const params = fileParams(bytes, pageCount)
  const [row] = await tx.query<{ id: string }>(`with ${fileCte(1)} select id from file limit 1`, params)
  return { id: row!.id, sha256: params[1] as string }
}

/**
 * Points a draft's item at new bytes (the database refuses this once the envelope is sent) and
 * drops the old file when nothing else names it: a file other envelopes share stays as it was.
 */
export async function replaceItemFile(tx: Queryable, item: { id: string; document_data_id: string; page_count: number }, bytes: Uint8Array): Promise<string> {
  const { id } = await storeFile(tx, bytes, item.page_count)
  if (id === item.document_data_id) return id
  await tx.query('update envelope_items set document_data_id = $2 where id = $1', [item.id, id])
  await dropIfUnused(tx, item.document_data_id)
  item.document_data_id = id
  return id
}

/** Deletes a file no item names (as its file or its sealed file) and no stored e-mail attaches. */
export async function dropIfUnused(tx: Queryable, fileId: string): Promise<void> {
  await tx.query(
    `delete from document_data d where d.id = $1
       and not exists (select 1 from envelope_items i where i.document_data_id = d.id or i.signed_document_data_id = d.id)
       and not exists (select 1 from mails m, jsonb_array_elements(m.attachments) a where a->>'documentDataId' = d.id)`,
    [fileId],
  )
}

/** A stored file's bytes and hash. */
export async function readFile(db: Queryable, fileId: string): Promise<{ bytes: Uint8Array; sha256: string }> {
  const [row] = await db.query<{ bytes: Uint8Array; sha256: string }>('select bytes, sha256 from document_data where id = $1', [fileId])
  if (!row) throw new Error(`stored file ${fileId} is missing`)
  return { bytes: new Uint8Array(row.bytes), sha256: row.sha256 }
}
