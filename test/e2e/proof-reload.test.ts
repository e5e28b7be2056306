// A signer is never locked out by reloading: in Chromium at desktop and phone width, a code sent
// shows its wait before another; a reload before typing it shows the code box again (no second
// mail); the access check passed once holds across a reload and in a second tab; another device
// asking at once is told the wait in words. axe-core on the code step with its wait.
import { afterAll, describe, expect } from 'vitest'
import { axeReport, axeViolations } from './support/axe.js'
import { startInbox, type Inbox } from './support/inbox.js'
import { DESKTOP, openPage, PHONE, sendDocument, sig, signShot } from './support/sign.js'
import { SAFETY_NET, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

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

const codesTo = (email: string) => inbox.to(email).filter((m) => /code/i.test(m.subject ?? ''))

describe('a signer who reloads keeps her proof', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const size = viewport === PHONE ? 'phone' : 'desktop'
    test(`code, reload, second tab, another device (${size})`, async () => {
      const email = `rita-${size}@example.com`
      const doc = await sendDocument(stack, {
        title: `Lease ${size}`,
        recipients: [{ email, name: 'Rita Reload', role: 'SIGNER', fields: [sig(10, 80)], accessAuth: ['TWO_FACTOR_AUTH'] } as never],
      })
      const url = doc.recipient(email).signingUrl
      const { page, context, errors } = await openPage(stack, url, viewport)
      const gate = page.getByTestId('auth-gate')
      const resend = page.getByTestId('auth-send-code')
      await resend.click()
      await expect.poll(() => codesTo(email).length, { timeout: SAFETY_NET }).toBe(1)
      // The wait before another code is shown, counting down; the button takes no click meanwhile.
      await expect.poll(() => resend.textContent()).toMatch(/^Send a new code \(\d+ s\)$/)
      expect(await resend.isDisabled()).toBe(true)
      expect(axeReport('the code step with its wait', await axeViolations(page))).toBe('')
      await signShot(page, `proof-code-wait-${size}`)

      // A reload before the code is typed: the box is there again, the wait too, and no mail went.
      await page.reload()
      await gate.waitFor()
      await page.getByTestId('auth-code-input').waitFor()
      expect(await resend.isDisabled()).toBe(true)
      const code = /\b(\d{6})\b/.exec(codesTo(email)[0]!.text ?? '')![1]!
      await page.getByTestId('auth-code-input').fill(code)
      await page.getByTestId('auth-confirm').click()
      await page.getByTestId('sign-document').waitFor()

      // The proof holds: a reload and a second tab open the document without asking again.
      await page.reload()
      await page.getByTestId('sign-document').waitFor()
      expect(await gate.count()).toBe(0)
      const second = await context.newPage()
      await second.goto(url)
      await second.getByTestId('sign-document').waitFor()
      expect(await second.getByTestId('auth-gate').count()).toBe(0)
      await signShot(second, `proof-second-tab-${size}`)
      expect(codesTo(email)).toHaveLength(1)
      expect(errors).toEqual([])
      await context.close()

      // Another device (nothing kept there) asking at once is told the wait in words, and may type
      // the code already sent.
      const other = await openPage(stack, url, viewport)
      await other.page.getByTestId('auth-send-code').click()
      const alert = other.page.getByTestId('auth-gate').getByRole('alert')
      await expect.poll(() => alert.textContent()).toMatch(/^A code was just sent\. You can ask for a new one in \d+ seconds\.$/)
      await other.page.getByTestId('auth-code-input').waitFor()
      expect(await other.page.getByTestId('auth-send-code').isDisabled()).toBe(true)
      await signShot(other.page, `proof-other-device-wait-${size}`)
      expect(other.errors).toEqual([])
      await other.context.close()
    })
  }
})
