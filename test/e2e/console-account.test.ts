// The console account in Chromium, on the embedded database only (its queries run on both in test/host).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Secret, TOTP } from 'otpauth'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { until } from '../host/support.js'
import { axeReport, axeViolations } from './support/axe.js'
import { SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
/** The host by name, not by IP address: WebAuthn needs a domain for its relying party. */
let base: string
const EMAIL = 'ada@example.com'
const PASSWORD = 'analytical engine 1843'

/** The newest account mail of `purpose` to EMAIL newer than `since`, with its link's value (runs the queue). */
async function mailLink(purpose: string, since: number): Promise<{ id: number; value: string }> {
  let row: { id: string; text: string } | undefined
  await until(async () => {
    await stack.host.queue.drain()
    row = (
      await stack.host.db.query<{ id: string; text: string }>(
        'select id, text from mails where to_address = $1 and template = $2 and id > $3 order by id desc limit 1',
        [EMAIL, `account-${purpose}`, since],
      )
    )[0]
    return row !== undefined
  }, SAFETY_NET).catch(() => {
    throw new Error(`no ${purpose} mail for ${EMAIL}`)
  })
  return { id: Number(row!.id), value: new RegExp(`/console/link/${purpose}#([\\w.-]+)`).exec(row!.text)![1]! }
}

const codeAt = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at })

/** Full-page screenshots at 1280 and 390 px wide. */
async function screens(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `console-account-${name}-1280.png`), fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: join(SCREENSHOTS, `console-account-${name}-390.png`), fullPage: true })
  await page.setViewportSize({ width: 1280, height: 900 })
}

/** An open dialog at 1280 and 390 px: what the reader sees (screenshots), and axe finds nothing serious. */
async function dialogScreens(page: Page, name: string, shoot: boolean) {
  for (const [width, height] of [[1280, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height })
    if (shoot) await page.screenshot({ path: join(SCREENSHOTS, `console-account-${name}-${width}.png`) })
    expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

const signedIn = (page: Page) => page.getByRole('button', { name: 'Sign out', exact: true }).waitFor()

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await page.getByRole('heading', { name: 'Sign in' }).waitFor()
}

describe(`the console account, end to end`, () => {
  test.beforeAll(async ({ browser }) => {
    // Open to sign-up: on an invite-only instance the operator makes the first account.
    stack = await startStack(browser, { host: { signup: 'open' } })
    base = stack.host.url.replace('127.0.0.1', 'localhost')
  })
  afterAll(() => stack?.close())

  test('sign up, confirm by mail, password, TOTP, passkey, e-mail link, reset', async () => {
    // Screenshots once (the pages are the same on either database).
    const shots = (page: Page, name: string) => screens(page, name)
    const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } })
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    })

    // Sign-in page, with every other way in.
    await page.goto(`${base}/console`)
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    await shots(page, 'sign-in')
    await page.getByRole('link', { name: 'Create an account' }).click()

    // Sign up. The new screen's title has the focus.
    await page.getByRole('heading', { name: 'Create an account' }).waitFor()
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('sign-up-title')
    await page.getByLabel('Name').fill('Ada Lovelace')
    await page.getByLabel('E-mail address').fill(EMAIL)
    await page.getByLabel('Password').fill(PASSWORD)
    await shots(page, 'sign-up')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`we sent a message to ${EMAIL}`)
    await shots(page, 'sign-up-sent')

    // The address is not confirmed yet: password sign-in says so.
    await page.goto(`${base}/console`)
    await page.getByLabel('E-mail address').fill(EMAIL)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Confirm your e-mail address first')

    // The verification link from the mailbox, with the password chosen at sign-up, signs in; its value leaves the address bar.
    const verify = await mailLink('verify', 0)
    await page.goto(`${base}/console/link/verify#${verify.value}`)
    await page.getByLabel('Password').fill('not the password')
    expect(page.url()).not.toContain(verify.value)
    await page.getByRole('button', { name: 'Confirm address' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('wrong')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Confirm address' }).click()
    await signedIn(page)
    await signOut(page)

    // Password sign-in, then the account page.
    await page.getByLabel('E-mail address').fill(EMAIL)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await signedIn(page)
    await page.getByRole('link', { name: 'Account' }).click()
    await page.getByRole('heading', { name: 'Your account' }).waitFor()
    expect(await page.getByLabel('E-mail address').inputValue()).toBe(EMAIL)
    await shots(page, 'page')

    // TOTP: scan (read the key shown for manual entry), confirm, recovery codes once.
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByRole('img', { name: /QR code/ }).waitFor()
    const secret = (await page.locator('.account-secret').textContent())!.replace(/\s+/g, '')
    await shots(page, 'totp-setup')
    const confirmedAt = Date.now()
    await page.getByLabel('Code from the app').fill(codeAt(secret, confirmedAt))
    await page.getByRole('button', { name: 'Confirm and turn on' }).click()
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor()
    const recovery = await page.locator('.account-codes code').allTextContents()
    expect(recovery).toHaveLength(10)
    await shots(page, 'recovery-codes')
    // Kept by a download (.txt) or the clipboard: the same text, one code a line.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download (.txt)' }).click()])
    expect(download.suggestedFilename()).toMatch(/^recovery-codes-.+\.txt$/)
    const saved = await readFile((await download.path())!, 'utf8')
    for (const c of recovery) expect(saved).toContain(`\n${c}\n`)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.getByRole('button', { name: 'Copy', exact: true }).click()
    await page.getByText('Copied.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(saved)
    await page.getByRole('button', { name: 'I saved them' }).click()
    await expect.poll(() => page.getByText('10 recovery codes left.').count()).toBe(1)

    // Register a passkey with Chromium's virtual authenticator. The sign-in was long ago (as with a
    // session taken from the browser): the page asks for the password again, then goes on.
    await stack.host.db.query(`update user_sessions set proved_at = now() - interval '1 hour'`)
    await page.getByLabel(/Name of the new passkey/).fill('Test laptop')
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    const again = page.getByRole('dialog', { name: 'Confirm it is you' })
    await again.getByLabel('Password or code').fill(PASSWORD)
    await shots(page, 'confirm-identity')
    await again.getByRole('button', { name: 'Confirm' }).click()
    await page.getByText('Test laptop', { exact: true }).waitFor()
    await shots(page, 'page-full')

    // Password sign-in now asks for the second factor: a code of a later step than the one used.
    await signOut(page)
    await page.getByLabel('E-mail address').fill(EMAIL)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor()
    await shots(page, 'second-factor')
    await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, confirmedAt))
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('wrong or was used already')
    await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, confirmedAt + 30_000))
    await page.getByRole('button', { name: 'Continue' }).click()
    await signedIn(page)
    await signOut(page)

    // A passkey alone signs in (no address, no second factor).
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await signedIn(page)
    await page.getByRole('link', { name: 'Account' }).click()
    await expect.poll(() => page.getByText(/last used/).count()).toBe(1)
    await signOut(page)

    // The e-mailed sign-in link; with two-factor on, a recovery code completes it.
    await page.getByRole('link', { name: 'E-mail me a sign-in link' }).click()
    await page.getByLabel('E-mail address').fill(EMAIL)
    await shots(page, 'email-link')
    await page.getByRole('button', { name: 'Send the link' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('a sign-in link is on its way')
    const signinLink = await mailLink('signin', verify.id)
    await page.goto(`${base}/console/link/signin#${signinLink.value}`)
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor()
    expect(page.url()).not.toContain(signinLink.value)
    await page.getByRole('button', { name: 'Use a recovery code' }).click()
    await page.getByLabel('Recovery code').fill(recovery[0]!)
    await page.getByRole('button', { name: 'Continue' }).click()
    await signedIn(page)
    await signOut(page)

    // Reset: request, then the new password from the link, then the passkey as second factor.
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await page.getByLabel('E-mail address').fill(EMAIL)
    await shots(page, 'reset')
    await page.getByRole('button', { name: 'Send the link' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('a link to reset its password is on its way')
    const reset = await mailLink('reset', signinLink.id)
    await page.goto(`${base}/console/link/reset#${reset.value}`)
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor()
    expect(page.url()).toBe(`${base}/console/link/reset`)
    await shots(page, 'reset-new-password')
    await page.getByLabel('New password', { exact: true }).fill('difference engine 1822')
    await page.getByRole('button', { name: 'Save and sign in' }).click()
    // The passkeys that still open the account are named (removed from the account page once signed in).
    await page.getByRole('heading', { name: 'Your passkeys' }).waitFor()
    await page.getByText('Test laptop', { exact: true }).waitFor()
    await shots(page, 'reset-passkeys')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor()
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await signedIn(page)

    // Used links do not work again.
    await page.goto(`${base}/console/link/reset#${reset.value}`)
    await page.getByLabel('New password', { exact: true }).fill('another password 99')
    await page.getByRole('button', { name: 'Save and sign in' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('This link is not valid')
    await shots(page, 'link-used')

    // The sessions list names this browser.
    await page.goto(`${base}/console/account`)
    await page.getByText('This browser').waitFor()
    expect(await page.locator('.console-table tbody tr').count()).toBeGreaterThanOrEqual(1)
    await shots(page, 'page-signed-in-again')

    // Passkeys: rename, then remove, asked first in a dialog that names the passkey (Escape keeps it).
    await page.getByRole('button', { name: 'Rename Test laptop' }).click()
    await page.getByLabel('Name', { exact: true }).last().fill('Work laptop')
    await page.getByRole('button', { name: 'Save' }).last().click()
    await page.getByText('Work laptop', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'Remove Work laptop' }).click()
    const removal = page.getByRole('dialog', { name: 'Remove the passkey “Work laptop”?' })
    await removal.getByText('You can no longer sign in with it.', { exact: false }).waitFor()
    await dialogScreens(page, 'passkey-remove-dialog', true)
    await page.keyboard.press('Escape')
    await removal.waitFor({ state: 'detached' })
    expect(await stack.host.db.query('select id from passkeys')).toHaveLength(1)
    await page.getByRole('button', { name: 'Remove Work laptop' }).click()
    await removal.getByRole('button', { name: 'Remove' }).click()
    await page.getByText('No passkeys yet.').waitFor()
    expect(await stack.host.db.query('select id from passkeys')).toEqual([])

    // The screens speak the reader's language.
    await page.evaluate(() => localStorage.setItem('console.language', 'fr'))
    await page.goto(`${base}/console/sign-in/link`)
    await page.getByRole('heading', { name: 'Se connecter par un lien e-mail' }).waitFor()
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).waitFor()
    await shots(page, 'email-link-fr')
    expect(errors).toEqual([])
    await page.close()
  })
})
