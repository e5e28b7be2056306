/**
 * examples/app as a customer gets it: the packed library (`npm pack` of this repository) installed
 * in a copy of the app, the app built with Vite, its backend (`node server.mjs`) run against a
 * host. In Chromium the page creates a document through `EmbedCreateEnvelope` until its
 * `onDocumentCreated`, edits it in `EmbedUpdateEnvelope`, sends it and opens `EmbedSignDocument`;
 * the host's webhook calls reach the backend, which verifies their signature. In development
 * Vite's dev server proxies the backend's routes. And the page's calls to its backend fail with
 * their cause: no backend route, no answer from the backend, the service unreachable, the
 * service's refusal with its code.
 *
 * The copy lives in test-results/ (git-ignored) inside the repository, so react, vite and the
 * rest resolve from the repository's own node_modules: nothing is fetched.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { build, createServer as createViteServer, type ViteDevServer } from 'vite'
import { afterAll, describe, expect } from 'vitest'
import { builtLibrary } from './support/build.js'
import { test } from './support/fixtures.js'
import { pdfFile } from './support/pdf.js'
import { startStack, type Stack } from './support/stack.js'
import { editor } from './support/ui.js'

const run = promisify(execFile)
const repo = fileURLToPath(new URL('../../', import.meta.url))

let stack: Stack
let app: string // the copy of examples/app, built
let packDir: string
const backends: Backend[] = []

test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser, { host: { webhookAllowPrivateUrls: true, queuePollMs: 100 } })
  await builtLibrary()
  packDir = await mkdtemp(join(tmpdir(), 'envelope-pack-'))
  const { stdout } = await run('npm', ['pack', '--pack-destination', packDir, '--json'], { cwd: repo })
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }]

  await mkdir(join(repo, 'test-results'), { recursive: true })
  app = await mkdtemp(join(repo, 'test-results', 'example-app-'))
  const skip = /[/\\](node_modules|dist)$|\.tgz$/
  await cp(join(repo, 'examples/app'), app, { recursive: true, filter: (from) => !skip.test(from) })
  await mkdir(join(app, 'node_modules/envelope-embed'), { recursive: true })
  await run('tar', ['-xzf', join(packDir, filename), '-C', join(app, 'node_modules/envelope-embed'), '--strip-components=1'])

  // As `VITE_SIGNING_URL=... npm run build`: a production bundle embedding this host.
  const env = { VITE_SIGNING_URL: process.env.VITE_SIGNING_URL, NODE_ENV: process.env.NODE_ENV }
  process.env.VITE_SIGNING_URL = stack.host.url
  process.env.NODE_ENV = 'production'
  try {
    await build({ root: app, configFile: join(app, 'vite.config.ts'), logLevel: 'warn' })
  } finally {
    for (const [k, v] of Object.entries(env)) v === undefined ? delete process.env[k] : (process.env[k] = v)
  }
})

afterAll(async () => {
  await Promise.all(backends.map((b) => b.close()))
  await stack?.close()
  if (app) await rm(app, { recursive: true, force: true })
  if (packDir) await rm(packDir, { recursive: true, force: true })
})

interface Backend {
  url: string
  output: string[]
  close(): Promise<void>
}

/** `node server.mjs` in the built copy, on a free port, with these settings; resolves once it listens. */
async function startBackend(env: Record<string, string>): Promise<Backend> {
  const child: ChildProcess = spawn(process.execPath, ['server.mjs'], { cwd: app, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const output: string[] = []
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const url = await new Promise<string>((resolve, reject) => {
    const read = (d: Buffer) => {
      output.push(String(d))
      const port = /backend on http:\/\/localhost:(\d+)/.exec(output.join(''))?.[1]
      if (port) resolve(`http://localhost:${port}`)
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', (d: Buffer) => output.push(String(d)))
    child.once('exit', (code) => reject(new Error(`the backend exited (${code}): ${output.join('')}`)))
  })
  const backend = {
    url,
    output,
    close: async () => {
      if (child.exitCode === null) child.kill()
      await exited
    },
  }
  backends.push(backend)
  return backend
}

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  await new Promise((r) => server.close(r))
  return port
}

async function openApp(url: string): Promise<Page> {
  const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (e) => console.error('page error:', e.message))
  await page.goto(url)
  return page
}

/** What the editor's place says instead of the editor. */
const problem = (page: Page) => page.getByRole('alert').filter({ hasText: 'Cannot open the editor' }).textContent()

describe('examples/app, built from the packed library', () => {
  test('create a document to onDocumentCreated, edit it, send it, sign it; the webhooks verified by its backend', async () => {
    // The webhook first, for the signing key the backend verifies with; its address once the backend listens.
    const hook = await stack.api<{ id: string; signingKey: string }>('POST', '/webhook/create', {
      url: 'http://127.0.0.1:9/not-yet',
      events: ['DOCUMENT_CREATED', 'DOCUMENT_SENT'],
      sendSecretHeader: false,
      enabled: false,
    })
    const backend = await startBackend({ SIGNING_URL: stack.host.url, SIGNING_API_KEY: stack.apiToken, WEBHOOK_SIGNING_KEY: hook.signingKey })
    await stack.api('POST', '/webhook/update', { id: hook.id, url: `${backend.url}/webhooks`, enabled: true })

    const page = await openApp(backend.url)
    const frame = page.frameLocator('iframe')
    const ui = editor(page, frame)
    await ui.addFiles([await pdfFile('Service agreement.pdf', 1)])
    await frame.getByText('1 page').waitFor()
    // The frame spans the page's column (1200 px less padding), not a squeezed 375 px, and is at least its min-height.
    const box = (await page.locator('iframe').boundingBox())!
    expect(box.width).toBeGreaterThan(1000)
    expect(box.height).toBeGreaterThanOrEqual(720)

    await ui.step(/Recipients/).click()
    await ui.addRecipient('Alice Example', 'alice@example.com')
    await ui.step(/Fields/).click()
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.8)
    await frame.getByRole('button', { name: 'Create document' }).first().click()

    // onDocumentCreated: the page shows the new envelope's id, as the API has it.
    const status = page.getByRole('status')
    await expect.poll(() => status.textContent()).toMatch(/Created envelope_\w+/)
    const envelopeId = /envelope_\w+/.exec((await status.textContent())!)![0]
    expect(await stack.api('GET', `/envelope/${envelopeId}`)).toMatchObject({ type: 'DOCUMENT', title: 'Service agreement', externalId: 'order-1001' })

    // The same envelope in EmbedUpdateEnvelope, on a token for it alone.
    await expect.poll(() => page.locator('iframe').getAttribute('src')).toContain(`/embed/v2/authoring/envelope/edit/${envelopeId}`)
    await ui.step(/Recipients/).waitFor()

    // Sent: the recipient's signing page in EmbedSignDocument.
    await page.getByRole('button', { name: 'Send for signing' }).click()
    await page.getByRole('heading', { name: 'Sign', exact: true }).waitFor()
    await expect.poll(() => page.locator('iframe').getAttribute('src')).toContain('/embed/sign/')
    await frame.getByText('Service agreement').first().waitFor()

    // The host's calls, verified by the backend, listed on the page.
    const events = page.getByRole('region', { name: 'Webhooks received' }).getByRole('listitem')
    await expect.poll(() => events.allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^DOCUMENT_SENT ${envelopeId} `)),
      expect.stringMatching(new RegExp(`^DOCUMENT_CREATED ${envelopeId} `)),
    ])
    // A call not signed with the webhook's key is refused and not kept.
    const forged = await fetch(`${backend.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: JSON.stringify({ event: 'DOCUMENT_COMPLETED', payload: { envelopeId }, createdAt: new Date().toISOString() }),
    })
    expect(forged.status).toBe(401)
    const { events: kept } = (await (await fetch(`${backend.url}/events`)).json()) as { events: { event: string }[] }
    expect(kept.map((e) => e.event)).toEqual(['DOCUMENT_SENT', 'DOCUMENT_CREATED'])
    // The host's delivery log: the backend took each call (204).
    const { data: calls } = await stack.api<{ data: { event: string; responseStatus: number | null }[] }>('GET', `/webhook/${hook.id}/calls`)
    expect(calls.map((c) => [c.event, c.responseStatus]).sort()).toEqual([['DOCUMENT_CREATED', 204], ['DOCUMENT_SENT', 204]])
    await page.close()
  })

  test("typechecks against the packed library's types (its own tsconfig.json)", async () => {
    const tsc = join(repo, 'node_modules/typescript/bin/tsc')
    const checked = await run(process.execPath, [tsc, '-p', join(app, 'tsconfig.json')]).catch((e: { stdout?: string }) => ({ failed: e.stdout ?? String(e) }))
    expect(checked).not.toHaveProperty('failed')
  })

  test("in development, Vite's dev server passes the backend's routes to it (vite.config.ts)", async () => {
    const backend = await startBackend({ SIGNING_URL: stack.host.url, SIGNING_API_KEY: stack.apiToken })
    const before = process.env.BACKEND_PORT
    process.env.BACKEND_PORT = new URL(backend.url).port
    let dev: ViteDevServer
    try {
      dev = await createViteServer({ root: app, configFile: join(app, 'vite.config.ts'), logLevel: 'warn', server: { port: 0, host: '127.0.0.1' }, optimizeDeps: { noDiscovery: true } })
    } finally {
      before === undefined ? delete process.env.BACKEND_PORT : (process.env.BACKEND_PORT = before)
    }
    try {
      await dev.listen()
      const origin = dev.resolvedUrls!.local[0]!.replace(/\/$/, '')
      const minted = await fetch(`${origin}/presign`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(minted.status).toBe(200)
      expect(await minted.json()).toMatchObject({ token: expect.any(String), expiresIn: 3600 })
      expect(await (await fetch(`${origin}/events`)).json()).toEqual({ events: [], webhooks: 'off' })
    } finally {
      await dev.close()
    }
  })

  test('a failed presign says its cause: no backend route, no answer from the backend, the service unreachable, the service refusing', async () => {
    // The page served without its backend route (a static server's 404 page).
    const good = await startBackend({ SIGNING_URL: stack.host.url, SIGNING_API_KEY: stack.apiToken })
    const page = await openApp(good.url)
    await page.route('**/presign', (r) => r.fulfill({ status: 404, contentType: 'text/html', body: '<!doctype html><title>Not found</title>' }))
    await page.reload()
    await expect.poll(() => problem(page)).toContain('Cannot open the editor: no backend route for POST /presign (404, text/html)')
    // What Vite's dev server answers when the backend it proxies to is not running.
    await page.unrouteAll()
    await page.route('**/presign', (r) => r.fulfill({ status: 502, contentType: 'text/plain', body: '' }))
    await page.reload()
    await expect.poll(() => problem(page)).toContain('Cannot open the editor: the backend did not answer for POST /presign (502, text/plain)')
    await page.close()

    // The backend cannot reach the signing service: 502 UPSTREAM_UNAVAILABLE.
    const stranded = await startBackend({ SIGNING_URL: `http://127.0.0.1:${await closedPort()}`, SIGNING_API_KEY: stack.apiToken })
    const page2 = await openApp(stranded.url)
    await expect.poll(() => problem(page2)).toContain('Cannot open the editor: the signing service is unreachable (UPSTREAM_UNAVAILABLE)')
    await page2.close()

    // The service refuses the backend's key: its status and code.
    const refused = await startBackend({ SIGNING_URL: stack.host.url, SIGNING_API_KEY: 'api_unknown0000000000000000000000' })
    const page3 = await openApp(refused.url)
    await expect.poll(() => problem(page3)).toMatch(/^Cannot open the editor: POST \/presign failed \(401 [A-Z_]+\): \S/)
    await page3.close()
  })
})
