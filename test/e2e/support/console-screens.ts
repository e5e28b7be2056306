/**
 * The console's screens as a sweep visits them (support/screen-checks.ts): the signed-out ones
 * and an admin's, each with its open states, on a team with real data (documents in every status,
 * a template with a direct link, members and a pending invitation, API tokens, a webhook with
 * deliveries, activity). The sweeps of console-a11y*.test.ts share them; each file seeds its own
 * host, so the files run side by side on different workers.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { TEST_PASSWORD } from '../../support/console-client.js'
import { until } from '../../host/support.js'
import { seedConsoleTeam, type ConsoleTeam } from './console-team.js'
import { makePdf } from './pdf.js'
import { REFUSED, type Visit } from './screen-checks.js'
import { SAFETY_NET, startStack, type Stack } from './stack.js'

/** A sweep loads some thirty screens and runs axe on each: minutes on a busy machine. */
export const SWEEP_TIMEOUT = 600_000

export interface ConsoleScreens {
  stack: Stack
  team: ConsoleTeam
  signedOut(): Visit[]
  signedIn(): Visit[]
  /** A browser signed in to the console as `email`, in the team with the data. */
  signedInAs(email: string, options?: BrowserContextOptions): ReturnType<Stack['browser']['newContext']>
  close(): Promise<void>
}

/** A host with the seeded team (its webhook delivered to a receiver here), and its screens. */
export async function startConsoleScreens(browser: Browser): Promise<ConsoleScreens> {
  const hits: string[] = []
  const receiver = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      hits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  const stack = await startStack(browser, { host: { signup: 'open', webhookAllowPrivateUrls: true, queuePollMs: 100 } })
  const team = await seedConsoleTeam(stack, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/envelope-events`)
  // The webhook screen shows deliveries: they have arrived.
  await until(() => hits.length >= 5)
  return {
    stack,
    team,
    signedOut: () => signedOut(team),
    signedIn: () => signedIn(team),
    signedInAs: (email, options) => signedInAs(stack, email, options),
    close: async () => {
      await stack.close()
      receiver.close()
    },
  }
}

/**
 * Waits until `ok` holds, else fails saying what never came. The sweeps run side by side, where
 * only a test's own `expect` knows its test: the screens' waits, shared by all, use none.
 */
export const waitUntil = (what: string, ok: () => Promise<boolean>) =>
  until(ok, SAFETY_NET).catch(() => {
    throw new Error(`never ${what}`)
  })
const noLoading = (page: Page) => waitUntil('done loading', async () => (await page.getByText('Loading…').count()) === 0)
export const heading = (name: string | RegExp) => async (page: Page) => {
  await page.getByRole('heading', { level: 1, name }).waitFor()
  await noLoading(page)
}

/** The signed-out screens: the sign-in form, and the routes open without a session. */
const signedOut = (team: ConsoleTeam): Visit[] => [
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
const signedIn = (team: ConsoleTeam): Visit[] => [
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
export async function settled(page: Page) {
  await page.locator('h1, .console-main > .empty').first().waitFor()
  await page.waitForLoadState('networkidle')
}

/** A browser signed in to the console as `email`, in the team with the data. */
async function signedInAs(stack: Stack, email: string, options: BrowserContextOptions = {}) {
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
