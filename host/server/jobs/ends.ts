/**
 * How attempts end: one statement records a batch of them, whatever each outcome, together with
 * the rows their handlers leave behind (a webhook call's log entry), so a job's end and what it
 * did commit at once and cost one round trip. Only the holder of an attempt may record it.
 */
import { statement, type Statement } from '../db/index.js'

export interface AttemptEnd {
  id: string
  attempts: number
  /** done and failed are final; pending runs again at runAt. */
  status: 'done' | 'pending' | 'failed'
  runAt: Date | null
  error: string | null
  finishedAt: Date | null
  /** Claimed but never started (the process stops, or held too long): its attempt is given back. */
  released?: boolean
  /** Rows to insert with it, written even when the attempt is no longer its holder's (they record what happened). */
  rows: { table: string; row: Record<string, unknown> }[]
}

const NAME = /^[a-z_][a-z0-9_]*$/

/**
 * The statement recording `ends`; it announces on `channel` (a PostgreSQL channel name) each kind
 * of which an ordered job ended for good, one row for each.
 */
export function endStatement(ends: AttemptEnd[], channel: string): { statement: Statement; params: unknown[] } {
  const params: unknown[] = []
  const p = (value: unknown) => `$${params.push(value)}`
  const column = <T>(f: (e: AttemptEnd) => T) => p(ends.map(f))
  const ctes = [
    `ended as (select * from end_jobs(${column((e) => e.id)}::bigint[], ${column((e) => e.attempts)}::int[], ${column((e) => e.status)}::text[],
      ${column((e) => e.runAt?.toISOString() ?? null)}::timestamptz[], ${column((e) => e.error && clean(e.error))}::text[],
      ${column((e) => e.finishedAt?.toISOString() ?? null)}::timestamptz[], ${column((e) => e.released ?? false)}::boolean[]))`,
  ]
  // One insert per table and set of columns, its rows one JSON parameter read as the table's own
  // row type: the text depends only on the tables and columns, so it stays prepared.
  const groups = new Map<string, { table: string; columns: string[]; rows: Record<string, unknown>[] }>()
  for (const { table, row } of ends.flatMap((e) => e.rows)) {
    const columns = Object.keys(row)
    if (![table, ...columns].every((n) => NAME.test(n))) throw new Error(`not a table or column name: ${table} (${columns.join(', ')})`)
    const key = `${table}(${columns.join(', ')})`
    const group = groups.get(key) ?? groups.set(key, { table, columns, rows: [] }).get(key)!
    group.rows.push(row)
  }
  for (const { table, columns, rows } of groups.values()) {
    const list = columns.join(', ')
    ctes.push(`w${ctes.length} as (insert into ${table} (${list}) select ${list} from jsonb_populate_recordset(null::${table}, ${p(json(rows))}::jsonb))`)
  }
  // The next job of each order may now run, perhaps in another process.
  const text = `with ${ctes.join(',\n')}
    select pg_notify(${p(channel)}, kind) from (select distinct kind from ended where ordering_key is not null and status <> 'pending') k`
  let prepared = STATEMENTS.get(text)
  if (!prepared) STATEMENTS.set(text, (prepared = statement(text)))
  return { statement: prepared, params }
}

/** The statements made so far, one per set of tables and columns: a handful. */
const STATEMENTS = new Map<string, Statement>()

/** PostgreSQL text holds no NUL character (a receiver's answer might): each becomes U+FFFD. */
const clean = (s: string) => s.replaceAll('\0', '\uFFFD')
const json = (rows: Record<string, unknown>[]) => {
  const text = JSON.stringify(rows)
  // Rare: only then every string is looked at.
  return text.includes('\\u0000') ? JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'string' ? clean(value) : value)) : text
}
