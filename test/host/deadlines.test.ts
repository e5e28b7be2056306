/**
 * Reminders and link deadlines under a driven clock.
 * Database: the embedded one (when jobs fall due is the host's rule, run by queue.drain()).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { api, createEnvelope, startTestHost, type Api, SIGNATURE, type TestHost } from './support.js'

const DAY = 86_400_000
const signerField = (y: number) => [{ type: 'SIGNATURE', page: 1, positionX: 5, positionY: y, width: 20, height: 5 }]

describe('reminders and deadlines under a driven clock', () => {
  const clock = drivenClock()
  let host: TestHost
  let client: Api

  beforeAll(async () => {
    // No background workers: the test runs what is due with queue.drain(), at the clock's time.
    host = await startTestHost('pglite', { clock, queueConcurrency: 0 })
    const team = await host.createTeam({ name: 'Acme', plan: 'team' })
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId: team.id })).token)
  })
  afterAll(async () => {
    await host?.stop()
  })

  const events = async (id: string) =>
    (await host.db.query<{ event: string; payload: any }>('select event, payload from events where envelope_id = $1 order by id', [id]))
  const count = async (id: string, event: string) => (await events(id)).filter((x) => x.event === event).length
  const signing = (token: string) => api(`${host.url}/api/signing`, `Bearer ${token}`)
  const sign = async (token: string) => {
    const { fields } = (await signing(token).get('/session')).body
    return signing(token).post('/complete', { fields: fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) })
  }

  it('reminds whoever has to act, expires links once, renews them when sent again, and stops at completion', async () => {
    const e = await createEnvelope(client, {
      meta: {
        signingOrder: 'SEQUENTIAL',
        envelopeExpirationPeriod: { unit: 'day', amount: 3 },
        reminderSettings: { sendAfter: { unit: 'day', amount: 1 }, repeatEvery: { unit: 'day', amount: 1 } },
      },
      recipients: [
        { email: 'a@example.com', name: 'A', role: 'SIGNER', signingOrder: 1, fields: signerField(5) },
        { email: 'b@example.com', name: 'B', role: 'SIGNER', signingOrder: 2, fields: signerField(50) },
        { email: 'c@example.com', name: 'C', role: 'CC', signingOrder: 3 },
      ],
    })
    const sentAt = clock.now().getTime()
    const { recipients } = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    const [a, b] = recipients
    const got = (await client.get(`/envelope/${e.id}`)).body
    for (const r of got.recipients.slice(0, 2)) expect(Math.abs(Date.parse(r.expiresAt) - (sentAt + 3 * DAY))).toBeLessThan(60_000)
    expect(got.recipients[2].expiresAt).toBeNull() // CC: nothing to do, no deadline

    await host.queue.drain()
    expect(await count(e.id, 'DOCUMENT_REMINDER_SENT')).toBe(0)

    // Day 1 and day 2: A is reminded (B's turn has not come).
    clock.advance(DAY + 60_000)
    await host.queue.drain()
    clock.advance(DAY)
    await host.queue.drain()
    const reminders = (await events(e.id)).filter((x) => x.event === 'DOCUMENT_REMINDER_SENT')
    expect(reminders).toHaveLength(2)
    const log = (await client.get(`/envelope/${e.id}/audit-log?perPage=100`)).body.data
    const mails = log.filter((x: any) => x.type === 'EMAIL_SENT' && x.data.emailType === 'REMINDER')
    expect(mails.map((x: any) => [x.email, x.data.recipientEmail])).toEqual([['a@example.com', 'a@example.com'], ['a@example.com', 'a@example.com']])

    // A signs on day 2: B's turn begins, but B's link was sent with the document and ends on day 3.
    expect((await sign(a.token)).body.status).toBe('PENDING')
    clock.advance(DAY)
    await host.queue.drain()
    await host.queue.drain()
    expect(await count(e.id, 'RECIPIENT_EXPIRED')).toBe(1)
    const expired = (await events(e.id)).find((x) => x.event === 'RECIPIENT_EXPIRED')!
    expect(expired.payload.recipients[1]).toMatchObject({ email: 'b@example.com', expirationNotifiedAt: expect.any(String) })
    expect(expired.payload.status).toBe('PENDING')
    // Expired links show the expired screen and refuse to sign; the document stays pending.
    expect((await signing(b.token).get('/session')).body.state).toBe('EXPIRED')
    expect((await sign(b.token)).body.code).toBe('EXPIRED')
    expect((await client.get(`/envelope/${e.id}`)).body.status).toBe('PENDING')
    // No reminder for an expired link, and no second expiry.
    clock.advance(DAY)
    await host.queue.drain()
    expect(await count(e.id, 'DOCUMENT_REMINDER_SENT')).toBe(2)
    expect(await count(e.id, 'RECIPIENT_EXPIRED')).toBe(1)

    // Sending again renews B's link from now.
    const now = clock.now().getTime()
    await client.post('/envelope/redistribute', { envelopeId: e.id, recipients: [b.id] })
    const renewed = (await client.get(`/envelope/${e.id}`)).body.recipients[1]
    expect(renewed.expirationNotifiedAt).toBeNull()
    expect(Math.abs(Date.parse(renewed.expiresAt) - (now + 3 * DAY))).toBeLessThan(60_000)
    expect((await signing(b.token).get('/session')).body.state).toBe('READY')
    expect((await sign(b.token)).body.status).toBe('COMPLETED')

    // Nothing after completion.
    clock.advance(10 * DAY)
    await host.queue.drain()
    expect(await count(e.id, 'DOCUMENT_REMINDER_SENT')).toBe(2)
    expect(await count(e.id, 'RECIPIENT_EXPIRED')).toBe(1)
  })

  it('sends no reminder after a cancellation, and none when the document has no reminder settings', async () => {
    const make = (meta: object) =>
      createEnvelope(client, { meta, recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: signerField(5) }] })
    const withReminders = await make({ reminderSettings: { sendAfter: { unit: 'day', amount: 1 }, repeatEvery: { disabled: true } } })
    const without = await make({})
    await client.post('/envelope/distribute', { envelopeId: withReminders.id })
    await client.post('/envelope/distribute', { envelopeId: without.id })
    clock.advance(DAY + 60_000)
    await host.queue.drain()
    expect(await count(withReminders.id, 'DOCUMENT_REMINDER_SENT')).toBe(1)
    expect(await count(without.id, 'DOCUMENT_REMINDER_SENT')).toBe(0)
    // repeatEvery disabled: one reminder only.
    clock.advance(5 * DAY)
    await host.queue.drain()
    expect(await count(withReminders.id, 'DOCUMENT_REMINDER_SENT')).toBe(1)

    const cancelled = await make({ reminderSettings: { sendAfter: { unit: 'day', amount: 1 }, repeatEvery: { unit: 'day', amount: 1 } } })
    await client.post('/envelope/distribute', { envelopeId: cancelled.id })
    await client.post('/envelope/cancel', { envelopeId: cancelled.id })
    clock.advance(3 * DAY)
    await host.queue.drain()
    expect(await count(cancelled.id, 'DOCUMENT_REMINDER_SENT')).toBe(0)
  })

  it('tells of no reminder when none is e-mailed (e-mail to recipients off, or no e-mail delivery)', async () => {
    const reminders = { sendAfter: { unit: 'day', amount: 1 }, repeatEvery: { unit: 'day', amount: 1 } }
    const quiet = [
      { reminderSettings: reminders, emailSettings: { recipientSigningRequest: false } },
      { reminderSettings: reminders, distributionMethod: 'NONE' },
    ]
    const ids: string[] = []
    for (const meta of quiet) {
      const e = await createEnvelope(client, { meta, recipients: [{ email: 'q@example.com', name: 'Q', role: 'SIGNER', fields: signerField(5) }] })
      expect((await client.post('/envelope/distribute', { envelopeId: e.id })).status).toBe(200)
      ids.push(e.id)
    }
    clock.advance(2 * DAY + 60_000)
    await host.queue.drain()
    for (const id of ids) {
      expect(await count(id, 'DOCUMENT_REMINDER_SENT'), id).toBe(0)
      const jobs = await host.db.query<{ n: number }>(`select count(*)::int as n from jobs where kind = 'mail' and payload->>'envelopeId' = $1 and payload->>'template' = 'reminder'`, [id])
      expect(jobs[0]!.n).toBe(0)
    }
  })

  it('tells of a reminder exactly as often as a reminder e-mail is queued, whoever is on the document', async () => {
    const reminders = { sendAfter: { unit: 'day', amount: 1 }, repeatEvery: { disabled: true } }
    // One who signs at once (nothing left to remind), one who does not, a copy's recipient; and a document whose links the sender hands out.
    const mixed = await createEnvelope(client, {
      meta: { reminderSettings: reminders },
      recipients: [
        { email: 'quick@example.com', name: 'Quick', role: 'SIGNER', fields: signerField(5) },
        { email: 'slow@example.com', name: 'Slow', role: 'SIGNER', fields: signerField(50) },
        { email: 'copy@example.com', name: 'Copy', role: 'CC' },
      ],
    })
    const handedOut = await createEnvelope(client, {
      meta: { reminderSettings: reminders, distributionMethod: 'NONE' },
      recipients: [{ email: 'link@example.com', name: 'Link', role: 'SIGNER', fields: signerField(5) }],
    })
    const sent = (await client.post('/envelope/distribute', { envelopeId: mixed.id })).body
    expect((await client.post('/envelope/distribute', { envelopeId: handedOut.id })).status).toBe(200)
    expect((await sign(sent.recipients[0].token)).body.status).toBe('PENDING')
    clock.advance(DAY + 60_000)
    await host.queue.drain()
    const queued = async (id: string) =>
      (await host.db.query<{ n: number }>(`select count(*)::int as n from jobs where kind = 'mail' and payload->>'envelopeId' = $1 and payload->>'template' = 'reminder'`, [id]))[0]!.n
    expect([await count(mixed.id, 'DOCUMENT_REMINDER_SENT'), await queued(mixed.id)]).toEqual([1, 1])
    expect([await count(handedOut.id, 'DOCUMENT_REMINDER_SENT'), await queued(handedOut.id)]).toEqual([0, 0])
  })

  it('refuses malformed periods', async () => {
    for (const meta of [
      { envelopeExpirationPeriod: { unit: 'hour', amount: 1 } },
      { envelopeExpirationPeriod: { unit: 'day', amount: 0 } },
      { reminderSettings: { sendAfter: { unit: 'year', amount: 1 }, repeatEvery: { disabled: true } } },
      { reminderSettings: { sendAfter: { unit: 'day', amount: 1 } } },
    ]) {
      const e = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: signerField(5) }] })
      const res = await client.post('/envelope/distribute', { envelopeId: e.id, meta })
      expect([res.status, res.body.code], JSON.stringify(meta)).toEqual([400, 'INVALID_REQUEST'])
    }
  })
})
