// Verified signers in Chromium: a code by e-mail through a real SMTP server before the document
// is shown and the account password when signing (desktop and phone); an embedded signer, in a
// browser that blocks third-party cookies, who signs in with their account and its authenticator
// app, and confirms with a fresh authenticator code; passkeys with Chromium's virtual
// authenticator, on a recipient's page and on a direct link. Screenshots of every step.
import { join } from 'node:path'
import { Secret, TOTP } from 'otpauth'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { newTotpSecret } from '../../host/server/people/totp.js'
import { chromiumLaunchOptions } from '../support/chromium.js'
import { makeUser, TEST_PASSWORD } from '../support/console-client.js'
import { makePdf, until } from '../host/support.js'
import { pdfText } from '../support/pdf-signature.js'
import { axeReport, axeViolations } from './support/axe.js'
import { apiBytes, DESKTOP, openPage, PHONE, sendDocument, sig, signing, signShot } from './support/sign.js'
import { startInbox, type Inbox } from './support/inbox.js'
import { callback, mount, mountDeployed, SAFETY_NET, SCREENSHOTS, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'
import { pdfFile } from './support/pdf.js'
import { editor } from './support/ui.js'

let inbox: Inbox
let stack: Stack

test.beforeAll(async ({ browser }) => {
  inbox = await startInbox()
  stack = await startStack(browser, { host: { smtpUrl: inbox.url, queuePollMs: 50 } })
})
afterAll(async () => {
  await stack?.close()
  await inbox?.close()
})

/** Draws a signature on the page's one field and completes, up to the dialog that asks for the recipient's proof. */
async function signUpToConfirm(page: Page) {
  const s = signing(page)
  await s.ready()
  await (await s.drawSignature()).adopt()
  await s.complete()
  const confirm = page.getByTestId('auth-action')
  await confirm.waitFor()
  return { s, confirm }
}

const codesTo = (email: string) => inbox.to(email).filter((m) => /code/i.test(m.subject ?? ''))

/** Makes the account of `email` in `box`: the choice to make one, the code e-mailed to it, a name when given, the password. */
async function makeAccountIn(page: Page, box: Locator, email: string, o: { name?: string; shot?: string } = {}) {
  await box.getByTestId('auth-toggle-account').click()
  await box.getByTestId('auth-send-code').click()
  await expect.poll(() => codesTo(email).length, { timeout: SAFETY_NET }).toBe(1)
  await box.getByTestId('auth-code-input').fill(/\b(\d{6})\b/.exec(codesTo(email)[0]!.text ?? '')![1]!)
  await box.getByTestId('auth-confirm').click()
  if (o.name) await box.getByLabel('Your name').fill(o.name)
  await box.getByTestId('auth-password').fill(TEST_PASSWORD)
  if (o.shot) await signShot(page, o.shot)
  await box.getByTestId('auth-sign-in').click()
}

/** The audit log of an envelope, as the API answers it. */
async function auditOf(envelopeId: string): Promise<{ type: string; data: any }[]> {
  return (await stack.api<any>('GET', `/envelope/${envelopeId}/audit-log?perPage=100`)).data
}

describe('verified signers', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const size = viewport === PHONE ? 'phone' : 'desktop'
    test(`a code by e-mail opens the document; the account password signs it (${size})`, async () => {
      const email = `vera-${size}@example.com`
      await makeUser(stack.host.db, email)
      const doc = await sendDocument(stack, {
        title: `Rental agreement ${size}`,
        recipients: [{ email, name: 'Vera Verified', role: 'SIGNER', fields: [sig(10, 80)], accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: ['PASSWORD'] } as never],
      })
      const { page, context, errors } = await openPage(stack, doc.recipient(email).signingUrl, viewport)
      const gate = page.getByTestId('auth-gate')
      await gate.waitFor()
      expect(await gate.textContent()).toMatch(/v\*+@example\.com/)
      // Nothing of the document before the code.
      expect(await page.getByTestId('sign-document').count()).toBe(0)
      await signShot(page, `auth-code-${size}`)
      await page.getByTestId('auth-send-code').click()
      await expect.poll(() => codesTo(email).length, { timeout: SAFETY_NET }).toBe(1)
      const mail = codesTo(email)[0]!
      expect(mail.subject).toBe('Your signing code')
      const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1]!
      await page.getByTestId('auth-code-input').fill(code === '000000' ? '111111' : '000000')
      await page.getByTestId('auth-confirm').click()
      await expect.poll(() => gate.getByRole('alert').textContent()).toContain('did not match')
      await signShot(page, `auth-code-wrong-${size}`)
      await page.getByTestId('auth-code-input').fill(code)
      await page.getByTestId('auth-confirm').click()

      const { s, confirm } = await signUpToConfirm(page)
      await confirm.getByTestId('auth-password').fill('not my password')
      await signShot(page, `auth-password-${size}`)
      await confirm.getByTestId('auth-confirm').click()
      // A wrong password is told inside the dialog that asked for it, which stays open for another try.
      await expect.poll(() => confirm.getByTestId('auth-error').textContent()).toContain('did not match')
      await expect.poll(() => confirm.getByTestId('auth-password').getAttribute('aria-invalid')).toBe('true')
      await signShot(page, `auth-password-wrong-${size}`)
      await confirm.getByTestId('auth-password').fill(TEST_PASSWORD)
      await confirm.getByTestId('auth-confirm').click()
      await expect.poll(() => s.heading().textContent()).toBe(`You signed “Rental agreement ${size}”`)
      expect(errors).toEqual([])
      await context.close()

      const entries = await auditOf(doc.id)
      expect(entries.find((e) => e.type === 'DOCUMENT_OPENED')?.data.accessAuth).toEqual(['TWO_FACTOR_AUTH'])
      expect(entries.find((e) => e.type === 'DOCUMENT_RECIPIENT_COMPLETED')?.data.actionAuth).toEqual(['PASSWORD'])
      // The certificate says how she was verified.
      let certificate!: Awaited<ReturnType<typeof apiBytes>>
      await until(async () => (certificate = await apiBytes(stack, `/envelope/${doc.id}/certificate/download`)).status === 200, SAFETY_NET)
      expect((await pdfText(new Uint8Array(certificate.bytes))).join(' ').replace(/\s+/g, ' ')).toContain('opened after one-time code; confirmed with account password')
    })
  }

  test('an embedded signer with third-party cookies blocked: account sign-in with an authenticator, a fresh code to sign', async () => {
    const email = 'ada@example.com'
    const user = await makeUser(stack.host.db, email)
    const secret = newTotpSecret()
    await stack.host.db.query('update users set totp_secret = $2, totp_enabled_at = now() where id = $1', [user.id, secret])
    const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) })
    const doc = await sendDocument(stack, {
      title: 'Board resolution',
      recipients: [{ email, name: 'Ada Account', role: 'SIGNER', fields: [sig(10, 80)], accessAuth: ['ACCOUNT'], actionAuth: ['TWO_FACTOR_AUTH'] } as never],
    })

    const blocking: Browser = await chromium.launch({ ...chromiumLaunchOptions, args: [...chromiumLaunchOptions.args, '--test-third-party-cookie-phaseout'] })
    try {
      const page = await blocking.newPage({ viewport: { width: 1280, height: 900 } })
      await page.goto(stack.parentUrl)
      await page.evaluate(
        ([host, token]) => window.mount('EmbedSignDocument', { host, token }),
        [stack.host.url, doc.recipient(email).token] as const,
      )
      const frame = page.frameLocator('iframe')
      const gate = frame.getByTestId('auth-gate')
      await gate.waitFor()
      // The frame (127.0.0.1 in a localhost page) cannot keep a cookie: the steps need none.
      const inner = page.frames().find((f) => f.url().startsWith(stack.host.url))!
      expect(await inner.evaluate(() => ((document.cookie = 'probe=1; SameSite=None'), document.cookie.includes('probe')))).toBe(false)

      await gate.getByTestId('auth-password').fill('not the password')
      await gate.getByTestId('auth-sign-in').click()
      await expect.poll(() => gate.getByRole('alert').textContent()).toContain('did not match')
      await gate.getByTestId('auth-password').fill(TEST_PASSWORD)
      await gate.getByLabel('Code from your authenticator app').fill(totp.generate())
      await page.screenshot({ path: join(SCREENSHOTS, 'auth-account-embed.png') })
      await gate.getByTestId('auth-sign-in').click()

      const s = signing(page, frame)
      await s.ready()
      await (await s.drawSignature()).adopt()
      await s.complete()
      const confirm = frame.getByTestId('auth-action')
      await confirm.waitFor()
      // The account has an authenticator (told once she signed in): its next code, without an e-mail.
      await expect.poll(() => confirm.textContent()).toContain('or one from your authenticator app')
      await confirm.getByTestId('auth-code-input').fill(totp.generate({ timestamp: Date.now() + 30_000 }))
      await page.screenshot({ path: join(SCREENSHOTS, 'auth-totp-embed.png') })
      await confirm.getByTestId('auth-confirm').click()
      await expect.poll(() => s.heading().textContent()).toBe('You signed “Board resolution”')
      expect(codesTo(email)).toEqual([])
      // The customer's page heard of each step and of the refusal.
      const heard = (await page.evaluate(() => window.events)).filter((e) => e.name.startsWith('onAuth')).map(({ name, arg }) => ({ name, arg }))
      expect(heard).toEqual([
        { name: 'onAuthRequired', arg: 'access' },
        { name: 'onAuthFailed', arg: 'AUTH_FAILED' },
        { name: 'onAuthRequired', arg: 'action' },
      ])
    } finally {
      await blocking.close()
    }
    const entries = await auditOf(doc.id)
    expect(entries.find((e) => e.type === 'DOCUMENT_OPENED')?.data.accessAuth).toEqual(['ACCOUNT'])
    expect(entries.find((e) => e.type === 'DOCUMENT_RECIPIENT_COMPLETED')?.data.actionAuth).toEqual(['TWO_FACTOR_AUTH'])
  })

  test('a recipient without an account makes one on the page, once a code e-mailed to the address proves it is theirs', async () => {
    const email = 'nova@example.com'
    const doc = await sendDocument(stack, {
      title: 'Membership',
      recipients: [{ email, name: 'Nova New', role: 'SIGNER', fields: [sig(10, 80)], accessAuth: ['ACCOUNT'] } as never],
    })
    const { page, context, errors } = await openPage(stack, doc.recipient(email).signingUrl, DESKTOP)
    const gate = page.getByTestId('auth-gate')
    await gate.waitFor()
    // Sign-in and a new account are both offered: the page knows nothing of the account yet.
    await makeAccountIn(page, gate, email, { name: 'Nova New', shot: 'auth-create-account-desktop' })
    await signing(page).ready()
    expect(errors).toEqual([])
    await context.close()
    const [user] = await stack.host.db.query<{ email_verified_at: Date | null; teams: number }>(
      'select email_verified_at, (select count(*)::int from team_members m where m.user_id = u.id) as teams from users u where email = $1',
      [email],
    )
    expect(user).toMatchObject({ email_verified_at: expect.anything(), teams: 0 })
  })

  test('a signer asked for a password without an account: rejects with no password asked, or makes the account in the password dialog and signs', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const size = viewport === PHONE ? 'phone' : 'desktop'
      const email = `newcomer-${size}@example.com`
      const send = (title: string) =>
        sendDocument(stack, { title, recipients: [{ email, name: 'Nia Newcomer', role: 'SIGNER', fields: [sig(10, 80)], actionAuth: ['PASSWORD'] } as never] })
      const declined = await send(`Declined ${size}`)
      const { page, context, errors } = await openPage(stack, declined.recipient(email).signingUrl, viewport)
      const s = signing(page)
      await s.ready()
      await s.rejectButton().click()
      await page.getByTestId('reject-dialog').getByRole('textbox').fill('I have no account there')
      await page.getByTestId('confirm-reject').click()
      await expect.poll(() => s.heading().textContent()).toBe(`You rejected “Declined ${size}”`)
      expect(await page.getByTestId('auth-action').count()).toBe(0)

      const doc = await send(`Welcome pack ${size}`)
      await page.goto(doc.recipient(email).signingUrl)
      await s.ready()
      await (await s.drawSignature()).adopt()
      await s.complete()
      const confirm = page.getByTestId('auth-action')
      await confirm.waitFor()
      await confirm.getByTestId('auth-toggle-account').click()
      // Before the address is proven the words speak of the code we e-mail, of no authenticator app.
      expect(await confirm.textContent()).not.toMatch(/authenticator/i)
      await confirm.getByTestId('auth-send-code').click()
      await expect.poll(() => codesTo(email).length, { timeout: SAFETY_NET }).toBe(1)
      const code = /\b(\d{6})\b/.exec(codesTo(email).at(-1)!.text ?? '')![1]!
      expect(await confirm.textContent()).not.toMatch(/authenticator/i)
      await confirm.getByTestId('auth-code-input').fill(code === '000000' ? '111111' : '000000')
      await confirm.getByTestId('auth-confirm').click()
      await confirm.getByTestId('auth-password').fill(TEST_PASSWORD)
      await confirm.getByTestId('auth-sign-in').click()
      // A wrong code: told in the dialog, which stays open at the code.
      await expect.poll(() => confirm.getByRole('alert').textContent()).toContain('did not match')
      await signShot(page, `auth-account-code-wrong-${size}`)
      await confirm.getByTestId('auth-code-input').fill(code)
      await confirm.getByTestId('auth-confirm').click()
      await confirm.getByTestId('auth-password').fill(TEST_PASSWORD)
      await signShot(page, `auth-account-in-password-dialog-${size}`)
      await confirm.getByTestId('auth-sign-in').click()
      await expect.poll(() => s.heading().textContent()).toBe(`You signed “Welcome pack ${size}”`)
      expect(errors).toEqual([])
      await context.close()
      expect((await auditOf(declined.id)).find((e) => e.type === 'DOCUMENT_RECIPIENT_REJECTED')?.data.actionAuth).toEqual([])
      expect((await auditOf(doc.id)).find((e) => e.type === 'DOCUMENT_RECIPIENT_COMPLETED')?.data.actionAuth).toEqual(['PASSWORD'])
    }
  })

  /** A page whose browser has Chromium's virtual authenticator (WebAuthn needs a domain: the host by name). */
  async function passkeyPage(viewport = DESKTOP): Promise<{ page: Page; context: BrowserContext }> {
    const context = await stack.browser.newContext({ viewport, locale: 'en-US' })
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    })
    return { page, context }
  }

  /** Sends `title` to `email`, asked for a passkey, and signs on `page` up to the dialog that asks for it. */
  async function signWithPasskey(page: Page, title: string, email: string, name: string) {
    const doc = await sendDocument(stack, { title, recipients: [{ email, name, role: 'SIGNER', fields: [sig(10, 80)], actionAuth: ['PASSKEY'] } as never] })
    await page.goto(doc.recipient(email).signingUrl.replace('127.0.0.1', 'localhost'))
    return { doc, ...(await signUpToConfirm(page)) }
  }

  test('a passkey of the recipient\'s account confirms the signature (Chromium\'s virtual authenticator)', async () => {
    const email = 'pia@example.com'
    await makeUser(stack.host.db, email)
    const base = stack.host.url.replace('127.0.0.1', 'localhost')
    const { page, context } = await passkeyPage()
    // Pia registers a passkey in her account, as she would in the console.
    await page.goto(`${base}/console`)
    await page.getByLabel('E-mail address').fill(email)
    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor()
    await page.getByRole('link', { name: 'Account' }).click()
    await page.getByRole('heading', { name: 'Your account' }).waitFor()
    await page.getByLabel(/Name of the new passkey/).fill('Phone')
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await page.getByText('Phone', { exact: true }).waitFor()

    const { doc, s, confirm } = await signWithPasskey(page, 'Passkey contract', email, 'Pia Passkey')
    await signShot(page, 'auth-passkey-desktop')
    await confirm.getByTestId('auth-passkey').click()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Passkey contract”')
    await context.close()
    expect((await auditOf(doc.id)).find((e) => e.type === 'DOCUMENT_RECIPIENT_COMPLETED')?.data.actionAuth).toEqual(['PASSKEY'])
  })

  /** A template with a direct link whose recipient is asked for `auth`; its signing page's URL. */
  async function directLink(title: string, auth: { accessAuth?: string[]; actionAuth?: string[] }): Promise<string> {
    const form = new FormData()
    form.append('payload', JSON.stringify({ type: 'TEMPLATE', title, recipients: [{ email: 'placeholder@example.com', name: 'Member', role: 'SIGNER', ...auth, fields: [sig(10, 80)] }] }))
    form.append('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'waiver.pdf')
    const { id } = await stack.api<{ id: string }>('POST', '/envelope/create', form)
    const t = await stack.api('GET', `/envelope/${id}`)
    const link = await stack.api('POST', '/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: t.recipients[0].id })
    return `${stack.host.url}/d/${link.token}`
  }

  /** Signs the direct link's document as `name` <`email`>, up to the dialog that asks for the recipient's proofs. */
  async function signDirect(page: Page, name: string, email: string) {
    const s = signing(page)
    await s.ready()
    await (await s.drawSignature()).adopt()
    await s.action('Complete signing').click()
    const dialog = page.getByRole('dialog', { name: 'Sign the document?' })
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name)
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(email)
    await dialog.getByRole('button', { name: 'Complete signing', exact: true }).click()
    const confirm = page.getByTestId('auth-action')
    await confirm.waitFor()
    return { s, confirm }
  }

  test('a recipient asked for a passkey who has no account makes one, adds a passkey of this device, and signs with it', async () => {
    const email = 'quinn@example.com'
    const { page, context } = await passkeyPage()
    const { doc, s, confirm } = await signWithPasskey(page, 'Passkey newcomer', email, 'Quinn New')
    await confirm.getByTestId('auth-passkey-none').click()
    await makeAccountIn(page, confirm, email)
    await confirm.getByTestId('auth-passkey-add').waitFor()
    await signShot(page, 'auth-passkey-add')
    await confirm.getByTestId('auth-passkey-add').click()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Passkey newcomer”')
    await context.close()
    expect((await auditOf(doc.id)).find((e) => e.type === 'DOCUMENT_RECIPIENT_COMPLETED')?.data.actionAuth).toEqual(['PASSKEY'])
    const keys = await stack.host.db.query<{ name: string }>('select p.name from passkeys p join users u on u.id = p.user_id where u.email = $1', [email])
    expect(keys.map((k) => k.name)).toEqual(['Added when signing'])
  })

  test('a direct link with a code: the visitor proves the address they type before the document is made (phone)', async () => {
    const email = 'dora@example.com'
    const { page, context, errors } = await openPage(stack, await directLink('Club waiver', { accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: ['TWO_FACTOR_AUTH'] }), PHONE)
    const { s, confirm } = await signDirect(page, 'Dora Direct', email)
    await confirm.waitFor()
    await confirm.getByTestId('auth-send-code').click()
    await expect.poll(() => codesTo(email).length, { timeout: SAFETY_NET }).toBe(1)
    const code = /\b(\d{6})\b/.exec(codesTo(email)[0]!.text ?? '')![1]!
    await confirm.getByTestId('auth-code-input').fill(code)
    await signShot(page, 'auth-direct-phone')
    await confirm.getByTestId('auth-confirm').click()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Club waiver”')
    expect(errors).toEqual([])
    await context.close()
    const docs = await stack.api('GET', '/envelope?perPage=100')
    const made = docs.data.find((d: any) => d.source === 'TEMPLATE_DIRECT_LINK' && d.recipients.some((r: any) => r.email === email))
    const entries = await auditOf(made.id)
    expect(entries.find((e) => e.type === 'DOCUMENT_OPENED')?.data.accessAuth).toEqual(['TWO_FACTOR_AUTH'])
    expect(entries.find((e) => e.type === 'DOCUMENT_RECIPIENT_COMPLETED')?.data.actionAuth).toEqual(['TWO_FACTOR_AUTH'])
  })

  test('a direct link asking for an account password: a visitor with no account makes one with an e-mailed code, and signs', async () => {
    const email = 'newcomer@example.com'
    const { page, context, errors } = await openPage(stack, await directLink('Gym contract', { actionAuth: ['PASSWORD'] }), DESKTOP)
    const { s, confirm } = await signDirect(page, 'Nia Newcomer', email)
    await makeAccountIn(page, confirm, email, { shot: 'auth-direct-new-account' })
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Gym contract”')
    expect(errors).toEqual([])
    await context.close()
    // The account is the visitor's, proven by the code: it signs in with the password chosen.
    const users = await stack.host.db.query<{ email_verified_at: Date | null }>('select email_verified_at from users where email = $1', [email])
    expect(users.length).toBe(1)
    expect(users[0]!.email_verified_at).not.toBeNull()
    const docs = await stack.api('GET', '/envelope?perPage=100')
    const made = docs.data.find((d: any) => d.source === 'TEMPLATE_DIRECT_LINK' && d.recipients.some((r: any) => r.email === email))
    expect((await auditOf(made.id)).find((e) => e.type === 'DOCUMENT_RECIPIENT_COMPLETED')?.data.actionAuth).toEqual(['PASSWORD'])
  })

  for (const viewport of [DESKTOP, PHONE]) {
    const size = viewport === PHONE ? 'phone' : 'desktop'
    test(`a direct link asking for a passkey: a visitor with no account makes one, adds a passkey of this device and signs; another visitor cannot sign with it (${size})`, async () => {
      const email = `pax-${size}@example.com`
      const title = `Passkey waiver ${size}`
      const url = (await directLink(title, { actionAuth: ['PASSKEY'] })).replace('127.0.0.1', 'localhost')
      const { page, context } = await passkeyPage(viewport)
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      const accessible = async (state: string) => expect(axeReport(state, await axeViolations(page))).toBe('')
      await page.goto(url)
      const { s, confirm } = await signDirect(page, 'Pax Visitor', email)
      await expect.poll(() => confirm.textContent()).toContain(`Confirm with a passkey of the account of ${email}.`)
      await signShot(page, `auth-direct-passkey-${size}`)
      await accessible('passkey step')

      // No passkey here and no account: the account is made with a code e-mailed to the address.
      await confirm.getByTestId('auth-passkey-none').click()
      await makeAccountIn(page, confirm, email, { name: 'Pax Visitor', shot: `auth-direct-passkey-account-${size}` })
      await confirm.getByTestId('auth-passkey-add').waitFor()
      expect(await confirm.textContent()).toContain(`Signed in as ${email}.`)
      await signShot(page, `auth-direct-passkey-add-${size}`)
      await accessible('adding a passkey')
      await confirm.getByTestId('auth-passkey-add').click()
      await expect.poll(() => s.heading().textContent()).toBe(`You signed “${title}”`)

      const docs = await stack.api('GET', '/envelope?perPage=100')
      const made = docs.data.find((d: any) => d.source === 'TEMPLATE_DIRECT_LINK' && d.recipients.some((r: any) => r.email === email))
      expect(made.status).toBe('COMPLETED')
      expect((await auditOf(made.id)).find((e) => e.type === 'DOCUMENT_RECIPIENT_COMPLETED')?.data.actionAuth).toEqual(['PASSKEY'])
      const keys = await stack.host.db.query<{ name: string }>('select p.name from passkeys p join users u on u.id = p.user_id where u.email = $1', [email])
      expect(keys.map((k) => k.name)).toEqual(['Added when signing'])

      // On the same device, someone else typing their own address: the passkey here is not of their account.
      const other = `other-${size}@example.com`
      await makeUser(stack.host.db, other)
      await page.goto(url)
      const again = await signDirect(page, 'Otto Other', other)
      await again.confirm.getByTestId('auth-passkey').click()
      await expect.poll(() => again.confirm.getByTestId('auth-error').textContent()).toBe(`This passkey is not one of the account of ${other}. Use a passkey of that account, or add one of this device.`)
      await signShot(page, `auth-direct-passkey-refused-${size}`)
      await accessible('a passkey of another account')
      expect(errors).toEqual([])
      await context.close()
      const after = await stack.api('GET', '/envelope?perPage=100')
      expect(after.data.some((d: any) => d.recipients.some((r: any) => r.email === other))).toBe(false)
    })
  }

  test('the authoring page lets the sender choose how each recipient is verified, when the embed allows it', async () => {
    const token = await stack.presign()
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', {
      presignToken: token,
      type: 'TEMPLATE',
      features: { recipients: { allowConfigureAuthOptions: true } },
      style: { height: '860px' },
    })
    const ui = editor(page, frame)
    await callback(page, 'onReady')
    await ui.addFiles([await pdfFile('Lease.pdf', 1)])
    await frame.getByRole('button', { name: 'Continue' }).click()
    await frame.locator('#envelope-action').selectOption('PASSWORD')
    await ui.addRecipient('Tina Tenant', 'tina@example.com')
    const row = frame.getByTestId('recipient-row').last()
    await row.getByLabel('Before opening').selectOption('TWO_FACTOR_AUTH')
    await row.getByLabel('When signing').selectOption('PASSKEY')
    // What a method asks of someone without an account is said next to it, before anything is sent.
    expect(await frame.locator('#envelope-action').getAttribute('aria-describedby')).toBeTruthy()
    expect(await frame.getByTestId('auth-hint').first().textContent()).toContain('Someone without an account makes one on the signing page')
    expect(await row.getByTestId('auth-hint').textContent()).toContain('anyone can still reject')
    await ui.addRecipient('Carl Copy', 'carl@example.com', 'CC')
    // A copy's recipient signs nothing: only the access check is offered.
    expect(await frame.getByTestId('recipient-row').last().getByLabel('When signing').count()).toBe(0)
    await page.screenshot({ path: join(SCREENSHOTS, 'auth-authoring-recipients.png') })
    await frame.getByRole('button', { name: 'Continue' }).click()
    await frame.getByRole('button', { name: 'Continue' }).click()
    await frame.getByRole('button', { name: 'Create template' }).first().click()
    const created = await callback(page, 'onEnvelopeCreated')
    const env = await stack.api('GET', `/envelope/${created.envelopeId}`)
    expect(env.authOptions).toEqual({ globalAccessAuth: [], globalActionAuth: ['PASSWORD'] })
    expect(env.recipients.map((r: any) => [r.email, r.authOptions])).toEqual([
      ['tina@example.com', { accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: ['PASSKEY'] }],
      ['carl@example.com', { accessAuth: [], actionAuth: [] }],
    ])
    await page.close()

    // Without the toggle the choice is not shown.
    const plain = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'TEMPLATE', style: { height: '860px' } })
    await callback(plain.page, 'onReady')
    await editor(plain.page, plain.frame).addFiles([await pdfFile('Plain.pdf', 1)])
    await plain.frame.getByRole('button', { name: 'Continue' }).click()
    await editor(plain.page, plain.frame).addRecipient('Pat', 'pat@example.com')
    expect(await plain.frame.getByLabel('Before opening').count()).toBe(0)
    await plain.page.close()
  })

  test('multi-sign: a document behind a code is listed without its title, opened through its gate, then signed', async () => {
    const email = 'multi@example.com'
    const plain = await sendDocument(stack, { title: 'Plain note', recipients: [{ email, name: 'Mia Multi', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const guarded = await sendDocument(stack, {
      title: 'Secret annex',
      recipients: [{ email, name: 'Mia Multi', role: 'SIGNER', fields: [sig(10, 80)], accessAuth: ['TWO_FACTOR_AUTH'] } as never],
    })
    const tokens = [plain.recipient(email).token, guarded.recipient(email).token]
    const { page, frame } = await mountDeployed(stack, 'unstable_EmbedMultiSignDocument', { tokens, name: 'Mia Multi' })
    const list = frame.getByTestId('multi-list')
    await list.waitFor()
    const items = list.getByRole('listitem')
    expect(await items.nth(0).textContent()).toContain('Plain note')
    expect(await items.nth(1).textContent()).not.toContain('Secret annex')
    expect(await items.nth(1).getAttribute('data-state')).toBe('AUTH_REQUIRED')
    await page.screenshot({ path: join(SCREENSHOTS, 'auth-multisign-list.png') })

    await items.nth(1).getByRole('button').click()
    const gate = frame.getByTestId('auth-gate')
    await gate.waitFor()
    await gate.getByTestId('auth-send-code').click()
    await expect.poll(() => codesTo(email).length, { timeout: SAFETY_NET }).toBe(1)
    await gate.getByTestId('auth-code-input').fill(/\b(\d{6})\b/.exec(codesTo(email)[0]!.text ?? '')![1]!)
    await gate.getByTestId('auth-confirm').click()
    const s = signing(page, frame)
    await s.ready()
    await (await s.drawSignature()).adopt()
    await s.complete()
    await expect.poll(() => s.heading().textContent()).toBe('You signed “Secret annex”')
    await frame.getByTestId('multi-back').click()
    // Back in the list, the document is shown by its title now that the check was passed.
    await expect.poll(() => items.nth(1).getAttribute('data-state')).toBe('document-completed')
    expect(await items.nth(1).textContent()).toContain('Secret annex')
    await page.close()
  })
})
