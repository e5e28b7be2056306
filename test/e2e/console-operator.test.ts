/**
 * The way in that `npm start` gives (and `mailOperatorSignIn` for the CLI): the operator's account
 * gets a one-time sign-in link by e-mail (the local mailbox here); opened, it signs in to the console
 * in the team it was made admin of, and the link's value leaves the address bar. Used again, it
 * is refused.
 */
import { afterAll, expect } from 'vitest'
import { until } from '../host/support.js'
import { mailOperatorSignIn } from '../../host/server/people/operator.js'
import { SAFETY_NET, type Stack, startStack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterAll(() => stack?.close())

test('the operator signs in with the link the mailbox holds, once', async () => {
  const team = await stack.host.createTeam({ name: 'Demo', plan: 'enterprise' })
  await stack.host.db.transaction((tx) => mailOperatorSignIn(tx, { email: 'admin@demo.localhost', name: 'Demo admin', teamId: team.id, role: 'ADMIN' }))
  let text = ''
  await until(async () => {
    await stack.host.queue.drain()
    const [row] = await stack.host.db.query<{ text: string }>(`select text from mails where to_address = 'admin@demo.localhost' and template = 'account-signin'`)
    text = row?.text ?? ''
    return text !== ''
  }, SAFETY_NET)
  const link = /http\S+\/console\/link\/signin#[\w.-]+/.exec(text)?.[0]
  expect(link).toBeDefined()

  const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(link!)
  await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor()
  expect(page.url()).not.toContain('#')
  // Straight into the team it was made admin of (not the instance's default team).
  await expect.poll(() => page.locator('.console-team-name').textContent()).toBe('Demo')

  const again = await stack.browser.newPage()
  await again.goto(link!)
  await expect.poll(() => again.getByRole('alert').textContent()).toMatch(/not valid|no longer/i)
  await page.close()
  await again.close()
})
