/**
 * The team's branding in the console, in Chromium: an admin uploads a logo and picks a colour
 * (a too-light one is shown adjusted, with its contrast), saves them, and the signing page a
 * recipient opens shows that logo in its header and that colour on its primary button. A member
 * sees the settings read-only, told why. axe-core and screenshots at 1280 and 390 px.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { brandPalette } from '../../host/shared/brand-colour.js'
import { encodePng } from '../../host/server/images/png.js'
import { makeUser, TEST_PASSWORD } from '../support/console-client.js'
import { axeReport, axeViolations } from './support/axe.js'
import { openPage, PHONE, sendDocument, sig, signing } from './support/sign.js'
import { mount, SCREENSHOTS, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

/** A 240 x 80 logo: a teal block and a darker bar on white, enough to see it is the one drawn. */
function logoPng(): Buffer {
  const [w, h] = [240, 80]
  const rgba = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = x < 70 && y > 10 && y < 70 ? [15, 118, 110] : x > 90 && y > 30 && y < 50 ? [19, 78, 74] : [255, 255, 255]
      rgba.set([...c, 255], (y * w + x) * 4)
    }
  }
  return encodePng({ width: w, height: h, rgba })
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`

let stack: Stack
let teamId: string
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
  teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
  await makeUser(stack.host.db, 'brand.admin@example.com', { teamId, role: 'ADMIN' })
  await makeUser(stack.host.db, 'brand.member@example.com', { teamId, role: 'MEMBER' })
})
afterAll(() => stack?.close())

async function signIn(email: string): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' })
  const page = await context.newPage()
  await page.goto(`${stack.host.url}/console/settings/branding`)
  await page.getByLabel('E-mail address').fill(email)
  await page.getByLabel('Password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.getByRole('button', { name: 'Sign out' }).waitFor()
  // A member of more than one team picks E2E (the first account is also in the default team).
  const team = page.getByRole('combobox', { name: 'Team' })
  if (await team.count()) await team.selectOption({ label: 'E2E' })
  await page.goto(`${stack.host.url}/console/settings/branding`)
  await page.getByRole('heading', { name: 'Branding and defaults', level: 1 }).waitFor()
  return page
}

/** axe at both widths, and a full-page screenshot of each. */
async function check(page: Page, name: string) {
  for (const [width, height] of [[1280, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height })
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true })
    expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

describe('team branding', () => {
  test('the admin sets a logo and a colour; the signing page shows them', async () => {
    const page = await signIn('brand.admin@example.com')
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    const look = page.getByTestId('branding-look')
    await check(page, 'console-branding-empty')

    // The logo: uploaded, previewed, stored.
    await page.getByTestId('branding-logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng() })
    await page.getByTestId('branding-logo').waitFor()
    await expect.poll(() => page.getByTestId('branding-logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240)

    // A yellow too light for white: the preview and verdict show the shade the pages will use.
    const hex = page.getByTestId('branding-hex')
    await hex.fill('#ffd500')
    const yellow = brandPalette('#ffd500')
    await expect.poll(() => page.getByTestId('branding-verdict').textContent()).toContain(`nearest readable shade, ${yellow.primary}`)
    // Polled: the button's colour changes with a short transition.
    await expect.poll(() => page.getByTestId('branding-preview-button').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(rgb(yellow.primary))
    await check(page, 'console-branding-adjusted')

    // Not a colour: said so, nothing to save.
    await hex.fill('#12')
    await expect.poll(() => page.getByTestId('branding-verdict').textContent()).toContain('six hex digits')
    expect(await look.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true)

    // A teal that reads on white as it is: saved.
    await hex.fill('#0F766E')
    await expect.poll(() => page.getByTestId('branding-verdict').textContent()).toMatch(/both meet WCAG AA/)
    await look.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved.').waitFor()
    const [row] = await stack.host.db.query<{ brand_color: string; logo_type: string }>('select brand_color, logo_type from team_branding where team_id = $1', [teamId])
    expect(row).toMatchObject({ brand_color: '#0f766e', logo_type: 'image/png' })
    await check(page, 'console-branding-saved')
    expect(errors).toEqual([])

    // A recipient's signing page: the logo in the header, the colour on the primary button.
    const doc = await sendDocument(stack, { title: 'Branded lease', recipients: [{ email: 'rae@example.com', name: 'Rae Recipient', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const signer = await openPage(stack, doc.recipient('rae@example.com').signingUrl)
    await signing(signer.page).ready()
    const logo = signer.page.getByTestId('sign-logo')
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240)
    expect(await logo.getAttribute('alt')).toBe('E2E')
    const teal = brandPalette('#0f766e')
    const root = (name: string) => signer.page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name)
    expect([await root('--primary'), await root('--primary-foreground'), await root('--accent')]).toEqual([teal.primary, teal.primaryForeground, teal.accent])
    // The bar's action while fields remain: the brand's tint, its border the brand's colour.
    const complete = signer.page.getByTestId('complete')
    await expect.poll(() => complete.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(rgb(teal.accent))
    await expect.poll(() => complete.evaluate((b) => getComputedStyle(b).color)).toBe(rgb(teal.accentForeground))
    for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
      await signer.page.setViewportSize(viewport)
      await signer.page.screenshot({ path: join(SCREENSHOTS, `sign-branded-${viewport.width}.png`) })
      expect(axeReport(`branded signing page at ${viewport.width}`, await axeViolations(signer.page))).toBe('')
    }
    // Dark: the teal is too dark for the page, so a lighter shade of it reads there instead.
    await signer.page.emulateMedia({ colorScheme: 'dark' })
    const dark = brandPalette('#0f766e', '#0c111b')
    expect(dark.primary).not.toBe('#0f766e')
    await expect.poll(() => root('--primary')).toBe(dark.primary)
    // axe first: it lets the colours' transitions end, so the screenshot shows the dark page as it rests.
    expect(axeReport('branded signing page, dark', await axeViolations(signer.page))).toBe('')
    await signer.page.screenshot({ path: join(SCREENSHOTS, `sign-branded-dark-${PHONE.width}.png`) })
    expect(signer.errors).toEqual([])
    await signer.context.close()
    await page.context().close()
  })

  test('in an embed the customer’s theme comes first: its css after the brand, its cssVars instead of it', async () => {
    const teal = brandPalette('#0f766e')
    await stack.host.db.query(`insert into team_branding (team_id, brand_color) values ($1, '#0f766e') on conflict (team_id) do update set brand_color = excluded.brand_color`, [teamId])
    const doc = await sendDocument(stack, {
      title: 'Embedded lease',
      recipients: ['one', 'two', 'three'].map((n) => ({ email: `${n}@example.com`, name: n, role: 'SIGNER', fields: [sig(10, 80)] })),
    })
    const primaryOf = async (props: Record<string, unknown>) => {
      const { page, frame } = await mount(stack, 'EmbedSignDocument', props)
      await signing(page, frame).ready()
      const value = () => frame.locator('html').evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--primary').trim())
      // The brand arrives with the session: wait for its rule before reading what wins.
      await expect.poll(() => frame.locator('style[data-source="team-brand"]').count()).toBe(props.cssVars ? 0 : 1)
      const primary = await value()
      await page.close()
      return primary
    }
    expect(await primaryOf({ token: doc.recipient('one@example.com').token })).toBe(teal.primary)
    expect(await primaryOf({ token: doc.recipient('two@example.com').token, css: ':root { --primary: #7c3aed; }' })).toBe('#7c3aed')
    expect(await primaryOf({ token: doc.recipient('three@example.com').token, cssVars: { primary: '#b91c1c' } })).toBe('#b91c1c')
  })

  test('a member sees the branding read-only, and why', async () => {
    const page = await signIn('brand.member@example.com')
    await page.getByTestId('branding-read-only').waitFor()
    expect(await page.getByTestId('branding-read-only').textContent()).toContain('Only admins of the team can change')
    expect(await page.getByTestId('branding-logo-input').count()).toBe(0)
    expect(await page.getByTestId('branding-hex').getAttribute('readonly')).not.toBeNull()
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0)
    await check(page, 'console-branding-member')

    // Right to left in Hebrew: the same page, mirrored, in its words.
    await page.evaluate(() => localStorage.setItem('console.language', 'he'))
    await page.reload()
    await page.getByRole('heading', { name: 'מיתוג וברירות מחדל', level: 1 }).waitFor()
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl')
    await check(page, 'console-branding-he')
    await page.context().close()
  })
})
