/** A host as a process of its own, for the tests that kill one (SIGKILL) and start it again. */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { createInterface } from 'node:readline'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** A host as its own process (`npm run host -- serve`), so that it can be killed with SIGKILL. */
export function serve(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'host/server/cli.ts', 'serve'], {
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

/** An API token of the default team, made by the CLI (through the running server when it holds the data). */
export async function tokenFor(env: Record<string, string>) {
  const run = spawn(process.execPath, ['--import', 'tsx', 'host/server/cli.ts', 'token', 'create', '--name', 'delivery'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  })
  let out = ''
  run.stdout.on('data', (d) => (out += d))
  await new Promise((r) => run.on('close', r))
  return out.trim().split('\n').at(-1)!
}
