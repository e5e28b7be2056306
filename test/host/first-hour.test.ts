/**
 * The first hour with the host: a fresh sign-in link from the terminal, addresses by name
 * (passkeys refuse an IP address), a taken port said plainly, a signed-out console that logs no
 * error, and an icon on every page.
 * Database: the embedded one (the CLI, pages and logs are not database behaviour).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHost } from '../../host/server/start.js'
import { makeUser, sessionCookieOf, signInAs } from '../support/console-client.js'
import { runProcess, startTestHost, VARIANTS, type TestHost } from './support.js'

const ROOT = path.resolve(import.meta.dirname, '../..')

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('first hour ($variant)', ({ variant, skip }) => {
  let host: TestHost
  const email = `first-hour-${variant}@example.com`

  beforeAll(async () => {
    if (skip) return
    // Reached by name, as `npm start` and `serve` do.
    host = await startTestHost(variant, { hostname: 'localhost', queueConcurrency: 0 })
    await makeUser(host.db, email)
  })
  afterAll(async () => {
    await host?.stop()
  })

  /** The CLI as the operator runs it: through the server holding DATA_DIR (embedded), else on the database. */
  const cli = (...args: string[]) =>
    runProcess(process.execPath, ['--import', 'tsx', 'host/server/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: host.config.dataDir, DATABASE_URL: host.config.databaseUrl ?? '', PORT: String(host.config.port), HOST: '', PUBLIC_URL: '' },
    })

  const complete = (link: string) =>
    fetch(`${host.url}/api/console/auth/link/complete`, {
      method: 'POST',
      headers: { origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ link }),
    })

  it.skipIf(skip)('`user link EMAIL` prints a fresh sign-in link at localhost that signs in once and replaces the one before', async () => {
    const first = await cli('user', 'link', email)
    expect(first.code, first.stderr).toBe(0)
    const url = first.stdout.trim()
    expect(url).toMatch(new RegExp(`^http://localhost:${host.config.port}/console/link/signin#[\\w.-]+$`))
    expect(first.stderr).toContain(email)

    const second = await cli('user', 'link', email.toUpperCase())
    expect(second.code, second.stderr).toBe(0)
    const older = url.split('#')[1]!
    const newer = second.stdout.trim().split('#')[1]!
    expect(newer).not.toBe(older)

    // The newer link replaced the older one; it signs in, once.
    expect((await (await complete(older)).json()).code).toBe('LINK_INVALID')
    const signedIn = await complete(newer)
    expect(signedIn.status).toBe(200)
    const cookie = sessionCookieOf(signedIn)
    const me = await (await fetch(`${host.url}/api/console/session`, { headers: { cookie } })).json()
    expect(me.user.email).toBe(email)
    expect((await complete(newer)).status).toBe(400)
  })

  it.skipIf(skip)('`user link` for an address without an account fails, saying how to make one', async () => {
    const run = await cli('user', 'link', `nobody-${variant}@example.com`)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain('user create')
  })

  it.skipIf(skip)('the host started by name answers at localhost, and a passkey ceremony names localhost as its relying party', async () => {
    expect(host.url).toBe(`http://localhost:${host.config.port}`)
    const res = await fetch(`${host.url}/api/console/auth/passkey/options`, { method: 'POST', headers: { origin: host.url, 'content-type': 'application/json' }, body: '{}' })
    expect(res.status).toBe(200)
    expect((await res.json()).options.rpId).toBe('localhost')
  })

  it.skipIf(skip)('signed out is an answer, not an error: /session says so with 200, and /me still refuses', async () => {
    const none = await fetch(`${host.url}/api/console/session`)
    expect(none.status).toBe(200)
    expect(await none.json()).toEqual({ signedIn: false })
    expect(none.headers.get('set-cookie')).toBeNull()
    expect((await fetch(`${host.url}/api/console/me`)).status).toBe(401)

    // A session that ended: a plain "signed out", and the browser forgets its cookie.
    const client = await signInAs(host.url, email)
    expect((await client.console('/auth/sign-out', { body: {} })).status).toBe(200)
    const ended = await fetch(`${host.url}/api/console/session`, { headers: { cookie: client.cookie } })
    expect(ended.status).toBe(200)
    expect(await ended.json()).toEqual({ signedIn: false })
    expect(ended.headers.get('set-cookie')).toMatch(/envelope_session=;|Max-Age=0|Expires=Thu, 01 Jan 1970/)
    // Nothing the session opened is open through it.
    expect((await client.console('/account/sessions')).status).toBe(401)

    const again = await signInAs(host.url, email)
    const me = await (await again.console('/session')).json()
    expect(me).toMatchObject({ user: { email }, csrfToken: again.csrf })
  })

  it.skipIf(skip)('the icon is an SVG with its type and cache, linked from the landing page and the mailbox', async () => {
    const icon = await fetch(`${host.url}/favicon.svg`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(icon.headers.get('cache-control')).toMatch(/max-age=\d+/)
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    const ico = await fetch(`${host.url}/favicon.ico`, { redirect: 'manual' })
    expect(ico.status).toBe(301)
    expect(ico.headers.get('location')).toBe('/favicon.svg')
    for (const page of ['/', '/mailbox']) {
      const res = await fetch(`${host.url}${page}`)
      expect(await res.text(), page).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">')
      expect(res.headers.get('content-security-policy'), page).toMatch(/img-src 'self'/)
    }
  })
})

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('the console\'s delivery log ($variant)', ({ variant, skip }) => {
  let host: TestHost
  let receiver: import('node:http').Server
  const seen: Record<string, string | string[] | undefined>[] = []
  beforeAll(async () => {
    if (skip) return
    const { createServer: http } = await import('node:http')
    receiver = http((req, res) => {
      seen.push(req.headers)
      req.resume().on('end', () => res.writeHead(202, { 'content-type': 'text/plain' }).end('x'.repeat(2000)))
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    host = await startTestHost(variant, { queueConcurrency: 0, webhookAllowPrivateUrls: true })
    await makeUser(host.db, `log-${variant}@example.com`)
  })
  afterAll(async () => {
    await host?.stop()
    receiver?.close()
  })

  it.skipIf(skip)('each call with its document, its headers with the secret hidden, the start of the answer; managers only', async () => {
    const admin = await signInAs(host.url, `log-${variant}@example.com`)
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
    const hook = await (await admin.v2('/webhook/create', { body: { url, events: ['DOCUMENT_CREATED'], secret: 'whsec-not-for-eyes' } })).json()
    expect((await admin.v2(`/webhook/${hook.id}/test`, { body: {} })).status).toBe(200)
    await host.queue.drain()
    const res = await admin.console(`/webhooks/${hook.id}/calls`)
    expect(res.status).toBe(200)
    const text = await res.clone().text()
    expect(text).not.toContain('whsec-not-for-eyes')
    expect(text).not.toContain(hook.signingKey)
    const { data } = await res.json()
    expect(data).toHaveLength(1)
    const [call] = data
    expect(call).toMatchObject({ event: expect.any(String), responseStatus: 202, durationMs: expect.any(Number) })
    expect(call.responseExcerpt).toBe('x'.repeat(500))
    const headers = Object.fromEntries(call.requestHeaders.map((h: { name: string; value: string | null }) => [h.name.toLowerCase(), h.value]))
    expect(headers['x-service-secret']).toBeNull()
    expect(headers['webhook-signature']).toBeNull()
    expect(headers['x-service-event-id']).toBe(seen[0]!['x-service-event-id'])
    expect(headers['x-service-event']).toBe(seen[0]!['x-service-event'])
    expect(headers['user-agent']).toBe(seen[0]!['user-agent'])
    expect(Number(headers['webhook-timestamp'])).toBeCloseTo(Number(seen[0]!['webhook-timestamp']), -1)
    expect((await admin.console('/webhooks/webhook_nosuch/calls')).status).toBe(404)
    expect((await admin.console('/webhooks/../calls')).status).toBe(404)
    expect((await admin.console(`/webhooks/${hook.id}/calls?perPage=1000`)).status).toBe(400)
    expect((await fetch(`${host.url}/api/console/webhooks/${hook.id}/calls`)).status).toBe(401)
  })
})

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('the activity log in words ($variant)', ({ variant, skip }) => {
  let host: TestHost
  beforeAll(async () => {
    if (!skip) host = await startTestHost(variant, { queueConcurrency: 0, webhookAllowPrivateUrls: true })
  })
  afterAll(async () => {
    await host?.stop()
  })

  it.skipIf(skip)('names people and tokens, says who did it, and shows old → new', async () => {
    const adminEmail = `words-${variant}@example.com`
    const admin = await makeUser(host.db, adminEmail)
    await host.db.query('update users set name = $2 where id = $1', [admin.id, 'Ada Lovelace'])
    const client = await signInAs(host.url, adminEmail)
    const me = await (await client.console('/me')).json()
    const mia = await makeUser(host.db, `mia-${variant}@example.com`, { teamId: me.team.teamId, role: 'MEMBER' })
    await host.db.query('update users set name = $2 where id = $1', [mia.id, 'Mia Chen'])

    expect((await client.console('/team/members/role', { body: { userId: mia.id, role: 'MANAGER' } })).status).toBe(200)
    expect((await client.console('/team/rename', { body: { name: 'Words Inc.' } })).status).toBe(200)
    // The operator's token (no member behind it) changes a webhook it made.
    const operator = await host.createApiToken({ name: 'Billing server', teamId: me.team.teamId })
    const v2 = (path: string, body: unknown) =>
      fetch(`${host.apiUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const made = await v2('/webhook/create', { url: 'http://127.0.0.1:9/a', events: ['DOCUMENT_SENT'] })
    const hook = await made.json()
    expect(made.status, JSON.stringify(hook)).toBe(200)
    const changed = await v2('/webhook/update', { id: hook.id, url: 'http://127.0.0.1:9/b', enabled: false, events: ['DOCUMENT_SENT'] })
    expect(changed.status, await changed.clone().text()).toBe(200)

    const { data } = await (await client.console('/team/activity')).json()
    const find = (action: string) => data.find((e: { action: string }) => e.action === action)
    // What the console shows (actor, subject, changes) carries names, never ids.
    const words = JSON.stringify(data.map((e: { actor: unknown; subject: unknown; changes: unknown }) => [e.actor, e.subject, e.changes]))
    expect(words).not.toMatch(/user_|api_token_|apitoken_|webhook_/)

    expect(find('member.role_changed')).toMatchObject({
      actor: { kind: 'member', name: 'Ada Lovelace', email: adminEmail },
      subject: `Mia Chen (mia-${variant}@example.com)`,
      changes: [{ field: 'role', from: 'MEMBER', to: 'MANAGER' }],
    })
    expect(find('team.updated').changes).toContainEqual({ field: 'name', from: expect.any(String), to: 'Words Inc.' })
    expect(find('token.created')).toMatchObject({ actor: { kind: 'operator' }, subject: '“Billing server”' })
    expect(find('webhook.created')).toMatchObject({ actor: { kind: 'token', name: 'Billing server' }, subject: 'http://127.0.0.1:9/a' })
    const updated = find('webhook.updated')
    expect(updated).toMatchObject({ actor: { kind: 'token', name: 'Billing server' }, subject: 'http://127.0.0.1:9/b' })
    expect(updated.changes).toEqual(
      expect.arrayContaining([
        { field: 'url', from: 'http://127.0.0.1:9/a', to: 'http://127.0.0.1:9/b' },
        { field: 'enabled', from: 'on', to: 'off' },
      ]),
    )
    // Unchanged fields are no change.
    expect(updated.changes.map((c: { field: string }) => c.field)).not.toContain('events')
  })
})

describe('a taken port', () => {
  let other: Server
  beforeAll(async () => {
    other = createServer()
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
  })
  afterAll(() => new Promise<void>((r) => other.close(() => r())))

  it('names the port and the variable to change', async () => {
    const port = (other.address() as { port: number }).port
    const dir = await mkdtemp(path.join(tmpdir(), 'first-hour-'))
    try {
      await expect(startHost({ port, hostname: '127.0.0.1', dataDir: dir, appDistDir: path.join(dir, 'no-dist'), queueConcurrency: 0 })).rejects.toThrow(
        new RegExp(`port ${port} .*taken.*set PORT`),
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
