// npm start: the signing service (host) on the embedded database, plus Storybook with a demo of
// every component against it. Ctrl-C stops both.
//
// Settings: PORT (host, default 3100), HOST (default localhost: passkeys refuse 127.0.0.1), STORYBOOK_PORT (default 6006), DATA_DIR (default ./.data),
// DATABASE_URL (PostgreSQL instead of the embedded database), PUBLIC_URL (the host's public origin),
// LOG_LEVEL (the host's JSON log; default warn here).
// Without SMTP_URL the host keeps every e-mail in its local mailbox ({host}/mailbox): the demo
// asks for it (MAILBOX=1; a served host has it only when asked).
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { tsImport } from 'tsx/esm/api'

// The demo's terminal shows what matters: the host's request and job log only with LOG_LEVEL=info.
process.env.LOG_LEVEL ??= 'warn'
// The local mailbox is a development aid, off unless asked for: the demo asks (MAILBOX=0 declines).
process.env.MAILBOX ??= '1'

const root = fileURLToPath(new URL('..', import.meta.url))
const dataDir = resolve(root, process.env.DATA_DIR ?? '.data')
const hostPort = Number(process.env.PORT ?? 3100)
const storybookPort = Number(process.env.STORYBOOK_PORT ?? 6006)
// People open these addresses: by name, since passkeys refuse an IP address ("127.0.0.1 is an invalid domain").
const hostname = process.env.HOST?.trim() || 'localhost'
const storybookUrl = `http://localhost:${storybookPort}`

quietAborts()

const children = new Set()
let host
let stopping = null
process.on('SIGINT', () => void stop(0))
process.on('SIGTERM', () => void stop(0))

try {
  // A taken port is said before anything is built or started, with the variable to change.
  await portFree(hostPort, 'PORT', 'the signing service')
  await portFree(storybookPort, 'STORYBOOK_PORT', 'Storybook')
  const stale = appBuildState()
  if (stale) {
    console.log(`Building the authoring and signing pages (${stale})...`)
    await run('npm', ['run', 'build:app'])
  }

  await mkdir(dataDir, { recursive: true })
  const { startHost } = await tsImport('../host/server/start.ts', import.meta.url)
  host = await startHost({
    port: hostPort,
    hostname,
    dataDir,
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
    // The demo backend (in Storybook's server, on this machine) receives the demo team's webhooks.
    webhookAllowPrivateUrls: true,
    // Demos want to see deliveries at once: look for due jobs often, retry within seconds.
    queuePollMs: 250,
    retryBaseMs: 500,
    retryFactor: 2,
    retryMaxMs: 5000,
    retryMaxAttempts: 5,
  })
  await hostReady(host.url)
  const demo = await demoTeam(host)
  const consoleAccess = await demoConsole(host, demo.teamId)

  const storybook = spawnStorybook({ ENVELOPE_HOST_URL: host.url, ENVELOPE_API_KEY: demo.token, ENVELOPE_WEBHOOK_SECRET: demo.webhookSecret })
  storybook.on('exit', (code) => {
    if (stopping) return
    console.error(`npm start: Storybook exited (${code ?? 'signal'}) before or while serving on port ${storybookPort}; stopping the host. Is another Storybook running? Set STORYBOOK_PORT to a free port.`)
    void stop(1)
  })
  console.log('Starting the component demos (Storybook)...')
  await storybookReady(storybookUrl, storybook)

  console.log(`
  envelope-embed is running

    Component demos (Storybook)   ${storybookUrl}
    Signing service (host)        ${host.url}
    API reference                 ${host.apiUrl}/docs
    ${process.env.SMTP_URL?.trim() ? 'E-mail                        sent through SMTP_URL' : host.config.mailbox ? `E-mail (local mailbox)        ${host.url}/mailbox` : 'E-mail                        not sent (no SMTP_URL, MAILBOX=0): waits in the queue'}
    Team console                  ${host.url}/console
                                  ${consoleAccess}
                                  a link expired (it is good for 15 minutes)? Get a fresh one:
                                  npm run host -- user link ${consoleEmail()}
    An API key for your app       npm run host -- token create --name my-app
                                  (or the demo team's, in ${join(dataDir, 'demo.json')}; examples/app/README.md)
    Data                          ${dataDir}

  Press Ctrl-C to stop.
`)
} catch (error) {
  console.error(`npm start failed: ${error instanceof Error ? error.message : error}`)
  await stop(1)
}

/**
 * The demo team (enterprise plan, so it may mint presign tokens), its API token and the secret of
 * its webhook to the demo backend: created on the first run, kept in DATA_DIR/demo.json (mode
 * 0600) and reused while the host still accepts the token. Both go to Storybook's server process
 * only; they are never printed nor sent to a browser. The webhook's signing key, which its calls
 * are verified with, is not kept here: the demo backend holds the one the service answers when it
 * registers the webhook (or gives an existing one a new key), in memory.
 */
async function demoTeam(host) {
  const file = join(dataDir, 'demo.json')
  const saved = await readFile(file, 'utf8').then(JSON.parse, () => null)
  const webhookSecret = typeof saved?.webhookSecret === 'string' && saved.webhookSecret ? saved.webhookSecret : randomBytes(24).toString('base64url')
  const save = (o) => saveDemo(file, { ...o, webhookSecret })
  if (saved?.token && (await canPresign(host, saved.token))) {
    if (saved.webhookSecret !== webhookSecret) await save(saved)
    return { token: saved.token, webhookSecret, teamId: saved.teamId }
  }

  let teamId = saved?.teamId
  let created = teamId ? await host.createApiToken({ name: 'demo', teamId, expires: 'never' }).catch(() => null) : null
  if (!created) {
    teamId = (await host.createTeam({ name: 'Demo', plan: 'enterprise' })).id
    created = await host.createApiToken({ name: 'demo', teamId, expires: 'never' })
  }
  await save({ teamId, tokenId: created.id, token: created.token })
  console.log(`Created the demo team and its API token (${file}).`)
  return { token: created.token, webhookSecret, teamId }
}

/**
 * The console's way in: the demo team's admin account (DEMO_ADMIN_EMAIL, default
 * admin@demo.localhost) and a fresh one-time sign-in link, sent by e-mail (the local mailbox
 * without SMTP, which only a person on this machine can open). The link is never printed.
 */
function consoleEmail() {
  return process.env.DEMO_ADMIN_EMAIL?.trim() || 'admin@demo.localhost'
}

async function demoConsole(host, teamId) {
  const email = consoleEmail()
  const { createOperatorUser } = await tsImport('../host/server/people/operator.ts', import.meta.url)
  await createOperatorUser(host.db, { email, name: 'Demo admin', teamId, role: 'ADMIN' })
  return process.env.SMTP_URL?.trim()
    ? `sign in as ${email} with the one-time link e-mailed to it`
    : `sign in as ${email} with the one-time link in the mailbox (${host.url}/mailbox)`
}

async function saveDemo(file, demo) {
  await writeFile(file, JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 })
  await chmod(file, 0o600) // the mode above applies only when the file is new
}

/**
 * Why the pages need building, or null when host/app/dist is up to date: missing, or older than
 * a file of their sources (host/app/src, host/app/index.html, the protocol in src/protocol).
 */
function appBuildState() {
  const built = join(root, 'host/app/dist/index.html')
  if (!existsSync(built)) return 'first run'
  const builtAt = statSync(built).mtimeMs
  const newer = [join(root, 'host/app/src'), join(root, 'host/app/index.html'), join(root, 'src/protocol')].find((path) => newestIn(path) > builtAt)
  return newer ? `${newer.slice(root.length)} changed since the last build` : null
}

/** The latest modification time of a file, or of any file under a directory (0 when missing). */
function newestIn(path) {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = 0
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestIn(join(path, entry)))
  return newest
}

async function canPresign(host, token) {
  const res = await fetch(`${host.apiUrl}/embedding/create-presign-token`, {
    method: 'POST',
    headers: { Authorization: token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ expiresIn: 1 }),
  }).catch(() => null)
  return res?.ok === true
}

function spawnStorybook(env) {
  const require = createRequire(import.meta.url)
  const pkg = require.resolve('storybook/package.json')
  const bin = join(dirname(pkg), require(pkg).bin)
  // Its own process group, so stopping it also stops whatever it started.
  const child = spawn(
    process.execPath,
    [bin, 'dev', '--port', String(storybookPort), '--exact-port', '--ci', '--no-open', '--disable-telemetry', '--no-version-updates', '--quiet'],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env, STORYBOOK_DISABLE_TELEMETRY: '1', STORYBOOK_HOST_URL: process.env.STORYBOOK_HOST_URL ?? env.ENVELOPE_HOST_URL },
    },
  )
  children.add(child)
  child.on('exit', () => children.delete(child))
  return child
}

async function waitForHttp(url, child) {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`Storybook exited before it served ${url} (is port ${storybookPort} taken? set STORYBOOK_PORT)`)
    const res = await fetch(url).catch(() => null)
    if (res?.ok) return res
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** Fails with the port and the variable to change when something already listens on `port`. */
async function portFree(port, variable, part) {
  const { createServer } = await import('node:net')
  await new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} (${part}) is taken by another program: set ${variable} to a free port, e.g. ${variable}=${port + 1} npm start`) : error),
    )
    probe.listen(port, () => probe.close(resolve))
  })
}

/** The host answers at the address people open, as itself: its readiness route with its own answer. */
async function hostReady(url) {
  for (let i = 0; ; i++) {
    const res = await fetch(`${url}/readyz`).catch(() => null)
    const body = res ? await res.json().catch(() => null) : null
    if (res?.ok && body?.status === 'ready') return
    if (i >= 120) throw new Error(`the host does not answer as itself at ${url}/readyz${res ? ` (status ${res.status})` : ''}: is another program on port ${hostPort}? set PORT`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/**
 * Storybook answers its manager page long before a story can show: ready means its story index
 * is built and the preview's modules (the first thing a story loads) have been bundled once, so
 * the first story opened renders at once instead of after a spinner.
 */
async function storybookReady(base, child) {
  const index = await (await waitForHttp(`${base}/index.json`, child)).json().catch(() => null)
  // Another Storybook on the port answers too: ours lists this repository's stories.
  const entries = Object.values(index?.entries ?? {})
  if (!entries.length || !entries.every((e) => typeof e.importPath === 'string' && existsSync(resolve(root, e.importPath))))
    throw new Error(`the Storybook at ${base} is not this project's (another one on port ${storybookPort}?): set STORYBOOK_PORT to a free port`)
  const preview = await (await waitForHttp(`${base}/iframe.html`, child)).text()
  const modules = [...preview.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) => new URL(m[1], base).href)
  // Vite transforms on request and pre-bundles dependencies on first sight: ask for each entry once.
  await Promise.all(modules.map((url) => fetch(url).then((r) => r.arrayBuffer()).catch(() => null)))
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))))
    child.on('error', reject)
  })
}

/**
 * A browser that leaves a page (switching stories does) drops its requests: the server then logs
 * the reset connection with a full stack trace, which reads like a failure. Here it is one quiet
 * line, once per burst; every other error is printed as before.
 */
function quietAborts() {
  const ABORTED = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED'])
  const error = console.error.bind(console)
  let last = 0
  console.error = (...args) => {
    const aborted = args.find((a) => a instanceof Error && (ABORTED.has(a.code) || ABORTED.has(a.cause?.code) || a.name === 'AbortError'))
    if (!aborted) return error(...args)
    if (Date.now() - last > 2000) console.log(`(a browser closed a request early: ${aborted.code ?? aborted.cause?.code ?? aborted.name})`)
    last = Date.now()
  }
}

/** Stops Storybook (its whole process group), then the host; once, whoever asks first. */
function stop(code) {
  stopping ??= (async () => {
    for (const child of children) signal(child, 'SIGTERM')
    // Give Storybook a moment to exit by itself, then insist.
    const insist = setTimeout(() => children.forEach((child) => signal(child, 'SIGKILL')), 5000)
    while (children.size) await new Promise((r) => setTimeout(r, 100))
    clearTimeout(insist)
    await host?.close().catch((error) => console.error(`Closing the host: ${error.message}`))
    process.exit(code)
  })()
  return stopping
}

function signal(child, name) {
  try {
    process.kill(-child.pid, name)
  } catch {
    // already gone
  }
}
