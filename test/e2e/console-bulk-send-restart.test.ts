/**
 * Send to many in the console, in Chromium, while its host dies: the host runs as a process of its
 * own (test/host/host-process.ts); the send is started on a template's page (120 rows, 2 of them
 * refused), the process is killed (SIGKILL) once some rows are sent and not all, and started again
 * on the same port and the same data. The page, never reloaded, keeps asking for the progress
 * through the outage and reaches the end by itself (118 sent, 2 refused); API v2 then lists every
 * row's document once (none missing, none twice) and the report has a line per row.
 * On both databases: the embedded one runs the job left running again at start; on PostgreSQL it
 * runs again once its lease (cut to 2 s) has run out. A screenshot of the end (SCREENSHOTS=1).
 */
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, describe, expect, inject } from 'vitest'
import { cli, freePort, killed, processDatabase, serve, tokenFor } from '../host/host-process.js'
import { api, pgReason, until } from '../host/support.js'
import { test } from './support/fixtures.js'
import { makePdf } from './support/pdf.js'
import { sig } from './support/sign.js'
import { SAFETY_NET, SCREENSHOTS, watchedContexts } from './support/stack.js'

const HEADER = 'Client e-mail,Client name,Title'
const N = 120
/** Data rows 40 (not an address) and 80 (no address) are refused; every other row is sent. */
const BAD = new Set([40, 80])
const SENDABLE = N - BAD.size

function table(): string {
  const lines = [HEADER]
  for (let n = 1; n <= N; n++) lines.push(`${n === 40 ? 'not-an-address' : n === 80 ? '' : `client${n}@example.com`},Client ${n},Lease ${n}`)
  return `${lines.join('\r\n')}\r\n`
}

describe('send to many in the console while its host is killed and started again', () => {
  const cleanup: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn().catch(() => {})
  })

  test.for(['pglite', 'postgres'] as const)('on %s: the page follows the send through the restart to its end; every row sent once', async (variant, { browser, skip }) => {
    if (variant === 'postgres' && pgReason) skip(pgReason)
    const database = await processDatabase(variant, 'console-bulk-kill')
    cleanup.push(database.remove)
    // The same port and the same data for both runs of the host; the built console pages served.
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const env = { ...database.env, PORT: String(port), PUBLIC_URL: origin, APP_DIST_DIR: inject('appDist'), QUEUE_CONCURRENCY: '2' }
    let host = await serve(env)
    cleanup.push(() => killed(host.child, 'SIGKILL'))
    const token = await tokenFor(env)
    let client = api(`${host.url}/api/v2`, token)

    const made = new FormData()
    made.set('payload', JSON.stringify({ type: 'TEMPLATE', title: 'Lease', recipients: [{ email: '', name: 'Client', role: 'SIGNER', fields: [sig(10, 70)] }] }))
    made.set('files', new Blob([new Uint8Array(await makePdf('Lease', 1))], { type: 'application/pdf' }), 'Lease.pdf')
    const created = await client.post('/envelope/create', made)
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const templateId = created.body.id as string

    // An administrator of the default team, signed in through the link the operator's CLI prints.
    await cli(env, 'user', 'create', '--email', 'ada@example.com', '--admin')
    const link = await cli(env, 'user', 'link', 'ada@example.com')
    const contexts = watchedContexts(browser, [])
    cleanup.push(() => contexts.closeAll())
    const context: BrowserContext = await contexts.newContext({ viewport: { width: 1280, height: 900 } })
    const page: Page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(link)
    await page.getByRole('heading', { name: 'Documents' }).waitFor()

    // Mapped, previewed, confirmed.
    await page.goto(`${origin}/console/templates/${templateId}`)
    const section = page.getByRole('region', { name: 'Send to many' })
    await section.getByLabel('Choose a CSV or XLSX file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(table()) })
    const mapping = section.getByRole('form', { name: 'Which column gives what' })
    await mapping.getByLabel('E-mail address of Client', { exact: true }).selectOption('Client e-mail')
    await mapping.getByLabel('Name of Client (optional)', { exact: true }).selectOption('Client name')
    await mapping.getByLabel('Title of each document (optional)', { exact: true }).selectOption('Title')
    await mapping.getByRole('button', { name: 'Preview' }).click()
    await section.getByRole('heading', { name: 'Preview' }).waitFor()
    const count = (key: string) => section.getByTestId(key).locator('dd').textContent()
    expect([await count('bulk.count.total'), await count('bulk.count.sendable'), await count('bulk.count.refused')]).toEqual([`${N}`, `${SENDABLE}`, `${BAD.size}`])
    await section.getByRole('button', { name: `Send ${SENDABLE} documents` }).click()
    const [started] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v2/envelope/bulk-send'),
      page.getByRole('dialog', { name: 'Send the documents now?' }).getByRole('button', { name: `Send ${SENDABLE} documents` }).click(),
    ])
    expect(started.status()).toBe(200)
    const id = ((await started.json()) as { id: string }).id
    await section.getByRole('progressbar', { name: new RegExp(`of ${N} rows done$`) }).waitFor()
    // Left on the page from here on: a reload would take this away.
    await page.evaluate(() => ((window as { notReloaded?: boolean }).notReloaded = true))

    // Halfway: some rows sent, not all; killed, then started again on the same port and data.
    let sent = 0
    await until(async () => (sent = (await client.get(`/envelope/bulk-send/${id}`)).body.sent) >= 10, SAFETY_NET)
    await killed(host.child, 'SIGKILL')
    expect(sent).toBeLessThan(SENDABLE)
    host = await serve(env)
    expect(host.url).toBe(origin)
    client = api(`${host.url}/api/v2`, token)

    // The page carries on by itself to the end.
    await section.getByRole('status').getByText(`Done: ${SENDABLE} sent, ${BAD.size} refused.`).waitFor({ timeout: SAFETY_NET })
    expect([await count('bulk.count.total'), await count('bulk.count.sent'), await count('bulk.count.refused')]).toEqual([`${N}`, `${SENDABLE}`, `${BAD.size}`])
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true)
    if (variant === 'pglite') await page.screenshot({ path: join(SCREENSHOTS, 'console-bulk-send-restart-done-1280.png'), fullPage: true })
    expect(errors).toEqual([])

    // Every row sent exactly once: a document for each, none missing, none twice.
    expect((await client.get(`/envelope/bulk-send/${id}`)).body).toMatchObject({ status: 'DONE', total: N, sent: SENDABLE, refused: BAD.size, pending: 0 })
    const titles: string[] = []
    for (let p = 1; p <= 2; p++) titles.push(...(await client.get(`/envelope?type=DOCUMENT&perPage=100&page=${p}`)).body.data.map((e: { title: string }) => e.title))
    expect(titles).toHaveLength(SENDABLE)
    expect(new Set(titles)).toEqual(new Set(Array.from({ length: N }, (_, i) => i + 1).filter((n) => !BAD.has(n)).map((n) => `Lease ${n}`)))
    const report = Buffer.from((await client.get(`/envelope/bulk-send/${id}/report`)).body).toString('utf8').trim().split('\r\n').slice(1)
    expect(report).toHaveLength(N)
    expect(report.filter((line) => line.includes('"SENT"'))).toHaveLength(SENDABLE)
    expect(report.filter((line) => line.includes('"REFUSED"'))).toHaveLength(BAD.size)
    expect(new Set(report.filter((line) => line.includes('"SENT"')).map((line) => line.split(',')[3])).size).toBe(SENDABLE)
    await context.close()
    await killed(host.child, 'SIGTERM')
  })
})
