/**
 * Archives that stay valid (docs/sealing.md): which sealed B-LTA files need a new document
 * timestamp, and the renewal itself, stored as evidence. A sealed file never changes: the renewed
 * file is a new file (the old one with one incremental update appended), the item's served sealed
 * file moves to it only when its bytes begin with the old file's exactly (checked here, and by the
 * database, migration 28), the old file is kept, and the envelope's audit log records
 * DOCUMENT_ARCHIVE_RENEWED with both hashes and the new timestamp's time.
 */
import type { ArchiveRenewal } from '../../config.js'
import { iso, type Db, type Queryable } from '../../db/index.js'
import { log } from '../../log.js'
import { archiveFacts, extendsFile, renewalDue, renewArchive, type ArchiveFacts, type RenewOptions } from '../../pdf/renew.js'
import { audit, type Actor } from './audit.js'
import { fileBytes, readFile, sha256Hex, storeFile } from '../item/files.js'

/** The service itself, as the author of what it records on its own. */
const SERVICE: Actor = { name: null, email: null, recipientId: null, tokenId: null, ipAddress: null, userAgent: null }

/** Files read for their facts in one pass; the rest wait for the next. */
const FACTS_PER_PASS = 200

/** A sealed B-LTA file served by an item, and when it is due for a new timestamp. */
export interface ArchiveDue {
  envelopeId: string
  itemId: string
  /** The envelope's title. */
  title: string
  sha256: string
  /** The last document timestamp's time. */
  timestampAt: string
  /** The end of that timestamp's authority certificate. */
  tsaValidTo: string
  digests: string[]
  /** From when it is renewed. */
  dueAt: string
  /** Due now. */
  due: boolean
}

/**
 * Reads, once per file, the facts of the sealed files that completed items serve and that were
 * never read; answers how many it read and how many it recorded. A file that cannot be read now (a
 * busy thread, a timeout) is not recorded: it is read again at the next pass.
 */
export async function learnArchiveFacts(db: Queryable): Promise<{ read: number; recorded: number }> {
  const files = await db.query<{ id: string; sha256: string; bytes: Uint8Array | null }>(
    `select distinct d.id, d.sha256, d.bytes from envelope_items i join envelopes e on e.id = i.envelope_id
     join document_data d on d.id = i.signed_document_data_id
     where e.status = 'COMPLETED' and e.deleted_at is null
       and not exists (select 1 from archive_facts f where f.document_data_id = d.id)
     limit ${FACTS_PER_PASS}`,
  )
  let recorded = 0
  for (const file of files) {
    let facts: ArchiveFacts | null
    try {
      facts = await archiveFacts(await fileBytes(db, file))
    } catch (err) {
      log.warn({ err, file: file.id }, 'a sealed file could not be read for its timestamps; read again at the next pass')
      continue
    }
    await recordFacts(db, file.id, facts)
    recorded++
  }
  return { read: files.length, recorded }
}

async function recordFacts(db: Queryable, fileId: string, facts: ArchiveFacts | null): Promise<void> {
  await db.query(
    `insert into archive_facts (document_data_id, lta, timestamp_at, tsa_valid_to, digests) values ($1, $2, $3, $4, $5)
     on conflict (document_data_id) do nothing`,
    [fileId, Boolean(facts), facts?.timestampAt ?? null, facts?.tsaValidTo ?? null, facts?.digests ?? []],
  )
}

/** Every B-LTA sealed file an item serves, soonest due first (reading the facts of new ones first). */
export async function archivesDue(db: Queryable, now: Date, settings: ArchiveRenewal): Promise<ArchiveDue[]> {
  for (let pass = await learnArchiveFacts(db); pass.read === FACTS_PER_PASS && pass.recorded > 0; pass = await learnArchiveFacts(db));
  const rows = await db.query<{ envelope_id: string; item_id: string; title: string; sha256: string; timestamp_at: Date; tsa_valid_to: Date; digests: string[] }>(
    `select e.id as envelope_id, i.id as item_id, e.title, d.sha256, f.timestamp_at, f.tsa_valid_to, f.digests
     from envelope_items i join envelopes e on e.id = i.envelope_id
     join document_data d on d.id = i.signed_document_data_id join archive_facts f on f.document_data_id = d.id
     where f.lta and e.status = 'COMPLETED' and e.deleted_at is null`,
  )
  return rows
    .map((r) => {
      const dueAt = renewalDue({ timestampAt: new Date(r.timestamp_at), tsaValidTo: new Date(r.tsa_valid_to), digests: r.digests }, now, settings)
      return {
        envelopeId: r.envelope_id,
        itemId: r.item_id,
        title: r.title,
        sha256: r.sha256,
        timestampAt: iso(r.timestamp_at)!,
        tsaValidTo: iso(r.tsa_valid_to)!,
        digests: r.digests,
        dueAt: dueAt.toISOString(),
        due: dueAt.getTime() <= now.getTime(),
      }
    })
    .sort((a, b) => a.dueAt.localeCompare(b.dueAt))
}

export interface RenewalResult {
  renewed: number
  failed: number
  /** Files still due when the pass ran out of its time. */
  more: boolean
}

/**
 * Renews the files due at `now`, one at a time, for at most `budgetMs` (then `more` says some
 * remain). A failure (no CRL, no timestamp server) is logged and that file is tried again at the
 * next pass: the window (ARCHIVE_RENEW_DAYS) leaves the time.
 */
export async function renewDueArchives(db: Db, now: Date, settings: ArchiveRenewal, options: RenewOptions, budgetMs = Infinity): Promise<RenewalResult> {
  const result: RenewalResult = { renewed: 0, failed: 0, more: false }
  if (!options.tsaUrls.length) return result
  const until = performance.now() + budgetMs
  for (const archive of (await archivesDue(db, now, settings)).filter((a) => a.due)) {
    if (performance.now() > until) {
      result.more = true
      break
    }
    try {
      if (await renewItemArchive(db, archive.itemId, options)) result.renewed++
    } catch (err) {
      result.failed++
      log.warn({ err, envelopeId: archive.envelopeId, itemId: archive.itemId }, 'a sealed file could not get a new timestamp; tried again at the next pass')
    }
  }
  return result
}

/** Appends a new timestamp to the item's sealed file and serves the result; false when the item moved on meanwhile. */
export async function renewItemArchive(db: Db, itemId: string, options: RenewOptions): Promise<boolean> {
  const [item] = await db.query<{ signed_document_data_id: string | null }>('select signed_document_data_id from envelope_items where id = $1', [itemId])
  if (!item?.signed_document_data_id) return false
  const old = await readFile(db, item.signed_document_data_id)
  const renewed = await renewArchive(old.bytes, options)
  const facts = await archiveFacts(renewed)
  if (!facts) throw new Error('the renewed file does not check out as B-LTA')
  return db.transaction((tx) => recordRenewal(tx, { itemId, oldFileId: item.signed_document_data_id!, oldBytes: old.bytes, newBytes: renewed, facts }))
}

/**
 * Stores the renewed file and serves it in the old one's place, inside the caller's transaction.
 * Refuses bytes that do not begin with the old file's exactly; false when the item no longer
 * serves the old file (another process renewed it first).
 */
export async function recordRenewal(
  tx: Queryable,
  r: { itemId: string; oldFileId: string; oldBytes: Uint8Array; newBytes: Uint8Array; facts: ArchiveFacts },
): Promise<boolean> {
  const [item] = await tx.query<{ signed_document_data_id: string | null; envelope_id: string; team_id: string; page_count: number; sha256: string }>(
    `select i.signed_document_data_id, e.id as envelope_id, e.team_id, d.page_count, d.sha256 from envelope_items i
     join envelopes e on e.id = i.envelope_id join document_data d on d.id = $2 where i.id = $1 for update of i`,
    [r.itemId, r.oldFileId],
  )
  if (!item || item.signed_document_data_id !== r.oldFileId) return false
  if (sha256Hex(r.oldBytes) !== item.sha256) throw new Error(`the bytes given for file ${r.oldFileId} are not its own`)
  if (!extendsFile(r.oldBytes, r.newBytes)) throw new Error(`the renewed file of item ${r.itemId} does not begin with the bytes of its sealed file: refused`)
  const file = await storeFile(tx, item.team_id, r.newBytes, item.page_count)
  await recordFacts(tx, file.id, r.facts)
  await tx.query(
    `insert into archive_renewals (item_id, old_document_data_id, new_document_data_id, old_sha256, new_sha256, timestamp_at) values ($1, $2, $3, $4, $5, $6)`,
    [r.itemId, r.oldFileId, file.id, item.sha256, file.sha256, r.facts.timestampAt],
  )
  await tx.query('update envelope_items set signed_document_data_id = $2 where id = $1', [r.itemId, file.id])
  await audit(tx, { id: item.envelope_id, team_id: item.team_id }, 'DOCUMENT_ARCHIVE_RENEWED', SERVICE, {
    itemId: r.itemId,
    oldSha256: item.sha256,
    newSha256: file.sha256,
    timestampAt: r.facts.timestampAt.toISOString(),
    tsaValidTo: r.facts.tsaValidTo.toISOString(),
  })
  return true
}
