/**
 * EMAIL_SENT entries against the messages an SMTP server received.
 * Database: the embedded one (what is mailed and entered is the API's rule, not the database's).
 */
import type { AddressInfo } from 'node:net'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { seeded } from './hostile.js'
import { api, createEnvelope, SIGNATURE, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'

// The audit trail states facts: each EMAIL_SENT entry stands for exactly one message an SMTP
// server received, and no request, reminder or completed document to a recipient goes without its
// entry. Rejection and cancellation notices have no emailType in the deployed service's audit log
// (its clients read the type as a closed list): they are never entered. Lifecycle steps are
// drawn at random from fixed seeds (signing order, roles, reminders, sending again, naming the
// next signer under a new address and sending to it, signing, rejecting, cancelling).

const DAY = 86_400_000
const ROLES = ['SIGNER', 'APPROVER', 'VIEWER', 'CC', 'ASSISTANT'] as const
const SEEDS = [1, 2, 3, 4, 5]
/** The deployed service's emailType values, as its typed client accepts them. */
const ENTERED = ['SIGNING_REQUEST', 'VIEW_REQUEST', 'APPROVE_REQUEST', 'ASSISTING_REQUEST', 'CC', 'DOCUMENT_COMPLETED', 'REMINDER']

/** What kind of message an English subject names (the document's title is "Lease"), as EMAIL_SENT's emailType. */
function kindOf(subject: string): string {
  const kinds: [RegExp, string][] = [
    [/^Reminder: /, 'REMINDER'],
    [/^Please sign /, 'SIGNING_REQUEST'],
    [/^Please approve /, 'APPROVE_REQUEST'],
    [/^Please review /, 'VIEW_REQUEST'],
    [/^Please fill in /, 'ASSISTING_REQUEST'],
    [/ is complete$/, 'DOCUMENT_COMPLETED'],
    [/ rejected /, 'DOCUMENT_REJECTED'],
    [/ was cancelled$/, 'DOCUMENT_CANCELLED'],
  ]
  return kinds.find(([re]) => re.test(subject))?.[1] ?? `unknown: ${subject}`
}

/** A real SMTP server on 127.0.0.1: every message it accepted, by address and kind. */
async function smtpSink() {
  const received: { to: string; kind: string }[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      simpleParser(stream).then(
        (mail) => {
          for (const r of session.envelope.rcptTo) received.push({ to: r.address, kind: kindOf(mail.subject ?? '') })
          cb()
        },
        (err: Error) => cb(err),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return { received, port: (server.server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}


const tally = (list: string[]) => [...list].sort()

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('EMAIL_SENT entries and the messages an SMTP server received on $variant', ({ variant, skip }) => {
  const clock = drivenClock()
  let host: TestHost
  let client: Api
  let sink: Awaited<ReturnType<typeof smtpSink>>
  /** What the seeds exercised, so the test checks it covered the class. */
  const covered = new Set<string>()

  beforeAll(async () => {
    if (skip) return
    sink = await smtpSink()
    // No background workers: each step runs what is due with queue.drain(), at the clock's time.
    host = await startTestHost(variant, { clock, queueConcurrency: 0, mailbox: false, smtpUrl: `smtp://127.0.0.1:${sink.port}` })
    const team = await host.createTeam({ name: 'Acme', plan: 'team' })
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId: team.id })).token)
  })
  afterAll(async () => {
    await host?.stop()
    await sink?.close()
  })

  const signing = (token: string) => api(`${host.url}/api/signing`, `Bearer ${token}`)
  const settle = async () => {
    while ((await host.queue.drain()) > 0);
  }

  /** The envelope's EMAIL_SENT entries beside the messages received at its recipients' addresses (ever). */
  async function compare(envelopeId: string, addresses: Set<string>) {
    await settle()
    const entries = await host.db.query<{ data: any; recipient_id: number | null }>(
      `select data, recipient_id from audit_logs where envelope_id = $1 and type = 'EMAIL_SENT' order by id`,
      [envelopeId],
    )
    for (const e of entries) expect(e.recipient_id).toBe(e.data.recipientId)
    const logged = tally(entries.map((e) => `${e.data.recipientEmail} ${e.data.emailType}`))
    const mine = sink.received.filter((m) => addresses.has(m.to))
    for (const m of mine) expect([...ENTERED, 'DOCUMENT_REJECTED', 'DOCUMENT_CANCELLED']).toContain(m.kind)
    const received = tally(mine.filter((m) => ENTERED.includes(m.kind)).map((m) => `${m.to} ${m.kind}`))
    expect(received.length).toBeGreaterThan(0)
    expect(logged).toEqual(received)
    return entries
  }

  it.skipIf(skip)('sending a document signed in order again mails, and records, only the recipient whose turn it is', async () => {
    const e = await createEnvelope(client, {
      title: 'Lease',
      meta: { signingOrder: 'SEQUENTIAL' },
      recipients: [
        { email: 'avery.signer@example.com', name: 'Avery', role: 'SIGNER', signingOrder: 1, fields: [{ type: 'SIGNATURE', page: 1, positionX: 5, positionY: 5, width: 20, height: 5 }] },
        { email: 'blair.approver@example.com', name: 'Blair', role: 'APPROVER', signingOrder: 2 },
      ],
    })
    const sent = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    await settle()
    expect((await client.post('/envelope/redistribute', { envelopeId: e.id, recipients: sent.recipients.map((r: any) => r.id) })).status).toBe(200)
    const entries = await compare(e.id, new Set(['avery.signer@example.com', 'blair.approver@example.com']))
    expect(entries.map((x) => [x.data.recipientEmail, x.data.emailType, x.data.isResending])).toEqual([
      ['avery.signer@example.com', 'SIGNING_REQUEST', false],
      ['avery.signer@example.com', 'SIGNING_REQUEST', true],
    ])
  })

  it.skipIf(skip).each(SEEDS)('a random sequence of lifecycle steps (seed %i)', async (seed) => {
    const rng = seeded(seed)
    // Both orders, and each seed's first recipient in another role: every role is met whatever the draws.
    const order = seed % 2 ? 'SEQUENTIAL' : 'PARALLEL'
    const count = 2 + Math.floor(rng.next() * 3)
    const roles = Array.from({ length: count }, (_, i) => (i === 0 ? ROLES[seed % ROLES.length]! : rng.pick(ROLES)))
    if (!roles.some((r) => r !== 'CC')) roles[1] = 'SIGNER'
    const recipients = roles.map((role, i) => ({
      email: `${role.toLowerCase()}.${seed}.${i}@example.com`,
      name: `${role} ${i}`,
      role,
      ...(order === 'SEQUENTIAL' && { signingOrder: i + 1 }),
      ...(role === 'SIGNER' && { fields: [{ type: 'SIGNATURE', page: 1, positionX: 5, positionY: 5 + i * 10, width: 20, height: 5 }] }),
    }))
    covered.add(order)
    for (const r of roles) covered.add(r)
    const e = await createEnvelope(client, {
      title: 'Lease',
      meta: {
        signingOrder: order,
        allowDictateNextSigner: order === 'SEQUENTIAL',
        reminderSettings: { sendAfter: { unit: 'day', amount: 1 }, repeatEvery: { unit: 'day', amount: 1 } },
      },
      recipients,
    })
    const addresses = new Set(recipients.map((r) => r.email))
    const sent = (await client.post('/envelope/distribute', { envelopeId: e.id })).body
    expect(sent.recipients, JSON.stringify(sent)).toHaveLength(count)
    const tokens: { id: number; token: string; role: string }[] = sent.recipients.map((r: any) => ({ id: r.id, token: r.token, role: r.role }))
    await settle()

    const ready = async () => {
      const out: { id: number; token: string; session: any }[] = []
      for (const r of tokens.filter((x) => x.role !== 'CC')) {
        const session = (await signing(r.token).get('/session')).body
        if (session.state === 'READY') out.push({ ...r, session })
      }
      return out
    }
    const act = async (who: { id: number; token: string; session: any }, rename: boolean) => {
      const next = who.session.nextSigner
      const nextSigner = rename && next ? { name: 'New Name', email: `renamed.${seed}.${next.id}@example.com` } : undefined
      const fields = who.session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE }))
      const res = await signing(who.token).post('/complete', { fields, ...(nextSigner && { nextSigner }) })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      if (nextSigner) {
        // The next signer now has another address: send the document again, to it.
        addresses.add(nextSigner.email)
        covered.add('email change')
        await settle()
        expect((await client.post('/envelope/redistribute', { envelopeId: e.id, recipients: [next.id] })).status).toBe(200)
      }
    }

    let status = 'PENDING'
    for (let step = 0; step < 8 && status === 'PENDING'; step++) {
      const roll = rng.next()
      if (roll < 0.25) {
        covered.add('reminder')
        clock.advance(DAY + 60_000)
      } else if (roll < 0.5) {
        covered.add('redistribute')
        const chosen = tokens.filter(() => rng.next() < 0.6).map((r) => r.id)
        const res = await client.post('/envelope/redistribute', { envelopeId: e.id, recipients: chosen.length ? chosen : [tokens[0]!.id] })
        expect(res.status, JSON.stringify(res.body)).toBe(200)
      } else if (roll < 0.9) {
        const now = await ready()
        if (now.length) await act(rng.pick(now), rng.next() < 0.7)
      } else if (roll < 0.95) {
        covered.add('reject')
        const [who] = await ready()
        if (who) expect((await signing(who.token).post('/reject', { reason: 'Wrong rent' })).status).toBe(200)
      } else {
        covered.add('cancel')
        expect((await client.post('/envelope/cancel', { envelopeId: e.id, reason: 'Superseded' })).status).toBe(200)
      }
      await settle()
      status = (await client.get(`/envelope/${e.id}`)).body.status
    }
    // Whoever is left completes, so the completion mails are part of every sequence that got this far.
    for (let now = await ready(); status === 'PENDING' && now.length; now = await ready()) {
      await act(now[0]!, false)
      await settle()
      status = (await client.get(`/envelope/${e.id}`)).body.status
    }
    covered.add(status)
    await compare(e.id, addresses)
  })

  it.skipIf(skip)('the seeds covered both orders, every role, reminders, sending again, a changed address and completion', () => {
    for (const x of ['PARALLEL', 'SEQUENTIAL', ...ROLES, 'reminder', 'redistribute', 'email change', 'COMPLETED']) expect(covered, x).toContain(x)
  })
})
