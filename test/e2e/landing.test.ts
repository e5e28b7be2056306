// The host's address opened in a browser: a small page that says what it is and where to go,
// working under a strict self-only Content-Security-Policy; API paths keep their JSON 404.
import { afterAll, expect } from 'vitest'
import { SCREENSHOTS, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

test('/ is a page with the API reference, the mailbox and the health; it needs no inline script or style', async () => {
  const res = await fetch(stack.host.url + '/')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/html')
  const html = await res.text()
  expect(html).not.toMatch(/<script|<style|\sstyle=/i)

  const page = await stack.browser.newPage({ viewport: { width: 1280, height: 800 } })
  const violations: string[] = []
  page.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()))
  // The strictest policy a host may add: only its own files.
  await page.route(stack.host.url + '/', async (route) => {
    const r = await route.fetch()
    await route.fulfill({ response: r, headers: { ...r.headers(), 'content-security-policy': "default-src 'self'" } })
  })
  await page.goto(stack.host.url + '/')
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Signing service')
  // Styled by its own stylesheet.
  expect(await page.locator('main').evaluate((el) => getComputedStyle(el).borderRadius)).toBe('12px')
  expect(await page.locator('.health .status').textContent()).toBe('ready')
  await page.screenshot({ path: `${SCREENSHOTS}/landing.png`, fullPage: true })
  expect(violations).toEqual([])

  await page.getByRole('link', { name: 'API reference' }).click()
  await page.waitForURL('**/api/v2/docs')
  await page.goBack()
  await page.getByRole('link', { name: 'Mailbox' }).click()
  await page.waitForURL('**/mailbox')
  await page.close()

  const api = await fetch(stack.host.url + '/api/v3/envelope')
  expect(api.status).toBe(404)
  expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' })
})
