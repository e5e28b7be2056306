/**
 * The review before sending (docs/envelope-page.md, "Reviewing before sending"): the console's
 * `POST /api/console/documents/{id}/send-preview` renders each signing request the send will mail
 * (the mail's own template, the team's sender and Reply-To, the envelope's language; the subject
 * and message given in place of the stored ones), for a member who sees the draft only, and sends
 * nothing; the subject and message then sent with `POST /envelope/distribute` are what a real SMTP
 * server receives, word for word as previewed, and what the envelope keeps.
 * Database: the embedded one (rendering, rules and mail). A host of its own: its SMTP sink.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { startInbox, type Inbox } from '../e2e/support/inbox.js'
import { api, createEnvelope, startTestHost, type Api, type TestHost } from './support.js'
import type { SendPreview } from '../../host/shared/console-contract.js'

const sig = { type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }
/** Ann signs, Bob approves after her, Carla gets a copy. */
const PEOPLE = [
  { email: 'ann@example.com', name: 'Ann Tenant', role: 'SIGNER', signingOrder: 1, fields: [sig] },
  { email: 'bob@example.com', name: 'Bob Guarantor', role: 'APPROVER', signingOrder: 2 },
  { email: 'carla@example.com', name: 'Carla', role: 'CC', signingOrder: 3 },
]
/** A preview's signing link stands in for the recipient's own: the text up to it is word for word the mail's. */
const withoutLinks = (text: string) => text.replace(/https?:\/\/\S+\/sign\/\S+/g, '<link>')

describe('the review before sending', () => {
  let inbox: Inbox
  let host: TestHost
  let admin: ConsoleClient
  let client: Api
  let teamId: string

  beforeAll(async () => {
    inbox = await startInbox()
    host = await startTestHost('pglite', { mailbox: false, smtpUrl: inbox.url, mailFrom: 'Envelope <no-reply@sign.example.com>' })
    teamId = (await host.createTeam({ name: 'Acme Lettings', plan: 'team' })).id
    await makeUser(host.db, 'owner@example.com', { teamId, role: 'ADMIN' })
    admin = await signInAs(host.url, 'owner@example.com')
    expect((await admin.console('/teams/switch', { body: { teamId } })).status).toBe(200)
    expect((await admin.console('/team/branding', { body: { senderName: 'Acme Legal', replyTo: 'legal@acme.test' } })).status).toBe(200)
    client = api(host.apiUrl, (await host.createApiToken({ name: 'review', teamId })).token)
  })
  afterAll(async () => {
    await host?.stop()
    await inbox?.close()
  })

  const preview = async (who: ConsoleClient, id: string, body: object = {}) => {
    const res = await who.console(`/documents/${id}/send-preview`, { body })
    return { status: res.status, body: (await res.json()) as SendPreview & { code?: string; message?: string } }
  }
  const draft = (title: string, meta: object = {}) => createEnvelope(client, { title, meta: { signingOrder: 'SEQUENTIAL', ...meta }, recipients: PEOPLE })

  it('renders each signing request with the subject and message given, as the team sends it, and sends nothing', async () => {
    const e = await draft('Lease 4B', { subject: 'Stored subject' })

    // As stored: the team's subject, the default text; a request for each who acts, none for the copy.
    const stored = await preview(admin, e.id)
    expect(stored.status).toBe(200)
    expect(stored.body.mailed).toBe(true)
    expect(stored.body.from).toBe('"Acme Legal" <no-reply@sign.example.com>')
    expect(stored.body.replyTo).toBe('legal@acme.test')
    const ids = Object.fromEntries(e.recipients.map((r: { email: string; id: number }) => [r.email, r.id]))
    expect(stored.body.mails.map((m) => [m.recipientId, m.to])).toEqual([
      [ids['ann@example.com'], 'ann@example.com'],
      [ids['bob@example.com'], 'bob@example.com'],
    ])
    const [ann, bob] = stored.body.mails
    expect(ann!.subject).toBe('Stored subject')
    expect(ann!.text).toContain('Hello Ann Tenant,')
    expect(ann!.text).toContain('Acme Lettings has sent you “Lease 4B” to sign.')
    expect(ann!.text).toMatch(/Sign the document:\nhttp:\/\/127\.0\.0\.1:\d+\/sign\/…\n/)
    expect(bob!.text).toContain('Hello Bob Guarantor,')
    expect(bob!.text).toContain('to approve')

    // Edited: the sender's subject and words in place of the default text, newlines kept; null is the default subject.
    const edited = await preview(admin, e.id, { subject: 'Your lease, ready to sign', message: 'Dear Ann,\nthe lease as agreed.' })
    expect(edited.status).toBe(200)
    expect(edited.body.mails[0]!.subject).toBe('Your lease, ready to sign')
    expect(edited.body.mails[0]!.text).toContain('Acme Lettings writes:\n\nDear Ann,\nthe lease as agreed.')
    expect(edited.body.mails[0]!.text).not.toContain('has sent you')
    expect((await preview(admin, e.id, { subject: null })).body.mails[0]!.subject).toBe('Please sign “Lease 4B”')

    // In the envelope's language.
    const german = await draft('Mietvertrag', { language: 'de' })
    expect((await preview(admin, german.id)).body.mails[0]!.subject).toBe('Bitte unterschreiben Sie „Mietvertrag“')

    // The same limits as the subject and message sent: refused, not cut.
    const long = await preview(admin, e.id, { subject: 'x'.repeat(256) })
    expect([long.status, long.body.code]).toEqual([400, 'INVALID_REQUEST'])
    expect(long.body.message).toContain('subject')

    // Nothing was sent, stored or queued.
    const after = (await client.get(`/envelope/${e.id}`)).body
    expect([after.status, after.documentMeta.subject, after.documentMeta.message]).toEqual(['DRAFT', 'Stored subject', null])
    expect(await host.db.query(`select 1 from jobs where kind = 'mail' and payload->>'envelopeId' = $1`, [e.id])).toEqual([])
  })

  it('says when no e-mail goes out: links only', async () => {
    const e = await draft('Shared by hand', { distributionMethod: 'NONE' })
    const res = await preview(admin, e.id)
    expect(res.status).toBe(200)
    expect([res.body.mailed, res.body.mails]).toEqual([false, []])
    const off = await draft('Requests off', { emailSettings: { recipientSigningRequest: false } })
    expect((await preview(admin, off.id)).body.mailed).toBe(false)
  })

  it("is the team's own: another team's draft, one above the member's role and no session are refused; a sent document is not a draft", async () => {
    const e = await draft('Private lease')
    // Another team's admin: the envelope does not exist for them.
    const rivalTeam = (await host.createTeam({ name: 'Rival', plan: 'team' })).id
    await makeUser(host.db, 'rival@example.com', { teamId: rivalTeam, role: 'ADMIN' })
    const rival = await signInAs(host.url, 'rival@example.com')
    await rival.console('/teams/switch', { body: { teamId: rivalTeam } })
    const theirs = await preview(rival, e.id, { subject: 'Hijacked' })
    expect([theirs.status, theirs.body.code]).toEqual([404, 'NOT_FOUND'])
    expect(JSON.stringify(theirs.body)).not.toMatch(/Private lease|ann@example\.com|Acme/)

    // A member of the team, on a draft visible to managers and above only.
    await makeUser(host.db, 'mo@example.com', { teamId, role: 'MEMBER' })
    const mo = await signInAs(host.url, 'mo@example.com')
    await mo.console('/teams/switch', { body: { teamId } })
    const hidden = await createEnvelope(client, { title: 'Board only', visibility: 'MANAGER_AND_ABOVE', recipients: PEOPLE })
    expect((await preview(mo, hidden.id)).status).toBe(404)
    expect((await preview(mo, e.id)).status).toBe(200)

    // Without a session; and an envelope id of no shape.
    const anonymous = await fetch(`${host.url}/api/console/documents/${e.id}/send-preview`, { method: 'POST', headers: { origin: host.url, 'content-type': 'application/json' }, body: '{}' })
    expect(anonymous.status).toBe(401)
    expect((await preview(admin, 'not-an-envelope')).status).toBe(400)

    // Sent: refused as sending it again would be.
    expect((await client.post('/envelope/distribute', { envelopeId: e.id })).status).toBe(200)
    const sent = await preview(admin, e.id)
    expect([sent.status, sent.body.code]).toEqual([400, 'INVALID_STATUS_TRANSITION'])
  })

  it('sends the edited subject and message: the mail carries them as previewed, and the envelope keeps them', async () => {
    const e = await draft('Lease 7C')
    const change = { subject: 'Lease 7C: your signature, please', message: 'Hello from the lettings team.\n\nSign by Friday.' }
    const previewed = (await preview(admin, e.id, change)).body.mails[0]!

    // Sent from the console as the review does: the session on API v2, the subject and message with it.
    const res = await admin.v2('/envelope/distribute', { body: { envelopeId: e.id, meta: change } })
    expect(res.status).toBe(200)
    await expect.poll(() => inbox.to('ann@example.com').filter((m) => m.subject === change.subject).length, { timeout: 120_000 }).toBe(1)
    const mail = inbox.to('ann@example.com').find((m) => m.subject === change.subject)!
    expect(mail.from!.value).toEqual([{ name: 'Acme Legal', address: 'no-reply@sign.example.com' }])
    expect(mail.replyTo!.value).toEqual([{ name: '', address: 'legal@acme.test' }])
    expect(withoutLinks(mail.text!.replace(/\r\n/g, '\n'))).toBe(withoutLinks(previewed.text))
    // Only Ann's turn has come (sequential order): Bob hears later, Carla at completion.
    expect(inbox.to('bob@example.com').filter((m) => m.subject === change.subject)).toEqual([])

    const kept = (await client.get(`/envelope/${e.id}`)).body
    expect([kept.status, kept.documentMeta.subject, kept.documentMeta.message]).toEqual(['PENDING', change.subject, change.message])
  })

  it('a refused send sends nothing and keeps nothing: the reason names the signer without a signature field', async () => {
    const e = await createEnvelope(client, { title: 'Unfinished', recipients: [{ email: 'dan@example.com', name: 'Dan', role: 'SIGNER' }] })
    const res = await admin.v2('/envelope/distribute', { body: { envelopeId: e.id, meta: { subject: 'Never sent' } } })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body).toMatchObject({ code: 'MISSING_SIGNATURE_FIELD', issues: [{ path: 'recipients.0', message: 'Signer dan@example.com has no signature field' }] })
    const kept = (await client.get(`/envelope/${e.id}`)).body
    expect([kept.status, kept.documentMeta.subject]).toEqual(['DRAFT', null])
    expect(await host.db.query(`select 1 from jobs where kind = 'mail' and payload->>'envelopeId' = $1`, [e.id])).toEqual([])
  })
})
