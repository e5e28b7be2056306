/**
 * Proof binding, as one class (domain/signing/proof-binding.ts): every proof about a
 * recipient names the recipient's id, address, token and the proof's purpose, and no proof
 * survives a change of any of them, whichever door made the change.
 *
 * The attack first, as it worked: a sender asks for the account code of a recipient at their own
 * inbox, reads it, moves the recipient to a stranger's address and makes the stranger's account.
 *
 * Then the class: PROOFS lists every proof and the route that takes it; DOORS lists every way a
 * recipient's address or token changes (corrections through API v2, the deprecated route, API v1
 * and the console; template and draft edits; a signer naming the next signer). For each door,
 * every proof the recipient could be given before the change is given, the change is made, and
 * each proof is refused at its route after. A direct link's visitor (another address typed, the
 * link made again), a real passkey assertion carried to another recipient's page, and
 * redistribute (which changes neither address nor token, so its proofs stand) follow.
 *
 * Database: the embedded one (API rules). A host of its own: a driven clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CODE_RESEND_MS, passkeyBinding, recipientSubject } from '../../host/server/domain/signing/proof-binding.js'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { userByEmail } from '../../host/server/people/users.js'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { softPasskey } from './soft-passkey.js'
import { api, createEnvelope, makePdf, SIGNATURE, startTestHost, until, type Api, type TestHost } from './support.js'

const FIELD = { type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }
/** What the recipient under test is asked: a code to open, and a code, a password or a passkey to sign. */
const AUTH = { accessAuth: ['TWO_FACTOR_AUTH'], actionAuth: ['TWO_FACTOR_AUTH', 'PASSWORD', 'PASSKEY'] }
const ATTACKER = 'sender.inbox@example.com'
const NEW_PASSWORD = 'a password the victim never chose'

/** Every proof about a recipient, and the route that takes it. */
const PROOFS = {
  accessCode: 'POST /api/signing/auth/access {method: TWO_FACTOR_AUTH, code}',
  actionCode: 'POST /api/signing/complete {auth: {method: TWO_FACTOR_AUTH, code}}',
  accountCode: 'POST /api/signing/auth/account {password, code}',
  grant: 'X-Recipient-Auth on GET /api/signing/session (and every route behind the access check)',
  consent: 'RECIPIENT_CONSENT_GIVEN, required by POST /api/signing/complete (GET /api/signing/consent)',
  passkeyChallenge: 'POST /api/signing/auth/passkey, answered in POST /api/signing/complete {auth: {method: PASSKEY}}',
  directCode: 'POST /api/signing/direct/auth/account and /direct/complete {access: {code}} (a direct link visitor)',
} as const

describe('proof binding on pglite', () => {
  let host: TestHost
  let client: Api
  let v1: Api
  let consoleUser: ConsoleClient
  const clock = drivenClock()
  let n = 0

  beforeAll(async () => {
    host = await startTestHost('pglite', { queuePollMs: 20, clock })
    const team = await host.createTeam({ name: 'Senders', plan: 'team' })
    const { token } = await host.createApiToken({ name: 'sender', teamId: team.id })
    client = api(host.apiUrl, `Bearer ${token}`)
    v1 = api(`${host.url}/api/v1`, token)
    await makeUser(host.db, 'operator@example.com')
    await makeUser(host.db, 'admin@senders.example', { teamId: team.id, role: 'ADMIN' })
    consoleUser = await signInAs(host.url, 'admin@senders.example')
  })
  afterAll(async () => {
    await host?.stop()
  })

  /** A new window for the per-recipient and per-address budgets: each case asks for its own codes. */
  const freshWindow = () => clock.advance(16 * 60_000)
  const lastMail = async () => (await host.db.query<{ id: number }>('select coalesce(max(id), 0)::int as id from mails'))[0]!.id
  /** The newest code mailed to `to` after mail `after`: what the owner of that inbox reads. */
  async function mailedCode(to: string, after: number): Promise<string> {
    let code: string | undefined
    await until(async () => {
      const [row] = await host.db.query<{ text: string }>(`select text from mails where to_address = $1 and template = 'recipient-code' and id > $2 order by id desc limit 1`, [to, after])
      return (code = row && /\b(\d{6})\b/.exec(row.text)![1]!) !== undefined
    }, 120_000).catch(() => {
      throw new Error(`no code was mailed to ${to}`)
    })
    return code!
  }
  const recipientRow = async (id: number) => (await host.db.query<{ email: string; token: string }>('select email, token from recipients where id = $1', [id]))[0]!
  /** The signing API of `token`, with a grant when given; consent is given only where a case says so. */
  const signing = (token: string, grant?: string) => {
    const base = api(`${host.url}/api/signing`, `Bearer ${token}`, { consent: false })
    const h: Record<string, string> = grant ? { 'x-recipient-auth': grant } : {}
    return { get: (p: string) => base.get(p, h), post: (p: string, body: object = {}) => base.post(p, body, h) }
  }
  /** Asks `token`'s code of `purpose` (mailed to `to`) and reads it. */
  async function askCode(token: string, purpose: 'access' | 'action' | 'account', to: string, grant?: string): Promise<string> {
    const after = await lastMail()
    clock.advance(CODE_RESEND_MS) // the page's wait between two codes
    const res = await signing(token, grant).post('/auth/code', { purpose })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return mailedCode(to, after)
  }
  async function grantFor(token: string, to: string): Promise<string> {
    const code = await askCode(token, 'access', to)
    const res = await signing(token).post('/auth/access', { method: 'TWO_FACTOR_AUTH', code })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.grant
  }

  it('an account code read by the sender makes no account after the address moves to a stranger', async () => {
    freshWindow()
    const victim = `victim${++n}@example.com`
    const e = await createEnvelope(client, { recipients: [{ email: ATTACKER, name: 'Me', role: 'SIGNER', actionAuth: ['PASSWORD'], fields: [FIELD] }] })
    const sent = await client.post('/envelope/distribute', { envelopeId: e.id })
    expect(sent.status).toBe(200)
    const r = sent.body.recipients[0] as { id: number; token: string }
    const code = await askCode(r.token, 'account', ATTACKER)

    const moved = await client.post('/envelope/recipient/update-many', { envelopeId: e.id, data: [{ id: r.id, email: victim }] })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    // The sender sees the recipient's new link.
    const { token } = await recipientRow(r.id)

    const made = await signing(token).post('/auth/account', { password: NEW_PASSWORD, code })
    expect([made.status, made.body.code], JSON.stringify(made.body)).toEqual([400, 'CODE_EXPIRED'])
    expect(await userByEmail(host.db, victim)).toBeNull()
    const signIn = await fetch(`${host.url}/api/console/auth/sign-in`, {
      method: 'POST',
      headers: { origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: victim, password: NEW_PASSWORD }),
    })
    expect(signIn.status).not.toBe(200)
  })

  /**
   * Every way a recipient's address or token changes. `make` gives a recipient at the sender's
   * inbox, asked AUTH, and its link; `change` moves it to `to`; `ready`: the recipient may consent
   * before the change (a pending document whose turn it is).
   */
  interface Door {
    name: string
    make(): Promise<{ id: number; token: string; change(to: string): Promise<void>; ready: boolean }>
  }
  const pendingDocument = async () => {
    const e = await createEnvelope(client, { recipients: [{ email: ATTACKER, name: 'Me', role: 'SIGNER', ...AUTH, fields: [FIELD] }] })
    const sent = await client.post('/envelope/distribute', { envelopeId: e.id })
    expect(sent.status).toBe(200)
    const r = sent.body.recipients[0] as { id: number; token: string }
    const number = Number((await client.get(`/envelope/${e.id}`)).body.secondaryId.split('_')[1])
    return { envelopeId: e.id as string, number, ...r }
  }
  const ok = (res: { status: number; body: unknown }) => expect(res.status, JSON.stringify(res.body)).toBe(200)
  const DOORS: Door[] = [
    {
      name: 'correction through API v2 (POST /api/v2/envelope/recipient/update-many)',
      make: async () => {
        const d = await pendingDocument()
        return { ...d, ready: true, change: async (to) => ok(await client.post('/envelope/recipient/update-many', { envelopeId: d.envelopeId, data: [{ id: d.id, email: to }] })) }
      },
    },
    {
      name: 'correction through the deprecated door (POST /api/v2/document/recipient/update)',
      make: async () => {
        const d = await pendingDocument()
        return { ...d, ready: true, change: async (to) => ok(await client.post('/document/recipient/update', { documentId: d.number, recipient: { id: d.id, email: to } })) }
      },
    },
    {
      name: 'correction through API v1 (PATCH /api/v1/documents/{id}/recipients/{recipientId})',
      make: async () => {
        // v1 sees the documents v1 made.
        const fd = new FormData()
        const v1Field = { type: 'SIGNATURE', pageNumber: 1, pageX: 10, pageY: 80, pageWidth: 30, pageHeight: 6 }
        fd.set('payload', JSON.stringify({ title: 'Lease', recipients: [{ email: ATTACKER, name: 'Me', role: 'SIGNER', ...AUTH, fields: [v1Field] }] }))
        fd.set('file', new Blob([(await makePdf(1)) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'lease.pdf')
        const made = await v1.post('/documents', fd)
        ok(made)
        const { documentId, envelopeId } = made.body as { documentId: number; envelopeId: string }
        ok(await client.post('/envelope/distribute', { envelopeId }))
        const id = made.body.recipients[0].recipientId as number
        const { token } = await recipientRow(id)
        return { id, token, ready: true, change: async (to) => ok(await v1.send('PATCH', `/documents/${documentId}/recipients/${id}`, { email: to })) }
      },
    },
    {
      name: 'correction in the console (a member session on update-many)',
      make: async () => {
        const d = await pendingDocument()
        return {
          ...d,
          ready: true,
          change: async (to) => {
            const res = await consoleUser.v2('/envelope/recipient/update-many', { body: { envelopeId: d.envelopeId, data: [{ id: d.id, email: to }] } })
            expect(res.status, await res.clone().text()).toBe(200)
          },
        }
      },
    },
    {
      name: 'a TEMPLATE recipient edited (its link stays; POST /api/v2/envelope/recipient/update-many)',
      make: async () => {
        const t = await createEnvelope(client, { type: 'TEMPLATE', title: 'Form', recipients: [{ email: ATTACKER, name: 'Me', role: 'SIGNER', ...AUTH, fields: [FIELD] }] })
        const r = t.recipients[0]
        const { token } = await recipientRow(r.id)
        return { id: r.id, token, ready: false, change: async (to) => ok(await client.post('/envelope/recipient/update-many', { envelopeId: t.id, data: [{ id: r.id, email: to }] })) }
      },
    },
    {
      name: 'a DRAFT recipient edited (its link stays)',
      make: async () => {
        const e = await createEnvelope(client, { recipients: [{ email: ATTACKER, name: 'Me', role: 'SIGNER', ...AUTH, fields: [FIELD] }] })
        const r = e.recipients[0]
        const { token } = await recipientRow(r.id)
        return { id: r.id, token, ready: false, change: async (to) => ok(await client.post('/envelope/recipient/update-many', { envelopeId: e.id, data: [{ id: r.id, email: to }] })) }
      },
    },
    {
      name: 'a signer names the next signer (allowDictateNextSigner; its link stays)',
      make: async () => {
        const e = await createEnvelope(client, {
          meta: { signingOrder: 'SEQUENTIAL', allowDictateNextSigner: true },
          recipients: [
            { email: 'first@example.com', name: 'First', role: 'SIGNER', signingOrder: 1, fields: [FIELD] },
            { email: ATTACKER, name: 'Me', role: 'SIGNER', signingOrder: 2, ...AUTH, fields: [{ ...FIELD, positionY: 40 }] },
          ],
        })
        const sent = await client.post('/envelope/distribute', { envelopeId: e.id })
        expect(sent.status).toBe(200)
        const [first, next] = sent.body.recipients as { id: number; token: string }[]
        return {
          id: next!.id,
          token: next!.token,
          ready: false,
          change: async (to) => {
            const s = api(`${host.url}/api/signing`, `Bearer ${first!.token}`)
            const session = (await s.get('/session')).body
            ok(await s.post('/complete', { fields: session.fields.map((f: { id: number }) => ({ id: f.id, value: SIGNATURE })), nextSigner: { name: 'Victim', email: to } }))
          },
        }
      },
    },
  ]

  for (const door of DOORS) {
    it(`no proof survives: ${door.name}`, async () => {
      freshWindow()
      const victim = `victim${++n}@example.com`
      const r = await door.make()
      // Every proof the recipient at the sender's inbox can hold, then the change.
      const grant = await grantFor(r.token, ATTACKER)
      if (r.ready) {
        const state = await signing(r.token, grant).get('/consent')
        ok(await signing(r.token, grant).post('/consent', { version: state.body.disclosure.version }))
        expect((await signing(r.token, grant).get('/consent')).body.given).toBe(true)
      }
      const accessCode = await askCode(r.token, 'access', ATTACKER)
      const actionCode = await askCode(r.token, 'action', ATTACKER)
      const accountCode = await askCode(r.token, 'account', ATTACKER)
      const challenge = await signing(r.token).post('/auth/passkey')
      ok(challenge)
      const challengeBinding = async () => (await host.db.query<{ binding: string }>('select binding from auth_challenges where id = $1', [challenge.body.challengeId]))[0]?.binding
      expect(await challengeBinding()).toBe(passkeyBinding(recipientSubject({ id: r.id, ...(await recipientRow(r.id)) })))

      await r.change(victim)
      const now = await recipientRow(r.id)
      expect(now.email).toBe(victim)
      const token = now.token

      // Each proof, at its route (PROOFS).
      expect((await signing(token, grant).get('/session')).body.code, PROOFS.grant).toBe('AUTH_REQUIRED')
      expect((await signing(token, grant).get('/auth')).body.access.satisfied, PROOFS.grant).toBe(false)
      const access = await signing(token).post('/auth/access', { method: 'TWO_FACTOR_AUTH', code: accessCode })
      expect([access.status, access.body.code], PROOFS.accessCode).toEqual([400, 'CODE_EXPIRED'])
      const account = await signing(token).post('/auth/account', { password: NEW_PASSWORD, code: accountCode })
      expect([account.status, account.body.code], PROOFS.accountCode).toEqual([400, 'CODE_EXPIRED'])
      expect(await userByEmail(host.db, victim), PROOFS.accountCode).toBeNull()
      // The action code, behind a fresh access check by the new address's owner.
      const fresh = await grantFor(token, victim)
      const action = await signing(token, fresh).post('/complete', { fields: [], auth: { method: 'TWO_FACTOR_AUTH', code: actionCode } })
      expect([action.status, action.body.code], PROOFS.actionCode).toEqual([400, 'CODE_EXPIRED'])
      // A consent given before (where the recipient could give one) was the old address's.
      expect((await signing(token, fresh).get('/consent')).body.given, PROOFS.consent).toBe(false)
      // The challenge is answered only under the binding it was issued with (people/passkeys.ts takeChallenge).
      expect(await challengeBinding(), PROOFS.passkeyChallenge).not.toBe(passkeyBinding(recipientSubject({ id: r.id, ...now })))
      // Every code of the recipient is spent.
      expect(await host.db.query('select 1 from recipient_auth_codes where recipient_id = $1 and used_at is null', [r.id])).toEqual([])
    })
  }

  it('no proof survives: a direct link (another address typed, or the link made again)', async () => {
    freshWindow()
    const victim = `victim${++n}@example.com`
    const t = await createEnvelope(client, { type: 'TEMPLATE', title: 'Open form', recipients: [{ email: 'placeholder@example.com', name: 'Anyone', role: 'SIGNER', ...AUTH, fields: [FIELD] }] })
    const templateId = Number(t.secondaryId.split('_')[1])
    const linkOf = async () => {
      const made = await client.post('/template/direct/create', { templateId, directRecipientId: t.recipients[0].id })
      ok(made)
      return api(`${host.url}/api/signing/direct`, `Bearer ${made.body.token}`, { consent: false })
    }
    const askVisitorCode = async (link: Api, purpose: 'access' | 'account', to: string) => {
      const after = await lastMail()
      clock.advance(CODE_RESEND_MS)
      ok(await link.post('/auth/code', { purpose, email: to }))
      return mailedCode(to, after)
    }
    let link = await linkOf()
    // A code for one address proves nothing for another.
    const code = await askVisitorCode(link, 'account', ATTACKER)
    const other = await link.post('/auth/account', { email: victim, password: NEW_PASSWORD, code })
    expect([other.status, other.body.code]).toEqual([400, 'CODE_EXPIRED'])
    const accessCode = await askVisitorCode(link, 'access', ATTACKER)
    const signed = await link.post('/complete', { fields: [], signer: { name: 'Victim', email: victim }, access: { method: 'TWO_FACTOR_AUTH', code: accessCode } })
    expect([signed.status, signed.body.code], PROOFS.directCode).toEqual([400, 'CODE_EXPIRED'])
    // A link made again is a new token: the codes of the old one are void, even for their own address.
    const again = await askVisitorCode(link, 'account', ATTACKER)
    ok(await client.post('/template/direct/delete', { templateId }))
    link = await linkOf()
    const stale = await link.post('/auth/account', { email: ATTACKER, password: NEW_PASSWORD, code: again })
    expect([stale.status, stale.body.code]).toEqual([400, 'CODE_EXPIRED'])
    expect(await userByEmail(host.db, victim)).toBeNull()
  })

  it("a passkey assertion answers only the challenge of the recipient's page that asked for it", async () => {
    freshWindow()
    const holder = `holder${++n}@example.com`
    const user = await makeUser(host.db, holder)
    const key = softPasskey()
    await host.db.query(`insert into passkeys (id, user_id, public_key, name) values ($1, $2, $3, 'Test key')`, [key.id, user.id, key.cose])
    /** A pending document whose approver is the holder, asked for a passkey. */
    const approver = async () => {
      const e = await createEnvelope(client, { recipients: [{ email: holder, name: 'Holder', role: 'APPROVER', actionAuth: ['PASSKEY'] }] })
      const sent = await client.post('/envelope/distribute', { envelopeId: e.id })
      ok(sent)
      return sent.body.recipients[0].token as string
    }
    const [mine, other] = [await approver(), await approver()]
    const complete = async (token: string, challenge: { challengeId: string; options: { challenge: string } }) => {
      const s = api(`${host.url}/api/signing`, `Bearer ${token}`)
      return s.post('/complete', { fields: [], auth: { method: 'PASSKEY', passkey: { challengeId: challenge.challengeId, response: key.assert(challenge.options.challenge, host.url) } } })
    }
    // A valid assertion of the holder's own passkey, over the challenge asked on one document's page, does not sign another.
    const asked = await signing(mine).post('/auth/passkey')
    ok(asked)
    const elsewhere = await complete(other, asked.body)
    expect([elsewhere.status, elsewhere.body.code], PROOFS.passkeyChallenge).toEqual([401, 'AUTH_FAILED'])
    // On the page that asked, the same kind of assertion signs.
    const again = await signing(mine).post('/auth/passkey')
    ok(await complete(mine, again.body))
  })

  it('redistribute changes neither address nor token: the proofs it leaves stand, and the rule is not what refuses', async () => {
    freshWindow()
    const d = await pendingDocument()
    const before = await recipientRow(d.id)
    const grant = await grantFor(d.token, ATTACKER)
    const accessCode = await askCode(d.token, 'access', ATTACKER)
    ok(await client.post('/envelope/redistribute', { envelopeId: d.envelopeId, recipients: [d.id] }))
    expect(await recipientRow(d.id)).toEqual(before)
    ok(await signing(d.token, grant).get('/session'))
    ok(await signing(d.token).post('/auth/access', { method: 'TWO_FACTOR_AUTH', code: accessCode }))
  })

  it('a code queued for an address that changes before it is sent is never sent, to either address', async () => {
    freshWindow()
    const victim = `victim${++n}@example.com`
    const d = await pendingDocument()
    // Ask and change in one go: the code row is spent by the change, whether or not the job ran.
    const asked = await signing(d.token).post('/auth/code', { purpose: 'account' })
    ok(asked)
    ok(await client.post('/envelope/recipient/update-many', { envelopeId: d.envelopeId, data: [{ id: d.id, email: victim }] }))
    const rows = await host.db.query<{ used_at: Date | null }>('select used_at from recipient_auth_codes where recipient_id = $1', [d.id])
    expect(rows.length).toBe(1)
    expect(rows[0]!.used_at).not.toBeNull()
    const toVictim = await host.db.query(`select 1 from mails where to_address = $1 and template = 'recipient-code'`, [victim])
    expect(toVictim).toEqual([])
  })
})
