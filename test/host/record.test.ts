/**
 * The record, everywhere the same: what the audit log holds of a recipient (requests, an address
 * corrected after its mail went, reminders, one-time codes sent, checks failed and passed, a lock,
 * consent, the signature) is every step of the evidence summary, said in the same order by the
 * signing certificate's history and named in the audit-log PDF. A reminder's event comes only with
 * its e-mail. The queue's clock is driven: a day passes without sleeping.
 * Database: the embedded one (what is recorded is the host's rule, not the database's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { THROTTLE_WINDOW_MS } from '../../host/server/people/throttle.js'
import { pdfText } from '../support/pdf-signature.js'
import { api, codeSigner, createEnvelope, mailed, sealed, startTestHost, type Api, type TestHost } from './support.js'

const DAY = 86_400_000
const FIELD = (y: number) => ({ type: 'SIGNATURE', page: 1, positionX: 10, positionY: y, width: 30, height: 8 })

/** What the English certificate says of each kind of step (the test's own reading of the words). */
const SAID: Record<string, (s: any) => string> = {
  LINK_CREATED: () => 'Signing link created (not sent by e-mail)',
  EMAIL_SENT: (s) =>
    ({ REQUEST: 'E-mail sent', REMINDER: 'Reminder sent', COMPLETED: 'Completed document sent by e-mail' })[s.email as string]! +
    (s.correctedTo ? ` to ${s.to} (address later corrected to ${s.correctedTo})` : ''),
  CODE_SENT: () => 'One-time code e-mailed to open the document',
  OPENED: () => 'Opened',
  VERIFIED: (s) => `Verified to ${s.stage === 'access' ? 'open' : 'act'} with one-time code`,
  VERIFICATION_FAILED: () => 'Verification failed with one-time code',
  LOCKED: () => 'Verification locked after too many attempts, until',
  CONSENTED: () => 'Consented to sign electronically',
  CORRECTED: (s) => s.changes.map((c: any) => `E-mail address corrected: ${c.from} → ${c.to}`).join('; '),
  COMPLETED: () => 'Signed',
  REJECTED: () => 'Rejected',
  EXPIRED: () => 'Link expired',
}

describe('the record of a document, everywhere the same', () => {
  const clock = drivenClock()
  let host: TestHost
  let client: Api

  beforeAll(async () => {
    // No background workers: what is due runs with queue.drain(), at the driven clock's time.
    host = await startTestHost('pglite', { clock, queueConcurrency: 0 })
    const team = await host.createTeam({ name: 'Record', plan: 'team' })
    client = api(host.apiUrl, `Bearer ${(await host.createApiToken({ name: 'record', teamId: team.id })).token}`)
  })
  afterAll(async () => {
    await host?.stop()
  })

  const tokenOf = async (id: number) => (await host.db.query<{ token: string }>('select token from recipients where id = $1', [id]))[0]!.token
  const events = async (id: string, event: string) =>
    (await host.db.query<{ n: number }>('select count(*)::int as n from events where envelope_id = $1 and event = $2', [id, event]))[0]!.n
  /** The code the newest code mail to `to` carries, once the queue sent it. */
  const mailedCode = (to: string) => async () => {
    await host.queue.drain()
    const [row] = await host.db.query<{ text: string }>(`select text from mails where to_address = $1 and template = 'recipient-code' order by id desc limit 1`, [to])
    return /\b(\d{6})\b/.exec(row!.text)![1]!
  }

  it('names every step in the audit log, the evidence, the certificate and the audit-log PDF alike', async () => {
    const e = await createEnvelope(client, {
      title: 'Record',
      meta: { reminderSettings: { sendAfter: { unit: 'day', amount: 1 }, repeatEvery: { disabled: true } } },
      recipients: [
        { email: 'ann@example.com', name: 'Ann', role: 'SIGNER', accessAuth: ['TWO_FACTOR_AUTH'], fields: [FIELD(10)] },
        { email: 'bob@example.com', name: 'Bob', role: 'SIGNER', accessAuth: ['TWO_FACTOR_AUTH'], fields: [FIELD(50)] },
      ],
    })
    const sent = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    const [annId, bobId] = sent.recipients.map((r: { id: number }) => r.id) as [number, number]
    await host.queue.drain()
    // Ann's address is corrected once her request has gone: the new one gets its own.
    const corrected = await client.post('/envelope/recipient/update-many', { envelopeId: e.id, data: [{ id: annId, email: 'ann.new@example.com' }] })
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200)
    await host.queue.drain()

    // A day on, each is reminded: one event per reminder e-mail queued.
    clock.advance(DAY + 60_000)
    await host.queue.drain()
    await host.queue.drain()
    expect(await events(e.id, 'DOCUMENT_REMINDER_SENT')).toBe(2)

    // Ann: a code, a wrong try, the right code; she opens, consents and signs.
    const ann = codeSigner(host.url, await tokenOf(annId), mailedCode('ann.new@example.com'), clock)
    const annCode = await ann.code()
    expect((await ann.prove(ann.wrong(annCode))).body.code).toBe('AUTH_FAILED')
    await ann.pass(annCode)
    await ann.sign()

    // Bob: wrong tries until he is locked; past the lock, a new code and he signs.
    const bob = codeSigner(host.url, await tokenOf(bobId), mailedCode('bob@example.com'), clock)
    const locked = await bob.lockOut()
    expect([locked.status, locked.body.code]).toEqual([429, 'TOO_MANY_ATTEMPTS'])
    clock.advance(THROTTLE_WINDOW_MS + 60_000)
    await bob.pass(await bob.code())
    await bob.sign()
    await sealed(host, e.id)
    await mailed(host, e.id)

    // The audit log: this host's own entries only when asked for (include=all).
    const all = (await client.get(`/envelope/${e.id}/audit-log?perPage=100&include=all`)).body.data as { type: string; data: any }[]
    const plain = (await client.get(`/envelope/${e.id}/audit-log?perPage=100`)).body.data as { type: string }[]
    const count = (type: string) => all.filter((a) => a.type === type).length
    expect([count('RECIPIENT_AUTH_CODE_SENT'), count('RECIPIENT_AUTH_FAILED'), count('RECIPIENT_AUTH_LOCKED')]).toEqual([4, 10, 1])
    expect(plain.filter((a) => a.type.startsWith('RECIPIENT_AUTH_'))).toEqual([])
    expect(all.find((a) => a.type === 'RECIPIENT_AUTH_CODE_SENT')!.data).toMatchObject({ recipientId: annId, recipientEmail: 'ann.new@example.com', purpose: 'access' })
    expect(all.find((a) => a.type === 'RECIPIENT_AUTH_FAILED')!.data).toMatchObject({ recipientId: annId, stage: 'access', method: 'TWO_FACTOR_AUTH' })
    // The reminders' event count is their e-mails'.
    expect(all.filter((a) => a.type === 'EMAIL_SENT' && a.data.emailType === 'REMINDER')).toHaveLength(2)

    // The evidence: each recipient's steps, in order.
    const evidence = (await client.get(`/envelope/${e.id}/evidence`)).body
    const [a, b] = evidence.recipients
    expect(a.history.map((s: any) => s.kind)).toEqual([
      'EMAIL_SENT', 'CORRECTED', 'EMAIL_SENT', 'EMAIL_SENT', 'CODE_SENT', 'VERIFICATION_FAILED', 'OPENED', 'VERIFIED', 'CONSENTED', 'COMPLETED', 'EMAIL_SENT',
    ])
    expect(a.history[0]).toMatchObject({ email: 'REQUEST', to: 'ann@example.com', correctedTo: 'ann.new@example.com' })
    expect(a.history[1]).toMatchObject({ changes: [{ field: 'EMAIL', from: 'ann@example.com', to: 'ann.new@example.com' }] })
    expect(a.history[2]).toEqual({ at: expect.any(String), kind: 'EMAIL_SENT', email: 'REQUEST', to: 'ann.new@example.com' })
    expect(a.history[3]).toMatchObject({ email: 'REMINDER', to: 'ann.new@example.com' })
    expect(a.history[4]).toMatchObject({ purpose: 'access', to: 'ann.new@example.com' })
    expect(a.history[7]).toMatchObject({ stage: 'access', method: 'TWO_FACTOR_AUTH' })
    expect(a.history.at(-1)).toMatchObject({ email: 'COMPLETED' })
    // The fields drawn from the steps agree with them.
    expect(a.sentAt).toBe(a.history[0].at)
    expect(a.proofs).toEqual([{ stage: 'access', method: 'TWO_FACTOR_AUTH', at: a.history[7].at }])
    expect(a.consent.at).toBe(a.history[8].at)
    // Nine failures, and the tenth try (counted before it is checked) is the lock.
    expect(b.history.filter((s: any) => s.kind === 'VERIFICATION_FAILED')).toHaveLength(9)
    expect(b.history.filter((s: any) => s.kind === 'LOCKED')).toEqual([{ at: expect.any(String), kind: 'LOCKED', until: expect.any(String) }])
    expect(b.history.map((s: any) => s.kind).slice(0, 3)).toEqual(['EMAIL_SENT', 'EMAIL_SENT', 'CODE_SENT'])

    // The certificate says each step of each recipient, in the evidence's order.
    const certificate = (await pdfText((await client.get(`/envelope/${e.id}/certificate/download`)).body)).join('\n').replace(/\s+/g, ' ')
    for (const r of [a, b]) {
      const block = certificate.slice(certificate.indexOf(`E-mail ${r.email} `))
      let from = 0
      for (const step of r.history) {
        const words = SAID[step.kind]!(step)
        const at = block.indexOf(words, from)
        expect(at, `${r.name}: "${words}" after position ${from}`).toBeGreaterThanOrEqual(0)
        from = at + words.length
      }
    }
    // The audit-log PDF names this host's entries in words.
    const log = (await pdfText((await client.get(`/envelope/${e.id}/audit-log/download`)).body)).join('\n').replace(/\s+/g, ' ')
    for (const words of ['One-time code e-mailed', 'Verification failed', 'Verification locked after too many attempts']) expect(log).toContain(words)
  })
})
