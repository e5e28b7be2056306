/**
 * The signing pages driven the way a recipient uses them: documents created and sent through the
 * API, then each recipient's link opened in Chromium and worked through roles and labels.
 */
import { join } from 'node:path'
import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core'
import { makePdf } from './pdf.js'
import { SAFETY_NET, SCREENSHOTS, type Stack } from './stack.js'

export type FieldIn = {
  type: string
  page: number
  positionX: number
  positionY: number
  width: number
  height: number
  fieldMeta?: Record<string, unknown>
}
export type RecipientIn = { email: string; name: string; role: string; signingOrder?: number; fields?: FieldIn[] }

export interface Sent {
  id: string
  /** The envelope as GET /envelope/{id} gave it right after distribute. */
  envelope: any
  /** The legacy number of `secondaryId` (`document_7` -> 7). */
  documentId: number
  itemId: string
  /** What distribute answered for each recipient, by e-mail. */
  recipient: (email: string) => { id: number; name: string; email: string; token: string; role: string; signingUrl: string }
}

export const sig = (x: number, y: number): FieldIn => ({ type: 'SIGNATURE', page: 1, positionX: x, positionY: y, width: 30, height: 7 })
export const text = (label: string, x: number, y: number, required = true): FieldIn => ({
  type: 'TEXT', page: 1, positionX: x, positionY: y, width: 30, height: 4, fieldMeta: { type: 'text', label, required },
})
export const checkbox = (label: string, options: string[], x: number, y: number): FieldIn => ({
  type: 'CHECKBOX', page: 1, positionX: x, positionY: y, width: 30, height: 6, fieldMeta: { type: 'checkbox', label, required: false, options },
})

/** Creates a one-file document with these recipients and their fields, and distributes it. */
export async function sendDocument(stack: Stack, o: { title: string; recipients: RecipientIn[]; meta?: Record<string, unknown>; pages?: number }): Promise<Sent> {
  const form = new FormData()
  form.append('payload', JSON.stringify({ type: 'DOCUMENT', title: o.title, recipients: o.recipients, meta: o.meta }))
  form.append('files', new Blob([new Uint8Array(await makePdf(o.title, o.pages ?? 1))], { type: 'application/pdf' }), `${o.title}.pdf`)
  const { id } = await stack.api<{ id: string }>('POST', '/envelope/create', form)
  const sent = await stack.api<{ recipients: any[] }>('POST', '/envelope/distribute', { envelopeId: id })
  const envelope = await stack.api('GET', `/envelope/${id}`)
  return {
    id,
    envelope,
    documentId: Number(/^document_(\d+)$/.exec(envelope.secondaryId)![1]),
    itemId: envelope.envelopeItems[0].id,
    recipient: (email) => {
      const r = sent.recipients.find((x) => x.email === email)
      if (!r) throw new Error(`no recipient ${email}`)
      return r
    },
  }
}

/** The raw bytes of a GET on the API (downloads). */
export async function apiBytes(stack: Stack, path: string): Promise<{ status: number; bytes: Buffer; type: string | null }> {
  const res = await fetch(stack.host.apiUrl + path, { headers: { Authorization: stack.apiToken } })
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') }
}

export const DESKTOP = { width: 1280, height: 900 }
export const PHONE = { width: 390, height: 844 }

/** A page in its own browser context (its own storage, as a separate person), recording uncaught errors. */
export async function openPage(stack: Stack, url: string, viewport = DESKTOP): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await stack.browser.newContext({ viewport, deviceScaleFactor: 1, acceptDownloads: true, locale: 'en-US' })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(url)
  return { page, context, errors }
}

type Scope = Page | FrameLocator

/**
 * One recipient's signing page (a page, or the frame of an embed). `page` is the top-level page:
 * the mouse works in its coordinates, also for a frame.
 */
export function signing(page: Page, scope: Scope = page) {
  const bar = scope.getByTestId('sign-bar')
  return {
    scope,
    /**
     * The document screen once its first page is drawn, and the recipient's consent to sign
     * electronically given as they give it (docs/consent.md), unless `consent: false`.
     */
    async ready(o: { consent?: boolean } = {}) {
      await scope.getByTestId('sign-document').waitFor()
      await scope.locator('.sign-page').first().locator('.page-loading').waitFor({ state: 'detached', timeout: SAFETY_NET })
      if (o.consent !== false) await this.agree()
    },
    /** Agrees to sign electronically when the page asks (a copy's recipient is never asked; nor, twice, anyone). */
    async agree() {
      if ((await scope.getByTestId('sign-document').getAttribute('data-role')) === 'CC') return
      await consentShown(scope)
      const agree = scope.getByTestId('consent-agree')
      if (!(await agree.count())) return
      await agree.click()
      await scope.getByTestId('consent-notice').waitFor({ state: 'detached' })
    },
    /** A field's button by its label (`City`, `Signature`); its accessible name starts with it. */
    field(label: string): Locator {
      return scope.getByRole('button', { name: new RegExp(`^${escapeRe(label)}, (required|optional), `) })
    },
    /** Opens the signature field, draws a signature with real pointer moves on the pad and adopts it. */
    async drawSignature(label = 'Signature') {
      await this.field(label).click()
      const dialog = scope.getByRole('dialog', { name: 'Your signature' })
      await dialog.getByRole('tab', { name: 'Draw', selected: true }).waitFor()
      const pad = dialog.getByRole('img', { name: 'Drawing area for your signature' })
      await drawOn(page, pad)
      const adopt = dialog.getByRole('button', { name: 'Adopt and sign' })
      return {
        dialog,
        adopt: async () => {
          await adopt.click()
          await dialog.waitFor({ state: 'detached' })
        },
      }
    },
    /** Signs with the Type tab (the recipient's name as the signature). */
    async typeSignature(label = 'Signature') {
      await this.field(label).click()
      const dialog = scope.getByRole('dialog', { name: 'Your signature' })
      await dialog.getByRole('tab', { name: 'Type' }).click()
      await dialog.getByRole('button', { name: 'Adopt and sign' }).click()
      await dialog.waitFor({ state: 'detached' })
    },
    /** Opens a text field, types `value` key by key, saves. */
    async typeText(label: string, value: string) {
      await this.field(label).click()
      const dialog = scope.getByRole('dialog', { name: label })
      await dialog.getByRole('textbox', { name: label }).pressSequentially(value)
      await dialog.getByRole('button', { name: 'Save' }).click()
      await dialog.waitFor({ state: 'detached' })
    },
    /** Opens a checkbox field and ticks these options. */
    async check(label: string, options: string[]) {
      await this.field(label).click()
      const dialog = scope.getByRole('dialog', { name: label })
      for (const o of options) await dialog.getByRole('checkbox', { name: o }).check()
      await dialog.getByRole('button', { name: 'Save' }).click()
      await dialog.waitFor({ state: 'detached' })
    },
    /** The action button of the bar (Complete signing, Approve, ...). */
    action(name: string) {
      return bar.getByRole('button', { name, exact: true })
    },
    /** Presses the bar's action and confirms it in its dialog. */
    async complete(action = 'Complete signing', title = 'Sign the document?') {
      await this.action(action).click()
      const dialog = scope.getByRole('dialog', { name: title })
      await dialog.getByRole('button', { name: action, exact: true }).click()
    },
    rejectButton: () => scope.getByRole('button', { name: 'Reject', exact: true }),
    heading: () => scope.getByRole('heading', { level: 1 }),
  }
}

/** Consents to sign electronically through the signing API, as the page does (for documents signed outside a browser). */
export async function consentThroughApi(hostUrl: string, token: string): Promise<void> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
  const { disclosure } = await (await fetch(`${hostUrl}/api/signing/consent`, { headers })).json()
  const res = await fetch(`${hostUrl}/api/signing/consent`, { method: 'POST', headers, body: JSON.stringify({ version: disclosure.version }) })
  if (res.status !== 200) throw new Error(`consent refused: ${res.status} ${await res.text()}`)
}

/** Waits until the page knows whether to ask for consent: the notice, or the line saying it was given. */
export async function consentShown(scope: Scope): Promise<void> {
  await scope.locator('[data-testid="consent-notice"], [data-testid="consent-agreed"]').first().waitFor()
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A signature in two strokes: a wave across the pad and a slash through it, as a mouse draws them. */
export async function drawOn(page: Page, pad: Locator) {
  await pad.scrollIntoViewIfNeeded()
  const box = (await pad.boundingBox())!
  const at = (fx: number, fy: number) => ({ x: box.x + box.width * fx, y: box.y + box.height * fy })
  const wave = Array.from({ length: 30 }, (_, i) => at(0.15 + i * 0.022, 0.55 + 0.2 * Math.sin(i / 3)))
  await page.mouse.move(wave[0]!.x, wave[0]!.y)
  await page.mouse.down()
  for (const p of wave) await page.mouse.move(p.x, p.y, { steps: 2 })
  await page.mouse.up()
  const a = at(0.3, 0.3)
  const b = at(0.45, 0.75)
  await page.mouse.move(a.x, a.y)
  await page.mouse.down()
  await page.mouse.move(b.x, b.y, { steps: 6 })
  await page.mouse.up()
}

/** How many pixels of a PNG data URL are not transparent (decoded by the browser). */
export function inkPixels(page: Page, dataUrl: string): Promise<number> {
  return page.evaluate(async (url) => {
    const img = new Image()
    img.src = url
    await img.decode()
    const c = document.createElement('canvas')
    c.width = img.naturalWidth
    c.height = img.naturalHeight
    const ctx = c.getContext('2d')!
    ctx.drawImage(img, 0, 0)
    const data = ctx.getImageData(0, 0, c.width, c.height).data
    let n = 0
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 64) n++
    return n
  }, dataUrl)
}

/** Screenshot of the viewport (or the full page) into test-results/e2e/, after two painted frames. */
export async function signShot(page: Page, name: string, fullPage = false) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage })
}
