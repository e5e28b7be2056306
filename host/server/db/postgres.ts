import pg from 'pg'
import type { Db, Queryable } from './index.js'

function wrap(q: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      return (await q.query(sql, params)).rows as T[]
    },
    async exec(sql: string) {
      await q.query(sql)
    },
  }
}

/**
 * A `schema` query parameter on the URL (not a libpq one) selects and creates a schema; the test
 * suite uses it to give each run its own fresh namespace.
 */
export async function openPostgres(databaseUrl: string): Promise<Db> {
  const url = new URL(databaseUrl)
  const schema = url.searchParams.get('schema')
  url.searchParams.delete('schema')
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error('DATABASE_URL schema must match [a-z_][a-z0-9_]*')
  if (schema) {
    const setup = new pg.Client({ connectionString: url.toString() })
    await setup.connect()
    try {
      await setup.query(`create schema if not exists ${schema}`)
    } finally {
      await setup.end()
    }
  }
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  })
  // An idle client losing its connection must not crash the process.
  pool.on('error', (err) => console.error(`postgres pool: ${err.message}`))
  return {
    engine: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('begin')
        const result = await fn(wrap(client))
        await client.query('commit')
        return result
      } catch (err) {
        await client.query('rollback').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
