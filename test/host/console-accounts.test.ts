/**
 * Console accounts: the first administrator, invitations, password reset, sign-in links, TOTP,
 * sessions, the throttles and mail budgets, hostile input; open sign-up.
 * Databases: the embedded one for the accounts' rules; both for the throttles and budgets, counted
 * in the database (two processes on one PostgreSQL count together). A host of its own: the first
 * account, fixed addresses, and the queue run by the tests.
 */
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consoleClient, makeUser, sessionCookieOf, signInAs, TEST_PASSWORD, type ConsoleClient } from '../support/console-client.js'
import { postgresUnavailable, startTestHost, until, type TestHost, type Variant } from './support.js'

const pgSkip = await postgresUnavailable()
if (pgSkip) console.warn(`console-accounts: PostgreSQL variant skipped: ${pgSkip}`)

/** POST /api/console{path} as a browser on the host's page, without a session (or with `cookie`). */
async function post(host: TestHost, path: string, body: unknown, cookie = '') {
  const res = await fetch(`${host.url}/api/console${path}`, {
    method: 'POST',
    headers: { origin: host.url, 'content-type': 'application/json', ...(cookie && { cookie }) },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any, cookie: sessionCookieOf(res), headers: res.headers }
}

/**
 * The newest account mail to `to` (of `purpose`), with its link's value: runs the queue and waits
 * for one newer than every mail that existed when the test began waiting (a poller elsewhere may
 * hold the job for a moment).
 */
async function lastMail(host: TestHost, to: string, purpose?: string, since = lastSeen.get(host) ?? 0) {
  let mail: { id: string; template: string; text: string; subject: string } | undefined
  await until(async () => {
    await host.queue.drain()
    const rows = await host.db.query<{ id: string; template: string; text: string; subject: string }>(
      `select id, template, text, subject from mails where to_address = $1 and template like 'account-%' and id > $2 order by id desc`,
      [to, since],
    )
    mail = rows.find((m) => !purpose || m.template === `account-${purpose}`)
    return mail !== undefined
  }, 120_000).catch(() => {})
  if (!mail) return null
  lastSeen.set(host, Math.max(lastSeen.get(host) ?? 0, Number(mail.id)))
  return { ...mail, link: /\/console\/link\/\w+#([\w.-]+)/.exec(mail.text)?.[1] ?? '' }
}
const lastSeen = new Map<TestHost, number>()

const mailCount = async (host: TestHost, to: string) => {
  await host.queue.drain()
  return (await host.db.query('select id from mails where to_address = $1', [to])).length
}

/** A client for the session a Set-Cookie started. */
async function clientFor(host: TestHost, cookie: string): Promise<ConsoleClient> {
  const me = (await (await fetch(`${host.url}/api/console/me`, { headers: { cookie } })).json()) as { csrfToken: string }
  return consoleClient(host.url, cookie, me.csrfToken)
}

const codeFor = (secret: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at })

for (const variant of ['pglite', 'postgres'] as Variant[]) {
  describe.skipIf(variant === 'postgres' && pgSkip !== null)(`console accounts (${variant})`, () => {
    let host: TestHost
    /** The accounts' rules are declared on the embedded database only; the throttles on both. */
    const rule = variant === 'pglite' ? it : undefined
    /** Counts two processes share through the server: PostgreSQL only. */
    const counted = variant === 'postgres' ? it : undefined
    beforeAll(async () => {
      host = await startTestHost(variant, { signup: 'invite' })
    })
    afterAll(() => host?.stop())

    rule?.('nobody becomes an administrator by signing up first: the operator makes the first; later accounts need an invitation, and confirm with the link AND the password they chose; an existing address gets the same answer and a sign-in link', async () => {
      // An instance without accounts is not open to whoever comes first.
      const early = await post(host, '/auth/sign-up', { email: 'early@example.com', name: 'Early', password: TEST_PASSWORD })
      expect([early.status, early.body.code]).toEqual([403, 'SIGNUP_CLOSED'])
      expect(await host.db.query('select 1 from users')).toEqual([])
      // The operator's way in (`user create --admin`): an account in the default team, and a sign-in link.
      const { mailOperatorSignIn } = await import('../../host/server/people/operator.js')
      const { defaultTeamId } = await import('../../host/server/domain/team/teams.js')
      await host.db.transaction(async (tx) => mailOperatorSignIn(tx, { email: 'First@Example.com', name: 'First', teamId: await defaultTeamId(tx), role: 'ADMIN' }))
      const signin = await lastMail(host, 'first@example.com', 'signin')
      const opened = await post(host, '/auth/link/complete', { link: signin!.link })
      const me = await (await (await clientFor(host, opened.cookie)).console('/me')).json()
      expect(me.user).toMatchObject({ email: 'first@example.com', emailVerified: true })
      expect(me.team).toMatchObject({ role: 'ADMIN' })

      const closed = await post(host, '/auth/sign-up', { email: 'second@example.com', password: TEST_PASSWORD })
      expect(closed.status).toBe(403)
      expect(closed.body.code).toBe('SIGNUP_CLOSED')

      const [team] = await host.db.query<{ id: string }>("select id from teams order by created_at limit 1")
      await host.db.query(
        `insert into team_invitations (id, team_id, email, role, expires_at) values ('invitation_t1', $1, 'second@example.com', 'MEMBER', now() + interval '1 day')`,
        [team!.id],
      )
      expect((await post(host, '/auth/sign-up', { email: 'second@example.com', password: TEST_PASSWORD })).status).toBe(200)
      expect((await post(host, '/auth/sign-in', { email: 'second@example.com', password: TEST_PASSWORD })).body.code).toBe('EMAIL_NOT_VERIFIED')
      // The link alone confirms nothing: whoever typed the address into sign-up chose the password,
      // so the one who follows the link must know it (a wrong one leaves the link good).
      const mail = await lastMail(host, 'second@example.com', 'verify')
      expect(mail?.link).toMatch(/^link_\w+\.[\w-]+$/)
      expect((await post(host, '/auth/verify', { link: mail!.link, password: 'not the password' })).body.code).toBe('INVALID_CREDENTIALS')
      expect((await host.db.query<{ v: Date | null }>('select email_verified_at as v from users where email = $1', ['second@example.com']))[0]!.v).toBeNull()
      const verified = await post(host, '/auth/verify', { link: mail!.link, password: TEST_PASSWORD })
      expect(verified.status).toBe(200)
      expect((await (await (await clientFor(host, verified.cookie)).console('/me')).json()).user).toMatchObject({ email: 'second@example.com', emailVerified: true })
      // The link works once.
      expect((await post(host, '/auth/verify', { link: mail!.link, password: TEST_PASSWORD })).body.code).toBe('LINK_INVALID')
      await host.db.query(`update team_invitations set revoked_at = now() where id = 'invitation_t1'`)
      expect((await post(host, '/auth/sign-up', { email: 'third@example.com', password: TEST_PASSWORD })).status).toBe(403)

      // The address has an account: the same answer, and the owner gets a sign-in link instead.
      await host.db.query(
        `insert into team_invitations (id, team_id, email, role, expires_at) values ('invitation_t2', $1, 'first@example.com', 'MEMBER', now() + interval '1 day')`,
        [team!.id],
      )
      const again = await post(host, '/auth/sign-up', { email: 'first@example.com', password: 'another password 123' })
      expect(again.status).toBe(200)
      expect(again.body).toEqual({ sent: true })
      expect((await lastMail(host, 'first@example.com'))?.template).toBe('account-signin')
    })

    rule?.('password reset: the same answer for any address; the newer link wins; single use; ends every session', async () => {
      await makeUser(host.db, 'reset@example.com')
      const old = await signInAs(host.url, 'reset@example.com')
      const known = await post(host, '/auth/reset', { email: 'reset@example.com' })
      const unknown = await post(host, '/auth/reset', { email: 'nobody@example.com' })
      expect(unknown).toMatchObject({ status: known.status, body: known.body })
      expect(await mailCount(host, 'nobody@example.com')).toBe(0)
      const first = (await lastMail(host, 'reset@example.com', 'reset'))!.link
      await post(host, '/auth/reset', { email: 'reset@example.com', language: 'de' })
      const second = await lastMail(host, 'reset@example.com', 'reset')
      expect(second!.subject).toBe('Passwort zurücksetzen')
      expect((await post(host, '/auth/reset/complete', { link: first, password: 'a new password 1' })).body.code).toBe('LINK_INVALID')
      // A refused password leaves the link good.
      expect((await post(host, '/auth/reset/complete', { link: second!.link, password: 'short' })).status).toBe(400)
      const done = await post(host, '/auth/reset/complete', { link: second!.link, password: 'a new password 1' })
      expect(done.status).toBe(200)
      expect(done.cookie).not.toBe('')
      expect((await post(host, '/auth/reset/complete', { link: second!.link, password: 'a newer password 2' })).body.code).toBe('LINK_INVALID')
      const ended = await old.console('/me')
      expect(ended.status).toBe(401)
      expect((await ended.json()).code).toBe('SIGNED_OUT')
      await expect(signInAs(host.url, 'reset@example.com')).rejects.toThrow(/401/)
      await signInAs(host.url, 'reset@example.com', 'a new password 1')
    })

    rule?.('sign-in by e-mailed link: the same answer for any address; the link signs in once and proves the address, dropping every credential set before', async () => {
      await host.db.transaction(async (tx) => {
        const { createUser } = await import('../../host/server/people/users.js')
        const { user } = await createUser(tx, { email: 'linked@example.com', password: 'set by someone else' })
        // Whatever someone attached before the address was proven (a second factor, a passkey) goes with the password.
        await tx.query(`update users set totp_secret = 'JBSWY3DPEHPK3PXP', totp_enabled_at = now() where id = $1`, [user.id])
        await tx.query(`insert into passkeys (id, user_id, public_key, counter, transports, name) values ('cred-early', $1, $2, 0, '[]', 'Early')`, [user.id, Buffer.from([1])])
      })
      const a = await post(host, '/auth/link', { email: 'linked@example.com' })
      const b = await post(host, '/auth/link', { email: 'nobody@example.com' })
      expect(b).toMatchObject({ status: a.status, body: a.body })
      const mail = await lastMail(host, 'linked@example.com', 'signin')
      const res = await post(host, '/auth/link/complete', { link: mail!.link })
      expect(res.status).toBe(200)
      const me = await (await (await clientFor(host, res.cookie)).console('/me')).json()
      expect(me.user).toMatchObject({ email: 'linked@example.com', emailVerified: true, hasPassword: false, totpEnabled: false })
      expect(await host.db.query(`select 1 from passkeys where id = 'cred-early'`)).toEqual([])
      expect((await post(host, '/auth/link/complete', { link: mail!.link })).body.code).toBe('LINK_INVALID')
      expect((await post(host, '/auth/link/complete', { link: `${mail!.link.split('.')[0]}.forged` })).body.code).toBe('LINK_INVALID')
    })

    it('the sign-in throttle answers 429 with Retry-After, the same for an account and an unknown address', async () => {
      await makeUser(host.db, 'guessed@example.com')
      const wrong = (email: string) => post(host, '/auth/sign-in', { email, password: 'wrong password!' })
      // Ten at once per address: each is counted before it is checked, and ten are within the limit.
      const first = await Promise.all(['guessed@example.com', 'ghost@example.com'].flatMap((email) => Array.from({ length: 10 }, () => wrong(email))))
      for (const answer of first) expect(answer.status).toBe(401)
      const known = await wrong('guessed@example.com')
      const ghost = await wrong('ghost@example.com')
      expect(known.status).toBe(429)
      expect(known.body.code).toBe('TOO_MANY_ATTEMPTS')
      expect(Number(known.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(ghost.status).toBe(429)
      expect(ghost.body).toEqual(known.body)
      // Even the right password waits now; other accounts do not.
      expect((await post(host, '/auth/sign-in', { email: 'guessed@example.com', password: TEST_PASSWORD })).status).toBe(429)
      await makeUser(host.db, 'other@example.com')
      await signInAs(host.url, 'other@example.com')
    })

    rule?.('TOTP: set up with a real code, half session after the password, codes single use, recovery codes single use, off with a code', async () => {
      await makeUser(host.db, 'totp@example.com')
      const full = await signInAs(host.url, 'totp@example.com')
      const setup = await (await full.console('/account/totp/setup', { body: {} })).json()
      expect(setup.uri).toMatch(/^otpauth:\/\/totp\/Envelope:totp%40example\.com\?/)
      expect((await full.console('/account/totp/confirm', { body: { code: '000000' } })).status).toBe(400)
      const t0 = Date.now()
      const confirmed = await full.console('/account/totp/confirm', { body: { code: codeFor(setup.secret, t0) } })
      expect(confirmed.status).toBe(200)
      const { recoveryCodes } = await confirmed.json()
      expect(recoveryCodes).toHaveLength(10)
      expect((await host.db.query('select code_hash from recovery_codes where code_hash = $1', [recoveryCodes[0]])).length).toBe(0)

      const half = await post(host, '/auth/sign-in', { email: 'totp@example.com', password: TEST_PASSWORD })
      expect(half.body).toEqual({ secondFactorDue: true })
      expect((await (await fetch(`${host.url}/api/console/me`, { headers: { cookie: half.cookie } })).json())).toMatchObject({ secondFactorDue: true })
      expect((await fetch(`${host.url}/api/console/account`, { headers: { cookie: half.cookie } })).status).toBe(401)
      const halfClient = await clientFor(host, half.cookie)
      // The code that confirmed set-up was used; the next window's code is fresh.
      expect((await halfClient.console('/auth/second-factor/totp', { body: { code: codeFor(setup.secret, t0) } })).status).toBe(401)
      const next = codeFor(setup.secret, t0 + 30_000)
      const done = await halfClient.console('/auth/second-factor/totp', { body: { code: next } })
      expect(done.status).toBe(200)
      // The second factor gives the session a new cookie: the half-signed-in one opens nothing now.
      const rotated = sessionCookieOf(done)
      expect(rotated).not.toBe('')
      expect(rotated).not.toBe(half.cookie)
      expect((await halfClient.console('/me')).status).toBe(401)
      expect((await (await clientFor(host, rotated)).console('/me')).status).toBe(200)
      const again = await post(host, '/auth/sign-in', { email: 'totp@example.com', password: TEST_PASSWORD })
      const againClient = await clientFor(host, again.cookie)
      expect((await againClient.console('/auth/second-factor/totp', { body: { code: next } })).status).toBe(401)

      const recovered = await againClient.console('/auth/second-factor/recovery', { body: { code: recoveryCodes[0].toUpperCase() } })
      expect(recovered.status).toBe(200)
      expect((await againClient.console('/me')).status).toBe(401)
      expect((await (await clientFor(host, sessionCookieOf(recovered))).console('/me')).status).toBe(200)
      const third = await clientFor(host, (await post(host, '/auth/sign-in', { email: 'totp@example.com', password: TEST_PASSWORD })).cookie)
      const reused = await third.console('/auth/second-factor/recovery', { body: { code: recoveryCodes[0] } })
      expect(reused.status).toBe(401)
      expect((await reused.json()).code).toBe('INVALID_CODE')
      const account = await (await full.console('/account')).json()
      expect(account.totp).toEqual({ enabled: true, recoveryCodesLeft: 9 })

      // Guessing codes meets the throttle (the same 429 as for passwords); the wrong codes above
      // still count (the right password never cleared them), so start from none.
      await host.db.query('delete from auth_throttle')
      const guesser = await clientFor(host, (await post(host, '/auth/sign-in', { email: 'totp@example.com', password: TEST_PASSWORD })).cookie)
      const statuses: number[] = []
      for (let i = 0; i < 11; i++) statuses.push((await guesser.console('/auth/second-factor/totp', { body: { code: '000000' } })).status)
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true)
      expect(statuses[10]).toBe(429)
      await host.db.query('delete from auth_throttle')

      expect((await full.console('/account/totp/disable', { body: { password: 'wrong password!' } })).status).toBe(401)
      expect((await full.console('/account/totp/disable', { body: { password: TEST_PASSWORD } })).status).toBe(200)
      expect((await post(host, '/auth/sign-in', { email: 'totp@example.com', password: TEST_PASSWORD })).body).toEqual({ secondFactorDue: false })
    })

    rule?.('sessions: listed with a readable client, revoked one by one or all others; a revoked session is signed out; a new password ends the others', async () => {
      await makeUser(host.db, 'sessions@example.com')
      const a = await signInAs(host.url, 'sessions@example.com')
      const b = await signInAs(host.url, 'sessions@example.com')
      const c = await signInAs(host.url, 'sessions@example.com')
      const list = await (await a.console('/account')).json()
      expect(list.sessions).toHaveLength(3)
      expect(list.sessions.filter((s: any) => s.current)).toHaveLength(1)
      expect(list.sessions[0]).toMatchObject({ createdAt: expect.any(String), lastSeenAt: expect.any(String), ip: expect.stringMatching(/127\.0\.0\.1/) })
      const bId = (await (await b.console('/me')).json()).sessionId
      expect((await a.console(`/account/sessions/${bId}/revoke`, { body: {} })).status).toBe(200)
      const revoked = await b.console('/me')
      expect(revoked.status).toBe(401)
      expect((await revoked.json()).code).toBe('SIGNED_OUT')
      expect((await c.console('/me')).status).toBe(200)

      expect((await a.console('/account/password', { body: { current: 'wrong password!', password: 'brand new password' } })).status).toBe(401)
      expect((await a.console('/account/password', { body: { current: TEST_PASSWORD, password: 'brand new password' } })).status).toBe(200)
      expect((await c.console('/me')).status).toBe(401)
      expect((await a.console('/me')).status).toBe(200)

      const d = await signInAs(host.url, 'sessions@example.com', 'brand new password')
      expect((await a.console('/account/sessions/revoke-others', { body: {} })).status).toBe(200)
      expect((await d.console('/me')).status).toBe(401)
      // Another user's session cannot be revoked by id.
      const other = await makeUser(host.db, 'someone@example.com').then(() => signInAs(host.url, 'someone@example.com'))
      const otherId = (await (await other.console('/me')).json()).sessionId
      expect((await a.console(`/account/sessions/${otherId}/revoke`, { body: {} })).status).toBe(404)
      expect((await other.console('/me')).status).toBe(200)
    })

    it('e-mails are budgeted per address: the sixth request in a window is 429 for an account and for an unknown address alike', async () => {
      await makeUser(host.db, 'flooded@example.com')
      const before = await mailCount(host, 'flooded@example.com')
      for (const email of ['flooded@example.com', 'ghost-flood@example.com']) {
        for (let i = 0; i < 5; i++) expect((await post(host, i % 2 ? '/auth/reset' : '/auth/link', { email })).status).toBe(200)
      }
      const known = await post(host, '/auth/reset', { email: 'FLOODED@example.com' })
      const ghost = await post(host, '/auth/link', { email: 'ghost-flood@example.com' })
      expect(known.status).toBe(429)
      expect(known.body.code).toBe('TOO_MANY_REQUESTS')
      expect(Number(known.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(ghost.body).toEqual(known.body)
      // Five links were asked for; only the newest of each kind is live, and no sixth was sent.
      expect((await mailCount(host, 'flooded@example.com')) - before).toBeLessThanOrEqual(5)
    })

    it('throttles count before they check: 40 wrong passwords at once get 10 checked and 30 refused unchecked, then even the right one waits', async () => {
      await makeUser(host.db, 'burst@example.com')
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post(host, '/auth/sign-in', { email: 'burst@example.com', password: `wrong password ${i}` })))
      const statuses = answers.map((a) => a.status).sort()
      expect(statuses.filter((s) => s === 401)).toHaveLength(10)
      expect(statuses.filter((s) => s === 429)).toHaveLength(30)
      expect((await post(host, '/auth/sign-in', { email: 'burst@example.com', password: TEST_PASSWORD })).status).toBe(429)
      await host.db.query('delete from auth_throttle')
    })

    counted?.('two processes on one PostgreSQL count together: 40 wrong passwords at once, split between them, get 10 checked', async () => {
      const second = await startTestHost('postgres', { databaseUrl: host.config.databaseUrl, queueConcurrency: 0 })
      try {
        await makeUser(host.db, 'burst2@example.com')
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) => post(i % 2 ? second : host, '/auth/sign-in', { email: 'burst2@example.com', password: `wrong password ${i}` })),
        )
        expect(answers.filter((a) => a.status === 401)).toHaveLength(10)
        expect(answers.filter((a) => a.status === 429)).toHaveLength(30)
      } finally {
        await second.stop()
        await host.db.query('delete from auth_throttle')
      }
    })

    it('each factor keeps its own count: right passwords between wrong codes never reset the count of codes (password + TOTP, password + recovery code)', async () => {
      await makeUser(host.db, 'factors@example.com')
      const full = await signInAs(host.url, 'factors@example.com')
      const { secret } = await (await full.console('/account/totp/setup', { body: {} })).json()
      expect((await full.console('/account/totp/confirm', { body: { code: codeFor(secret) } })).status).toBe(200)
      const statuses: number[] = []
      for (let round = 0; round < 4; round++) {
        // The right password each time: a new half session, which must not clear the wrong codes.
        const half = await post(host, '/auth/sign-in', { email: 'factors@example.com', password: TEST_PASSWORD })
        expect(half.body).toEqual({ secondFactorDue: true })
        const guesser = await clientFor(host, half.cookie)
        statuses.push((await guesser.console('/auth/second-factor/totp', { body: { code: '000000' } })).status)
        statuses.push((await guesser.console('/auth/second-factor/recovery', { body: { code: 'aaaa-bbbb-cccc-dddd' } })).status)
        statuses.push((await guesser.console('/auth/second-factor/totp', { body: { code: '999999' } })).status)
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true)
      expect(statuses.slice(10)).toEqual([429, 429])
      // The password's own count is untouched by the codes: the owner still signs in (half way).
      expect((await post(host, '/auth/sign-in', { email: 'factors@example.com', password: TEST_PASSWORD })).body).toEqual({ secondFactorDue: true })
      await host.db.query('delete from auth_throttle')
    })

    rule?.('a sign-in ends the session the browser held: no token known before it (planted, or half signed in) carries over', async () => {
      await makeUser(host.db, 'planted@example.com')
      const known = await post(host, '/auth/sign-in', { email: 'planted@example.com', password: TEST_PASSWORD })
      const me = (cookie: string) => fetch(`${host.url}/api/console/me`, { headers: { cookie } })
      expect((await me(known.cookie)).status).toBe(200)
      const again = await post(host, '/auth/sign-in', { email: 'planted@example.com', password: TEST_PASSWORD }, known.cookie)
      expect(again.cookie).not.toBe(known.cookie)
      expect((await me(known.cookie)).status).toBe(401)
      expect((await me(again.cookie)).status).toBe(200)
    })

    rule?.('a stolen session alone adds no passkey, sets up no two-factor, makes no recovery codes: a fresh proof is asked, and gives a new cookie; a reset lists the passkeys', async () => {
      await makeUser(host.db, 'stolen@example.com')
      const owner = await signInAs(host.url, 'stolen@example.com')
      // The session was opened long ago (a cookie taken from the browser).
      await host.db.query(`update user_sessions set proved_at = now() - interval '1 hour' where user_id = (select id from users where email = 'stolen@example.com')`)
      for (const path of ['/account/passkeys/options', '/account/totp/setup']) {
        const res = await owner.console(path, { body: {} })
        expect([res.status, (await res.json()).code], path).toEqual([403, 'FRESH_PROOF_REQUIRED'])
      }
      const register = await owner.console('/account/passkeys', { body: { challengeId: 'x', response: {}, name: 'thief' } })
      expect([register.status, (await register.json()).code]).toEqual([403, 'FRESH_PROOF_REQUIRED'])
      expect(await host.db.query(`select 1 from auth_challenges a join users u on u.id = a.user_id where u.email = 'stolen@example.com'`)).toEqual([])
      expect((await owner.console('/account/confirm', { body: { password: 'not the password' } })).status).toBe(401)
      const confirmed = await owner.console('/account/confirm', { body: { password: TEST_PASSWORD } })
      expect(confirmed.status).toBe(200)
      // A new cookie for the proven session; the one seen before the proof opens nothing.
      expect((await owner.console('/me')).status).toBe(401)
      const proven = await clientFor(host, sessionCookieOf(confirmed))
      expect((await proven.console('/account/passkeys/options', { body: {} })).status).toBe(200)
      const { secret } = await (await proven.console('/account/totp/setup', { body: {} })).json()
      expect((await proven.console('/account/totp/confirm', { body: { code: codeFor(secret) } })).status).toBe(200)
      await host.db.query(`update user_sessions set proved_at = now() - interval '1 hour' where user_id = (select id from users where email = 'stolen@example.com')`)
      const codes = await proven.console('/account/recovery-codes', { body: {} })
      expect([codes.status, (await codes.json()).code]).toEqual([403, 'FRESH_PROOF_REQUIRED'])

      // A passkey registered meanwhile is named to the owner when they reset the password.
      const [user] = await host.db.query<{ id: string }>(`select id from users where email = 'stolen@example.com'`)
      await host.db.query(`insert into passkeys (id, user_id, public_key, counter, transports, name) values ('cred-thief', $1, $2, 0, '[]', 'Not mine')`, [user!.id, Buffer.from([1])])
      await post(host, '/auth/reset', { email: 'stolen@example.com' })
      const reset = await lastMail(host, 'stolen@example.com', 'reset')
      const done = await post(host, '/auth/reset/complete', { link: reset!.link, password: 'a fresh password 9' })
      expect(done.status).toBe(200)
      expect(done.body.passkeys).toEqual([expect.objectContaining({ id: 'cred-thief', name: 'Not mine' })])
      await host.db.query('delete from auth_throttle')
    })

    rule?.('bad input on every account route is a 4xx with {message, code}, and changes nothing', async () => {
      await makeUser(host.db, 'hostile@example.com')
      const me = await signInAs(host.url, 'hostile@example.com')
      const before = await host.db.query('select password_hash, name, totp_secret from users where email = $1', ['hostile@example.com'])
      const bodies: unknown[] = [null, [], 'text', { email: 42 }, { link: 'x'.repeat(500) }, { code: {} }, { challengeId: 'nope', response: { id: 7 } }, { name: 'x'.repeat(300) }]
      const paths = [
        '/auth/sign-up', '/auth/verify', '/auth/reset', '/auth/reset/complete', '/auth/link', '/auth/link/complete', '/auth/passkey/verify',
        '/auth/second-factor/totp', '/auth/second-factor/recovery', '/auth/second-factor/passkey/verify',
        '/account/name', '/account/password', '/account/totp/confirm', '/account/totp/disable', '/account/passkeys', '/account/sessions/nope/revoke',
      ]
      for (const path of paths) {
        for (const body of bodies) {
          const res = await me.console(path, { body })
          const text = await res.text()
          expect(res.status, `${path} ${JSON.stringify(body)}: ${text}`).toBeGreaterThanOrEqual(400)
          expect(res.status, `${path} ${JSON.stringify(body)}: ${text}`).toBeLessThan(500)
          expect(JSON.parse(text), path).toMatchObject({ message: expect.any(String), code: expect.any(String) })
        }
      }
      for (const [method, path] of [['PATCH', '/account/passkeys/nope'], ['DELETE', '/account/passkeys/nope']] as const) {
        const res = await me.console(path, { method, body: { name: 'x' } })
        expect(res.status).toBe(404)
      }
      expect(await host.db.query('select password_hash, name, totp_secret from users where email = $1', ['hostile@example.com'])).toEqual(before)
      expect((await me.console('/me')).status).toBe(200)
    })
  })
}

describe('open sign-up (pglite)', () => {
  let host: TestHost
  beforeAll(async () => {
    host = await startTestHost('pglite', { signup: 'open' })
  })
  afterAll(() => host?.stop())

  it('anyone may sign up with SIGNUP=open, into no team, even the first', async () => {
    expect((await post(host, '/auth/sign-up', { email: 'stranger@example.com', password: TEST_PASSWORD })).status).toBe(200)
    const link = (await lastMail(host, 'stranger@example.com', 'verify'))!.link
    const res = await post(host, '/auth/verify', { link, password: TEST_PASSWORD })
    const stranger = await clientFor(host, res.cookie)
    expect((await (await stranger.console('/me')).json()).teams).toEqual([])
    // An open instance lets them found a team of their own.
    expect((await stranger.console('/teams', { body: { name: 'Theirs' } })).status).toBe(200)
  })
})
