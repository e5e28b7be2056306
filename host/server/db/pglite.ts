import { createHash, randomBytes } from 'node:crypto'
import type { Dirent } from 'node:fs'
import { access, copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite, parse, protocol } from '@electric-sql/pglite'
import { Hub, type Db, type Queryable, type Statement } from './engine.js'
import { MIGRATIONS, migrate } from './migrations/index.js'
import type { FileStore } from '../storage/file-store.js'

const { serialize } = protocol
const BYTEA = 17

/**
 * The embedded database's statements, each prepared once: the first call parses and plans the
 * SQL as a named statement and reads its parameter types; every call then binds, describes and
 * executes it in one batch, a single call into the engine. (PGlite's own query() makes six calls
 * and parses and plans the text every time: about twice the cost of a typical statement here.)
 * Parameters are serialized and rows parsed by PGlite's own type handlers, as its query() does.
 * Callers hold PGlite's query lock.
 */
class Statements {
  private readonly prepared = new Map<string, { name: string; types: number[] }>()
  private count = 0

  constructor(
    private readonly pg: PGlite,
    /** Distinct SQL texts kept prepared; the oldest is closed beyond this. */
    private readonly max = 1000,
  ) {}

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const s = this.prepared.get(sql) ?? (await this.prepare(sql))
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null
      // Bytes go as they are, in the binary format, rather than spelled out in hex.
      if (v instanceof Uint8Array && s.types[i] === BYTEA) return v
      const serializer = this.pg.serializers[s.types[i]!]
      return serializer ? serializer(v) : String(v)
    })
    const message = Buffer.concat([serialize.bind({ statement: s.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()])
    const { messages } = await this.pg.execProtocol(message, { syncToFs: false })
    return (parse.parseResults(messages, this.pg.parsers)[0]?.rows ?? []) as T[]
  }

  private async prepare(sql: string): Promise<{ name: string; types: number[] }> {
    const name = `s${++this.count}`
    const closing = this.prepared.size >= this.max ? this.prepared.entries().next().value : undefined
    if (closing) this.prepared.delete(closing[0])
    const { messages } = await this.pg.execProtocol(
      Buffer.concat([
        ...(closing ? [serialize.close({ type: 'S', name: closing[1].name })] : []),
        serialize.parse({ name, text: sql, types: [] }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    const described = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined
    const s = { name, types: described?.dataTypeIDs ?? [] }
    this.prepared.set(sql, s)
    return s
  }
}

/** Queries through the prepared statements, under PGlite's query lock (inside a transaction: its lock is held already). */
function wrap(pg: PGlite, statements: Statements, exec: (sql: string) => Promise<unknown>, inTransaction: boolean, notify: Queryable['notify'], files: FileStore | null): Queryable {
  return {
    notify,
    files,
    async query<T>(sql: string | Statement, params?: unknown[]) {
      const text = typeof sql === 'string' ? sql : sql.text
      const run = () => pg._runExclusiveQuery(() => statements.query<T>(text, params))
      if (inTransaction) return run()
      // Outside a transaction: wait for any open one (as PGlite's query() does), then persist as it does.
      return pg._runExclusiveTransaction(async () => {
        const rows = await run()
        await pg.syncToFs()
        return rows
      })
    },
    async exec(sql: string) {
      await exec(sql)
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
  await copyTree(template, dataDir)
}

/**
 * Copies a cluster (some 1,200 files, 40 MB) with every file queued at once on libuv's pool:
 * fs.cp walks them one by one and takes ten times as long (1.5 s against 0.15 s here), which every
 * new data directory, and so every test host, paid.
 */
async function copyTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true })
  const inside = (e: Dirent) => path.relative(from, path.join(e.parentPath, e.name))
  await mkdir(to, { recursive: true })
  for (const dir of entries.filter((e) => e.isDirectory()).map(inside)) await mkdir(path.join(to, dir), { recursive: true })
  await Promise.all(entries.filter((e) => e.isFile()).map(inside).map((file) => copyFile(path.join(from, file), path.join(to, file))))
}

export async function openPglite(dataDir: string, files: FileStore | null = null): Promise<Db> {
  await mkdir(dataDir, { recursive: true })
  await seed(dataDir)
  return open(dataDir, files)
}

/** One process per data directory, so notifications only ever concern this process. */
async function open(dataDir: string, files: FileStore | null = null): Promise<Db> {
  const pg = await PGlite.create(dataDir)
  const statements = new Statements(pg)
  const hub = new Hub()
  return {
    engine: 'pglite',
    notificationsLive: true,
    ...wrap(pg, statements, (sql) => pg.exec(sql), false, async (channel, payload) => hub.emit(channel, payload), files),
    async transaction(fn) {
      const pending: [string, string][] = []
      const result = await pg.transaction((tx) => fn(wrap(pg, statements, (sql) => tx.exec(sql), true, async (c, p) => void pending.push([c, p]), files)))
      for (const [c, p] of pending) hub.emit(c, p)
      return result
    },
    listen: (channel, fn) => void hub.add(channel, fn),
    close: async () => {
      await pg.close()
      files?.close()
    },
  }
}
