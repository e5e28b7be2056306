/**
 * The /verify page in Chromium, under its strict Content-Security-Policy: a sealed file of the
 * host is reported intact with its document, a changed copy as changed, bytes added after the
 * seal as a change the seal does not cover; its file inputs open the chooser from a button, by
 * keyboard too, and take a dropped file; on a desktop and a phone viewport, without a single CSP
 * violation or a serious accessibility finding.
 */
import { X509Certificate } from 'node:crypto'
import path from 'node:path'
import type { FileChooser } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { sealEnvelope } from '../../host/server/pdf/seal.js'
import { generateP12, openSealingKey, type SealingKey } from '../../host/server/pdf/sealing-key.js'
import { makePdf, PNG, until } from '../host/support.js'
import { startCrlServer } from '../support/crl-server.js'
import { addPageIncrementally } from '../support/incremental.js'
import { makeTestCa } from '../support/test-pki.js'
import { startTsa } from '../support/tsa-server.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { consentThroughApi } from './support/sign.js'
import { axeReport, axeViolations } from './support/axe.js'
import { dropFiles } from './support/ui.js'

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]
const PDF = 'application/pdf'

describe('the verification page', () => {
  let stack: Stack
  let sealedPdf: Buffer

  test.beforeAll(async ({ browser }) => {
    stack = await startStack(browser)
    const form = new FormData()
    form.set(
      'payload',
      JSON.stringify({
        type: 'DOCUMENT',
        title: 'Lease 4B',
        recipients: [{ email: 'jana@example.com', name: 'Jana', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
      }),
    )
    form.set('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'lease.pdf')
    const auth = { Authorization: `Bearer ${stack.apiToken}` }
    const created = await (await fetch(`${stack.host.apiUrl}/envelope/create`, { method: 'POST', headers: auth, body: form })).json()
    const envelope = await stack.api<any>('GET', `/envelope/${created.id}`)
    const sent = await stack.api<any>('POST', '/envelope/distribute', { envelopeId: created.id })
    const signing = { Authorization: `Bearer ${sent.recipients[0].token}`, 'content-type': 'application/json' }
    const session = await (await fetch(`${stack.host.url}/api/signing/session`, { headers: signing })).json()
    const value = `data:image/png;base64,${PNG.toString('base64')}`
    await consentThroughApi(stack.host.url, sent.recipients[0].token)
    await fetch(`${stack.host.url}/api/signing/complete`, { method: 'POST', headers: signing, body: JSON.stringify({ fields: session.fields.map((f: any) => ({ id: f.id, value })) }) })
    const itemId = envelope.envelopeItems[0].id
    await until(async () => {
      const res = await fetch(`${stack.host.apiUrl}/envelope/item/${itemId}/download`, { headers: auth })
      if (res.status === 200) sealedPdf = Buffer.from(await res.arrayBuffer())
      return res.status === 200
    }, SAFETY_NET)
    expect(sealedPdf).toBeDefined()
  })
  afterAll(async () => {
    await stack?.close()
  })

  for (const viewport of VIEWPORTS) {
    it(`reports a sealed file and a changed copy (${viewport.name}), with no CSP violation`, async () => {
      const context = await stack.browser.newContext({ viewport, isMobile: viewport.name === 'phone' })
      const page = await context.newPage()
      const violations: string[] = []
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
      })
      const res = await page.goto(`${stack.host.url}/verify`)
      expect(res?.headers()['content-security-policy']).toContain("script-src 'self'")
      await page.getByText('Verify a signed document').first().waitFor()

      await page.getByTestId('verify-file').setInputFiles({ name: 'lease.pdf', mimeType: 'application/pdf', buffer: sealedPdf })
      await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('The seal is intact')
      expect(await page.getByTestId('verify-document').textContent()).toContain('Lease 4B')
      expect(await page.getByTestId('verify-signature').textContent()).toContain('PAdES')
      await page.screenshot({ path: path.join(SCREENSHOTS, `verify-${viewport.name}.png`), fullPage: true })

      const changed = Buffer.from(sealedPdf)
      const at = changed.indexOf('/MediaBox')
      changed[at + 12] = changed[at + 12] === 0x31 ? 0x32 : 0x31
      await page.getByTestId('verify-file').setInputFiles({ name: 'changed.pdf', mimeType: 'application/pdf', buffer: changed })
      await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('changed after it was signed')
      expect(await page.getByTestId('verify-document').count()).toBe(0)
      await page.screenshot({ path: path.join(SCREENSHOTS, `verify-${viewport.name}-changed.png`), fullPage: true })
      expect(violations).toEqual([])
      await context.close()
    })
  }

  it('shows a B-LTA seal with its document timestamp, and a page added later as a change (desktop and phone)', async () => {
    // Sealed here, under a test CA whose certificates name a CRL, with a timestamp server: B-LTA.
    const ca = makeTestCa('verify page test root')
    const crl = await startCrlServer(ca)
    const tsa = await startTsa(ca.issue('verify page test TSA', 'timestamping', { crlUrl: crl.url }))
    let lta: Uint8Array
    try {
      const seal = ca.issue('verify page test seal', 'seal', { crlUrl: crl.url })
      const key: SealingKey = { source: 'pem', privateKeyPem: seal.privateKeyPem, passphrase: '', certificatePem: seal.certificatePem, chainPem: seal.chainPem }
      const input = { envelope: { id: 'e', title: 'Lease 4C', completedAt: new Date().toISOString() }, items: [{ id: 'i', title: 'Lease 4C', pdf: await makePdf(1) }], fields: [], recipients: [] }
      lta = (await sealEnvelope(input, key, { tsaUrls: [tsa.url] }))[0]!.pdf
    } finally {
      await tsa.close()
      await crl.close()
    }
    for (const viewport of VIEWPORTS) {
      const context = await stack.browser.newContext({ viewport, isMobile: viewport.name === 'phone' })
      const page = await context.newPage()
      await page.goto(`${stack.host.url}/verify`)
      await page.getByTestId('verify-file').setInputFiles({ name: 'lease-lta.pdf', mimeType: 'application/pdf', buffer: Buffer.from(lta) })
      await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('The seal is intact')
      const cards = page.getByTestId('verify-signature')
      expect(await cards.count()).toBe(2)
      expect(await cards.nth(0).textContent()).toContain('only validation data was added after it')
      expect(await page.getByTestId('verify-after').textContent()).toBe('Only validation data: certificates, revocation data and document timestamps.')
      expect(await page.getByTestId('verify-level').textContent()).toContain('PAdES B-LTA')
      expect(await cards.nth(1).textContent()).toContain('Document timestamp 2')
      expect(await cards.nth(1).textContent()).toContain('verify page test TSA')
      await page.screenshot({ path: path.join(SCREENSHOTS, `verify-lta-${viewport.name}.png`), fullPage: true })

      await page.getByTestId('verify-file').setInputFiles({ name: 'edited.pdf', mimeType: 'application/pdf', buffer: await addPageIncrementally(lta) })
      await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('changed after it was signed')
      expect(await cards.nth(0).textContent()).toContain('content was added after it')
      expect(await page.getByTestId('verify-after').first().textContent()).toContain('A change to the document')
      await context.close()
    }
  })

  /** The sealed file with bytes after its %%EOF that no update accounts for. */
  const amended = () => Buffer.concat([sealedPdf, Buffer.from('Amended after sealing: pay to Mallory, 99000 EUR.\n')])

  for (const viewport of VIEWPORTS) {
    it(`says a file with bytes added after its seal was changed, and that the seal does not cover them (${viewport.name})`, async () => {
      const context = await stack.browser.newContext({ viewport, isMobile: viewport.name === 'phone' })
      const page = await context.newPage()
      await page.goto(`${stack.host.url}/verify`)
      await page.getByTestId('verify-file').setInputFiles({ name: 'amended.pdf', mimeType: PDF, buffer: amended() })
      await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('This file was changed after it was signed: something was added that the signatures do not cover.')
      const card = page.getByTestId('verify-signature')
      expect(await card.textContent()).toContain('Intact, but data it does not cover was added after it')
      expect(await card.textContent()).not.toContain('validation data was added')
      expect(await page.getByTestId('verify-after').textContent()).toBe('Data that is not validation data and that this signature does not cover: the file was changed after it was signed.')
      expect(await page.getByTestId('verify-document').count()).toBe(0)
      await page.screenshot({ path: path.join(SCREENSHOTS, `verify-uncovered-${viewport.name}.png`), fullPage: true })
      expect(axeReport(`/verify with bytes after the seal (${viewport.name})`, await axeViolations(page))).toBe('')
      await context.close()
    })
  }

  for (const viewport of VIEWPORTS) {
    it(`its file inputs: a button opens the chooser by Enter or Space, a dropped file is checked, the chosen name is shown (${viewport.name})`, async () => {
      const context = await stack.browser.newContext({ viewport, isMobile: viewport.name === 'phone' })
      const page = await context.newPage()
      // Choosers are caught from the start: a listener added just before a key is pressed may be
      // switched on in the browser only after the chooser opened, and then it is never seen.
      const choosers: FileChooser[] = []
      page.on('filechooser', (chooser) => choosers.push(chooser))
      const chooser = async (n: number) => {
        await expect.poll(() => choosers.length).toBe(n)
        return choosers[n - 1]!
      }
      await page.goto(`${stack.host.url}/verify`)
      const verdict = () => page.getByTestId('verify-verdict').textContent()
      const chosen = page.getByTestId('verify-file-chosen')
      expect(await chosen.textContent()).toBe('No file chosen')
      expect(axeReport(`/verify empty (${viewport.name})`, await axeViolations(page))).toBe('')

      // Tab reaches the PDF's button first, with a visible focus ring; Enter opens the chooser.
      await page.keyboard.press('Tab')
      const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)
      expect(await focused()).toBe('verify-file-button')
      expect(await page.getByTestId('verify-file-button').textContent()).toBe('Choose a PDF')
      const ring = await page.getByTestId('verify-file-button').evaluate((b) => ({ style: getComputedStyle(b).outlineStyle, width: parseFloat(getComputedStyle(b).outlineWidth) }))
      expect(ring.style).not.toBe('none')
      expect(ring.width).toBeGreaterThanOrEqual(2)
      await page.screenshot({ path: path.join(SCREENSHOTS, `verify-focus-${viewport.name}.png`), fullPage: true })
      await page.keyboard.press('Enter')
      await (await chooser(1)).setFiles({ name: 'lease.pdf', mimeType: PDF, buffer: sealedPdf })
      await expect.poll(verdict).toContain('The seal is intact')
      expect(await chosen.textContent()).toBe('Chosen: lease.pdf')

      // Space opens it too; the evidence file's button comes next.
      await page.getByTestId('verify-file-button').focus()
      await page.keyboard.press(' ')
      await (await chooser(2)).setFiles({ name: 'amended.pdf', mimeType: PDF, buffer: amended() })
      await expect.poll(verdict).toContain('changed after it was signed')
      expect(await chosen.textContent()).toBe('Chosen: amended.pdf')
      await page.keyboard.press('Tab')
      expect(await focused()).toBe('verify-evidence-file-button')
      expect(await page.getByTestId('verify-evidence-file-chosen').textContent()).toBe('No file chosen')

      // A file held over the zone marks it; a PDF dropped on it is checked.
      const zone = page.getByTestId('verify-file-zone')
      await zone.dispatchEvent('dragover')
      await expect.poll(() => zone.getAttribute('data-over')).toBe('true')
      await zone.dispatchEvent('dragleave')
      await expect.poll(() => zone.getAttribute('data-over')).toBe(null)
      await dropFiles(zone, [{ name: 'dropped.pdf', mimeType: PDF, buffer: sealedPdf }])
      await expect.poll(verdict).toContain('The seal is intact')
      expect(await chosen.textContent()).toBe('Chosen: dropped.pdf')
      expect(await zone.getAttribute('data-over')).toBe(null)
      await page.screenshot({ path: path.join(SCREENSHOTS, `verify-dropped-${viewport.name}.png`), fullPage: true })
      expect(axeReport(`/verify with a dropped file (${viewport.name})`, await axeViolations(page))).toBe('')
      await context.close()
    })
  }

  it("tells a self-signed seal under this service's name from this service's own", async () => {
    const key: SealingKey = { source: 'file', p12: await generateP12('envelope-embed host seal'), passphrase: '', certificatePem: '' }
    key.certificatePem = new X509Certificate(openSealingKey(key).certificates[0]!).toString()
    const input = { envelope: { id: 'e', title: 'Lease 4B', completedAt: new Date().toISOString() }, items: [{ id: 'i', title: 'Lease 4B', pdf: await makePdf(1) }], fields: [], recipients: [] }
    const forged = (await sealEnvelope(input, key))[0]!.pdf
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${stack.host.url}/verify`)
    await page.getByTestId('verify-file').setInputFiles({ name: 'lease.pdf', mimeType: 'application/pdf', buffer: sealedPdf })
    await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('The seal is intact')
    expect(await page.getByTestId('verify-signature').textContent()).toContain('this service’s demonstration seal')
    await page.getByTestId('verify-file').setInputFiles({ name: 'forged.pdf', mimeType: 'application/pdf', buffer: Buffer.from(forged) })
    await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('not this service’s')
    expect(await page.getByTestId('verify-signature').textContent()).toContain('not this service’s seal; no one vouches for it')
    await context.close()
  })

  it('speaks the reader\'s language: German and French', async () => {
    for (const [locale, title, intact, changedText, uncovered] of [
      ['de-DE', 'Ein unterschriebenes Dokument prüfen', 'Das Siegel ist intakt', 'nach der Unterschrift verändert', 'Es wurde etwas angefügt, das die Signaturen nicht abdecken.'],
      ['fr-FR', 'Vérifier un document signé', 'Le sceau est intact', 'modifié après sa signature', 'quelque chose a été ajouté que les signatures ne couvrent pas.'],
    ] as const) {
      const context = await stack.browser.newContext({ locale, viewport: { width: 390, height: 844 }, isMobile: true })
      const page = await context.newPage()
      await page.goto(`${stack.host.url}/verify`)
      await page.getByRole('heading', { name: title }).waitFor()
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale.slice(0, 2))
      await page.getByTestId('verify-file').setInputFiles({ name: 'lease.pdf', mimeType: 'application/pdf', buffer: sealedPdf })
      await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain(intact)
      await page.screenshot({ path: path.join(SCREENSHOTS, `verify-${locale}.png`), fullPage: true })
      const changed = Buffer.from(sealedPdf)
      const at = changed.indexOf('/MediaBox')
      changed[at + 12] = changed[at + 12] === 0x31 ? 0x32 : 0x31
      await page.getByTestId('verify-file').setInputFiles({ name: 'changed.pdf', mimeType: 'application/pdf', buffer: changed })
      await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain(changedText)
      await page.getByTestId('verify-file').setInputFiles({ name: 'amended.pdf', mimeType: PDF, buffer: amended() })
      await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain(uncovered)
      await context.close()
    }
  })
})
