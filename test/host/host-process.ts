/** A host as a process of its own, for the tests that kill one (SIGKILL) and start it again. */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { inject } from 'vitest'
import { freshSchema, runProcess, type Variant } from './support.js'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** Node's arguments for the host's CLI as the run built it (test/support/host-build.ts), then `args`. */
export const hostCli = (...args: string[]) => [inject('hostCli'), ...args]

/** A host as its own process (`npm run host -- serve`), so that it can be killed with SIGKILL. */
export function serve(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, hostCli('serve'), {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_URLS: '1', QUEUE_RETRY: 'short', QUEUE_POLL_MS: '100', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    child.stderr!.on('data', (d) => (err += d))
    child.on('exit', (code) => reject(new Error(`host exited (${code}): ${err}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^listening on (http:\/\/\S+)/.exec(line)
      if (m) resolve({ child, url: m[1]! })
    })
  })
}

export const killed = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.removeAllListeners('exit')
    child.once('exit', () => resolve())
    child.kill(signal)
  })

/**
 * A host process's database on `variant`, and its removal: a data dir of its own (embedded), or a
 * schema of its own on the test PostgreSQL with the queue's lease cut to 2 s (a killed process's
 * job runs again once its lease has run out).
 */
export async function processDatabase(variant: Variant, prefix: string): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  if (variant === 'pglite') {
    const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-`))
    return { env: { DATA_DIR: path.join(dir, 'data') }, remove: () => rm(dir, { recursive: true, force: true }) }
  }
  const schema = freshSchema(prefix.replace(/\W/g, '_'))
  return { env: { DATABASE_URL: schema.url, QUEUE_LEASE_MS: '2000' }, remove: schema.drop }
}

/** A port nothing listens on: one the system just gave out and took back (a host started twice on it). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  await new Promise((r) => server.close(r))
  return port
}

/** A CLI command of the run's build on `env` (added to this process's): its exit code and output. */
export const runCli = (env: Record<string, string>, ...args: string[]) => runProcess(process.execPath, hostCli(...args), { cwd: ROOT, env: { ...process.env, ...env } })

/**
 * The CLI as the operator runs it (`npm run host -- ...args`) on `env`'s data, through the running
 * server when it holds the data: the last line it prints. Throws when it fails.
 */
export async function cli(env: Record<string, string>, ...args: string[]): Promise<string> {
  const run = await runCli(env, ...args)
  if (run.code !== 0) throw new Error(`\`${args.join(' ')}\` failed (${run.code}): ${run.stderr}`)
  return run.stdout.trim().split('\n').at(-1)!
}

/** An API token of the default team, made by the CLI (through the running server when it holds the data). */
export const tokenFor = (env: Record<string, string>) => cli(env, 'token', 'create', '--name', 'delivery')
