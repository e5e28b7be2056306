/**
 * Stored files (`document_data`): addressed by their SHA-256, shared only while identical and
 * within one team (whether another team stored the same bytes never shows in an id), never
 * changed once written (the database refuses any UPDATE of a row, migration 8). A transformation
 * of a file (white-out, sealing, replacement) is a new file that its own item points at.
 * The bytes live in the row, or (STORAGE_URL, storage/) in an object store under the hash, written
 * before the row that names it commits; the row then holds `bytes = null`.
 */
import { createHash } from 'node:crypto'
import type { Queryable } from '../../db/index.js'
import { newId } from '../common/ids.js'
import type { FormField } from '../../pdf/form-fields.js'

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/**
 * The SQL of a `file` CTE naming the team's stored file with these bytes: its existing row of the
 * same hash, else a new one. Parameters from `$at`: id, sha256, bytes, size, page count (fileParams),
 * then the team's id unless `team` is an SQL expression for it.
 */
export function fileCte(at: number, team = `$${at + 5}`): string {
  const [id, hash, bytes, size, pages] = [0, 1, 2, 3, 4].map((i) => `$${at + i}`)
  return `found as (select id from document_data where team_id = ${team} and sha256 = ${hash} limit 1),
    added as (insert into document_data (id, sha256, bytes, size, page_count, team_id)
      select ${id}, ${hash}, ${bytes}, ${size}, ${pages}, ${team} where not exists (select 1 from found) returning id),
    file as (select id from found union all select id from added)`
}

/** The parameters of fileCte for `bytes`, written to the object store first when there is one. */
export async function fileParams(q: Queryable, bytes: Uint8Array, pageCount: number): Promise<unknown[]> {
  const sha256 = sha256Hex(bytes)
  if (q.files) await q.files.put(sha256, bytes)
  return [newId.documentData(), sha256, q.files ? null : bytes, bytes.byteLength, pageCount]
}

/** Stores `bytes` for a team (or finds them stored by it) and answers the file's id and hash. */
export async function storeFile(tx: Queryable, teamId: string, bytes: Uint8Array, pageCount: number): Promise<{ id: string; sha256: string }> {
  const params = await fileParams(tx, bytes, pageCount)
  const [row] = await tx.query<{ id: string }>(`with ${fileCte(1)} select id from file limit 1`, [...params, teamId])
  return { id: row!.id, sha256: params[1] as string }
}

/**
 * Points a draft's item at new bytes (the database refuses this once the envelope is sent) and
 * drops the old file when nothing else names it: a file other envelopes share stays as it was.
 */
export async function replaceItemFile(tx: Queryable, item: { id: string; document_data_id: string; page_count: number }, bytes: Uint8Array): Promise<string> {
  const [owner] = await tx.query<{ team_id: string }>('select e.team_id from envelope_items i join envelopes e on e.id = i.envelope_id where i.id = $1', [item.id])
  const { id } = await storeFile(tx, owner!.team_id, bytes, item.page_count)
  if (id === item.document_data_id) return id
  await tx.query('update envelope_items set document_data_id = $2 where id = $1', [item.id, id])
  await dropIfUnused(tx, item.document_data_id)
  item.document_data_id = id
  return id
}

/**
 * Deletes a file no item names (as its file or its sealed file) and no stored e-mail attaches.
 * Its object, if any, stays until the sweep (storage/sweep.ts) finds no row naming it.
 */
export async function dropIfUnused(tx: Queryable, fileId: string): Promise<void> {
  await tx.query(
    `delete from document_data d where d.id = $1
       and not exists (select 1 from envelope_items i where i.document_data_id = d.id or i.signed_document_data_id = d.id)
       and not exists (select 1 from mails m, jsonb_array_elements(m.attachments) a where a->>'documentDataId' = d.id)`,
    [fileId],
  )
}

export interface ItemFileIds {
  document_data_id: string
  signed_document_data_id: string | null
}

/** After items were deleted: each of their files (original or sealed) that nothing else names goes too. */
export async function dropFilesOf(tx: Queryable, items: ItemFileIds[]): Promise<void> {
  const files = new Set(items.flatMap((i) => (i.signed_document_data_id ? [i.document_data_id, i.signed_document_data_id] : [i.document_data_id])))
  for (const id of files) await dropIfUnused(tx, id)
}

/** A stored file: its hash, size, and its bytes when its row holds them. */
/** A PDF as a request brought it, checked (pdf/inspect.ts): what is stored. */
export interface UploadedPdf {
  name: string
  bytes: Uint8Array
  pageCount: number
  /** The form fields it holds, as read when it was checked (absent for a file that was not). */
  formFields?: FormField[] | undefined
}

export interface FileRef {
  sha256: string
  size: number
  bytes: Uint8Array | null
}

export async function fileRef(db: Queryable, fileId: string): Promise<FileRef> {
  const [row] = await db.query<FileRef>('select sha256, size, bytes from document_data where id = $1', [fileId])
  if (!row) throw new Error(`stored file ${fileId} is missing`)
  return { sha256: row.sha256, size: row.size, bytes: row.bytes && new Uint8Array(row.bytes) }
}

/** The bytes of a stored file, from its row or its object. */
export async function fileBytes(db: Queryable, file: Pick<FileRef, 'sha256' | 'bytes'>): Promise<Uint8Array> {
  if (file.bytes) return new Uint8Array(file.bytes)
  if (!db.files) throw new Error(`stored file ${file.sha256} is in an object store and STORAGE_URL names none`)
  return db.files.get(file.sha256)
}

/** A stored file's bytes and hash. */
export async function readFile(db: Queryable, fileId: string): Promise<{ bytes: Uint8Array; sha256: string }> {
  const ref = await fileRef(db, fileId)
  return { bytes: await fileBytes(db, ref), sha256: ref.sha256 }
}
