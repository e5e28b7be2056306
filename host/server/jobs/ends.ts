/**
 * How attempts end: one statement records a batch of them, whatever each outcome, together with
 * the rows their handlers leave behind (a webhook call's log entry), so a job's end and what it
 * did commit at once and cost one round trip. Only the holder of an attempt may record it.
 */

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
export function endStatement(ends: AttemptEnd[], channel: string): { sql: string; params: unknown[] } {
  const params: unknown[] = []
  const p = (value: unknown) => `$${params.push(value)}`
  const column = <T>(f: (e: AttemptEnd) => T) => p(ends.map(f))
  const ctes = [
    `ended as (
      update jobs j set status = d.status, attempts = j.attempts - d.released::int, run_at = coalesce(d.run_at, j.run_at),
        locked_until = null, last_error = d.error, finished_at = d.finished_at
      from unnest(${column((e) => e.id)}::bigint[], ${column((e) => e.attempts)}::int[], ${column((e) => e.status)}::text[],
        ${column((e) => e.runAt?.toISOString() ?? null)}::timestamptz[], ${column((e) => e.error)}::text[],
        ${column((e) => e.finishedAt?.toISOString() ?? null)}::timestamptz[], ${column((e) => e.released ?? false)}::boolean[])
        as d(id, attempts, status, run_at, error, finished_at, released)
      where j.id = d.id and j.attempts = d.attempts
      returning j.kind, j.ordering_key, d.status)`,
  ]
  // One multi-row insert per table and set of columns.
  const groups = new Map<string, Record<string, unknown>[]>()
  for (const { table, row } of ends.flatMap((e) => e.rows)) {
    const columns = Object.keys(row)
    if (![table, ...columns].every((n) => NAME.test(n))) throw new Error(`not a table or column name: ${table} (${columns.join(', ')})`)
    const key = `${table}(${columns.join(', ')})`
    groups.set(key, [...(groups.get(key) ?? []), row])
  }
  for (const [key, rows] of groups) {
    const columns = Object.keys(rows[0]!)
    ctes.push(`w${ctes.length} as (insert into ${key} values ${rows.map((r) => `(${columns.map((c) => p(r[c])).join(', ')})`).join(', ')})`)
  }
  // The next job of each order may now run, perhaps in another process.
  const sql = `with ${ctes.join(',\n')}
    select pg_notify(${p(channel)}, kind) from (select distinct kind from ended where ordering_key is not null and status <> 'pending') k`
  return { sql, params }
}
