/**
 * Every console route (read from the app's router, so a new one cannot be left out): who may call
 * it is written here once, and each rule is tried on each route: no session is 401, another site
 * is 403, a missing anti-forgery token is 403, a role below the route's is 403, and another team's
 * admin naming this team's members, invitations, tokens and sessions changes and sees nothing.
 * Database: the embedded one (API rules). A host of its own: the first account is the default
 * team's administrator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consoleClient, makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { fillRoute, servedRoutes } from './routes.js'
import { startTestHost, type TestHost } from './support.js'

type Need = 'open' | 'session' | 'MEMBER' | 'MANAGER' | 'ADMIN'

/** Who may call each console route: `open` (no session), `session` (any signed-in person, about themselves), or a team role. */
const NEEDS: Record<string, Need> = {
  'GET /me': 'open',
  'GET /session': 'open',
  'POST /auth/sign-in': 'open',
  'POST /auth/sign-up': 'open',
  'POST /auth/verify': 'open',
  'POST /auth/reset': 'open',
  'POST /auth/reset/complete': 'open',
  'POST /auth/link': 'open',
  'POST /auth/link/complete': 'open',
  'POST /auth/passkey/options': 'open',
  'POST /auth/passkey/verify': 'open',
  'POST /invitations/peek': 'open',
  'POST /invitations/accept': 'open',
  'POST /auth/sign-out': 'session',
  'POST /auth/second-factor/totp': 'session',
  'POST /auth/second-factor/recovery': 'session',
  'POST /auth/second-factor/passkey/options': 'session',
  'POST /auth/second-factor/passkey/verify': 'session',
  'POST /teams/switch': 'session',
  'POST /teams': 'session',
  'GET /account': 'session',
  'POST /account/name': 'session',
  'POST /account/confirm': 'session',
  'POST /account/password': 'session',
  'POST /account/sessions/:id/revoke': 'session',
  'POST /account/sessions/revoke-others': 'session',
  'POST /account/totp/setup': 'session',
  'POST /account/totp/confirm': 'session',
  'POST /account/totp/disable': 'session',
  'POST /account/recovery-codes': 'session',
  'POST /account/passkeys/options': 'session',
  'POST /account/passkeys': 'session',
  'PATCH /account/passkeys/:id': 'session',
  'DELETE /account/passkeys/:id': 'session',
  'GET /team': 'MEMBER',
  'GET /team/members': 'MEMBER',
  'POST /team/members/remove': 'MEMBER',
  'GET /documents': 'MEMBER',
  'POST /documents/editor': 'MEMBER',
  'GET /documents/:id/sender': 'MEMBER',
  'POST /documents/:id/send-preview': 'MEMBER',
  'GET /team/invitations': 'MANAGER',
  'GET /team/tokens': 'MANAGER',
  'POST /team/tokens': 'MANAGER',
  'POST /team/tokens/revoke': 'MANAGER',
  'GET /team/activity': 'MANAGER',
  'GET /webhooks/:id/calls': 'MANAGER',
  'POST /team/members/role': 'ADMIN',
  'POST /team/invitations': 'ADMIN',
  'POST /team/invitations/resend': 'ADMIN',
  'POST /team/invitations/revoke': 'ADMIN',
  'POST /team/rename': 'ADMIN',
  'GET /team/branding': 'MEMBER',
  'POST /team/branding': 'ADMIN',
  'POST /team/branding/logo': 'ADMIN',
  'POST /team/branding/logo/remove': 'ADMIN',
}

const routes = servedRoutes()
  .filter((r) => r.path.startsWith('/api/console/'))
  .map((r) => ({ ...r, key: `${r.method} ${r.path.slice('/api/console'.length)}` }))

describe('console routes', () => {
  let host: TestHost
  let admin: ConsoleClient
  let member: ConsoleClient
  let rival: ConsoleClient
  const victim = { adminId: '', memberId: '', invitationId: '', tokenId: '', sessionId: '' }
  let before: string

  const call = (c: ConsoleClient | null, method: string, path: string, body: unknown = {}, headers: Record<string, string> = {}) =>
    fetch(`${host.url}/api/console${path}`, {
      method,
      headers: { origin: host.url, ...(c && { cookie: c.cookie, 'x-csrf-token': c.csrf }), ...(method !== 'GET' && { 'content-type': 'application/json' }), ...headers },
      ...(method === 'GET' ? {} : { body: JSON.stringify(body) }),
    })
  /** A body naming the victim team's things under every key a route reads. */
  const victimBody = () => ({ userId: victim.memberId, id: victim.invitationId, teamId: 'team_none', name: 'Renamed', email: 'x@example.com', role: 'ADMIN', expires: 'never', envelopeId: 'envelope_none' })
  const state = async () =>
    JSON.stringify([
      await (await admin.console('/team/members')).json(),
      await (await admin.console('/team/invitations')).json(),
      (await (await admin.console('/team/tokens')).json()).data.map((t: { id: string }) => t.id),
      (await (await admin.console('/account')).json()).sessions.map((s: { id: string }) => s.id),
      (await (await admin.console('/team')).json()).name,
    ])

  beforeAll(async () => {
    host = await startTestHost('pglite')
    const a = await makeUser(host.db, 'victim.admin@example.com')
    victim.adminId = a.id
    const teamId = (await host.db.query<{ team_id: string }>('select team_id from team_members where user_id = $1', [a.id]))[0]!.team_id
    victim.memberId = (await makeUser(host.db, 'victim.member@example.com', { teamId, role: 'MEMBER' })).id
    admin = await signInAs(host.url, 'victim.admin@example.com')
    member = await signInAs(host.url, 'victim.member@example.com')
    victim.invitationId = (await (await admin.console('/team/invitations', { body: { email: 'invited.victim@example.com', role: 'MEMBER' } })).json()).id
    victim.tokenId = (await (await admin.console('/team/tokens', { body: { name: 'victim token', expires: 'never' } })).json()).id
    victim.sessionId = (await (await admin.console('/me')).json()).sessionId
    await makeUser(host.db, 'rival.admin@example.com', { teamId: (await host.createTeam({ name: 'Rival team', plan: 'free' })).id, role: 'ADMIN' })
    rival = await signInAs(host.url, 'rival.admin@example.com')
    before = await state()
  })
  afterAll(() => host?.stop())

  it('every served console route has its rule here, and every rule a route', () => {
    expect(routes.length).toBeGreaterThan(40)
    expect(routes.map((r) => r.key).filter((k) => !(k in NEEDS)), 'routes without a rule').toEqual([])
    expect(Object.keys(NEEDS).filter((k) => !routes.some((r) => r.key === k)), 'rules without a route').toEqual([])
  })

  it('without a session: 401 on every route that needs one', async () => {
    for (const r of routes.filter((x) => NEEDS[x.key] !== 'open')) {
      const res = await call(null, r.method, fillRoute(r.key.split(' ')[1]!, () => 'x'))
      expect(res.status, r.key).toBe(401)
    }
  })

  it('from another site: 403 on every route that changes something, open ones included', async () => {
    for (const r of routes.filter((x) => x.method !== 'GET')) {
      const res = await call(admin, r.method, fillRoute(r.key.split(' ')[1]!, () => 'x'), {}, { origin: 'https://evil.example' })
      expect(res.status, r.key).toBe(403)
      expect((await res.json()).code, r.key).toBe('CROSS_SITE')
    }
  })

  it('without the anti-forgery token: 403 on every change that needs a session', async () => {
    const forged = consoleClient(host.url, admin.cookie, 'not-the-token')
    for (const r of routes.filter((x) => x.method !== 'GET' && NEEDS[x.key] !== 'open')) {
      const res = await call(forged, r.method, fillRoute(r.key.split(' ')[1]!, () => 'x'))
      expect(res.status, r.key).toBe(403)
    }
    expect(await state()).toBe(before)
  })

  it('a MEMBER gets 403 on every MANAGER and ADMIN route', async () => {
    for (const r of routes.filter((x) => NEEDS[x.key] === 'MANAGER' || NEEDS[x.key] === 'ADMIN')) {
      const res = await call(member, r.method, fillRoute(r.key.split(' ')[1]!, () => 'x'), victimBody())
      expect(res.status, r.key).toBe(403)
    }
    expect(await state()).toBe(before)
  })

  it("another team's admin naming this team's members, invitations, tokens and sessions changes and sees nothing", async () => {
    const marks = ['victim.admin@example.com', 'victim.member@example.com', 'invited.victim@example.com', 'victim token', victim.tokenId, victim.sessionId]
    for (const r of routes.filter((x) => NEEDS[x.key] !== 'open' && !['POST /auth/sign-out', 'POST /account/sessions/revoke-others', 'POST /account/password', 'POST /teams'].includes(x.key))) {
      for (const body of [victimBody(), { ...victimBody(), id: victim.tokenId }]) {
        const path = fillRoute(r.key.split(' ')[1]!, () => (r.key.includes('sessions') ? victim.sessionId : 'passkey_none'))
        const res = await call(rival, r.method, path, body)
        const text = await res.text()
        // An answer may name back what was asked (`token_… not found`), nothing else of the victim's.
        const asked = path + JSON.stringify(body)
        expect(marks.filter((m) => text.includes(m) && !asked.includes(m)), `${r.key} shows the victim's`).toEqual([])
      }
    }
    expect(await state()).toBe(before)
  })
})
