/**
 * The one database interface of the host. Two engines implement it with the same SQL:
 * embedded PGlite (default, one process per data dir) and PostgreSQL through `pg`.
 */
import type { Db } from './engine.js'

export * from './engine.js'

export interface OpenDbOptions {
  dataDir: string
  databaseUrl?: string | undefined
  /** STORAGE_URL (storage/file-store.ts); absent: files live in the database. */
  storageUrl?: string | undefined
}

export async function openDb(opts: OpenDbOptions): Promise<Db> {
  const files = await (await import('../storage/open.js')).openFileStore(opts.storageUrl)
  const db = opts.databaseUrl
    ? await (await import('./postgres.js')).openPostgres(opts.databaseUrl, files)
    : await (await import('./pglite.js')).openPglite(opts.dataDir, files)
  try {
    await (await import('./migrations/index.js')).migrate(db)
  } catch (err) {
    await db.close()
    throw err
  }
  return db
}

/** The `(…), (…)` of a multi-row INSERT: `rows` tuples of `width` parameters, numbered from $1. */
export const valuesList = (rows: number, width: number): string =>
  Array.from({ length: rows }, (_, r) => `(${Array.from({ length: width }, (_, i) => `$${r * width + i + 1}`).join(', ')})`).join(', ')

/** Timestamps come back as Date from both engines, and as strings from inside json_agg. */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null
  return (value instanceof Date ? value : new Date(String(value))).toISOString()
}
