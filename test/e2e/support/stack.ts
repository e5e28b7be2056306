import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, BrowserContextOptions, FrameLocator, Page } from 'playwright-core'
import { inject } from 'vitest'
import { startHost, type Host, type StartHostOptions } from '../../../host/server/start.js'
import { presignScope, type PresignScope } from '../../../src/protocol/index.js'
import { apiCaller } from './api.js'
import pg from 'pg'
import { DATABASE_TEST_URL } from '../../host/support.js'

export const SCREENSHOTS = fileURLToPath(new URL('../../../test-results/e2e/', import.meta.url))

/**
 * Whether the pages' screenshots are written (`SCREENSHOTS=1`, as `npm run test:screenshots` sets).
 * They are for people to look at and no test reads them, while a full-page capture costs a
 * relayout and an image encode (about a second of a core for a long page): a plain run leaves
 * them out, and every capture through these contexts then does nothing.
 */
export const SHOTS = process.env.SCREENSHOTS === '1'
const noShot = async () => Buffer.alloc(0)

/** How long a wait may take before it fails: far past what a page needs on a busy machine (load 12 and more). */
export const SAFETY_NET = 120_000

export interface Stack {
  host: Host
  apiToken: string
  /** The embedding page, on another origin than the host. */
  parentUrl: string
  /** Opens contexts and pages in the worker's Chromium, watched for policy violations; close() closes them. */
  browser: StackBrowser
  /** Calls the host's API v2 with the enterprise API token. */
  api<T = any>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>
  presign(o?: { scope?: PresignScope; expiresIn?: number }): Promise<string>
  /**
   * Content-Security-Policy violations of every page and frame opened through `browser` ("directive
   * blocked-URL in path"). The pages must cause none: close() fails when any is left; a test
   * that provokes them on purpose takes them out (`splice(0)`).
   */
  cspViolations: string[]
  close(): Promise<void>
}

const VIOLATION = '[csp-violation]'

export interface StackBrowser {
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>
  newPage(options?: BrowserContextOptions): Promise<Page>
}

/**
 * Contexts of the shared `browser` that report the policy violations of all their frames into
 * `into`; each is closed by `closeAll` (a page of a file never outlives its stack).
 */
export function watchedContexts(browser: Browser, into: string[]): StackBrowser & { closeAll(): Promise<void> } {
  const open = new Set<BrowserContext>()
  const newContext = async (options?: BrowserContextOptions): Promise<BrowserContext> => {
    const context = await browser.newContext(options)
    // Every wait and action of its pages: Playwright's 30 s is short of a busy machine.
    context.setDefaultTimeout(SAFETY_NET)
    open.add(context)
    context.on('close', () => open.delete(context))
    if (!SHOTS) context.on('page', (page) => void (page.screenshot = noShot))
    await context.addInitScript((tag: string) => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`${tag} ${e.effectiveDirective} ${e.blockedURI} in ${location.pathname}`))
    }, VIOLATION)
    context.on('console', (m) => {
      if (m.text().startsWith(VIOLATION)) into.push(m.text().slice(VIOLATION.length + 1))
    })
    return context
  }
  return {
    newContext,
    // As Browser.newPage: a context of its own, closed with the page.
    newPage: async (options?: BrowserContextOptions) => {
      const context = await newContext(options)
      const page = await context.newPage()
      page.on('close', () => void context.close().catch(() => {}))
      return page
    },
    closeAll: async () => {
      await Promise.all([...open].map((c) => c.close().catch(() => {})))
    },
  }
}

/**
 * A host with its own data dir and port, an enterprise API token, and the parent page; pages in
 * `browser` (the worker's, from the `browser` fixture), which close() leaves open.
 * `opts.host`: more settings for the host (e.g. `smtpUrl`, `queuePollMs`).
 */
export async function startStack(browser: Browser, opts: { host?: Omit<StartHostOptions, 'port' | 'hostname' | 'dataDir' | 'appDistDir'> } = {}): Promise<Stack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'envelope-e2e-'))
  const host = await startHost({ mailbox: true, ...opts.host, port: 0, hostname: '127.0.0.1', dataDir, appDistDir: inject('appDist') })
  const team = await host.createTeam({ name: 'E2E', plan: 'enterprise' })
  const { token: apiToken } = await host.createApiToken({ name: 'e2e', teamId: team.id, expires: 'never' })
  const parent = await serveDir(inject('parentDir'))
  const cspViolations: string[] = []
  const contexts = watchedContexts(browser, cspViolations)
  await mkdir(SCREENSHOTS, { recursive: true })

  const api = apiCaller(host.apiUrl, apiToken)

  return {
    host,
    apiToken,
    // localhost vs 127.0.0.1: a different origin from the host, as in production.
    parentUrl: `http://localhost:${(parent.address() as AddressInfo).port}/`,
    browser: { newContext: contexts.newContext, newPage: contexts.newPage },
    api,
    presign: async (o = {}) => {
      const { token } = await api<{ token: string }>('POST', '/embedding/create-presign-token', {
        ...(o.scope ? { scope: presignScope(o.scope) } : {}),
        ...(o.expiresIn !== undefined ? { expiresIn: o.expiresIn } : {}),
      })
      return token
    },
    cspViolations,
    close: async () => {
      await contexts.closeAll()
      await new Promise((r) => parent.close(r))
      await host.close()
      await rm(dataDir, { recursive: true, force: true })
      if (cspViolations.length) throw new Error(`Content-Security-Policy violations: ${cspViolations.join('; ')}`)
    },
  }
}

function serveDir(dir: string): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' }
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const file = join(dir, path === '/' ? 'index.html' : path.slice(1))
    try {
      const body = await readFile(file)
      res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  return new Promise((resolve) => server.listen(0, 'localhost', () => resolve(server)))
}

export type Recorded = { name: string; arg: any; at: number }

/** Opens the parent page and renders `component` with `props` (host is filled in). */
export async function mount(stack: Stack, component: string, props: Record<string, unknown>, viewport = { width: 1280, height: 900 }) {
  const page = await stack.browser.newPage({ viewport })
  page.on('pageerror', (e) => console.error('page error:', e.message))
  await page.goto(stack.parentUrl)
  await page.evaluate(([c, p]) => window.mount(c as string, p as Record<string, unknown>), [component, { host: stack.host.url, ...props }] as const)
  const frame = page.frameLocator('iframe')
  return { page, frame }
}

/** As mount, on the parent page that uses the deployed service's library (`@documenso/embed-react`). */
export async function mountDeployed(stack: Stack, component: string, props: Record<string, unknown>, viewport = { width: 1280, height: 900 }) {
  const page = await stack.browser.newPage({ viewport })
  page.on('pageerror', (e) => console.error('page error:', e.message))
  await page.goto(new URL('deployed.html', stack.parentUrl).href)
  await page.evaluate(([c, p]) => window.mount(c as string, p as Record<string, unknown>), [component, { host: stack.host.url, ...props }] as const)
  return { page, frame: page.frameLocator('iframe') }
}

/** Waits until the parent recorded callback `name`, and returns its argument. */
export async function callback(page: Page, name: string, timeout = SAFETY_NET): Promise<any> {
  const handle = await page.waitForFunction((n) => window.events.find((e) => e.name === n) ?? null, name, { timeout })
  return ((await handle.jsonValue()) as Recorded).arg
}

export const events = (page: Page): Promise<Recorded[]> => page.evaluate(() => window.events)

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
}

/** Screenshot of just the frame's own document, at its full height. */
export async function frameShot(page: Page, name: string) {
  if (!SHOTS) return
  await page.locator('iframe').screenshot({ path: join(SCREENSHOTS, `${name}.png`) })
}

export type Frame = FrameLocator

/** Creates an envelope straight through the API: one PDF per entry of `files`, recipients with fields. */
export async function createEnvelope(
  stack: Stack,
  o: { type: 'DOCUMENT' | 'TEMPLATE'; title: string; files: { name: string; buffer: Buffer }[]; recipients: unknown[]; meta?: unknown },
): Promise<any> {
  const form = new FormData()
  form.append('payload', JSON.stringify({ type: o.type, title: o.title, recipients: o.recipients, meta: o.meta }))
  for (const f of o.files) form.append('files', new Blob([new Uint8Array(f.buffer)], { type: 'application/pdf' }), f.name)
  const { id } = await stack.api<{ id: string }>('POST', '/envelope/create', form)
  return stack.api('GET', `/envelope/${id}`)
}

/**
 * Screenshot of the whole editor: the frame stretched to its content height (the last
 * embed-resize) inside a viewport tall enough to paint all of it, then put back.
 */
export async function tallShot(page: Page, name: string) {
  if (!SHOTS) return
  const iframe = page.locator('iframe')
  const viewport = page.viewportSize()!
  const before = await iframe.evaluate((el) => el.style.height)
  const height = await page.evaluate(() => {
    const sizes = window.messages.map((m) => m.data as { type?: string; height?: number }).filter((d) => d?.type === 'embed-resize')
    const h = sizes.at(-1)?.height ?? 800
    document.querySelector('iframe')!.style.height = `${h}px`
    return h
  })
  await page.setViewportSize({ width: viewport.width, height: height + 40 })
  // Pages render when they come into view: wait for every one, then for two frames to paint.
  const frame = page.frameLocator('iframe')
  await frame.locator('.page .page-loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => {})
  await frame.locator('body').evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) })
  await page.setViewportSize(viewport)
  await iframe.evaluate((el, h) => (el.style.height = h), before)
}

/**
 * A stack on the embedded database, or on PostgreSQL in a schema of its own that close() drops:
 * for the suites that run on both.
 */
export async function startStackOn(browser: Browser, variant: 'pglite' | 'postgres', opts: { host?: Omit<StartHostOptions, 'port' | 'hostname' | 'dataDir' | 'appDistDir'> } = {}): Promise<Stack> {
  if (variant === 'pglite') return startStack(browser, opts)
  const schema = `e2e_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const url = new URL(DATABASE_TEST_URL)
  url.searchParams.set('schema', schema)
  const stack = await startStack(browser, { host: { ...opts.host, databaseUrl: url.toString() } })
  const close = stack.close
  stack.close = async () => {
    try {
      await close()
    } finally {
      const client = new pg.Client({ connectionString: DATABASE_TEST_URL })
      await client.connect()
      await client.query(`drop schema if exists ${schema} cascade`)
      await client.end()
    }
  }
  return stack
}
