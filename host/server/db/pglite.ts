import { createHash, randomBytes } from 'node:crypto'
import { access, cp, mkdir, readFile, rename, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Hub, type Db, type Queryable } from './index.js'
import { MIGRATIONS, migrate } from './migrations.js'

function wrap(q: Pick<PGlite, 'query' | 'exec'>, notify: Queryable['notify']): Queryable {
  return {
    notify,
    async query<T>(sql: string, params?: unknown[]) {
      return (await q.query<T>(sql, params as unknown[])).rows
    },
    async exec(sql: string) {
      await q.exec(sql)
    },
  }
}

const exists = (p: string) => access(p).then(() => true, () => false)

/**
 * Creating a cluster (initdb inside WebAssembly) takes seconds to tens of seconds; copying one takes
 * a fraction. A new data directory is therefore seeded from a pristine cluster kept in the OS temp
 * directory per PGlite version and migration set (built once, published by an atomic rename).
 * It holds the schema only: no data, no secret.
 */
async function seed(dataDir: string): Promise<void> {
  if (await exists(path.join(dataDir, 'PG_VERSION'))) return
  const pkg = path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json')
  const version = (JSON.parse(await readFile(pkg, 'utf8')) as { version: string }).version
  const schema = createHash('sha256').update(JSON.stringify(MIGRATIONS)).digest('hex').slice(0, 12)
  const template = path.join(tmpdir(), `envelope-embed-pglite-${version}-${schema}`)
  if (!(await exists(path.join(template, 'PG_VERSION')))) {
    const building = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`
    const db = await open(building)
    await migrate(db)
    await db.close()
    // Another process may have published first: keep theirs.
    await rename(building, template).catch(() => rm(building, { recursive: true, force: true }))
  }
  await cp(template, dataDir, { recursive: true })
}

export async function openPglite(dataDir: string): Promise<Db> {
  await mkdir(dataDir, { recursive: true })
  await seed(dataDir)
  return open(dataDir)
}

/** One process per data directory, so notifications only ever concern this process. */
async function open(dataDir: string): Promise<Db> {
  const pg = await PGlite.create(dataDir)
  const hub = new Hub()
  return {
    engine: 'pglite',
    notificationsLive: true,
    ...wrap(pg, async (channel, payload) => hub.emit(channel, payload)),
    async transaction(fn) {
      const pending: [string, string][] = []
      const result = await pg.transaction((tx) => fn(wrap(tx, async (c, p) => void pending.push([c, p]))))
      for (const [c, p] of pending) hub.emit(c, p)
      return result
    },
    listen: (channel, fn) => void hub.add(channel, fn),
    close: () => pg.close(),
  }
}
