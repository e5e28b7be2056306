import path from 'node:path'

/** Settings of one host process; every field has an environment variable (see host/README.md). */
export interface HostConfig {
  port: number
  hostname: string
  dataDir: string
  /** PostgreSQL connection string; absent = embedded PGlite in dataDir. */
  databaseUrl: string | undefined
  /** Public origin of this host (links it hands out); absent = the listening origin. */
  publicUrl: string | undefined
  /** Largest accepted request body in bytes (uploads included). */
  maxUploadBytes: number
  /** The built authoring pages (index.html + assets/). */
  appDistDir: string
}

const here = path.dirname(new URL(import.meta.url).pathname)
export const DEFAULT_APP_DIST_DIR = path.resolve(here, '../app/dist')
export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024

function intEnv(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`)
  return n
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): HostConfig {
  return {
    port: intEnv('PORT', env.PORT, 3100),
    hostname: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './.data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    maxUploadBytes: intEnv('MAX_UPLOAD_BYTES', env.MAX_UPLOAD_BYTES, DEFAULT_MAX_UPLOAD_BYTES),
    appDistDir: path.resolve(env.APP_DIST_DIR || DEFAULT_APP_DIST_DIR),
  }
}
