import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import type { Db, Queryable } from './index.js'

function wrap(q: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      return (await q.query<T>(sql, params as unknown[])).rows
    },
    async exec(sql: string) {
      await q.exec(sql)
    },
  }
}

export async function openPglite(dataDir: string): Promise<Db> {
  await mkdir(dataDir, { recursive: true })
  const pg = await PGlite.create(dataDir)
  return {
    engine: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  }
}
