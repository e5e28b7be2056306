import { downloadName } from '../../../../src/protocol/index.js'
import type { Queryable } from '../../db/index.js'
import { ApiError, notFound } from '../../errors.js'
import { fileCte, fileParams, fileRef, type FileRef } from './files.js'
import { newId } from '../common/ids.js'
import { documentPurged } from '../retention/retention.js'
import type { ItemRow } from '../common/rows.js'

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
    // The file (stored, or found stored) and its item in one statement.
    const [row] = await tx.query<ItemRow>(
      `with ${fileCte(5, '(select team_id from envelopes where id = $2)')}
       insert into envelope_items (id, envelope_id, title, item_order, document_data_id, page_count)
       select $1, $2, $3, $4, file.id, $9 from file limit 1 returning *`,
      [newId.envelopeItem(), envelopeId, f.name.slice(0, 255), max + i + 1, ...(await fileParams(tx, f.bytes, f.pageCount))],
    )
    rows.push(row!)
  }
  return rows
}

export async function itemsOf(tx: Queryable, envelopeId: string): Promise<ItemRow[]> {
  return tx.query<ItemRow>('select * from envelope_items where envelope_id = $1 order by item_order, created_at, id', [envelopeId])
}

export type PdfVersion = 'signed' | 'original'

/** How long a download of a completed document waits for its sealed file before answering 409. */
export const SEAL_WAIT_MS = 5000

interface ItemFiles {
  title: string
  document_data_id: string | null
  signed_document_data_id: string | null
  status: string
  purged_at: Date | string | null
}
const itemFiles = async (db: Queryable, itemId: string) =>
  (
    await db.query<ItemFiles>(
      `select i.title, i.document_data_id, i.signed_document_data_id, e.status, e.purged_at
       from envelope_items i join envelopes e on e.id = i.envelope_id where i.id = $1`,
      [itemId],
    )
  )[0]

/**
 * An item's file: the sealed one once its envelope completed (the default then), else the
 * original; asking for `signed` before completion is a 400. Between completion and the end of
 * sealing (a job, normally well under a second) the signed version is waited for up to
 * SEAL_WAIT_MS, then answered 409 DOCUMENT_SEALING with Retry-After.
 */
export async function itemPdf(db: Queryable, itemId: string, version?: PdfVersion): Promise<{ title: string; file: FileRef }> {
  let item = await itemFiles(db, itemId)
  if (!item) throw notFound('envelope item')
  // Past its team's retention the files are gone for good (domain/retention/retention.ts).
  if (item.purged_at || !item.document_data_id) throw documentPurged()
  const signed = version === 'signed' || (version === undefined && item.status === 'COMPLETED')
  // Completed but not sealed yet: the sealing job usually finishes in well under a second.
  for (let step = 25, waited = 0; signed && item.status === 'COMPLETED' && !item.signed_document_data_id && waited < SEAL_WAIT_MS; waited += step, step = Math.min(step * 2, 500)) {
    await new Promise((resolve) => setTimeout(resolve, step))
    item = (await itemFiles(db, itemId)) ?? item
  }
  if (signed && !item.signed_document_data_id) {
    if (item.status === 'COMPLETED') {
      throw new ApiError(409, 'DOCUMENT_SEALING', 'the document is complete and its signed PDF is still being sealed: try again shortly', undefined, { 'Retry-After': '2' })
    }
    throw new ApiError(400, 'DOCUMENT_NOT_COMPLETED', 'the signed version exists once every recipient has completed')
  }
  const file = await fileRef(db, signed ? item.signed_document_data_id! : item.document_data_id!)
  return { title: downloadName(item.title, signed ? 'signed' : 'original'), file }
}

/** An item's file (as itemPdf) when the item belongs to `envelopeId`; 404 otherwise. */
export async function envelopeItemPdf(db: Queryable, envelopeId: string, itemId: string, version?: PdfVersion): Promise<{ title: string; file: FileRef }> {
  const [found] = await db.query('select 1 from envelope_items where id = $1 and envelope_id = $2', [itemId, envelopeId])
  if (!found) throw new ApiError(404, 'NOT_FOUND', 'envelope item not found')
  return itemPdf(db, itemId, version)
}
