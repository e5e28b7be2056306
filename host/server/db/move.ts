/**
 * Moves an instance that started on the embedded database (and its files) onto PostgreSQL and,
 * optionally, an object store: every table copied row for row in one transaction of the target
 * (nothing is visible there until all of it is), files written to the store under their hash
 * first, then every count and every file's hash checked against the source. The source is only
 * read, and stays as it was.
 */
import type { Db, Queryable, Row } from './index.js'
import { openDb, valuesList } from './index.js'
import { fileBytes, sha256Hex } from '../domain/item/files.js'

export interface MoveOptions {
  /** The embedded database's directory (held under the data directory's lock by the caller). */
  dataDir: string
  /** The PostgreSQL database to move to: migrated here, and refused unless it holds no data. */
  databaseUrl: string
  /** Where files go (STORAGE_URL); absent: into the target database's rows. */
  storageUrl?: string | undefined
  log?: (line: string) => void
}

export interface MoveReport {
  tables: Record<string, number>
  files: number
  bytes: number
}

/** Rows per INSERT; stored files go one at a time (each may be megabytes). */
const BATCH = 200

interface Column {
  name: string
  type: string
}

/** The tables of the schema, each after those it refers to, and their columns. */
async function tablesInOrder(db: Queryable): Promise<{ name: string; columns: Column[] }[]> {
  const tables = (
    await db.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'`)
  ).map((t) => t.name)
  const refs = await db.query<{ child: string; parent: string }>(
    `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent from pg_constraint c
     join pg_namespace n on n.oid = c.connamespace where c.contype = 'f' and n.nspname = current_schema()`,
  )
  const unquote = (t: string) => t.replace(/^.*\./, '').replace(/"/g, '')
  const after = new Map(tables.map((t) => [t, new Set<string>()]))
  for (const r of refs) if (unquote(r.child) !== unquote(r.parent)) after.get(unquote(r.child))?.add(unquote(r.parent))
  const ordered: string[] = []
  const visit = (t: string, path: string[]) => {
    if (ordered.includes(t)) return
    if (path.includes(t)) throw new Error(`tables refer to each other in a cycle: ${[...path, t].join(' -> ')}`)
    for (const p of after.get(t) ?? []) visit(p, [...path, t])
    ordered.push(t)
  }
  for (const t of [...tables].sort()) visit(t, [])
  const columns = await db.query<{ table: string; name: string; type: string }>(
    `select table_name as table, column_name as name, data_type as type from information_schema.columns
     where table_schema = current_schema() order by table_name, ordinal_position`,
  )
  return ordered.map((name) => ({ name, columns: columns.filter((c) => c.table === name).map(({ name: n, type }) => ({ name: n, type })) }))
}

/** `param` cast to the type of the table's id column (text, integer or bigint). */
const castLike = (t: { columns: Column[] }, param: string) => {
  const type = t.columns.find((c) => c.name === 'id')!.type
  return type === 'text' ? `${param}::text` : `${param}::${type}`
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** A value as the `pg` driver must be given it for this column. */
function param(value: unknown, column: Column): unknown {
  if (value === null || value === undefined) return null
  if (column.type === 'json' || column.type === 'jsonb') return JSON.stringify(value)
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  return value
}

async function insertRows(tx: Queryable, table: string, columns: Column[], rows: Row[]): Promise<void> {
  if (!rows.length) return
  const params = rows.flatMap((row) => columns.map((c) => param(row[c.name], c)))
  await tx.query(`insert into ${quote(table)} (${columns.map((c) => quote(c.name)).join(', ')}) values ${valuesList(rows.length, columns.length)}`, params)
}

export async function moveInstance(o: MoveOptions): Promise<MoveReport> {
  const log = o.log ?? (() => {})
  const source = await openDb({ dataDir: o.dataDir })
  let target: Db | undefined
  try {
    if (source.engine !== 'pglite') throw new Error('the source must be an embedded database')
    target = await openDb({ dataDir: o.dataDir, databaseUrl: o.databaseUrl, storageUrl: o.storageUrl })
    const tables = await tablesInOrder(target)
    for (const t of tables) {
      const [row] = await target.query<{ any: boolean }>(`select exists (select 1 from ${quote(t.name)}) as any`)
      if (row?.any) throw new Error(`the target database already holds data (table ${t.name}): move into an empty one`)
    }
    const report: MoveReport = { tables: {}, files: 0, bytes: 0 }
    const store = target.files
    await target.transaction(async (tx) => {
      for (const t of tables) {
        // The rows are copied as they are: the triggers that guard and count live changes stay off
        // for this table until the end of the copy (the owner of the tables may do so).
        await tx.query(`alter table ${quote(t.name)} disable trigger user`)
        let copied = 0
        if (t.name === 'document_data') {
          // One file at a time: into the store under its hash (then the row holds none), checked.
          for (let after = ''; ; ) {
            const [file] = await source.query<Row & { id: string; sha256: string; bytes: Uint8Array | null }>('select * from document_data where id > $1 order by id limit 1', [after])
            if (!file) break
            after = file.id
            const bytes = await fileBytes(source, file)
            if (sha256Hex(bytes) !== file.sha256) throw new Error(`stored file ${String(file.id)} does not match its hash: not moved`)
            if (store) await store.put(file.sha256, bytes)
            await insertRows(tx, t.name, t.columns, [{ ...file, bytes: store ? null : bytes }])
            report.files++
            report.bytes += bytes.byteLength
            copied++
          }
        } else {
          // Pages after the last id seen (a table without an id column is paged by offset).
          const keyed = t.columns.some((c) => c.name === 'id')
          for (let offset = 0, after: unknown = null; ; offset += BATCH) {
            const rows = keyed
              ? await source.query<Row>(`select * from ${quote(t.name)} where $1::text is null or id > ${castLike(t, '$1')} order by id limit ${BATCH}`, [after])
              : await source.query<Row>(`select * from ${quote(t.name)} limit ${BATCH} offset ${offset}`)
            if (!rows.length) break
            after = keyed ? String(rows.at(-1)!.id) : null
            // A job the stopped process was running is due again (as an embedded host's start does).
            if (t.name === 'jobs') for (const j of rows) if (j.status === 'running') Object.assign(j, { status: 'pending', locked_until: null })
            await insertRows(tx, t.name, t.columns, rows)
            copied += rows.length
          }
        }
        await tx.query(`alter table ${quote(t.name)} enable trigger user`)
        report.tables[t.name] = copied
        if (copied) log(`${t.name}: ${copied}`)
      }
      // Serial columns continue after the rows copied.
      const serials = await tx.query<{ table: string; column: string; seq: string }>(
        `select c.table_name as table, c.column_name as column, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) as seq
         from information_schema.columns c where c.table_schema = current_schema() and c.column_default like 'nextval(%'`,
      )
      for (const s of serials) {
        if (!s.seq) continue
        await tx.query(`select setval($1, coalesce((select max(${quote(s.column)}) from ${quote(s.table)}), 0) + 1, false)`, [s.seq])
      }
      // Checked before it commits: a difference leaves the target as empty as it was.
      await verify(source, tx, report)
    })
    log(`checked: every table's count, and the SHA-256 of ${report.files} file(s)`)
    return report
  } finally {
    await target?.close()
    await source.close()
  }
}

/** Every table's count equal on both sides, and every file of the target hashing to its name. */
async function verify(source: Queryable, target: Queryable, report: MoveReport): Promise<void> {
  for (const table of Object.keys(report.tables)) {
    const count = async (db: Queryable) => Number((await db.query<{ n: number }>(`select count(*)::int as n from ${quote(table)}`))[0]!.n)
    const [a, b] = [await count(source), await count(target)]
    if (a !== b) throw new Error(`after the move ${table} holds ${b} rows, the source ${a}`)
  }
  const files = await target.query<{ id: string; sha256: string; bytes: Uint8Array | null }>('select id, sha256, bytes from document_data order by id')
  for (const f of files) {
    if (sha256Hex(await fileBytes(target, f)) !== f.sha256) throw new Error(`after the move file ${f.id} does not match its hash`)
  }
}
