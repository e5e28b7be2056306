/**
 * Removes objects no stored file names any more. An object is written before the row that names
 * it commits, and written again by every upload of the same bytes, so only objects that no row
 * names and that nobody wrote for `before`'s retention are removed; each is asked for its write
 * time once more just before it goes, so an upload of the same bytes meanwhile keeps it.
 */
import type { Queryable } from '../db/index.js'
import type { FileStore } from './file-store.js'

const named = async (db: Queryable, hashes: string[]) =>
  new Set((await db.query<{ sha256: string }>('select distinct sha256 from document_data where sha256 = any($1)', [hashes])).map((r) => r.sha256))

/** Answers how many objects it removed. */
export async function sweepFiles(db: Queryable, store: FileStore, before: Date): Promise<number> {
  let removed = 0
  for await (const page of store.list()) {
    const old = page.filter((o) => o.modified < before).map((o) => o.sha256)
    if (!old.length) continue
    const first = await named(db, old)
    const candidates: string[] = []
    for (const sha256 of old.filter((h) => !first.has(h))) {
      const modified = await store.modified(sha256)
      if (modified && modified < before) candidates.push(sha256)
    }
    if (!candidates.length) continue
    const again = await named(db, candidates)
    const gone = candidates.filter((h) => !again.has(h))
    await store.delete(gone)
    removed += gone.length
  }
  return removed
}
