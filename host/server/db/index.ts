/**
 * The one database interface of the host. Two engines implement it with the same SQL:
 * embedded PGlite (default, one process per data dir) and PostgreSQL through `pg`.
 */
export type Row = Record<string, unknown>

export interface Queryable {
  /** One statement with $1.. parameters. */
  query<T = Row>(sql: string, params?: unknown[]): Promise<T[]>
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>
}

export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres'
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export interface OpenDbOptions {
  dataDir: string
  databaseUrl?: string | undefined
}

export async function openDb(opts: OpenDbOptions): Promise<Db> {
  const db = opts.databaseUrl
    ? await (await import('./postgres.js')).openPostgres(opts.databaseUrl)
    : await (await import('./pglite.js')).openPglite(opts.dataDir)
  try {
    await (await import('./migrations.js')).migrate(db)
  } catch (err) {
    await db.close()
    throw err
  }
  return db
}

/** Timestamps come back as Date from both engines, and as strings from inside json_agg. */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null
  return (value instanceof Date ? value : new Date(String(value))).toISOString()
}
