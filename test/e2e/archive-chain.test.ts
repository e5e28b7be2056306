/**
 * The /verify page in Chromium shows an archive's chain of document timestamps: a B-LTA seal whose
 * file was renewed once (a second document timestamp from another authority) lists both, in order,
 * each with its authority and what it covers; on a desktop and a phone viewport, in English and
 * German, with no CSP violation.
 */
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { renewArchive } from '../../host/server/pdf/renew.js'
import { sealEnvelope } from '../../host/server/pdf/seal.js'
import type { SealingKey } from '../../host/server/pdf/sealing-key.js'
import { makePdf } from '../host/support.js'
import { startCrlServer } from '../support/crl-server.js'
import { makeTestCa } from '../support/test-pki.js'
import { startTsa } from '../support/tsa-server.js'
import { SCREENSHOTS, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

describe('the chain of document timestamps on the verification page', () => {
  let stack: Stack
  let renewed: Buffer

  test.beforeAll(async ({ browser }) => {
    stack = await startStack(browser)
    const ca = makeTestCa('chain page test root')
    const crl = await startCrlServer(ca)
    const first = await startTsa(ca.issue('first chain TSA', 'timestamping', { crlUrl: crl.url, validDays: 60 }))
    const second = await startTsa(ca.issue('second chain TSA', 'timestamping', { crlUrl: crl.url }))
    try {
      const seal = ca.issue('chain page test seal', 'seal', { crlUrl: crl.url })
      const key: SealingKey = { source: 'pem', privateKeyPem: seal.privateKeyPem, passphrase: '', certificatePem: seal.certificatePem, chainPem: seal.chainPem }
      const input = { envelope: { id: 'e', title: 'Lease 4D', completedAt: new Date().toISOString() }, items: [{ id: 'i', title: 'Lease 4D', pdf: await makePdf(1) }], fields: [], recipients: [] }
      const sealed = (await sealEnvelope(input, key, { tsaUrls: [first.url] }))[0]!.pdf
      renewed = Buffer.from(await renewArchive(sealed, { tsaUrls: [second.url] }))
    } finally {
      await Promise.all([first.close(), second.close(), crl.close()])
    }
  })
  afterAll(async () => {
    await stack?.close()
  })

  for (const viewport of [
    { name: 'desktop', width: 1280, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    it(`lists both timestamps in order, each covering the one before (${viewport.name})`, async () => {
      const context = await stack.browser.newContext({ viewport, isMobile: viewport.name === 'phone' })
      const page = await context.newPage()
      await page.goto(`${stack.host.url}/verify`)
      await page.getByTestId('verify-file').setInputFiles({ name: 'lease-renewed.pdf', mimeType: 'application/pdf', buffer: renewed })
      await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('The seal is intact')
      expect(await page.getByTestId('verify-timestamps').textContent()).toContain('Chain of document timestamps')
      const entries = page.getByTestId('verify-chain-entry')
      expect(await entries.count()).toBe(2)
      expect(await entries.nth(0).textContent()).toMatch(/first chain TSA.*covers the signature/)
      expect(await entries.nth(1).textContent()).toMatch(/second chain TSA.*covers the timestamp before it/)
      expect(await page.getByTestId('verify-signature').count()).toBe(3)
      await page.screenshot({ path: path.join(SCREENSHOTS, `verify-chain-${viewport.name}.png`), fullPage: true })
      await context.close()
    })
  }

  it('speaks German', async () => {
    const context = await stack.browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 }, isMobile: true })
    const page = await context.newPage()
    await page.goto(`${stack.host.url}/verify`)
    await page.getByTestId('verify-file').setInputFiles({ name: 'lease-renewed.pdf', mimeType: 'application/pdf', buffer: renewed })
    await expect.poll(() => page.getByTestId('verify-verdict').textContent()).toContain('Das Siegel ist intakt')
    expect(await page.getByTestId('verify-timestamps').textContent()).toContain('Kette der Dokumentzeitstempel')
    expect(await page.getByTestId('verify-chain-entry').nth(1).textContent()).toContain('deckt den vorigen Zeitstempel ab')
    await context.close()
    expect(stack.cspViolations).toEqual([])
  })
})
