import { afterAll, describe, expect } from 'vitest'
import { until } from '../host/support.js'
import { callback, frameShot, mount, SAFETY_NET, shot, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { editor } from './support/ui.js'
import { pdfFile } from './support/pdf.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

describe('sessions that cannot go on', () => {
  test('an expired presign token: onError TOKEN_EXPIRED and a clear screen', async () => {
    const token = await stack.presign({ expiresIn: 0 })
    // Expired by the host's clock (whole seconds): asked of the host, not waited out.
    await until(async () => (await (await fetch(`${stack.host.apiUrl}/embedding/session`, { headers: { Authorization: token } })).json()).code === 'TOKEN_EXPIRED', SAFETY_NET)
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: token, type: 'DOCUMENT' })
    expect(await callback(page, 'onError')).toEqual({ code: 'TOKEN_EXPIRED', message: expect.any(String) })
    const screen = frame.getByTestId('error-screen')
    expect(await screen.getAttribute('data-code')).toBe('TOKEN_EXPIRED')
    expect(await screen.textContent()).toContain('The access link has expired.')
    await shot(page, 'error-token-expired')
    await page.close()
  })

  test('a malformed token: INVALID_TOKEN', async () => {
    const { page } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: 'not-a-token', type: 'DOCUMENT' })
    expect((await callback(page, 'onError')).code).toBe('INVALID_TOKEN')
    await page.close()
  })

  test('a token scoped to one envelope cannot open the create page: FORBIDDEN', async () => {
    const token = await stack.presign({ scope: { kind: 'documentId', id: 1 } })
    const { page } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: token, type: 'DOCUMENT' })
    expect((await callback(page, 'onError')).code).toBe('FORBIDDEN')
    await page.close()
  })
})

describe('white label', () => {
  test('cssVars, css, language and darkModeDisabled reach the page', async () => {
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', {
      presignToken: await stack.presign(),
      type: 'DOCUMENT',
      language: 'de-CH',
      css: '.doc-title { text-transform: uppercase }',
      cssVars: { primary: 'rgb(190, 18, 60)', primaryForeground: 'rgb(255, 255, 255)', radius: '0px', background: 'rgb(255, 251, 235)', accent: 'rgb(255, 228, 230)', recipient1: 'rgb(0, 128, 0)' },
      darkModeDisabled: true,
      features: { allowConfigureTimezone: false, allowConfigureCommunication: false },
    })
    await page.emulateMedia({ colorScheme: 'dark' })
    await callback(page, 'onReady')
    const create = frame.getByRole('button', { name: 'Dokument erstellen' }).first()
    const style = await create.evaluate((el) => {
      const s = getComputedStyle(el)
      return { bg: s.backgroundColor, color: s.color, radius: s.borderRadius }
    })
    expect(style).toEqual({ bg: 'rgb(190, 18, 60)', color: 'rgb(255, 255, 255)', radius: '0px' })
    // darkModeDisabled: the customer's light background stays although the system prefers dark.
    expect(await frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 251, 235)')
    expect(await frame.locator('.doc-title').evaluate((el) => getComputedStyle(el).textTransform)).toBe('uppercase')
    expect(await frame.locator('html').getAttribute('lang')).toBe('de')
    // Keys beyond the vocabulary pass through as custom properties.
    expect(await frame.locator('html').evaluate((el) => getComputedStyle(el).getPropertyValue('--recipient1'))).toBe('rgb(0, 128, 0)')
    await frame.getByText('PDF-Dateien hierher ziehen und ablegen').waitFor()
    await shot(page, 'theme-custom-de')
    // Settings the features switch off are not offered; the others are.
    await frame.getByRole('navigation').getByRole('button', { name: /Einstellungen/ }).click()
    await frame.getByLabel('Datumsformat').waitFor()
    expect(await frame.getByLabel('Zeitzone').count()).toBe(0)
    expect(await frame.getByLabel('E-Mail-Betreff').count()).toBe(0)
    expect(await frame.getByLabel('Sprache für Empfänger').count()).toBe(1)
    await shot(page, 'theme-custom-de-settings')
    await page.close()
  })

  test('dark mode follows the system unless disabled; unknown languages fall back to English', async () => {
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'TEMPLATE', language: 'xx' })
    await page.emulateMedia({ colorScheme: 'dark' })
    await callback(page, 'onReady')
    await frame.getByText('Drag and drop PDF files here').waitFor()
    const bg = await frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(bg).toBe('rgb(12, 17, 27)')
    await shot(page, 'theme-dark')
    const ui = editor(page, frame)
    await ui.addFiles([await pdfFile('Dark.pdf', 1)])
    await ui.step(/Recipients/).click()
    await ui.addRecipient('Night Owl', 'owl@example.com')
    await ui.step(/Fields/).click()
    await ui.placeByClick('Signature', 0, 1, 0.3, 0.8)
    await shot(page, 'theme-dark-fields')
    await page.close()
  })

  test('autoHeight: the frame follows the content as it grows and shrinks', async () => {
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT', autoHeight: true })
    const ui = editor(page, frame)
    await callback(page, 'onReady')
    const iframe = page.locator('iframe')
    const frameHeight = () => iframe.evaluate((el) => el.getBoundingClientRect().height)
    const contentHeight = () => frame.locator('body').evaluate((el) => Math.ceil(el.getBoundingClientRect().height))
    await expect.poll(async () => (await frameHeight()) === (await contentHeight())).toBe(true)
    const before = await frameHeight()
    await ui.step(/Recipients/).click()
    for (let n = 1; n <= 6; n++) await ui.addRecipient(`Person ${n}`, `p${n}@example.com`)
    await expect.poll(async () => (await frameHeight()) === (await contentHeight())).toBe(true)
    const grown = await frameHeight()
    expect(grown).toBeGreaterThan(before + 300)
    await shot(page, 'auto-height-grown')
    for (let n = 6; n >= 2; n--) await frame.getByRole('button', { name: `Remove recipient ${n}` }).click()
    await expect.poll(async () => (await frameHeight()) === (await contentHeight())).toBe(true)
    expect(await frameHeight()).toBeLessThan(grown - 300)
    await page.close()
  })

  test('narrow frames: the steps become a row and the editor still works', async () => {
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT' }, { width: 700, height: 900 })
    await callback(page, 'onReady')
    await editor(page, frame).addFiles([await pdfFile('Mobile.pdf', 1)])
    await frame.getByText('1 page').waitFor()
    await frameShot(page, 'narrow')
    await page.close()
  })
})
