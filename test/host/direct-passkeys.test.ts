/**
 * A direct link whose recipient is asked for a passkey (or an account) when signing: the visitor
 * proves it for the address they type, with a passkey of that address's account over a challenge
 * asked for that address on this link, checked as a recipient's passkey is. Another account's
 * passkey, a challenge of another address and a challenge used once already are refused, and
 * nothing is made. A passkey is added only by a visitor signed in to the account of the address.
 * Database: the embedded one (API rules; the challenge's single use is one delete, the same SQL on both).
 */
import { TEST_PASSWORD, makeUser } from '../support/console-client.js'
import { describe, expect, test, unique, type Team } from './fixtures.js'
import { softPasskey } from './soft-passkey.js'
import { api, createEnvelope, SIGNATURE, type TestHost } from './support.js'

const FIELD = { type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }

/** A template whose one signer is asked `actionAuth`, its direct link's signing API, and what completing sends. */
async function directLink(host: TestHost, team: Team, actionAuth: string[]) {
  const t = await createEnvelope(team.client, { type: 'TEMPLATE', title: 'Club rules', recipients: [{ email: 'member@example.com', name: 'Member', role: 'SIGNER', actionAuth, fields: [FIELD] }] })
  const link = await team.client.post('/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: t.recipients[0].id })
  expect(link.status, JSON.stringify(link.body)).toBe(200)
  const d = api(`${host.url}/api/signing/direct`, `Bearer ${link.body.token}`)
  const { fields } = (await d.get('/session')).body
  const body = (email: string, auth?: object) => ({ signer: { name: 'Visitor', email }, fields: fields.map((f: { id: number }) => ({ id: f.id, value: SIGNATURE })), ...(auth ? { auth } : {}) })
  const made = async () => (await host.db.query<{ n: number }>(`select count(*)::int as n from envelopes where template_id = $1`, [t.id]))[0]!.n
  return { d, body, made }
}

/** A verified account at a new address holding a passkey of its own. */
async function holder(host: TestHost) {
  const email = `${unique('holder')}@example.com`
  const user = await makeUser(host.db, email)
  const key = softPasskey()
  await host.db.query(`insert into passkeys (id, user_id, public_key, name) values ($1, $2, $3, 'Test key')`, [key.id, user.id, key.cose])
  return { email, key }
}

/** The error shape of the API: a message and a code (and issues, where there are some), nothing more. */
const refusal = (res: { status: number; body: any }) => {
  expect(Object.keys(res.body).filter((k) => !['message', 'code', 'issues'].includes(k))).toEqual([])
  expect(res.body.message).toEqual(expect.any(String))
  return [res.status, res.body.code]
}

describe('a direct link asking for a passkey', () => {
  test("the passkey of the visitor's own account signs; another account's, another address's challenge and a used challenge do not", async ({ host, team }) => {
    const { d, body, made } = await directLink(host, team, ['PASSKEY'])
    expect((await d.get('/auth')).body).toMatchObject({ action: { required: ['PASSKEY'] } })
    const [ada, bob] = [await holder(host), await holder(host)]
    /** A challenge asked on the link for `email`, answered by `key`. */
    const proof = async (email: string, key: ReturnType<typeof softPasskey>) => {
      const asked = await d.post('/auth/passkey', { email })
      expect(asked.status, JSON.stringify(asked.body)).toBe(200)
      return { method: 'PASSKEY', passkey: { challengeId: asked.body.challengeId, response: key.assert(asked.body.options.challenge, host.url) } }
    }
    expect(refusal(await d.post('/complete', body(ada.email)))).toEqual([401, 'AUTH_REQUIRED'])
    // Bob's passkey over a challenge asked for Ada's address: not a passkey of her account.
    expect(refusal(await d.post('/complete', body(ada.email, await proof(ada.email, bob.key))))).toEqual([401, 'AUTH_FAILED'])
    // Bob's own challenge and passkey, carried to a signature given as Ada: bound to Bob's address.
    expect(refusal(await d.post('/complete', body(ada.email, await proof(bob.email, bob.key))))).toEqual([401, 'AUTH_FAILED'])
    expect(await made()).toBe(0)

    const signed = body(ada.email, await proof(ada.email, ada.key))
    const done = await d.post('/complete', signed)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    const log = await host.db.query<{ data: any }>(`select data from audit_logs where envelope_id = $1 and type = 'DOCUMENT_RECIPIENT_COMPLETED'`, [done.body.envelopeId])
    expect(log.map((l) => l.data.actionAuth)).toEqual([['PASSKEY']])
    // The same request again: its challenge was used.
    expect(refusal(await d.post('/complete', signed))).toEqual([401, 'AUTH_FAILED'])
    expect(await made()).toBe(1)
  })

  test('a passkey is added only by a visitor signed in to the account of the address they gave', async ({ host, team }) => {
    const { d } = await directLink(host, team, ['PASSKEY'])
    const email = `${unique('newcomer')}@example.com`
    await makeUser(host.db, email)
    const other = `${unique('other')}@example.com`
    await makeUser(host.db, other)
    expect(refusal(await d.post('/auth/passkey/register', { email }))).toEqual([401, 'AUTH_REQUIRED'])
    expect(refusal(await d.post('/auth/access', { email, method: 'ACCOUNT', password: 'not the password' }))).toEqual([401, 'AUTH_FAILED'])
    const signedIn = await d.post('/auth/access', { email, method: 'ACCOUNT', password: TEST_PASSWORD })
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
    const grant = { 'x-recipient-auth': signedIn.body.grant }
    // The grant is for that address on this link: not for another address.
    expect(refusal(await d.post('/auth/passkey/register', { email: other }, grant))).toEqual([401, 'AUTH_REQUIRED'])
    const options = await d.post('/auth/passkey/register', { email }, grant)
    expect(options.status, JSON.stringify(options.body)).toBe(200)
    expect(options.body.options.user.name).toBe(email)
    expect(refusal(await d.post('/auth/passkey/register/finish', { email, challengeId: options.body.challengeId, response: { id: 'x' } }, grant))).toEqual([400, 'PASSKEY_INVALID'])
  })

  test('a link asking for an account: the grant of a sign-in there proves it; a link asking neither offers no sign-in', async ({ host, team }) => {
    const { d, body, made } = await directLink(host, team, ['ACCOUNT'])
    const email = `${unique('member')}@example.com`
    await makeUser(host.db, email)
    const { grant } = (await d.post('/auth/access', { email, method: 'ACCOUNT', password: TEST_PASSWORD })).body
    expect(refusal(await d.post('/complete', body(email, { method: 'ACCOUNT' })))).toEqual([401, 'AUTH_REQUIRED'])
    expect(refusal(await d.post('/complete', body(`${unique('someone')}@example.com`, { method: 'ACCOUNT' }), { 'x-recipient-auth': grant }))).toEqual([401, 'AUTH_REQUIRED'])
    const done = await d.post('/complete', body(email, { method: 'ACCOUNT' }), { 'x-recipient-auth': grant })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(await made()).toBe(1)

    const plain = await directLink(host, team, ['TWO_FACTOR_AUTH'])
    expect(refusal(await plain.d.post('/auth/access', { email, method: 'ACCOUNT', password: TEST_PASSWORD }))).toEqual([400, 'INVALID_REQUEST'])
    expect(refusal(await plain.d.post('/auth/passkey/register', { email }))).toEqual([400, 'INVALID_REQUEST'])
  })
})
