import pg from 'pg'
import type { FileStore } from '../storage/file-store.js'
import { log } from '../log.js'
import { channelName, Hub, type Db, type Queryable, type Statement } from './engine.js'

function wrap(q: pg.Pool | pg.PoolClient, notify: Queryable['notify'], files: FileStore | null): Queryable {
  return {
    notify,
    files,
    async query<T>(sql: string | Statement, params?: unknown[]) {
      return (await (typeof sql === 'string' ? q.query(sql, params) : q.query({ name: sql.name, text: sql.text, values: params ?? [] }))).rows as T[]
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
export async function openPostgres(databaseUrl: string, files: FileStore | null = null): Promise<Db> {
  const url = new URL(databaseUrl)
  const schema = url.searchParams.get('schema')
  url.searchParams.delete('schema')
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error('DATABASE_URL schema must match [a-z_][a-z0-9_]*')
  const connectionString = url.toString()
  if (schema) {
    const setup = new pg.Client({ connectionString })
    await setup.connect()
    try {
      await setup.query(`create schema if not exists ${schema}`)
    } finally {
      await setup.end()
    }
  }
  const pool = new pg.Pool({ connectionString, max: 10, ...(schema ? { options: `-c search_path=${schema}` } : {}) })
  // An idle client losing its connection must not crash the process.
  pool.on('error', (err) => log.error({ err }, 'postgres pool'))

  // Our own notifications reach this process's listeners directly (notify below): their echo from
  // the server, sent by one of the pool's connections, is not delivered again.
  const ownBackends = new Set<number>()
  const backend = (client: pg.PoolClient) => (client as unknown as { processID: number }).processID
  pool.on('connect', (client) => void ownBackends.add(backend(client)))
  pool.on('remove', (client) => void ownBackends.delete(backend(client)))

  // Notifications from other processes arrive on one dedicated connection, re-established if lost.
  const hub = new Hub()
  let listener: pg.Client | null = null
  let connecting: Promise<void> | null = null
  let live = false
  let closed = false
  const connectListener = async (): Promise<void> => {
    const client = new pg.Client({ connectionString })
    client.on('notification', (msg) => {
      if (ownBackends.has(msg.processId)) return
      const channel = msg.channel.slice(channelName('').length)
      hub.emit(channel, msg.payload ?? '')
    })
    client.on('error', () => {
      if (closed || listener !== client) return
      live = false
      listener = null
      hub.resetAll()
      client.end().catch(() => {})
      setTimeout(startListener, 1000).unref()
    })
    await client.connect()
    if (closed) return void (await client.end())
    for (const name of hub.names()) await client.query(`listen ${channelName(name)}`)
    listener = client
    live = true
    hub.resetAll() // anything cached while not listening is suspect
  }

  function startListener() {
    if (listener || connecting || closed) return
    connecting = connectListener()
      .catch((err: Error) => {
        log.warn({ err }, 'postgres listener')
        setTimeout(startListener, 1000).unref()
      })
      .finally(() => (connecting = null))
  }

  const notifyVia = (q: pg.Pool | pg.PoolClient) => async (channel: string, payload: string) => {
    await q.query('select pg_notify($1, $2)', [channelName(channel), payload])
  }
  return {
    engine: 'postgres',
    get notificationsLive() {
      return live
    },
    ...wrap(pool, async (channel, payload) => {
      await notifyVia(pool)(channel, payload)
      hub.emit(channel, payload)
    }, files),
    async transaction(fn) {
      const client = await pool.connect()
      const pending: [string, string][] = []
      const send = notifyVia(client)
      try {
        await client.query('begin')
        const result = await fn(
          wrap(client, async (channel, payload) => {
            await send(channel, payload)
            pending.push([channel, payload])
          }, files),
        )
        await client.query('commit')
        // Other processes hear it through PostgreSQL; this one now, before the response goes out.
        for (const [c, p] of pending) hub.emit(c, p)
        return result
      } catch (err) {
        await client.query('rollback').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    },
    /** Channels are registered at start, before the listening connection is up. */
    listen(channel, fn) {
      if (hub.add(channel, fn) && listener) void listener.query(`listen ${channelName(channel)}`)
      startListener()
    },
    async close() {
      closed = true
      live = false
      await connecting
      await listener?.end().catch(() => {})
      await pool.end()
      files?.close()
    },
  }
}
