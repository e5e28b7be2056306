import { mkdir, open, readFile, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * The embedded database admits one process per data directory. Whoever opens it holds
 * DATA_DIR/host.json (created exclusively, mode 0600): `{pid}` for a CLI command, plus `url` and
 * `adminSecret` for a server, so CLI commands can reach the running server instead.
 */
export interface LockInfo {
  pid: number
  url?: string
  adminSecret?: string
}

/** Header carrying the admin secret to a server's loopback-only /_admin endpoints. */
export const ADMIN_SECRET_HEADER = 'x-admin-secret'

export const lockFile = (dataDir: string) => path.join(dataDir, 'host.json')

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The live holder of the data directory, if any (a stale file from a dead process is removed). */
export async function readLock(dataDir: string): Promise<LockInfo | null> {
  let info: LockInfo
  try {
    info = JSON.parse(await readFile(lockFile(dataDir), 'utf8')) as LockInfo
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    // Being written right now: treat as held by someone unknown.
    return { pid: -1 }
  }
  if (typeof info.pid === 'number' && info.pid !== process.pid && !alive(info.pid)) {
    await unlink(lockFile(dataDir)).catch(() => {})
    return null
  }
  return info
}

export class DataDirBusy extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    super(`the data directory ${dataDir} is in use by process ${holder.pid}${holder.url ? ` (server at ${holder.url})` : ''}`)
  }
}

export interface DataDirLock {
  /** Publishes the server's address and admin secret to CLI commands. */
  publish(info: Omit<LockInfo, 'pid'>): Promise<void>
  release(): Promise<void>
}

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true })
  const file = lockFile(dataDir)
  for (let attempt = 0; ; attempt++) {
    try {
      const fh = await open(file, 'wx', 0o600)
      await fh.writeFile(JSON.stringify({ pid: process.pid }))
      await fh.close()
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw err
      const holder = await readLock(dataDir)
      if (holder) throw new DataDirBusy(dataDir, holder)
    }
  }
  let released = false
  return {
    publish: (info) => writeFile(file, JSON.stringify({ pid: process.pid, ...info }), { mode: 0o600 }),
    async release() {
      if (released) return
      released = true
      await unlink(file).catch(() => {})
    },
  }
}
