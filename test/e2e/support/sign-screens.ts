/**
 * Screenshots of every screen of the signing pages, at 1280 px and 390 px, driven through a
 * real host (its signing API) in Chromium. Not a test: a tool to look at the pages.
 *
 *   npm run build:app && npx tsx test/e2e/support/sign-screens.ts [filter]
 *
 * Writes test-results/sign/*.png and prints what the embed posted to its parent.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { startHost } from '../../../host/server/start.js'
import { encodeOptions, type SignOptions } from '../../../src/protocol/index.js'
import { chromiumLaunchOptions } from '../../support/chromium.js'
import { makePdf } from './pdf.js'
import { apiCaller } from './api.js'

const OUT = fileURLToPath(new URL('../../../test-results/sign/', import.meta.url))
const filter = process.argv[2] ?? ''
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 860 },
  { name: 'phone', width: 390, height: 844 },
] as const

const dataDir = await mkdtemp(join(tmpdir(), 'sign-screens-'))
const host = await startHost({ port: 0, hostname: '127.0.0.1', dataDir, mailbox: true })
const team = await host.createTeam({ name: 'Demo', plan: 'enterprise' })
const { token: apiToken } = await host.createApiToken({ name: 'x', teamId: team.id, expires: 'never' })
const browser: Browser = await chromium.launch(chromiumLaunchOptions)
await mkdir(OUT, { recursive: true })
const problems: string[] = []

const api = apiCaller(host.apiUrl, apiToken)

type FieldIn = { type: string; page: number; positionX: number; positionY: number; width: number; height: number; identifier?: number; fieldMeta?: Record<string, unknown> }
type RecipientIn = { email: string; name: string; role: string; signingOrder?: number; fields?: FieldIn[] }

/** Creates (and unless `draft`, distributes) an envelope; returns its id and each recipient's token. */
async function envelope(o: { title: string; recipients: RecipientIn[]; meta?: Record<string, unknown>; files?: { name: string; pages: number }[]; draft?: boolean }) {
  const fd = new FormData()
  fd.set('payload', JSON.stringify({ type: 'DOCUMENT', title: o.title, recipients: o.recipients, meta: o.meta }))
  for (const f of o.files ?? [{ name: `${o.title}.pdf`, pages: 2 }]) fd.append('files', new Blob([new Uint8Array(await makePdf(f.name.replace(/\.pdf$/, ''), f.pages))], { type: 'application/pdf' }), f.name)
  const { id } = await api<{ id: string }>('POST', '/envelope/create', fd)
  if (o.draft) {
    const env = await api('GET', `/envelope/${id}`)
    return { id, tokens: env.recipients.map((r: { token: string }) => r.token) as string[] }
  }
  const { recipients } = await api('POST', '/envelope/distribute', { envelopeId: id })
  const byEmail = new Map<string, string>(recipients.map((r: { email: string; token: string }) => [r.email, r.token]))
  return { id, tokens: o.recipients.map((r) => byEmail.get(r.email)!) }
}

const sig = (page: number, x: number, y: number, extra: Partial<FieldIn> = {}): FieldIn => ({ type: 'SIGNATURE', page, positionX: x, positionY: y, width: 30, height: 6, ...extra })

async function open(url: string, size: (typeof WIDTHS)[number], o: { dark?: boolean; before?: (p: Page) => Promise<void> } = {}) {
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, deviceScaleFactor: 1, colorScheme: o.dark ? 'dark' : 'light', acceptDownloads: true })
  const page = await context.newPage()
  page.on('console', (m) => m.type() === 'error' && problems.push(`${url.split('/').slice(-2, -1)[0] ?? ''} console: ${m.text()}`))
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url().replace(/sign\/[^/]+/, 'sign/***')}`))
  await o.before?.(page)
  await page.goto(url)
  return page
}

async function shot(page: Page, name: string, full = false) {
  await page.waitForTimeout(300)
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: full })
  console.log('  wrote', name)
}

/** Waits for the document (or a state screen) and all visible pages to render. */
async function settle(page: Page) {
  await page.locator('[data-testid="sign-document"], [data-testid="sign-state"], [data-testid="sign-error"]').first().waitFor({ timeout: 20_000 })
  await page.waitForFunction(() => !document.querySelector('.page .page-loading') || document.querySelectorAll('.page canvas').length > 0, null, { timeout: 20_000 }).catch(() => {})
  await page.waitForTimeout(800)
}

const run = (name: string) => !filter || name.includes(filter)

// ---- scenarios -----------------------------------------------------------------------------------

const full: RecipientIn = {
  email: 'alice@example.com',
  name: 'Alice Martin',
  role: 'SIGNER',
  signingOrder: 1,
  fields: [
    { type: 'NAME', page: 1, positionX: 10, positionY: 62, width: 28, height: 4 },
    { type: 'EMAIL', page: 1, positionX: 55, positionY: 62, width: 32, height: 4 },
    { type: 'TEXT', page: 1, positionX: 10, positionY: 68, width: 28, height: 4, fieldMeta: { type: 'text', label: 'Company', required: true } },
    { type: 'NUMBER', page: 1, positionX: 55, positionY: 68, width: 15, height: 4, fieldMeta: { type: 'number', label: 'Seats', required: true, minValue: 1, maxValue: 500 } },
    { type: 'DROPDOWN', page: 1, positionX: 10, positionY: 74, width: 28, height: 4, fieldMeta: { type: 'dropdown', label: 'Plan', required: true, options: ['Basic', 'Team', 'Enterprise'] } },
    { type: 'RADIO', page: 1, positionX: 55, positionY: 74, width: 25, height: 4, fieldMeta: { type: 'radio', label: 'Billing', required: false, options: ['Monthly', 'Yearly'] } },
    { type: 'CHECKBOX', page: 1, positionX: 10, positionY: 80, width: 40, height: 4, fieldMeta: { type: 'checkbox', label: 'Add-ons', required: false, options: ['Support', 'Training'] } },
    sig(1, 10, 86, { width: 30, height: 7 }),
    { type: 'DATE', page: 1, positionX: 55, positionY: 88, width: 25, height: 4 },
    { type: 'INITIALS', page: 2, positionX: 80, positionY: 90, width: 10, height: 5 },
    { type: 'SIGNATURE', identifier: 1, page: 1, positionX: 10, positionY: 85, width: 30, height: 7 },
  ],
}
const second: RecipientIn = { email: 'bob@example.com', name: 'Bob Keller', role: 'SIGNER', signingOrder: 2, fields: [sig(1, 55, 86)] }
const cc: RecipientIn = { email: 'carol@example.com', name: 'Carol Diaz', role: 'CC', signingOrder: 3 }
const main = await envelope({
  title: 'Service agreement',
  recipients: [full, second, cc],
  meta: { signingOrder: 'SEQUENTIAL', allowDictateNextSigner: true },
  files: [{ name: 'Service agreement.pdf', pages: 2 }, { name: 'Annex A.pdf', pages: 1 }],
})
const [aliceT, bobT, carolT] = main.tokens as [string, string, string]
const signUrl = (token: string) => `${host.url}/sign/${token}`

async function drawSignature(page: Page) {
  const pad = page.getByTestId('signature-pad')
  const box = (await pad.boundingBox())!
  const pts = Array.from({ length: 40 }, (_, i) => ({ x: box.x + box.width * (0.15 + i * 0.018), y: box.y + box.height * (0.55 + 0.22 * Math.sin(i / 3)) }))
  await page.mouse.move(pts[0]!.x, pts[0]!.y)
  await page.mouse.down()
  for (const p of pts) await page.mouse.move(p.x, p.y, { steps: 2 })
  await page.mouse.up()
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.75, { steps: 6 })
  await page.mouse.up()
}

async function fillAll(page: Page, prefix: string, size: (typeof WIDTHS)[number]) {
  const field = (type: string, nth = 0) => page.locator(`button.sign-field[data-type="${type}"]`).nth(nth)
  await field('TEXT').click()
  await page.getByTestId('field-dialog').locator('input').fill('ACME Ltd')
  if (size.name === 'phone') await shot(page, `${prefix}-text-dialog-${size.name}`)
  await page.getByTestId('save-field').click()
  await field('NUMBER').click()
  await page.getByTestId('field-dialog').locator('input').fill('900')
  await page.getByTestId('save-field').click()
  await shot(page, `${prefix}-number-invalid-${size.name}`)
  await page.getByTestId('field-dialog').locator('input').fill('25')
  await page.getByTestId('save-field').click()
  await field('DROPDOWN').click()
  await page.getByTestId('field-dialog').locator('select').selectOption('Team')
  await page.getByTestId('save-field').click()
  await field('CHECKBOX').click()
  await page.getByTestId('field-dialog').getByLabel('Support').check()
  if (size.name === 'desktop') await shot(page, `${prefix}-checkbox-dialog-${size.name}`)
  await page.getByTestId('save-field').click()
  // Signature: draw it once...
  await field('SIGNATURE').click()
  await page.getByTestId('signature-dialog').waitFor()
  await drawSignature(page)
  await shot(page, `${prefix}-signature-draw-${size.name}`)
  await page.getByRole('tab', { name: 'Type' }).click()
  await page.waitForTimeout(400)
  await shot(page, `${prefix}-signature-type-${size.name}`)
  await page.getByRole('tab', { name: 'Upload' }).click()
  await shot(page, `${prefix}-signature-upload-${size.name}`)
  await page.getByRole('tab', { name: 'Draw' }).click()
  await drawSignature(page)
  await page.getByTestId('adopt-signature').click()
  // ...and reuse it with one click on the next signature field.
  await page.locator('button.sign-field[data-type="SIGNATURE"][data-state="empty"]').first().click()
  await field('INITIALS').click()
  await page.getByRole('tab', { name: 'Type' }).click()
  await page.getByTestId('adopt-signature').click()
}

for (const size of WIDTHS) {
  if (run('ready')) {
    console.log('ready', size.name)
    // The desktop run signs Alice's part of the main envelope (later scenarios go on from there); the phone gets its own.
    const token =
      size.name === 'desktop'
        ? aliceT
        : (await envelope({ title: 'Service agreement', recipients: [full, second], meta: { signingOrder: 'SEQUENTIAL', allowDictateNextSigner: true }, files: [{ name: 'Service agreement.pdf', pages: 2 }, { name: 'Annex A.pdf', pages: 1 }] })).tokens[0]!
    const page = await open(signUrl(token), size)
    await settle(page)
    await shot(page, `ready-${size.name}`)
    if (size.name === 'desktop') await shot(page, `ready-full-${size.name}`, true)
    // The guide: Complete with fields missing explains and jumps.
    await page.getByTestId('complete').click()
    await shot(page, `ready-missing-${size.name}`)
    if (size.name === 'phone') {
      await page.getByTestId('next-field').click()
      await page.waitForTimeout(600)
      await shot(page, `ready-next-field-${size.name}`)
    }
    await fillAll(page, 'fill', size)
    await page.waitForTimeout(300)
    await shot(page, `filled-${size.name}`)
    await page.locator('button.sign-field[data-type="SIGNATURE"]').first().scrollIntoViewIfNeeded()
    await shot(page, `filled-signature-${size.name}`)
    await page.getByTestId('complete').click()
    await page.getByTestId('complete-dialog').waitFor()
    await shot(page, `complete-dialog-${size.name}`)
    await page.getByTestId('next-signer').getByLabel('Name').fill('Robert Keller')
    await page.getByTestId('confirm-complete').click()
    await page.getByTestId('sign-done').waitFor()
    await shot(page, `done-pending-${size.name}`)
    await page.close()
  }
}

if (run('states')) {
  // Bob before Alice signed would be NOT_YOUR_TURN; Alice signed above, so a fresh envelope shows it.
  const seq = await envelope({
    title: 'Board resolution',
    recipients: [
      { email: 'first@example.com', name: 'Frida First', role: 'SIGNER', signingOrder: 1, fields: [sig(1, 10, 80)] },
      { email: 'second@example.com', name: 'Sam Second', role: 'SIGNER', signingOrder: 2, fields: [sig(1, 55, 80)] },
    ],
    meta: { signingOrder: 'SEQUENTIAL' },
  })
  const cancelled = await envelope({ title: 'Old offer', recipients: [{ email: 'x@example.com', name: 'Xavier', role: 'SIGNER', fields: [sig(1, 10, 80)] }] })
  await api('POST', '/envelope/cancel', { envelopeId: cancelled.id })
  const draft = await envelope({ title: 'Draft contract', draft: true, recipients: [{ email: 'd@example.com', name: 'Dora', role: 'SIGNER', fields: [sig(1, 10, 80)] }] })
  const expired = await envelope({ title: 'Expired offer', recipients: [{ email: 'e@example.com', name: 'Eve', role: 'SIGNER', fields: [sig(1, 10, 80)] }] })
  await host.db.query(`update recipients set expires_at = now() - interval '1 day' where token = $1`, [expired.tokens[0]])

  for (const size of WIDTHS) {
    console.log('states', size.name)
    for (const [name, url] of [
      ['not-your-turn', signUrl(seq.tokens[1]!)],
      ['already-completed', signUrl(aliceT)],
      ['cancelled', signUrl(cancelled.tokens[0]!)],
      ['not-sent', signUrl(draft.tokens[0]!)],
      ['expired', signUrl(expired.tokens[0]!)],
      ['invalid-link', signUrl('not-a-real-token')],
      ['cc-ready', signUrl(carolT)],
    ] as const) {
      const page = await open(url, size)
      await settle(page)
      await shot(page, `${name}-${size.name}`)
      await page.close()
    }
    const page = await open(signUrl(aliceT), size, { before: async (p) => void (await p.route('**/api/signing/session', (r) => r.abort())) })
    await settle(page)
    await shot(page, `network-error-${size.name}`)
    await page.close()
  }
}

if (run('complete')) {
  // Bob (the renamed next signer) completes the envelope: done screen with downloads, then COMPLETED for others.
  for (const size of WIDTHS) {
    if (size.name === 'desktop') {
      console.log('complete', size.name)
      const page = await open(signUrl(bobT), size)
      await settle(page)
      await shot(page, `bob-ready-${size.name}`)
      await page.locator('button.sign-field[data-type="SIGNATURE"]').click()
      await page.getByRole('tab', { name: 'Type' }).click()
      await page.getByTestId('adopt-signature').click()
      await page.getByTestId('complete').click()
      await page.getByTestId('confirm-complete').click()
      await page.getByTestId('sign-done').waitFor()
      await shot(page, `done-completed-${size.name}`)
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('downloads').locator('button').first().click()])
      console.log('  downloaded', download.suggestedFilename(), (await download.path()) ? 'ok' : 'missing')
      await page.close()
    }
    const page = await open(signUrl(carolT), size)
    await settle(page)
    await shot(page, `completed-${size.name}`)
    await page.close()
  }
}

if (run('reject')) {
  for (const size of WIDTHS) {
    console.log('reject', size.name)
    const env = await envelope({ title: `Lease ${size.name}`, recipients: [{ email: 'r@example.com', name: 'Rita', role: 'SIGNER', fields: [sig(1, 10, 80)] }] })
    const page = await open(signUrl(env.tokens[0]!), size)
    await settle(page)
    await page.getByTestId('reject').click()
    await page.getByTestId('confirm-reject').click()
    await shot(page, `reject-dialog-missing-${size.name}`)
    await page.getByTestId('reject-dialog').locator('textarea').fill('The rent in section 4 is not what we agreed on.')
    await page.getByTestId('confirm-reject').click()
    await page.getByTestId('sign-rejected').waitFor()
    await shot(page, `rejected-done-${size.name}`)
    await page.reload()
    await settle(page)
    await shot(page, `rejected-state-${size.name}`)
    await page.close()
  }
}

if (run('roles')) {
  const env = await envelope({
    title: 'Purchase order 1182',
    recipients: [
      { email: 'ap@example.com', name: 'Anna Approver', role: 'APPROVER', fields: [{ type: 'TEXT', page: 1, positionX: 10, positionY: 80, width: 30, height: 4, fieldMeta: { label: 'Cost centre', required: true } }] },
      { email: 'vi@example.com', name: 'Victor Viewer', role: 'VIEWER' },
      { email: 'as@example.com', name: 'Asha Assistant', role: 'ASSISTANT', fields: [{ type: 'TEXT', page: 1, positionX: 55, positionY: 80, width: 30, height: 4, fieldMeta: { label: 'PO number', required: true } }] },
      { email: 'si@example.com', name: 'Simon Signer', role: 'SIGNER', fields: [sig(1, 10, 88)] },
    ],
    meta: { language: 'de', redirectUrl: 'https://example.com/thanks' },
  })
  for (const size of WIDTHS) {
    console.log('roles', size.name)
    for (const [i, role] of ['approver', 'viewer', 'assistant'].entries()) {
      const page = await open(signUrl(env.tokens[i]!), size)
      await settle(page)
      await shot(page, `role-${role}-de-${size.name}`)
      await page.close()
    }
  }
  // The viewer marks it as viewed: done screen, then the redirect.
  const page = await open(signUrl(env.tokens[1]!), WIDTHS[0])
  await settle(page)
  await page.route('https://example.com/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Thanks page</h1>' }))
  await page.getByTestId('complete').click()
  await page.getByTestId('confirm-complete').click()
  await page.getByTestId('sign-done').waitFor()
  await shot(page, `viewer-done-redirecting-desktop`)
  await page.waitForURL('https://example.com/thanks', { timeout: 5000 })
  console.log('  redirected to', page.url())
  await page.close()
}

if (run('embed')) {
  const nda = () =>
    envelope({
      title: 'NDA',
      recipients: [{ email: 'em@example.com', name: 'Emil', role: 'SIGNER', fields: [sig(1, 10, 80), { type: 'NAME', page: 1, positionX: 55, positionY: 80, width: 30, height: 4 }] }],
      meta: { redirectUrl: 'https://example.com/after' },
    })
  const parent = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.end(`<!doctype html><body style="margin:0;background:#eef1f5"><script>
      window.messages = []; addEventListener('message', (e) => window.messages.push(e.data));
    </script><iframe id="f" src="${decodeURIComponent(new URL(req.url!, 'http://x').searchParams.get('src') ?? '')}" style="width:100%;height:100vh;border:0"></iframe></body>`)
  })
  await new Promise<void>((r) => parent.listen(0, '127.0.0.1', r))
  const parentOrigin = `http://localhost:${(parent.address() as AddressInfo).port}`
  const options: SignOptions = {
    name: 'Emil Embedded', lockName: true, language: 'fr', parentOrigin,
    cssVars: { primary: '#0f766e', radius: '0.9rem' }, allowDocumentRejection: false,
  }
  for (const size of WIDTHS) {
    console.log('embed', size.name)
    const env = await nda()
    const src = `${host.url}/embed/sign/${env.tokens[0]}#${encodeOptions(options as never)}`
    const page = await open(`${parentOrigin}/?src=${encodeURIComponent(src)}`, size, { dark: size.name === 'phone' })
    const frame = page.frameLocator('#f')
    await frame.locator('[data-testid="sign-document"]').waitFor()
    await page.waitForTimeout(1200)
    await shot(page, `embed-fr-${size.name}${size.name === 'phone' ? '-dark' : ''}`)
    if (size.name === 'desktop') {
      await page.route('https://example.com/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<h1>After (in the frame)</h1>' }))
      await frame.locator('button.sign-field[data-type="SIGNATURE"]').click()
      await frame.getByRole('tab', { name: 'Saisir' }).click()
      await frame.getByTestId('adopt-signature').click()
      await frame.getByTestId('complete').click()
      await frame.getByTestId('confirm-complete').click()
      await frame.getByTestId('sign-done').waitFor()
      await shot(page, `embed-done-${size.name}`)
      await page.waitForTimeout(2600)
      console.log('  top url after redirect:', page.url(), '| frame url:', page.frames()[1]?.url())
      console.log('  messages:', JSON.stringify(await page.evaluate(() => (window as unknown as { messages: unknown[] }).messages.filter((m: any) => m.type !== 'embed-resize'))))
    }
    await page.close()
  }
  const bad = await open(`${parentOrigin}/?src=${encodeURIComponent(`${host.url}/embed/sign/${(await nda()).tokens[0]}#${encodeOptions({ lockName: 'yes' } as never)}`)}`, WIDTHS[1])
  await bad.frameLocator('#f').locator('[data-testid="sign-error"]').waitFor()
  await shot(bad, 'embed-invalid-options-phone')
  console.log('  messages:', JSON.stringify(await bad.evaluate(() => (window as unknown as { messages: unknown[] }).messages)))
  await bad.close()
  parent.close()
}

console.log(problems.length ? `problems:\n  ${problems.join('\n  ')}` : 'no console errors')
await browser.close()
await host.close()
await rm(dataDir, { recursive: true, force: true })
