/**
 * Every screen of the console, signed in and signed out, at 1280 and 390 px, on a team with real
 * data (documents in every status, a template with a direct link, members and a pending
 * invitation, API tokens, a webhook with deliveries, activity): axe-core finds no serious or
 * critical WCAG 2.2 A/AA violation, nothing scrolls sideways, the page logs no error, and on a
 * phone every control the keyboard reaches is in sight with its focus ring. Each screen's open
 * states (dialogs, the editor, forms opened, a refused sign-in, the second-factor step) are
 * checked the same way; then the dark theme, a member's view, and other languages on a phone
 * (Hebrew right to left). The screens come from the console's own route tables: a route added
 * without a visit here fails the test.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, describe } from 'vitest'
import { TEST_PASSWORD } from '../support/console-client.js'
import { until } from '../host/support.js'
import { declaredPatterns, seedConsoleTeam, type ConsoleTeam } from './support/console-team.js'
import { makePdf } from './support/pdf.js'
import { BOTH_WIDTHS, REFUSED, sweep, type Visit } from './support/screen-checks.js'
import { SAFETY_NET, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

/** A sweep loads some thirty screens and runs axe on each, beside the others: minutes on a busy machine. */
const SWEEP_TIMEOUT = 600_000

const hits: string[] = []
const receiver = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    hits.push(req.url ?? '')
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
  })
})

let stack: Stack
let team: ConsoleTeam

test.beforeAll(async ({ browser }) => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  stack = await startStack(browser, { host: { signup: 'open', webhookAllowPrivateUrls: true, queuePollMs: 100 } })
  team = await seedConsoleTeam(stack, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/envelope-events`)
  await until(() => hits.length >= 5)
}, SWEEP_TIMEOUT)
afterAll(async () => {
  await stack?.close()
  receiver.close()
})

/**
 * Waits until `ok` holds, else fails saying what never came. The sweeps run side by side, where
 * only a test's own `expect` knows its test: the screens' waits, shared by all, use none.
 */
const waitUntil = (what: string, ok: () => Promise<boolean>) =>
  until(ok, SAFETY_NET).catch(() => {
    throw new Error(`never ${what}`)
  })
const noLoading = (page: Page) => waitUntil('done loading', async () => (await page.getByText('Loading…').count()) === 0)
const heading = (name: string | RegExp) => async (page: Page) => {
  await page.getByRole('heading', { level: 1, name }).waitFor()
  await noLoading(page)
}

/** The signed-out screens: the sign-in form, and the routes open without a session. */
const signedOut = (): Visit[] => [
  {
    name: 'sign-in',
    pattern: null,
    path: '/console',
    ready: heading('Sign in'),
    states: [
      {
        name: 'sign-in-refused',
        allow: REFUSED,
        open: async (page) => {
          await page.getByLabel('E-mail address').fill('ada@example.com')
          await page.getByLabel('Password').fill('not the password')
          await page.getByRole('button', { name: 'Sign in', exact: true }).click()
          await page.getByRole('alert').waitFor()
        },
      },
    ],
  },
  { name: 'sign-up', pattern: '/console/sign-up', path: '/console/sign-up', ready: heading('Create an account') },
  { name: 'reset', pattern: '/console/reset', path: '/console/reset', ready: heading('Reset your password') },
  { name: 'sign-in-link', pattern: '/console/sign-in/link', path: '/console/sign-in/link', ready: (page) => heading(/.+/)(page) },
  { name: 'link-reset', pattern: '/console/link/:purpose', path: '/console/link/reset#not-a-real-link', ready: heading('Choose a new password') },
  { name: 'link-verify', pattern: '/console/link/:purpose', path: '/console/link/verify#not-a-real-link', ready: heading('Confirming your address') },
  { name: 'link-failed', pattern: '/console/link/:purpose', path: '/console/link/signin#not-a-real-link', ready: heading('This link did not work'), allow: REFUSED },
  { name: 'invitation', pattern: '/console/invitation', path: new URL(team.invitationLink).pathname + new URL(team.invitationLink).hash, ready: heading('Join E2E') },
  // Last: from here on the browser holds a session waiting for its second factor.
  {
    name: 'second-factor',
    pattern: null,
    path: '/console',
    ready: async (page) => {
      await page.locator('#sign-in-title, #second-factor-title').first().waitFor()
      if (await page.locator('#sign-in-title').count()) {
        await page.getByLabel('E-mail address').fill('tess@example.com')
        await page.getByLabel('Password').fill(TEST_PASSWORD)
        await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      }
      await heading('Two-factor authentication')(page)
    },
    states: [
      {
        name: 'second-factor-refused',
        allow: REFUSED,
        open: async (page) => {
          // A code that is not the one of this moment, nor of the moments beside it.
          const near = [-30_000, 0, 30_000].map((d) => team.totpAt(Date.now() + d))
          const wrong = ['111111', '222222', '333333', '444444'].find((c) => !near.includes(c))!
          await page.getByLabel('Code', { exact: true }).fill(wrong)
          await page.getByRole('button', { name: 'Continue' }).click()
          await page.getByRole('alert').waitFor()
        },
      },
      {
        name: 'second-factor-recovery',
        open: async (page) => {
          await page.getByRole('button', { name: 'Use a recovery code' }).click()
          await page.getByLabel('Recovery code').waitFor()
        },
      },
    ],
  },
]

/** The signed-in screens, for an ADMIN of the team with the data. */
const signedIn = (): Visit[] => [
  {
    name: 'documents',
    pattern: '/console/documents',
    path: '/console/documents',
    ready: async (page) => {
      await heading('Documents')(page)
      await page.getByRole('link', { name: 'Purchase agreement' }).waitFor()
    },
    states: [
      {
        name: 'documents-new-file-chosen',
        open: async (page) => {
          await page.getByRole('button', { name: 'New document' }).first().click()
          const form = page.locator('#docs-new')
          await form.locator('input[type=file]').setInputFiles({ name: 'Employment contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makePdf('Employment contract', 1)) })
          await form.getByRole('list', { name: 'Files' }).getByText('Employment contract.pdf').first().waitFor()
        },
      },
      {
        name: 'documents-new-refused',
        open: async (page) => {
          await page.getByRole('button', { name: 'New document' }).first().click()
          await page.getByRole('button', { name: 'Create and open the editor' }).click()
          await page.getByText('Choose at least one PDF file.').waitFor()
        },
      },
      {
        name: 'documents-nothing-found',
        open: async (page) => {
          await page.getByLabel('Search', { exact: true }).fill('no such document')
          await page.getByRole('button', { name: 'Search' }).click()
          await page.getByText('Nothing matches this search.').waitFor()
        },
      },
    ],
  },
  {
    name: 'document-draft',
    pattern: '/console/documents/:id',
    path: `/console/documents/${team.ids.draft}`,
    ready: heading('Offer letter'),
    states: [
      {
        name: 'document-draft-delete-dialog',
        open: async (page) => {
          await page.getByRole('button', { name: 'Delete', exact: true }).first().click()
          await page.getByRole('dialog').waitFor()
        },
      },
      {
        name: 'document-draft-send-review',
        open: async (page) => {
          await page.getByRole('button', { name: 'Send for signing' }).click()
          await page.getByRole('dialog').getByText('Hello Linus Torvalds,').waitFor()
        },
      },
      {
        name: 'document-draft-editor',
        open: async (page) => {
          await page.getByRole('button', { name: 'Open in the editor' }).click()
          await page.frameLocator('iframe[title="Editor"]').getByText('Offer letter').first().waitFor()
        },
      },
    ],
  },
  {
    name: 'document-pending',
    pattern: '/console/documents/:id',
    path: `/console/documents/${team.ids.pending}`,
    ready: heading('Lease 4B, second floor'),
    states: [
      {
        name: 'document-pending-cancel-dialog',
        open: async (page) => {
          await page.getByRole('button', { name: 'Cancel', exact: true }).first().click()
          await page.getByRole('dialog').waitFor()
        },
      },
      {
        name: 'document-pending-correcting',
        open: async (page) => {
          await page.getByRole('button', { name: 'Correct name or e-mail' }).first().click()
          await page.getByRole('button', { name: 'Correct name or e-mail', expanded: true }).waitFor()
        },
      },
    ],
  },
  {
    name: 'document-completed',
    pattern: '/console/documents/:id',
    path: `/console/documents/${team.ids.completed}`,
    ready: heading('Purchase agreement'),
    states: [
      {
        name: 'document-completed-page-dialog',
        open: async (page) => {
          await page.getByRole('button', { name: /^Page 1 of \d+ of .*: show larger$/ }).first().click()
          await page.getByRole('dialog', { name: /page 1 of/ }).waitFor()
        },
      },
    ],
  },
  { name: 'document-rejected', pattern: '/console/documents/:id', path: `/console/documents/${team.ids.rejected}`, ready: heading('Supplier contract') },
  { name: 'document-cancelled', pattern: '/console/documents/:id', path: `/console/documents/${team.ids.cancelled}`, ready: heading('Old office lease') },
  {
    name: 'templates',
    pattern: '/console/templates',
    path: '/console/templates',
    ready: async (page) => {
      await heading('Templates')(page)
      await page.getByRole('link', { name: 'Non-disclosure agreement' }).waitFor()
    },
  },
  {
    name: 'template',
    pattern: '/console/templates/:id',
    path: `/console/templates/${team.ids.template}`,
    ready: async (page) => {
      await heading('Non-disclosure agreement')(page)
      await page.getByTestId('direct-link').waitFor()
    },
  },
  { name: 'settings-general', pattern: '/console/settings', path: '/console/settings', ready: heading('General') },
  {
    name: 'settings-members',
    pattern: '/console/settings/members',
    path: '/console/settings/members',
    ready: async (page) => {
      await heading('Members')(page)
      await page.getByText('noah@example.com').first().waitFor()
    },
    states: [
      {
        name: 'settings-members-remove-dialog',
        open: async (page) => {
          await page.getByRole('button', { name: 'Remove mia@example.com' }).click()
          await page.getByRole('dialog').waitFor()
        },
      },
      {
        name: 'settings-members-role-dialog',
        open: async (page) => {
          await page.getByRole('combobox', { name: /mia@example\.com/ }).selectOption('MANAGER')
          await page.getByRole('dialog').waitFor()
        },
      },
    ],
  },
  {
    name: 'settings-tokens',
    pattern: '/console/settings/tokens',
    path: '/console/settings/tokens',
    ready: async (page) => {
      await heading('API tokens')(page)
      await page.getByText('Billing server').first().waitFor()
    },
    states: [
      {
        name: 'settings-tokens-revoke-dialog',
        open: async (page) => {
          await page.getByRole('button', { name: 'Revoke Billing server', exact: true }).first().click()
          await page.getByRole('dialog').waitFor()
        },
      },
      {
        name: 'settings-tokens-created',
        open: async (page) => {
          await page.getByLabel('Name').fill('Reporting')
          await page.getByRole('button', { name: 'Create token' }).click()
          await page.getByTestId('new-token').waitFor()
        },
      },
    ],
  },
  {
    name: 'settings-webhooks',
    pattern: '/console/settings/webhooks',
    path: '/console/settings/webhooks',
    ready: async (page) => {
      await heading('Webhooks')(page)
      await page.getByText(/\/envelope-events$/).first().waitFor()
    },
    states: [
      {
        name: 'settings-webhooks-delete-dialog',
        open: async (page) => {
          await page.getByRole('button', { name: 'Delete', exact: true }).first().click()
          await page.getByRole('dialog').waitFor()
        },
      },
      {
        name: 'settings-webhooks-editing',
        open: async (page) => {
          await page.getByRole('button', { name: 'Edit', exact: true }).click()
          await page.getByRole('form', { name: /^Edit the webhook to / }).waitFor()
        },
      },
      {
        name: 'settings-webhooks-deliveries',
        open: async (page) => {
          await page.getByRole('button', { name: 'Deliveries' }).click()
          const log = page.getByRole('table', { name: 'Deliveries' })
          await log.getByText('Show').first().click()
          await log.getByText('Request body').first().waitFor()
        },
      },
    ],
  },
  {
    name: 'settings-activity',
    pattern: '/console/settings/activity',
    path: '/console/settings/activity',
    ready: async (page) => {
      await heading('Activity')(page)
      await page.getByText('added a webhook').first().waitFor()
    },
  },
  {
    name: 'settings-branding',
    pattern: '/console/settings/branding',
    path: '/console/settings/branding',
    ready: heading('Branding and defaults'),
    states: [
      {
        // A light colour: the preview shows the shade the pages will draw instead, and says why.
        name: 'settings-branding-colour',
        open: async (page) => {
          await page.getByLabel('Brand colour', { exact: true }).fill('#f5c400')
          await waitUntil('a preview shade', async () => ((await page.getByTestId('branding-preview-button').getAttribute('style')) ?? '').includes('background'))
        },
      },
    ],
  },
  {
    name: 'account',
    pattern: '/console/account',
    path: '/console/account',
    ready: heading('Your account'),
    states: [
      {
        name: 'account-totp-setup',
        open: async (page) => {
          await page.getByRole('button', { name: 'Turn on' }).click()
          await page.getByRole('img', { name: /QR code/ }).waitFor()
        },
      },
    ],
  },
  { name: 'not-found', pattern: null, path: '/console/no-such-screen', ready: (page) => page.getByText('There is no such page.').waitFor() },
]

/** Shown and settled, in any language: the title (or the unknown path's notice), and nothing more to load. */
async function settled(page: Page) {
  await page.locator('h1, .console-main > .empty').first().waitFor()
  await page.waitForLoadState('networkidle')
}

/** A browser signed in to the console as `email`, in the team with the data. */
async function signedInAs(email: string, options: BrowserContextOptions = {}) {
  const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...options })
  const page = await context.newPage()
  await page.goto(`${stack.host.url}/console`)
  await page.locator('input[type=email]').fill(email)
  await page.locator('input[type=password]').fill(TEST_PASSWORD)
  await page.locator('button[type=submit]').first().click()
  await page.locator('.console-nav').waitFor()
  // The first account is also in the instance's default team: the team with the data is chosen.
  const team = page.locator('.console-header select').first()
  if ((await page.locator('.console-header select').count()) > 1) await team.selectOption({ label: 'E2E' })
  await page.getByText('Offer letter').first().waitFor()
  await page.close()
  return context
}

// The sweeps only read the seeded team (the one thing a state makes, an API token, no sweep
// counts), each in a context of its own: they run side by side.
describe.concurrent('every console screen, signed in and out, at 1280 and 390 px', () => {
  test('the visits cover every route the console declares', async ({ expect }) => {
    const declared = await declaredPatterns()
    expect(declared.length).toBeGreaterThan(10)
    const covered = new Set([...signedOut(), ...signedIn()].map((v) => v.pattern).filter((p) => p !== null))
    expect(declared.filter((p) => !covered.has(p)), 'routes no visit covers').toEqual([])
    expect([...covered].filter((p) => !declared.includes(p)), 'visits of routes that are gone').toEqual([])
  })

  test('signed out: no axe violation, no sideways scroll, no error', async ({ expect }) => {
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    const found = await sweep(context, stack.host.url, signedOut())
    await context.close()
    expect(found.join('\n')).toBe('')
  }, SWEEP_TIMEOUT)

  test('signed in as an admin: no axe violation, no sideways scroll, no error, every control reached by keyboard in sight', async ({ expect }) => {
    const context = await signedInAs('ada@example.com')
    const found = await sweep(context, stack.host.url, signedIn())
    await context.close()
    expect(found.join('\n')).toBe('')
  }, SWEEP_TIMEOUT)

  test('the keyboard: from the top, the first Tab shows the skip link, which takes the focus to the screen', async ({ expect }) => {
    const context = await signedInAs('ada@example.com')
    const page = await context.newPage()
    await page.goto(`${stack.host.url}/console/documents`)
    await heading('Documents')(page)
    // From the top of the page (the screen itself puts the focus on its title when it opens).
    await page.evaluate(() => {
      const top = document.createElement('span')
      top.tabIndex = -1
      document.body.prepend(top)
      top.focus()
    })
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to content' })
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true)
    const box = (await skip.boundingBox())!
    expect(box.width * box.height).toBeGreaterThan(24 * 24)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('content')
    // The next Tab goes on inside the screen, not back to the header.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => !!document.activeElement?.closest('#content'))).toBe(true)
    await context.close()
  }, SWEEP_TIMEOUT)

  test('in the dark theme: every screen and state keeps its contrast', async ({ expect }) => {
    const dark = { tag: '-dark', sizes: [[1280, 900]], keyboard: false } as const
    const signedOutContext = await stack.browser.newContext({ locale: 'en-US', colorScheme: 'dark' })
    const found = await sweep(signedOutContext, stack.host.url, signedOut(), dark)
    await signedOutContext.close()
    const context = await signedInAs('ada@example.com', { colorScheme: 'dark' })
    found.push(...(await sweep(context, stack.host.url, signedIn(), dark)))
    await context.close()
    expect(found.join('\n')).toBe('')
  }, SWEEP_TIMEOUT)

  // Hebrew reads right to left, German and Dutch have the longest words and labels, Spanish the
  // longest phrases; a button's name must hold its visible words in each. A11Y_LANGUAGES=fr,it,…
  // checks others (each passed when this was written).
  for (const language of process.env.A11Y_LANGUAGES?.split(',') ?? ['he', 'de', 'nl', 'es']) {
    test(`in ${language}, on a phone: nothing spills over either edge, every name holds its visible words`, async ({ expect }) => {
      const context = await signedInAs('ada@example.com', { locale: language })
      const visits = signedIn().map((v) => ({ ...v, ready: settled, states: [] }))
      const found = await sweep(context, stack.host.url, visits, { tag: `-${language}`, sizes: [[390, 844]], keyboard: false })
      await context.close()
      expect(found.join('\n')).toBe('')
    }, SWEEP_TIMEOUT)
  }

  test('signed in as a member: the screens a member sees, settings they may not change included', async ({ expect }) => {
    const context = await signedInAs('mia@example.com')
    const visits = signedIn()
      .filter((v) => v.pattern !== null)
      .map((v) => ({ ...v, name: `member-${v.name}`, ready: settled, states: [] }))
    const found = await sweep(context, stack.host.url, visits, BOTH_WIDTHS)
    await context.close()
    expect(found.join('\n')).toBe('')
  }, SWEEP_TIMEOUT)
})
