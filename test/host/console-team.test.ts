/**
 * The console's team settings: invitations, members, API tokens, webhooks through the session, and
 * the answers to bad input. Its host is its own: the first account made is the default team's admin.
 * Database: the embedded one (API rules; SQL is held on both in lifecycle.test.ts).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consoleClient, makeUser, sessionCookieOf, signInAs, TEST_PASSWORD, type ConsoleClient } from '../support/console-client.js'
import { startTestHost, until, type TestHost } from './support.js'

/** The newest invitation mail to `to`, with its link's value (runs the queue). */
async function invitationLink(host: TestHost, to: string, not?: string): Promise<string> {
  let value: string | undefined
  await until(async () => {
    await host.queue.drain()
    const [row] = await host.db.query<{ text: string }>(`select text from mails where to_address = $1 and template = 'account-invite' order by id desc limit 1`, [to])
    value = row && /\/console\/(?:link\/invite|invitation)#([\w.-]+)/.exec(row.text)?.[1]
    return Boolean(value && value !== not)
  })
  return value!
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })

describe('console team settings (pglite)', () => {
  let host: TestHost
  let admin: ConsoleClient
  let teamId: string
  beforeAll(async () => {
    host = await startTestHost('pglite', { webhookAllowPrivateUrls: true, queuePollMs: 50 })
    await makeUser(host.db, 'owner@example.com')
    admin = await signInAs(host.url, 'owner@example.com')
    teamId = (await (await admin.console('/me')).json()).team.teamId
  })
  afterAll(() => host?.stop())

  it('invites by e-mail; a newer invitation ends the older link; accepting creates a verified account and joins; the link is single-use', async () => {
    const first = await json(await admin.console('/team/invitations', { body: { email: 'New.Person@Example.com', role: 'MEMBER' } }))
    expect(first.body).toMatchObject({ email: 'new.person@example.com', role: 'MEMBER' })
    const oldLink = await invitationLink(host, 'new.person@example.com')
    await admin.console('/team/invitations', { body: { email: 'new.person@example.com', role: 'MANAGER' } })
    const link = await invitationLink(host, 'new.person@example.com', oldLink)
    const pending = await json(await admin.console('/team/invitations'))
    expect(pending.body.data).toHaveLength(1)

    const open = (path: string, body: unknown) =>
      fetch(`${host.url}/api/console${path}`, { method: 'POST', headers: { origin: host.url, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect((await json(await open('/invitations/peek', { link: oldLink }))).body.code).toBe('LINK_INVALID')
    expect((await json(await open('/invitations/peek', { link }))).body).toEqual({ teamName: 'Default team', email: 'new.person@example.com', role: 'MANAGER', accountExists: false })
    const accepted = await open('/invitations/accept', { link, name: 'New Person', password: TEST_PASSWORD })
    expect(accepted.status).toBe(200)
    const member = await (await fetch(`${host.url}/api/console/me`, { headers: { cookie: sessionCookieOf(accepted) } })).json()
    expect(member.user).toMatchObject({ email: 'new.person@example.com', emailVerified: true })
    expect(member.team).toMatchObject({ teamId, role: 'MANAGER' })
    expect((await json(await open('/invitations/accept', { link, name: 'Again', password: TEST_PASSWORD }))).body.code).toBe('LINK_INVALID')

    const members = await json(await admin.console('/team/members'))
    expect(members.body.data.map((m: any) => [m.email, m.role])).toEqual([
      ['owner@example.com', 'ADMIN'],
      ['new.person@example.com', 'MANAGER'],
    ])
  })

  it('a revoked invitation cannot be accepted; an address with an account must sign in to accept', async () => {
    const inv = await json(await admin.console('/team/invitations', { body: { email: 'revoked@example.com', role: 'MEMBER' } }))
    const link = await invitationLink(host, 'revoked@example.com')
    expect((await admin.console('/team/invitations/revoke', { body: { id: inv.body.id } })).status).toBe(200)
    const open = await fetch(`${host.url}/api/console/invitations/accept`, {
      method: 'POST',
      headers: { origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ link, name: 'X', password: TEST_PASSWORD }),
    })
    expect((await json(open)).body.code).toBe('LINK_INVALID')

    await makeUser(host.db, 'existing@example.com')
    await admin.console('/team/invitations', { body: { email: 'existing@example.com', role: 'MEMBER' } })
    const link2 = await invitationLink(host, 'existing@example.com')
    const anonymous = await fetch(`${host.url}/api/console/invitations/accept`, {
      method: 'POST',
      headers: { origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ link: link2, name: 'X', password: TEST_PASSWORD }),
    })
    expect((await json(anonymous)).body.code).toBe('SIGN_IN_FIRST')
    const existing = await signInAs(host.url, 'existing@example.com')
    expect((await existing.console('/invitations/accept', { body: { link: link2 } })).status).toBe(200)
    expect((await (await existing.console('/me')).json()).teams.map((t: any) => t.teamId)).toContain(teamId)
  })

  it('roles: the last admin stays; a MEMBER reads but cannot manage; a member may leave', async () => {
    const ownerId = (await (await admin.console('/me')).json()).user.id
    const demote = await json(await admin.console('/team/members/role', { body: { userId: ownerId, role: 'MEMBER' } }))
    expect(demote).toMatchObject({ status: 409, body: { code: 'LAST_ADMIN' } })
    expect((await json(await admin.console('/team/members/remove', { body: { userId: ownerId } }))).body.code).toBe('LAST_ADMIN')

    const existing = await signInAs(host.url, 'existing@example.com')
    expect((await existing.console('/team/members')).status).toBe(200)
    for (const [path, body] of [
      ['/team/invitations', { email: 'x@example.com', role: 'ADMIN' }],
      ['/team/members/role', { userId: ownerId, role: 'MEMBER' }],
      ['/team/tokens', { name: 'mine', expires: 'never' }],
      ['/team/rename', { name: 'Taken over' }],
    ] as const) {
      const res = await json(await existing.console(path, { body }))
      expect(res, path).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } })
    }
    expect((await existing.v2('/webhook')).status).toBe(403)
    const me = (await (await existing.console('/me')).json()).user.id
    expect((await existing.console('/team/members/remove', { body: { userId: me } })).status).toBe(200)
    const after = await (await existing.console('/me')).json()
    expect(after.teams.map((t: any) => t.teamId)).not.toContain(teamId)
  })

  it('API tokens: the value once, listed without it; revoked, it gets 401 at once; another team cannot revoke it; all in the activity log', async () => {
    const created = await json(await admin.console('/team/tokens', { body: { name: 'CI', expires: '3m' } }))
    expect(created.body.token).toMatch(/^api_/)
    const listed = await (await admin.console('/team/tokens')).text()
    expect(listed).not.toContain(created.body.token)
    const api = () => fetch(`${host.apiUrl}/envelope`, { headers: { authorization: `Bearer ${created.body.token}` } })
    expect((await api()).status).toBe(200)
    await expect.poll(async () => JSON.parse(await (await admin.console('/team/tokens')).text()).data.find((t: any) => t.id === created.body.id).lastUsedAt, { timeout: 60_000 }).not.toBeNull()

    // Invite-only sign-up: someone in no team founds none; a member of a team (here another one) may.
    const loner = await makeUser(host.db, 'stranger@example.com')
    const stranger = await signInAs(host.url, 'stranger@example.com')
    const refused = await json(await stranger.console('/teams', { body: { name: 'Elsewhere' } }))
    expect([refused.status, refused.body.code]).toEqual([403, 'SIGNUP_CLOSED'])
    await host.db.query(`insert into team_members (team_id, user_id, role) values ($1, $2, 'ADMIN')`, [(await host.createTeam({ name: 'Their own', plan: 'free' })).id, loner.id])
    const other = await json(await stranger.console('/teams', { body: { name: 'Elsewhere' } }))
    expect(other.status).toBe(200)
    const strangerAgain = await signInAs(host.url, 'stranger@example.com')
    expect((await json(await strangerAgain.console('/team/tokens/revoke', { body: { id: created.body.id } }))).status).toBe(404)
    expect((await api()).status).toBe(200)

    expect((await admin.console('/team/tokens/revoke', { body: { id: created.body.id } })).status).toBe(200)
    expect((await api()).status).toBe(401)
    const activity = await json(await admin.console('/team/activity'))
    const actions = activity.body.data.map((a: any) => `${a.action} ${a.by?.email ?? 'token'}`)
    expect(actions, JSON.stringify(actions)).toEqual(expect.arrayContaining(['token.created owner@example.com', 'token.revoked owner@example.com', 'member.invited owner@example.com', 'member.joined new.person@example.com', 'member.removed existing@example.com']))
  })

  it('webhooks through API v2 with the session: created, a test event delivered and logged, resent', async () => {
    const got: string[] = []
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (d) => (body += d))
      req.on('end', () => {
        got.push(body)
        res.end('ok')
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
      const hook = await json(await admin.v2('/webhook/create', { body: { url, events: ['DOCUMENT_COMPLETED'], secret: 's3cret' } }))
      expect(hook.status).toBe(200)
      expect((await admin.v2(`/webhook/${hook.body.id}/test`, { body: {} })).status).toBe(200)
      await expect.poll(async () => {
        await host.queue.drain()
        return (await json(await admin.v2(`/webhook/${hook.body.id}/calls`))).body.data.length
      }, { timeout: 60_000 }).toBe(1)
      const calls = (await json(await admin.v2(`/webhook/${hook.body.id}/calls`))).body.data
      expect(calls[0]).toMatchObject({ event: 'DOCUMENT_COMPLETED', responseStatus: 200, requestBody: { payload: { test: true } } })
      expect((await admin.v2(`/webhook/call/${calls[0].id}/resend`, { body: {} })).status).toBe(200)
      await expect.poll(async () => {
        await host.queue.drain()
        return got.length
      }, { timeout: 60_000 }).toBe(2)
      const activity = (await json(await admin.console('/team/activity'))).body.data.map((a: any) => a.action)
      expect(activity).toContain('webhook.created')
      expect(JSON.stringify(activity)).not.toContain('s3cret')
    } finally {
      server.close()
    }
  })

  it('bad input is a 4xx with {message, code}; no session is 401; another site is 403', async () => {
    for (const [path, body] of [
      ['/team/invitations', { email: 'not an address', role: 'MEMBER' }],
      ['/team/invitations', { email: 'a@example.com', role: 'OWNER' }],
      ['/team/tokens', { name: '', expires: 'never' }],
      ['/team/tokens', { name: 'x', expires: '2y' }],
      ['/team/members/role', { userId: 'user_nobody', role: 'ADMIN' }],
      ['/team/invitations/revoke', { id: 'invitation_nobody' }],
    ] as const) {
      const res = await json(await admin.console(path, { body }))
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.status, path).toBeLessThan(500)
      expect(res.body, path).toMatchObject({ message: expect.any(String), code: expect.any(String) })
    }
    expect((await fetch(`${host.url}/api/console/team/members`)).status).toBe(401)
    const cross = await admin.console('/team/tokens', { body: { name: 'x', expires: 'never' }, headers: { origin: 'https://evil.example' } })
    expect(cross.status).toBe(403)
    const noCsrf = consoleClient(host.url, admin.cookie, 'wrong')
    expect((await noCsrf.console('/team/tokens', { body: { name: 'x', expires: 'never' } })).status).toBe(403)
  })
})
