/**
 * The host's CLI as spawned processes: on the data directory, through the server that holds it,
 * waiting for its lock, and straight on PostgreSQL.
 * Database: the embedded one, and PostgreSQL for DATABASE_URL (the CLI's two ways to the data).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostCli } from './host-process.js'
import { api, DATABASE_TEST_URL, pgReason, runProcess, startTestHost, until } from './support.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const CLI = hostCli()

const run = (args: string[], env: Record<string, string>, command = process.execPath, prefix = CLI) =>
  runProcess(command, [...prefix, ...args], { cwd: ROOT, env: { ...process.env, ...env } })

const lastLine = (s: string) => s.trim().split('\n').at(-1)!

// Every command is a fresh process that loads the built CLI and opens the database: slow on
// a busy machine, so commands that do not depend on each other run side by side.
describe('host CLI', { timeout: 240_000 }, () => {
  let dir: string
  let env: Record<string, string>

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'host-cli-'))
    env = { DATA_DIR: path.join(dir, 'data'), PORT: '0' }
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('manages teams and tokens on the data directory when no server runs', async () => {
    // Commands refused before they open the data directory run beside the first one.
    const [team, badExpiry, badRole] = await Promise.all([
      run(['team', 'create', '--name', 'Acme', '--plan', 'team'], env),
      run(['token', 'create', '--name', 'x', '--expires', '2y'], env),
      run(['user', 'create', '--email', 'x@example.com', '--role', 'owner'], env),
    ])
    expect(team.code, team.stderr).toBe(0)
    expect(team.stdout.trim()).toMatch(/^team_[a-z0-9]{16}$/)
    expect(badExpiry.code).toBe(1)
    expect(badExpiry.stderr).toContain('--expires must be one of')
    expect([badRole.code, badRole.stderr.trim()]).toEqual([1, '--role must be ADMIN, MANAGER or MEMBER'])

    // Tokens, accounts and a refused team are independent: their processes start together and take
    // the data directory in turn (each waits while another holds it).
    const tokens = async () => {
      // Through npm, as the README says: the token is the last stdout line.
      const created = await run(['run', 'host', '--', 'token', 'create', '--name', 'ci', '--expires', '3m', '--team', team.stdout.trim()], env, 'npm', [])
      expect(created.code, created.stderr).toBe(0)
      const token = lastLine(created.stdout)
      expect(token).toMatch(/^api_/)

      const list = await run(['token', 'list'], env)
      expect(list.code).toBe(0)
      expect(list.stdout).toContain('"ci"')
      expect(list.stdout).toContain(team.stdout.trim())
      expect(list.stdout).not.toContain(token)
      const id = list.stdout.trim().split('\t')[0]!
      expect(id).toMatch(/^token_/)

      expect((await run(['token', 'revoke', id], env)).code).toBe(0)
      const [listed, again] = await Promise.all([run(['token', 'list'], env), run(['token', 'revoke', id], env)])
      expect(listed.stdout).not.toContain(id)
      expect(again.code).toBe(1)
      expect(again.stderr).toContain('not found')
    }
    const badTeam = async () => {
      const refused = await run(['token', 'create', '--name', 'x', '--team', 'team_nope'], env)
      expect(refused.code).toBe(1)
    }
    // Accounts: made by the same operation as npm start's (a verified account and a mailed link); nothing secret printed.
    const accounts = async () => {
      const user = await run(['user', 'create', '--email', 'Ops@Example.com', '--name', 'Ops', '--team', team.stdout.trim(), '--role', 'manager'], env)
      expect(user.code, user.stderr).toBe(0)
      expect(user.stdout.trim()).toMatch(/^user_[a-z0-9]{16}$/)
      expect(user.stdout + user.stderr).not.toMatch(/link_|#/)
      const users = await run(['user', 'list'], env)
      // In the team named, and only there: being the first account of an instance gives nothing more.
      expect(users.stdout).toMatch(new RegExp(`^${user.stdout.trim()}\tops@example.com\tverified\t${team.stdout.trim()}:MANAGER$`, 'm'))
    }
    await Promise.all([tokens(), badTeam(), accounts()])
    expect(existsSync(path.join(env.DATA_DIR!, 'host.json'))).toBe(false)
  })

  it('talks to the running server that holds the data directory', async () => {
    const server: ChildProcess = spawn(process.execPath, [...CLI, 'serve'], { cwd: ROOT, env: { ...process.env, ...env, MAILBOX: '1' } })
    try {
      const lines = createInterface({ input: server.stdout! })
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve)
        server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)))
      })
      // By name, not 127.0.0.1: passkeys refuse an IP address.
      expect(first).toMatch(/^listening on http:\/\/localhost:\d+$/)
      const url = first.slice('listening on '.length)

      // Through the server nothing waits for the data directory: tokens, webhooks and accounts go side by side.
      const tokens = async () => {
        const created = await run(['token', 'create', '--name', 'live', '--expires', '7d'], env)
        expect(created.code, created.stderr).toBe(0)
        const token = lastLine(created.stdout)
        const client = api(`${url}/api/v2`, token)
        expect((await client.get('/envelope')).status).toBe(200)

        const list = await run(['token', 'list'], env)
        const id = list.stdout.split('\n').find((l) => l.includes('"live"'))!.split('\t')[0]!
        expect((await run(['token', 'revoke', id], env)).code).toBe(0)
        expect((await client.get('/envelope')).body).toMatchObject({ code: 'INVALID_API_TOKEN' })
      }

      // Webhooks of the default team, through the server: registered, listed, their log read.
      const webhooks = async () => {
        const [refused, bad] = await Promise.all([
          run(['webhook', 'create', '--url', 'http://127.0.0.1:9/hook', '--events', 'DOCUMENT_SENT'], env),
          run(['webhook', 'create', '--url', 'https://203.0.113.10/in', '--events', 'NOPE'], env),
        ])
        expect(refused.code).toBe(1)
        expect(refused.stderr).toContain('private or loopback')
        expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('unknown event NOPE')])
        const hook = await run(['webhook', 'create', '--url', 'https://203.0.113.10/in', '--events', 'document_sent,DOCUMENT_COMPLETED', '--secret', 's'], env)
        expect(hook.code, hook.stderr).toBe(0)
        const hookId = lastLine(hook.stdout)
        expect(hookId).toMatch(/^webhook_[a-z0-9]{16}$/)
        const [hooks, calls] = await Promise.all([run(['webhook', 'list'], env), run(['webhook', 'calls', hookId], env)])
        expect(hooks.stdout.trim()).toBe([hookId, 'enabled', 'DOCUMENT_SENT,DOCUMENT_COMPLETED', 'https://203.0.113.10/in'].join('\t'))
        expect([calls.code, calls.stderr.trim()]).toEqual([0, 'no deliveries yet'])
      }

      // An admin account through the server: its sign-in link arrives in the local mailbox.
      const admin = async () => {
        const made = await run(['user', 'create', '--email', 'admin@example.com', '--admin'], env)
        expect(made.code, made.stderr).toBe(0)
        expect((await run(['user', 'list'], env)).stdout).toMatch(/admin@example.com\tverified\tteam_[a-z0-9]+:ADMIN/)
        let mailbox = ''
        await until(async () => (mailbox = await (await fetch(`${url}/mailbox`)).text()).includes('admin@example.com'))
        expect(mailbox).toContain('Your sign-in link')
      }
      await Promise.all([tokens(), webhooks(), admin()])

      // The admin endpoints answer loopback callers with the secret only.
      expect((await fetch(`${url}/_admin/tokens`)).status).toBe(404)
    } finally {
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.kill('SIGTERM')
      await exited
    }
    expect(existsSync(path.join(env.DATA_DIR!, 'host.json'))).toBe(false)
    // Straight on the directory again once the server is gone: the revoked token stays gone.
    const after = await run(['token', 'list'], env)
    expect(after.code).toBe(0)
    expect(after.stdout).not.toContain('"live"')
  })

  it('waits while another process holds the data directory, then goes on', async () => {
    // A live process that holds the lock without serving (as a CLI command does while it runs); it
    // ends once the command says it waits for it, however long the command took to start.
    const holder = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] })
    try {
      await writeFile(path.join(env.DATA_DIR!, 'host.json'), JSON.stringify({ pid: holder.pid }), { mode: 0o600 })
      const command = spawn(process.execPath, [...CLI, 'token', 'list'], { cwd: ROOT, env: { ...process.env, ...env } })
      let stderr = ''
      command.stderr.on('data', (d) => {
        stderr += d
        if (stderr.includes('is in use by process')) holder.stdin!.end()
      })
      command.stdout.resume()
      const code = await new Promise<number | null>((resolve, reject) => {
        command.on('error', reject)
        command.on('close', resolve)
      })
      expect(code, stderr).toBe(0)
      expect(stderr).toContain(`is in use by process ${holder.pid}`)
      expect(holder.exitCode).not.toBeNull() // it only went on once the holder was gone
    } finally {
      holder.stdin!.end()
    }
  })

  it.skipIf(pgReason !== null)('works straight on PostgreSQL with DATABASE_URL', async () => {
    const schema = `host_cli_${Date.now().toString(36)}`
    const url = new URL(DATABASE_TEST_URL)
    url.searchParams.set('schema', schema)
    try {
      const created = await run(['token', 'create', '--name', 'pg'], { ...env, DATABASE_URL: url.toString() })
      expect(created.code, created.stderr).toBe(0)
      const host = await startTestHost('pglite', { databaseUrl: url.toString(), queueConcurrency: 0 })
      try {
        expect((await api(host.apiUrl, lastLine(created.stdout)).get('/envelope')).status).toBe(200)
        // A job that failed its last attempt is listed, and run again on the operator's word.
        await host.db.query(`insert into jobs (kind, payload, status, attempts, last_error) values ('seal', '{}', 'failed', 10, 'x'), ('mail', '{}', 'failed', 10, 'y')`)
        const pgEnv = { ...env, DATABASE_URL: url.toString() }
        const listed = await run(['jobs'], pgEnv)
        expect(listed.stdout.trim().split('\n').map((l) => l.split('\t').slice(0, 3))).toEqual([
          ['mail', 'failed', '1'],
          ['maintenance', 'pending', '1'],
          ['seal', 'failed', '1'],
        ])
        const retried = await run(['jobs', 'retry', '--kind', 'seal'], pgEnv)
        expect([retried.code, retried.stdout.trim()]).toEqual([0, '1 failed job(s) queued again'])
        expect(await host.db.query(`select kind, status, attempts from jobs order by kind`)).toEqual([
          { kind: 'mail', status: 'failed', attempts: 10 },
          { kind: 'maintenance', status: 'pending', attempts: 0 },
          { kind: 'seal', status: 'pending', attempts: 0 },
        ])
      } finally {
        await host.stop()
      }
    } finally {
      const client = new pg.Client({ connectionString: DATABASE_TEST_URL })
      await client.connect()
      await client.query(`drop schema if exists ${schema} cascade`)
      await client.end()
    }
  })
})
