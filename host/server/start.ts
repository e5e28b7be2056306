import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { createServer, type Server } from 'node:http'
import { createApp, withApiCors } from './app.js'
import { hostCaches } from './cache.js'
import { createApiToken, revokeApiToken, type TokenExpiry } from './auth/api-tokens.js'
import { loadPresignSecret } from './auth/presign.js'
import { configFromEnv, type HostConfig } from './config.js'
import { openDb, type Db } from './db/index.js'
import type { Plan } from './domain/plans.js'
import { createTeam } from './domain/teams.js'
import { lockDataDir, type DataDirLock } from './lock.js'
import { loadSealingKey, type SealingKey } from './pdf/sealing-key.js'

export interface StartHostOptions {
  /** 0 = a free port. Default: PORT or 3100. */
  port?: number
  hostname?: string
  dataDir?: string
  databaseUrl?: string
  publicUrl?: string
  appDistDir?: string
  maxUploadBytes?: number
}

export interface Host {
  /** Origin, no trailing slash. */
  url: string
  /** url + '/api/v2' */
  apiUrl: string
  close(): Promise<void>
  createTeam(o: { name: string; plan: Plan }): Promise<{ id: string }>
  /** Without teamId: the default enterprise team. */
  createApiToken(o: { name: string; teamId?: string; expires?: TokenExpiry }): Promise<{ id: string; token: string }>
  revokeApiToken(id: string): Promise<void>
  /** The open database (for operators and tests that inspect stored rows). */
  db: Db
  config: HostConfig
}

/** Starts a host in this process: database opened and migrated, HTTP server listening. */
export async function startHost(opts: StartHostOptions = {}): Promise<Host> {
  const defined = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined))
  const config: HostConfig = { ...configFromEnv(), ...defined }
  const embedded = !config.databaseUrl
  const lock: DataDirLock | null = embedded ? await lockDataDir(config.dataDir) : null
  let db: Db
  try {
    db = await openDb(config)
  } catch (err) {
    await lock?.release()
    throw err
  }
  let server: Server | undefined
  try {
    const presignSecret = await loadPresignSecret(db)
    const adminSecret = embedded ? randomBytes(32).toString('base64url') : null
    let sealing: Promise<SealingKey> | undefined
    const sealingKey = () => {
      sealing ??= loadSealingKey(db)
      sealing.catch(() => (sealing = undefined))
      return sealing
    }
    const app = createApp({ db, cache: hostCaches(db), config, presignSecret, adminSecret, sealingKey })
    const listener = withApiCors(getRequestListener(app.fetch, { hostname: config.hostname }))
    const address = await new Promise<AddressInfo>((resolve, reject) => {
      const s = createServer(listener)
      server = s
      s.once('error', reject)
      s.listen(config.port, config.hostname, () => resolve(s.address() as AddressInfo))
    })
    const loopback = ['0.0.0.0', '::', ''].includes(config.hostname) ? '127.0.0.1' : config.hostname
    const host = loopback.includes(':') ? `[${loopback}]` : loopback
    const listening = `http://${host}:${address.port}`
    await lock?.publish({ url: listening, adminSecret: adminSecret! })
    const url = config.publicUrl ?? listening
    let closing: Promise<void> | undefined
    return {
      url,
      apiUrl: `${url}/api/v2`,
      db,
      config: { ...config, port: address.port },
      createTeam: (o) => db.transaction((tx) => createTeam(tx, o)),
      createApiToken: async (o) => {
        const t = await db.transaction((tx) => createApiToken(tx, o))
        return { id: t.id, token: t.token }
      },
      revokeApiToken: (id) => db.transaction((tx) => revokeApiToken(tx, id)),
      close: () =>
        (closing ??= (async () => {
          try {
            await new Promise<void>((resolve) => {
              server!.close(() => resolve())
              server!.closeAllConnections()
            })
            await db.close()
          } finally {
            await lock?.release()
          }
        })()),
    }
  } catch (err) {
    server?.close()
    await db.close()
    await lock?.release()
    throw err
  }
}
