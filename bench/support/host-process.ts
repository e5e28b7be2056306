/** A host as its own process (the operator CLI's `serve` on a free loopback port), for benchmarks. */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const CLI = path.join(ROOT, 'host/server/cli.ts')

/** Spawns `serve` with `env` and resolves with its URL, read from its first line. */
export async function spawnHost(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // A bench that fails must not leave its host running (and busy) behind it.
  process.once('exit', () => child.kill('SIGKILL'))
  let err = ''
  child.stderr!.on('data', (d) => (err = (err + d).slice(-4000)))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`the host did not start within 60 s: ${err}`)), 60_000)
    child.stdout!.on('data', (d) => {
      out += d
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the host exited (${code}) before listening: ${err}`))
    })
  })
  child.stdout!.resume()
  return { child, url }
}
