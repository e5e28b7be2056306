/**
 * Recipient authentication: each access method (none, ACCOUNT,
 * TWO_FACTOR_AUTH) × each action method (none, ACCOUNT, PASSWORD, TWO_FACTOR_AUTH, PASSKEY or
 * PASSWORD) × set on the recipient or on the envelope × sign, approve and reject. Nothing of the
 * document is answered before the access check; no signature or approval counts without its
 * action proof, and a rejection needs none (the access check only); the audit
 * log says which method was used. Then the abuse limits: codes single-use and bounded, a lock
 * after repeated failures that the sender sees, and no code in any job or table.
 * Databases: the embedded one for the API's rules; both for the throttles, counted in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { CODE_RESEND_MS, CODES_PER_RECIPIENT } from '../../host/server/domain/signing/proof-binding.js'
import { createUser } from '../../host/server/people/users.js'
import { makeUser, TEST_PASSWORD } from '../support/console-client.js'
import { api, createEnvelope, SIGNATURE, startTestHost, until, VARIANTS, type Api, type TestHost } from './support.js'

const ACCESS = [[], ['ACCOUNT'], ['TWO_FACTOR_AUTH']] as const
const ACTION = [[], ['ACCOUNT'], ['PASSWORD'], ['TWO_FACTOR_AUTH'], ['PASSKEY', 'PASSWORD']] as const
const FIELD = { type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }

describe.each(VARIANTS)('recipient authentication on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  // Driven past the least time between two codes where a test asks for another at once.
  const clock = drivenClock()
  /** The API's rules are declared on the embedded database only (the SQL is the same on both). */
  const rule = !skip && variant === 'pglite' ? it : undefined

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant, { queuePollMs: 20, clock })
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'auth' })).token}`)
  }, 60_000)
  afterAll(async () => {
    await host?.stop()
  })

  /** The newest code mailed to `to` (for `recipientId` when given: another envelope may mail the same address at once). */
  async function mailedCode(to: string, after: number, recipientId?: number): Promise<string> {
    let code: string | undefined
    await until(async () => {
      const [row] = await host.db.query<{ id: number; text: string }>(
        `select id, text from mails where to_address = $1 and template = 'recipient-code' and id > $2 ${recipientId === undefined ? '' : 'and recipient_id = $3'} order by id desc limit 1`,
        recipientId === undefined ? [to, after] : [to, after, recipientId],
      )
      code = row && /\b(\d{6})\b/.exec(row.text)![1]!
      return code !== undefined
    }, 120_000).catch(() => {
      throw new Error(`no code was mailed to ${to}`)
    })
    return code!
  }
  const lastMail = async () => (await host.db.query<{ id: number }>('select coalesce(max(id), 0)::int as id from mails'))[0]!.id

  /** A signer's API: its token, and the grant once it has one. */
  function recipientApi(token: string, recipientId?: number) {
    let grant: string | undefined
    const headers = (): Record<string, string> => (grant ? { 'x-recipient-auth': grant } : {})
    const base = api(`${host.url}/api/signing`, `Bearer ${token}`)
    return {
      get: (p: string) => base.get(p, headers()),
      post: (p: string, body?: object) => base.post(p, body ?? {}, headers()),
      setGrant: (g: string) => void (grant = g),
      grant: () => grant,
      recipientId,
    }
  }
  type RecipientApi = ReturnType<typeof recipientApi>

  async function passAccess(s: RecipientApi, email: string, methods: readonly string[]) {
    if (!methods.length) return
    const method = methods[0]!
    if (method === 'TWO_FACTOR_AUTH') {
      const after = await lastMail()
      const sent = await s.post('/auth/code', { purpose: 'access' })
      expect(sent.status, JSON.stringify(sent.body)).toBe(200)
      expect(sent.body.sentTo).toMatch(/^\w\*+@example\.com$/)
      const code = await mailedCode(email, after, s.recipientId)
      const wrong = await s.post('/auth/access', { method, code: code === '000000' ? '111111' : '000000' })
      expect([wrong.status, wrong.body.code]).toEqual([401, 'AUTH_FAILED'])
      const ok = await s.post('/auth/access', { method, code })
      expect(ok.status, JSON.stringify(ok.body)).toBe(200)
      s.setGrant(ok.body.grant)
      // Single use.
      expect((await s.post('/auth/access', { method, code })).body.code).toBe('CODE_EXPIRED')
    } else {
      expect((await s.post('/auth/access', { method, password: 'not the password' })).body.code).toBe('AUTH_FAILED')
      const ok = await s.post('/auth/access', { method, password: TEST_PASSWORD })
      expect(ok.status, JSON.stringify(ok.body)).toBe(200)
      s.setGrant(ok.body.grant)
    }
  }

  /** The proof of `methods[0]` (of `methods[1]` after a refused passkey). */
  async function proofFor(s: RecipientApi, email: string, methods: readonly string[], act: (auth: object) => Promise<{ status: number; body: any }>, alreadySignedIn: boolean) {
    let method = methods[0]!
    if (method === 'PASSKEY') {
      // This recipient has no passkey: a made-up assertion fails; any of the methods will do, so the password does.
      const bogus = await act({ method: 'PASSKEY', passkey: { challengeId: 'x', response: { id: 'nope', rawId: 'nope', type: 'public-key', response: {} } } })
      expect([bogus.status, bogus.body.code]).toEqual([401, 'AUTH_FAILED'])
      method = methods[1]!
    }
    if (method === 'PASSWORD') {
      expect((await act({ method, password: 'wrong password' })).body.code).toBe('AUTH_FAILED')
      return { method, password: TEST_PASSWORD }
    }
    if (method === 'TWO_FACTOR_AUTH') {
      const after = await lastMail()
      expect((await s.post('/auth/code', { purpose: 'action' })).status).toBe(200)
      return { method, code: await mailedCode(email, after, s.recipientId) }
    }
    // ACCOUNT: signed in on this page (a grant for the account), for the access check or now.
    if (alreadySignedIn) return { method: 'ACCOUNT' }
    expect((await act({ method: 'ACCOUNT' })).body.code).toBe('AUTH_REQUIRED')
    const signedIn = await s.post('/auth/access', { method: 'ACCOUNT', password: TEST_PASSWORD })
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
    s.setGrant(signedIn.body.grant)
    return { method: 'ACCOUNT' }
  }

  const levels = ['recipient', 'envelope'] as const
  const combos = ACCESS.flatMap((access) => ACTION.flatMap((action) => levels.map((level) => ({ access, action, level }))))

  rule?.(
    `every access method × every action method × ${levels.join(' or ')} level × sign, approve, reject (${combos.length} envelopes)`,
    async () => {
      // The same three people (and accounts) in every combination; each has its own envelope, links and codes.
      const emails = ['signer@example.com', 'approver@example.com', 'rejecter@example.com']
      for (const email of emails) await makeUser(host.db, email)
      const walk = async ({ access, action, level }: (typeof combos)[number]) => {
        const what = `access ${access.join('|') || 'none'}, action ${action.join('|') || 'none'}, on the ${level}`
        const own = level === 'recipient' ? { accessAuth: [...access], actionAuth: [...action] } : {}
        const e = await createEnvelope(client, {
          type: 'DOCUMENT',
          title: what,
          ...(level === 'envelope' ? { globalAccessAuth: [...access], globalActionAuth: [...action] } : {}),
          recipients: [
            { email: emails[0], name: 'Signer', role: 'SIGNER', ...own, fields: [FIELD] },
            { email: emails[1], name: 'Approver', role: 'APPROVER', ...own },
            { email: emails[2], name: 'Rejecter', role: 'SIGNER', ...own, fields: [FIELD] },
          ],
        })
        const sent = await client.post('/envelope/distribute', { envelopeId: e.id })
        expect(sent.status, what).toBe(200)
        for (const [i, op] of (['sign', 'approve', 'reject'] as const).entries()) {
          const s = recipientApi(sent.body.recipients[i].token, sent.body.recipients[i].id)
          const email = emails[i]!
          const info = (await s.get('/auth')).body
          expect(info, what).toMatchObject({ access: { required: [...access], satisfied: access.length === 0 }, action: { required: [...action] } })
          if (access.length) {
            for (const door of ['/session', '/item/' + e.envelopeItems[0].id]) expect((await s.get(door)).body.code, `${what}: ${door}`).toBe('AUTH_REQUIRED')
            expect((await s.post('/open')).status).toBe(401)
            if (op === 'reject') expect((await s.post('/reject', { reason: 'Not mine' })).body.code, `${what}: reject before access`).toBe('AUTH_REQUIRED')
          }
          await passAccess(s, email, access)
          const session = await s.get('/session')
          expect(session.status, what).toBe(200)
          expect((await s.post('/open')).status).toBe(200)
          const act = (auth?: object) =>
            op === 'reject'
              ? s.post('/reject', { reason: 'Not mine', ...(auth ? { auth } : {}) })
              : s.post('/complete', { fields: session.body.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })), ...(auth ? { auth } : {}) })
          let used: string[] = []
          // Rejecting needs the access check only, whatever the action methods: no signer is kept from saying no.
          if (action.length && op !== 'reject') {
            expect((await act()).body.code, `${what}: ${op} without proof`).toBe('AUTH_REQUIRED')
            const proof = await proofFor(s, email, action, act, access[0] === 'ACCOUNT')
            used = [(proof as { method: string }).method]
            const done = await act(proof)
            expect(done.status, `${what}: ${op}: ${JSON.stringify(done.body)}`).toBe(200)
          } else expect((await act()).status, `${what}: ${op}`).toBe(200)

          const log = await host.db.query<{ type: string; data: any }>('select type, data from audit_logs where envelope_id = $1 and recipient_id = $2 order by id', [
            e.id,
            sent.body.recipients[i].id,
          ])
          expect(log.find((l) => l.type === 'DOCUMENT_OPENED')?.data.accessAuth, what).toEqual(access.length ? [access[0]] : [])
          const acted = log.find((l) => l.type === (op === 'reject' ? 'DOCUMENT_RECIPIENT_REJECTED' : 'DOCUMENT_RECIPIENT_COMPLETED'))
          expect(acted?.data.actionAuth, `${what}: ${op}`).toEqual(used)
        }
      }
      // A few combinations at a time: each makes at most 2 failures per account and factor, 7 per
      // network address and 5 code mails, well under the limits (10, 50, 30) four at once reach.
      for (let i = 0; i < combos.length; i += 4) {
        await Promise.all(combos.slice(i, i + 4).map(walk))
        // Each batch starts with a clean slate of failed attempts.
        await host.db.query('delete from auth_throttle')
      }
    },
    600_000,
  )

  rule?.('EXPLICIT_NONE on a recipient lifts the envelope\'s action method; a grant is bound to its link', async () => {
    const e = await createEnvelope(client, {
      type: 'DOCUMENT',
      globalActionAuth: ['PASSWORD'],
      globalAccessAuth: ['TWO_FACTOR_AUTH'],
      recipients: [
        { email: 'free@example.com', name: 'Free', role: 'SIGNER', actionAuth: ['EXPLICIT_NONE'], fields: [FIELD] },
        { email: 'other@example.com', name: 'Other', role: 'SIGNER', fields: [FIELD] },
      ],
    })
    const sent = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    const free = recipientApi(sent.recipients[0].token)
    expect((await free.get('/auth')).body).toMatchObject({ access: { required: ['TWO_FACTOR_AUTH'] }, action: { required: [] } })
    await passAccess(free, 'free@example.com', ['TWO_FACTOR_AUTH'])
    const session = await free.get('/session')
    expect((await free.post('/complete', { fields: session.body.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) })).status).toBe(200)
    // The free recipient's grant opens nothing of the other's.
    const other = recipientApi(sent.recipients[1].token)
    other.setGrant(free.grant()!)
    expect((await other.get('/session')).body.code).toBe('AUTH_REQUIRED')
    expect((await other.get('/auth')).body.access.satisfied).toBe(false)
  })

  rule?.('codes: bounded resends, spent after five wrong tries; ten failures lock the recipient, and the sender sees it; no code in jobs', async () => {
    const e = await createEnvelope(client, {
      type: 'DOCUMENT',
      recipients: [{ email: 'guess@example.com', name: 'Guess', role: 'SIGNER', accessAuth: ['TWO_FACTOR_AUTH'], fields: [FIELD] }],
    })
    const sent = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    const s = recipientApi(sent.recipients[0].token)
    const after = await lastMail()
    expect((await s.post('/auth/code', { purpose: 'access' })).status).toBe(200)
    const code = await mailedCode('guess@example.com', after)
    const jobs = await host.db.query<{ payload: unknown }>(`select payload from jobs where kind = 'recipient-code'`)
    expect(JSON.stringify(jobs)).not.toContain(code)
    expect(JSON.stringify(await host.db.query('select * from recipient_auth_codes'))).not.toContain(code)
    const wrong = code === '000000' ? '999999' : '000000'
    for (let i = 0; i < 5; i++) expect((await s.post('/auth/access', { method: 'TWO_FACTOR_AUTH', code: wrong })).body.code).toBe('AUTH_FAILED')
    // Five wrong tries spend the code: the right one no longer works.
    expect((await s.post('/auth/access', { method: 'TWO_FACTOR_AUTH', code })).body.code).toBe('CODE_EXPIRED')
    // Another code at once is refused with the time to wait, and spends nothing of the budget.
    const early = await s.post('/auth/code', { purpose: 'access' })
    expect([early.status, early.body.code]).toEqual([429, 'CODE_COOLDOWN'])
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(early.headers.get('retry-after'))).toBeLessThanOrEqual(CODE_RESEND_MS / 1000)
    // After the wait, more codes may be sent up to the budget of the window; then refused.
    for (let i = 1; i < CODES_PER_RECIPIENT; i++) {
      clock.advance(CODE_RESEND_MS)
      const next = await s.post('/auth/code', { purpose: 'access' })
      expect(next.status).toBe(200)
      expect(Date.parse(next.body.resendAt)).toBeGreaterThan(clock.now().getTime())
    }
    clock.advance(CODE_RESEND_MS)
    const tooMany = await s.post('/auth/code', { purpose: 'access' })
    expect([tooMany.status, tooMany.body.code]).toEqual([429, 'TOO_MANY_REQUESTS'])
    // Five more failures (ten in all) lock the recipient: told when to try again.
    let last = { status: 0, body: {} as any, headers: new Headers() }
    for (let i = 0; i < 6 && last.status !== 429; i++) last = await s.post('/auth/access', { method: 'TWO_FACTOR_AUTH', code: wrong }) as typeof last
    expect([last.status, last.body.code]).toEqual([429, 'TOO_MANY_ATTEMPTS'])
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(60)
    const locked = await host.db.query<{ data: any }>(`select data from audit_logs where envelope_id = $1 and type = 'RECIPIENT_AUTH_LOCKED'`, [e.id])
    expect(locked).toHaveLength(1)
    expect(locked[0]!.data).toMatchObject({ recipientEmail: 'guess@example.com', until: expect.any(String) })
    const audit = (await client.get(`/envelope/${e.id}/audit-log?include=all`)).body
    expect(JSON.stringify(audit)).toContain('RECIPIENT_AUTH_LOCKED')
    // Nothing asks for a code where none is needed, and a forged grant opens nothing.
    const plain = await createEnvelope(client, { type: 'DOCUMENT', recipients: [{ email: 'p@example.com', name: 'P', role: 'SIGNER', fields: [FIELD] }] })
    const p = recipientApi((await client.post('/envelope/distribute', { envelopeId: plain.id })).body.recipients[0].token)
    expect((await p.post('/auth/code', { purpose: 'access' })).status).toBe(400)
    s.setGrant(`${sent.recipients[0].id}.TWO_FACTOR_AUTH.${Math.floor(Date.now() / 1000) + 3600}.forged`)
    expect((await s.get('/session')).body.code).toBe('AUTH_REQUIRED')
  })

  rule?.('a direct link: the visitor proves the link recipient\'s methods for their own address before the document is made', async () => {
    const t = await createEnvelope(client, {
      type: 'TEMPLATE',
      title: 'Membership form',
      recipients: [{ email: 'member@example.com', name: 'Member', role: 'SIGNER', accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: ['PASSWORD'], fields: [FIELD] }],
    })
    const link = (await client.post('/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: t.recipients[0].id })).body
    const visitor = 'walk-in@example.com'
    await makeUser(host.db, visitor)
    const d = api(`${host.url}/api/signing/direct`, `Bearer ${link.token}`)
    expect((await d.get('/auth')).body).toMatchObject({ access: { required: ['TWO_FACTOR_AUTH'] }, action: { required: ['PASSWORD'] } })
    const session = (await d.get('/session')).body
    const body = (extra: object) => ({ signer: { name: 'Walk In', email: visitor }, fields: session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })), ...extra })
    const documents = async () => (await host.db.query<{ n: number }>(`select count(*)::int as n from envelopes where type = 'DOCUMENT'`))[0]!.n
    const before = await documents()
    expect((await d.post('/complete', body({}))).body.code).toBe('AUTH_REQUIRED')

    const code = async () => {
      const after = await lastMail()
      clock.advance(CODE_RESEND_MS) // the page's wait between two codes
      expect((await d.post('/auth/code', { email: visitor, purpose: 'access' })).body.sentTo).toMatch(/^w\*+@example\.com$/)
      return mailedCode(visitor, after)
    }
    // A code for another address proves nothing for this one.
    const other = await lastMail()
    await d.post('/auth/code', { email: 'someone@example.com', purpose: 'access' })
    const theirs = await mailedCode('someone@example.com', other)
    expect((await d.post('/complete', body({ access: { method: 'TWO_FACTOR_AUTH', code: theirs } }))).body.code).toMatch(/CODE_EXPIRED|AUTH_FAILED/)
    // The code alone does not prove the password.
    expect((await d.post('/complete', body({ access: { method: 'TWO_FACTOR_AUTH', code: await code() } }))).body.code).toBe('AUTH_REQUIRED')
    expect(await documents()).toBe(before)

    const done = await d.post('/complete', body({ access: { method: 'TWO_FACTOR_AUTH', code: await code() }, auth: { method: 'PASSWORD', password: TEST_PASSWORD } }))
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body.grant).toEqual(expect.any(String))
    expect(await documents()).toBe(before + 1)
    const log = await host.db.query<{ type: string; data: any }>('select type, data from audit_logs where envelope_id = $1 order by id', [done.body.envelopeId])
    expect(log.find((l) => l.type === 'DOCUMENT_OPENED')?.data.accessAuth).toEqual(['TWO_FACTOR_AUTH'])
    expect(log.find((l) => l.type === 'DOCUMENT_RECIPIENT_COMPLETED')?.data.actionAuth).toEqual(['PASSWORD'])
    // Their own link, with the grant the answer carries, shows them the document they made.
    const own = api(`${host.url}/api/signing`, `Bearer ${done.body.token}`)
    expect((await own.get('/session')).body.code).toBe('AUTH_REQUIRED')
    expect((await own.get('/session', { 'x-recipient-auth': done.body.grant })).body.state).toBe('COMPLETED')
  })

  rule?.('an account is made from the page only with a code e-mailed to the address: the link alone (which the sender holds too) makes none', async () => {
    const make = async (email: string, meta: object, auth: object = { accessAuth: ['ACCOUNT'] }) => {
      const e = await createEnvelope(client, { type: 'DOCUMENT', meta, recipients: [{ email, name: 'New', role: 'SIGNER', ...auth, fields: [FIELD] }] })
      return recipientApi((await client.post('/envelope/distribute', { envelopeId: e.id })).body.recipients[0].token)
    }
    const users = async (email: string) => host.db.query<{ email_verified_at: Date | null; teams: number }>(
      'select email_verified_at, (select count(*)::int from team_members m where m.user_id = u.id) as teams from users u where email = $1',
      [email],
    )
    // The sender's own link (handed over, or the one it sent): no code, no account, whatever it tries.
    for (const [email, meta] of [['victim@example.com', { distributionMethod: 'NONE' }], ['victim2@example.com', {}]] as const) {
      const sender = await make(email, meta, { actionAuth: ['PASSWORD'] })
      expect((await sender.post('/auth/account', { password: TEST_PASSWORD })).status).toBe(400)
      expect((await sender.post('/auth/account', { password: TEST_PASSWORD, code: '123456' })).body.code).toBe('CODE_EXPIRED')
      expect((await sender.post('/auth/code', { purpose: 'account' })).status).toBe(200)
      for (const code of ['000000', '111111']) expect((await sender.post('/auth/account', { password: TEST_PASSWORD, code })).body.code).toMatch(/AUTH_FAILED|CODE_EXPIRED/)
      expect(await users(email)).toEqual([])
    }

    const s = await make('newbie@example.com', {})
    // Nothing of the account is told before the address is proven.
    expect((await s.get('/auth')).body.account).toBeNull()
    const after = await lastMail()
    expect((await s.post('/auth/code', { purpose: 'account' })).body.sentTo).toMatch(/^n\*+@example\.com$/)
    const code = await mailedCode('newbie@example.com', after)
    expect((await s.post('/auth/account', { password: 'short', code })).status).toBe(400)
    const made = await s.post('/auth/account', { name: 'New Bie', password: TEST_PASSWORD, code })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    s.setGrant(made.body.grant)
    expect((await s.get('/session')).status).toBe(200)
    expect((await s.get('/auth')).body.account).toEqual({ exists: true, password: true, totp: false, passkeys: false })
    // Verified, and in no team: nobody joins a team (or becomes its admin) by signing a document.
    expect(await users('newbie@example.com')).toEqual([{ email_verified_at: expect.anything(), teams: 0 }])
    const again = await lastMail()
    clock.advance(CODE_RESEND_MS)
    await s.post('/auth/code', { purpose: 'account' })
    expect((await s.post('/auth/account', { password: TEST_PASSWORD, code: await mailedCode('newbie@example.com', again) })).body.code).toBe('EMAIL_TAKEN')
    // A recipient asked for no account makes none.
    const plain = await make('plain@example.com', {}, {})
    expect((await plain.post('/auth/code', { purpose: 'account' })).status).toBe(400)
  })

  rule?.('a signer asked for a password without an account is never stuck: they reject with no proof, or make the account with an e-mailed code and sign with its password', async () => {
    const asked = async (email: string) => {
      const e = await createEnvelope(client, { type: 'DOCUMENT', recipients: [{ email, name: 'N', role: 'SIGNER', actionAuth: ['PASSWORD'], fields: [FIELD] }] })
      const s = recipientApi((await client.post('/envelope/distribute', { envelopeId: e.id })).body.recipients[0].token)
      return { e, s, fields: (await s.get('/session')).body.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) }
    }
    const a = await asked('no-account-a@example.com')
    const rejected = await a.s.post('/reject', { reason: 'I have no account here' })
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200)
    const [log] = await host.db.query<{ data: any }>(`select data from audit_logs where envelope_id = $1 and type = 'DOCUMENT_RECIPIENT_REJECTED'`, [a.e.id])
    expect(log!.data.actionAuth).toEqual([])

    const b = await asked('no-account-b@example.com')
    expect((await b.s.post('/complete', { fields: b.fields, auth: { method: 'PASSWORD', password: TEST_PASSWORD } })).body.code).toBe('AUTH_FAILED')
    const after = await lastMail()
    expect((await b.s.post('/auth/code', { purpose: 'account' })).status).toBe(200)
    const made = await b.s.post('/auth/account', { password: TEST_PASSWORD, code: await mailedCode('no-account-b@example.com', after) })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    // The code comes from the sender the signing request came from ("{team} via {name}").
    const fromOf = async (template: string) => {
      let from: string | undefined
      await until(async () => {
        const [row] = await host.db.query<{ from_address: string }>('select from_address from mails where to_address = $1 and template = $2', ['no-account-b@example.com', template])
        return (from = row?.from_address) !== undefined
      }, 120_000).catch(() => {})
      return from
    }
    const request = await fromOf('signing-request')
    expect(request).toMatch(/ via /)
    expect(await fromOf('recipient-code')).toBe(request)
    const signed = await b.s.post('/complete', { fields: b.fields, auth: { method: 'PASSWORD', password: TEST_PASSWORD } })
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)

    // An account the address has but cannot use here (never confirmed; confirmed without a
    // password): the e-mailed code sets its password, and the signer signs with it.
    const unconfirmed = 'unconfirmed@example.com'
    await host.db.transaction((tx) => createUser(tx, { email: unconfirmed, password: 'typed by someone else' }))
    const passwordless = 'passwordless@example.com'
    await makeUser(host.db, passwordless)
    await host.db.query('update users set password_hash = null where email = $1', [passwordless])
    for (const email of [unconfirmed, passwordless]) {
      const c = await asked(email)
      const mark = await lastMail()
      expect((await c.s.post('/auth/code', { purpose: 'account' })).status).toBe(200)
      const set = await c.s.post('/auth/account', { password: TEST_PASSWORD, code: await mailedCode(email, mark) })
      expect(set.status, `${email}: ${JSON.stringify(set.body)}`).toBe(200)
      expect((await c.s.post('/complete', { fields: c.fields, auth: { method: 'PASSWORD', password: 'typed by someone else' } })).body.code).toBe('AUTH_FAILED')
      const ok = await c.s.post('/complete', { fields: c.fields, auth: { method: 'PASSWORD', password: TEST_PASSWORD } })
      expect(ok.status, `${email}: ${JSON.stringify(ok.body)}`).toBe(200)
    }
    await host.db.query('delete from auth_throttle')
  })

  rule?.('the link alone tells nothing of the account: GET /auth and the passkey challenge answer alike for an address with an account, TOTP and a passkey, and for one with none', async () => {
    await makeUser(host.db, 'known@example.com')
    const [u] = await host.db.query<{ id: string }>(`update users set totp_secret = 'JBSWY3DPEHPK3PXP', totp_enabled_at = now() where email = 'known@example.com' returning id`)
    await host.db.query(`insert into passkeys (id, user_id, public_key, counter, transports, name) values ('cred-known', $1, $2, 0, '[]', 'Key')`, [u!.id, Buffer.from([1])])
    const answers = []
    for (const email of ['known@example.com', 'unknown@example.com']) {
      const e = await createEnvelope(client, { type: 'DOCUMENT', recipients: [{ email, name: 'R', role: 'SIGNER', accessAuth: ['ACCOUNT'], actionAuth: ['PASSKEY'], fields: [FIELD] }] })
      const r = recipientApi((await client.post('/envelope/distribute', { envelopeId: e.id })).body.recipients[0].token)
      const info = (await r.get('/auth')).body
      const passkey = await r.post('/auth/passkey')
      expect(passkey.status, JSON.stringify(passkey.body)).toBe(200)
      answers.push({ account: info.account, signedIn: info.signedIn, options: Object.keys(passkey.body.options).sort(), allow: passkey.body.options.allowCredentials ?? [] })
    }
    expect(answers[0]).toEqual(answers[1])
    expect(answers[0]).toMatchObject({ account: null, allow: [] })
  })

  it.skipIf(skip)('recipient throttles count before they check, each factor apart: 20 wrong passwords at once get 9 checked and the lock; a console sign-in amid wrong authenticator codes does not reset them', async () => {
    await host.db.query('delete from auth_throttle')
    await makeUser(host.db, 'racer@example.com')
    const e = await createEnvelope(client, { type: 'DOCUMENT', recipients: [{ email: 'racer@example.com', name: 'R', role: 'SIGNER', accessAuth: ['ACCOUNT'], fields: [FIELD] }] })
    const r = recipientApi((await client.post('/envelope/distribute', { envelopeId: e.id })).body.recipients[0].token)
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => r.post('/auth/access', { method: 'ACCOUNT', password: `wrong password ${i}` })))
    const codes = burst.map((b) => b.body.code).sort()
    expect(codes.filter((c) => c === 'AUTH_FAILED')).toHaveLength(9)
    expect(codes.filter((c) => c === 'TOO_MANY_ATTEMPTS')).toHaveLength(11)
    expect(await host.db.query(`select 1 from audit_logs where envelope_id = $1 and type = 'RECIPIENT_AUTH_LOCKED'`, [e.id])).toHaveLength(1)
    await host.db.query('delete from auth_throttle')

    // The account's password is known (to its owner, or to a thief); the authenticator code is not.
    await host.db.query(`update users set totp_secret = 'JBSWY3DPEHPK3PXP', totp_enabled_at = now() where email = 'racer@example.com'`)
    const signIn = () =>
      fetch(`${host.url}/api/console/auth/sign-in`, { method: 'POST', headers: { origin: host.url, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'racer@example.com', password: TEST_PASSWORD }) })
    const answers: string[] = []
    for (let i = 0; i < 11; i++) {
      // Halfway, the password signs in to the console: a success of one factor, not of the other.
      if (i === 5) expect((await signIn()).status).toBe(200)
      answers.push((await r.post('/auth/access', { method: 'ACCOUNT', password: TEST_PASSWORD, code: i % 2 ? '000000' : '999999' })).body.code)
    }
    expect(answers.slice(0, 9)).toEqual(Array(9).fill('AUTH_FAILED'))
    expect(answers.slice(9)).toEqual(['TOO_MANY_ATTEMPTS', 'TOO_MANY_ATTEMPTS'])
    await host.db.query('delete from auth_throttle')
  })
})
