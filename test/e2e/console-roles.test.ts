/**
 * Roles in the console, in Chromium: a MEMBER sees the settings they may not
 * change as read-only, with the reason beside the disabled controls and named by the fields;
 * they cannot cancel another's document, and the API refuses too (403 NOT_CREATOR). An ADMIN
 * changes a role through a confirmation dialog that names the person and both roles (Escape
 * changes nothing), then a notice says it is done. The last admin leaving a team reads why not
 * in their language (German here), not the API's English. axe-core and screenshots at 1280 and 390 px.
 * On the embedded database only: the queries behind these pages run on both databases in test/host.
 */
import { join } from 'node:path'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { makePdf } from '../host/support.js'
import { axeReport, axeViolations } from './support/axe.js'
import { SCREENSHOTS, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

describe(`console roles`, () => {
  let stack: Stack
  let teamId: string
  const ids = {} as Record<'ada' | 'mia' | 'noah' | 'olga', string>
  const sessions = {} as Record<'ada' | 'mia' | 'olga', ConsoleClient>
  let adasDocument: string

  /** A document `who` makes and sends in their current team: one signer with a signature field. */
  async function sendDocument(who: ConsoleClient, title: string): Promise<string> {
    const form = new FormData()
    const fields = [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }]
    form.set('payload', JSON.stringify({ type: 'DOCUMENT', title, recipients: [{ email: 'signer@example.com', name: 'Sam Signer', role: 'SIGNER', fields }] }))
    form.append('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'a.pdf')
    const res = await fetch(`${stack.host.apiUrl}/envelope/create`, { method: 'POST', headers: { cookie: who.cookie, origin: stack.host.url, 'x-csrf-token': who.csrf }, body: form })
    expect(res.status).toBe(200)
    const { id } = (await res.json()) as { id: string }
    expect((await who.v2('/envelope/distribute', { body: { envelopeId: id } })).status).toBe(200)
    return id
  }

  /** A browser signed in with `who`'s session (the cookie the sign-in set), in `locale`. */
  async function browse(who: ConsoleClient, locale = 'en-US'): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, locale, timezoneId: 'UTC' })
    const [name, value] = [who.cookie.slice(0, who.cookie.indexOf('=')), who.cookie.slice(who.cookie.indexOf('=') + 1)]
    await context.addCookies([{ name, value, url: stack.host.url }])
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    return { context, page, errors }
  }

  /**
   * axe at both widths, and a screenshot of each (written on request: SCREENSHOTS=1);
   * the whole page, or what the reader sees while a modal dialog covers it.
   */
  async function check(page: Page, name: string, fullPage = true) {
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height })
      await page.screenshot({ path: join(SCREENSHOTS, `console-roles-${name}-${width}.png`), fullPage })
      expect(axeReport(`${name} at ${width}`, await axeViolations(page))).toBe('')
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  }

  /** The text of the elements a control's aria-describedby names. */
  const description = (control: Locator) =>
    control.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    )

  const roleOf = async (userId: string, team = teamId) =>
    (await stack.host.db.query<{ role: string }>('select role from team_members where team_id = $1 and user_id = $2', [team, userId]))[0]?.role

  test.beforeAll(async ({ browser }) => {
    stack = await startStack(browser)
    teamId = (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'E2E'`))[0]!.id
    // Ada is the instance's first account (also admin of the default team); the others are in E2E only, Olga in a team of her own.
    ids.ada = (await makeUser(stack.host.db, 'ada@example.com', { teamId, role: 'ADMIN' })).id
    ids.mia = (await makeUser(stack.host.db, 'mia@example.com', { teamId, role: 'MEMBER' })).id
    ids.noah = (await makeUser(stack.host.db, 'noah@example.com', { teamId, role: 'MEMBER' })).id
    const solo = await stack.host.createTeam({ name: 'Solo', plan: 'team' })
    ids.olga = (await makeUser(stack.host.db, 'olga@example.com', { teamId: solo.id, role: 'ADMIN' })).id
    for (const [email, name] of [['ada@example.com', 'Ada Lovelace'], ['mia@example.com', 'Mia Member'], ['noah@example.com', 'Noah Brown'], ['olga@example.com', 'Olga Schmidt']]) {
      await stack.host.db.query('update users set name = $2 where email = $1', [email, name])
    }
    for (const who of ['ada', 'mia', 'olga'] as const) sessions[who] = await signInAs(stack.host.url, `${who}@example.com`)
    expect((await sessions.ada.console('/teams/switch', { body: { teamId } })).status).toBe(200)
    expect((await sessions.mia.console('/teams/switch', { body: { teamId } })).status).toBe(200)
    expect((await sessions.olga.console('/teams/switch', { body: { teamId: solo.id } })).status).toBe(200)
    adasDocument = await sendDocument(sessions.ada, "Ada's lease")
  })
  afterAll(() => stack?.close())

  test('a MEMBER: read-only settings that say why, no cancelling of another’s document, and the API refuses too', async () => {
    const { context, page, errors } = await browse(sessions.mia)
    await page.goto(`${stack.host.url}/console/settings`)
    const card = page.getByRole('form', { name: 'Team name' })
    const name = card.getByLabel('Name', { exact: true })
    await expect.poll(() => name.inputValue()).toBe('E2E')
    expect(await name.isEditable()).toBe(false)
    expect(await description(name)).toBe('Only admins of the team can change this.')
    const save = card.getByRole('button', { name: 'Save' })
    expect(await save.isDisabled()).toBe(true)
    expect(await description(save)).toBe('Only admins of the team can change this.')
    expect(await card.getByText('Only admins of the team can change this.').isVisible()).toBe(true)
    // Every admin-only card of the page: read-only, its Save disabled with the reason.
    for (const form of ['Embedding', 'Retention']) {
      const other = page.getByRole('form', { name: form })
      if (!(await other.count())) continue
      expect(await other.getByRole('button', { name: 'Save' }).isDisabled(), form).toBe(true)
      expect(await description(other.getByRole('button', { name: 'Save' })), form).toBe('Only admins of the team can change this.')
    }
    const consent = page.getByTestId('team-consent')
    expect(await consent.getByRole('textbox').isEditable()).toBe(false)
    expect(await description(consent.getByRole('textbox'))).toBe('Only admins of the team can change this.')
    await check(page, 'member-general')

    await page.goto(`${stack.host.url}/console/settings/members`)
    const send = page.getByRole('button', { name: 'Send invitation' })
    await send.waitFor()
    expect(await send.isDisabled()).toBe(true)
    expect(await description(send)).toBe('Only admins of the team can invite people.')
    expect(await page.getByLabel('E-mail address').isEditable()).toBe(false)
    await page.getByText('Only admins of the team change roles and remove members.').waitFor()
    // No role to choose, nobody to remove: roles read as words.
    expect(await page.getByRole('combobox', { name: /^Role of / }).count()).toBe(0)
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0)
    await check(page, 'member-members')

    // Ada's document: cancelling is not Mia's (the page may offer it disabled, or refuse it in words).
    await page.goto(`${stack.host.url}/console/documents/${adasDocument}`)
    await page.getByRole('heading', { name: "Ada's lease", exact: true }).waitFor()
    const cancel = page.getByRole('button', { name: 'Cancel', exact: true })
    if ((await cancel.count()) && (await cancel.isEnabled())) {
      await cancel.click()
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel the document' }).click()
      await page.getByRole('alert').getByText('Only the person who created it, a manager or an admin can cancel or delete it.').waitFor()
    }
    await check(page, 'member-document')
    const refused = await sessions.mia.v2('/envelope/cancel', { body: { envelopeId: adasDocument } })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { code: string }).code).toBe('NOT_CREATOR')
    expect((await stack.host.db.query<{ status: string }>('select status from envelopes where id = $1', [adasDocument]))[0]!.status).toBe('PENDING')
    expect(errors).toEqual([])
    await context.close()
  })

  test('an ADMIN changes a role through a confirmation that names the person and both roles', async () => {
    const { context, page, errors } = await browse(sessions.ada)
    await page.goto(`${stack.host.url}/console/settings/members`)
    const select = page.getByRole('combobox', { name: 'Role of Noah Brown' })
    await select.waitFor()

    // Escape: nothing changes, and the list still shows the role Noah has.
    await select.selectOption('MANAGER')
    const dialog = page.getByRole('dialog', { name: 'Change the role of Noah Brown' })
    await dialog.waitFor()
    await dialog.getByText('The role of Noah Brown changes from Member to Manager.').waitFor()
    // Focus is inside the dialog, on its confirming button.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Change to Manager')
    await check(page, 'admin-role-dialog', false)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await select.inputValue()).toBe('MEMBER')
    expect(await roleOf(ids.noah)).toBe('MEMBER')

    // Confirmed: done, and said.
    await select.selectOption('MANAGER')
    await dialog.getByRole('button', { name: 'Change to Manager' }).click()
    await page.getByRole('status').getByText('Noah Brown now has the Manager role.').waitFor()
    await expect.poll(() => roleOf(ids.noah)).toBe('MANAGER')
    // The list reloads after the notice: its select comes to the new role.
    await expect.poll(() => select.inputValue()).toBe('MANAGER')
    await check(page, 'admin-role-changed')
    expect(errors).toEqual([])
    await context.close()
  })

  test('the last admin leaving reads why not in their language', async () => {
    const { context, page, errors } = await browse(sessions.olga, 'de-DE')
    await page.goto(`${stack.host.url}/console/settings/members`)
    await page.getByRole('heading', { name: 'Mitglieder', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Team verlassen' }).click()
    const dialog = page.getByRole('dialog', { name: 'Team verlassen' })
    await dialog.getByText('Solo verlassen? Für eine Rückkehr brauchen Sie eine neue Einladung.').waitFor()
    // A destructive change: focus starts on the safe choice.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Abbrechen')
    await check(page, 'leave-dialog-de', false)
    await dialog.getByRole('button', { name: 'Team verlassen' }).click()
    const alert = page.getByRole('alert')
    await expect.poll(() => alert.textContent()).toBe('Ein Team behält immer mindestens einen Admin. Machen Sie zuerst ein anderes Mitglied zum Admin und versuchen Sie es dann erneut.')
    expect(await alert.textContent()).not.toMatch(/admin first|at least one admin/)
    expect(await roleOf(ids.olga, (await stack.host.db.query<{ id: string }>(`select id from teams where name = 'Solo'`))[0]!.id)).toBe('ADMIN')
    await check(page, 'last-admin-de')
    expect(errors).toEqual([])
    await context.close()
  })
})
