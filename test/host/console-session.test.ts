/**
 * Console sessions: the first account, sign-in answers, the cookie, the anti-forgery token, the
 * console's calls to API v2.
 * Database: the embedded one (sessions and auth are API rules). A host of its own: the first
 * account made becomes the default team's administrator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, signInAs, TEST_PASSWORD } from '../support/console-client.js'
import { makePdf, startTestHost, type TestHost } from './support.js'

describe('console sessions (pglite)', () => {
  let host: TestHost
  beforeAll(async () => {
    host = await startTestHost('pglite')
  })
  afterAll(() => host?.stop())

  it('the first account administers the default team; sign-in answers the same for a wrong password and an unknown address', async () => {
    await makeUser(host.db, 'Admin@Example.com')
    const wrong = await fetch(`${host.url}/api/console/auth/sign-in`, {
      method: 'POST',
      headers: { origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'not the password' }),
    })
    const unknown = await fetch(`${host.url}/api/console/auth/sign-in`, {
      method: 'POST',
      headers: { origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: TEST_PASSWORD }),
    })
    expect(wrong.status).toBe(401)
    expect(await unknown.json()).toEqual(await wrong.json())

    const admin = await signInAs(host.url, 'ADMIN@example.com ')
    const me = await (await admin.console('/me')).json()
    expect(me.user.email).toBe('admin@example.com')
    expect(me.team).toMatchObject({ role: 'ADMIN', teamName: 'Default team' })
    expect(me.csrfToken).toEqual(expect.any(String))
  })

  it('the session cookie is HttpOnly and SameSite=Lax; signing out ends it', async () => {
    const res = await fetch(`${host.url}/api/console/auth/sign-in`, {
      method: 'POST',
      headers: { origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: TEST_PASSWORD }),
    })
    expect(res.headers.get('set-cookie')).toMatch(/^envelope_session=[\w-]{40,}; .*HttpOnly/)
    expect(res.headers.get('set-cookie')).toMatch(/SameSite=Lax/)
    const admin = await signInAs(host.url, 'admin@example.com')
    expect((await admin.console('/auth/sign-out', { body: {} })).status).toBe(200)
    const after = await admin.console('/me')
    expect(after.status).toBe(401)
    expect((await after.json()).code).toBe('SIGNED_OUT')
  })

  it('a change without the anti-forgery token, or from another origin, is refused', async () => {
    const admin = await signInAs(host.url, 'admin@example.com')
    const noToken = await admin.console('/auth/sign-out', { body: {}, headers: { 'x-csrf-token': '' } })
    expect(noToken.status).toBe(403)
    expect((await noToken.json()).code).toBe('CSRF')
    const crossSite = await admin.console('/auth/sign-out', { body: {}, headers: { origin: 'https://evil.example' } })
    expect(crossSite.status).toBe(403)
    expect((await crossSite.json()).code).toBe('CROSS_SITE')
    const signIn = await fetch(`${host.url}/api/console/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: TEST_PASSWORD }),
    })
    expect(signIn.status).toBe(403)
    expect((await admin.console('/me')).status).toBe(200)
  })

  it('the console calls API v2 with its session: the member is named in the audit log; without the token the cookie opens nothing', async () => {
    const admin = await signInAs(host.url, 'admin@example.com')
    const form = new FormData()
    form.set('payload', JSON.stringify({ type: 'DOCUMENT', title: 'Console draft' }))
    form.append('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'a.pdf')
    const created = await fetch(`${host.apiUrl}/envelope/create`, {
      method: 'POST',
      headers: { cookie: admin.cookie, origin: host.url, 'x-csrf-token': admin.csrf },
      body: form,
    })
    expect(created.status).toBe(200)
    const { id } = (await created.json()) as { id: string }
    const audit = await (await admin.v2(`/envelope/${id}/audit-log`)).json()
    expect(audit.data[0]).toMatchObject({ type: 'DOCUMENT_CREATED', email: 'admin@example.com' })

    const bare = await fetch(`${host.apiUrl}/envelope/${id}`, { headers: { cookie: admin.cookie } })
    expect(bare.status).toBe(401)
  })
})
