/**
 * A team's sender name can never pass for an address (docs/branding.md; shared/sender-name.ts):
 * the console's branding refuses `security@paypal.com` and its look-alikes (a fullwidth or small
 * `@`, a domain ending under any dot, angle-bracket look-alikes, invisible characters) with 400
 * {message, code, issues} naming senderName, and keeps ordinary names; a name stored before that
 * rule (or a team named like a domain) is not shown in the From header of the e-mail a real SMTP
 * server receives, which then names the service's own sender, its address in angle brackets.
 * Database: the embedded one (validation and mail headers).
 */
import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SENDER_NAME_RULE } from '../../host/shared/sender-name.js'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { api, createEnvelope, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'

const ADDRESS_SHAPED = [
  'security@paypal.com',
  'security＠paypal.com', // U+FF20 FULLWIDTH COMMERCIAL AT
  'security﹫paypal.com', // U+FE6B SMALL COMMERCIAL AT
  'security\u{E0040}paypal', // TAG COMMERCIAL AT (invisible)
  'PayPal.com',
  'paypal．com', // FULLWIDTH FULL STOP
  'paypal。com', // IDEOGRAPHIC FULL STOP
  'paypal․com', // ONE DOT LEADER
  'Security Team paypal.com',
  'mail.example.co.uk',
  'пример.рф',
  'Acme ＜ceo＞', // FULLWIDTH angle brackets
  'Acme ‹ceo›',
  '\u202Emoc.lapyap', // RIGHT-TO-LEFT OVERRIDE
  'Pay\u200BPal', // ZERO WIDTH SPACE
]
const ORDINARY = ['Acme Legal', 'Dr. Smith & Partners', 'J.R.R. Tolkien Estate', 'Müller GmbH', '株式会社アクメ', 'Acme Inc.', 'Team 3.14']

async function smtpSink() {
  const received: ParsedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, cb) {
      simpleParser(stream).then(
        (mail) => (received.push(mail), cb()),
        (err: Error) => cb(err),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return { received, port: (server.server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('a sender name that looks like an address on $variant', ({ variant, skip }) => {
  let host: TestHost
  let sink: Awaited<ReturnType<typeof smtpSink>>
  let admin: ConsoleClient
  let client: Api
  let teamId: string
  const brand = async (body: object) => {
    const res = await admin.console('/team/branding', { body })
    return { status: res.status, body: (await res.json()) as any }
  }

  beforeAll(async () => {
    if (skip) return
    sink = await smtpSink()
    host = await startTestHost(variant, { mailbox: false, smtpUrl: `smtp://127.0.0.1:${sink.port}`, mailFrom: 'Envelope <no-reply@sign.example.com>' })
    await makeUser(host.db, 'owner@example.com')
    admin = await signInAs(host.url, 'owner@example.com')
    teamId = (await (await admin.console('/me')).json()).team.teamId as string
    client = api(host.apiUrl, (await host.createApiToken({ name: 'sender', teamId })).token)
  })
  afterAll(async () => {
    await host?.stop()
    await sink?.close()
  })

  it.skipIf(skip)('refuses address-shaped names and look-alikes with 400 naming senderName; keeps ordinary names', async () => {
    for (const senderName of ADDRESS_SHAPED) {
      const r = await brand({ senderName })
      expect(r.status, senderName).toBe(400)
      expect(r.body, senderName).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('senderName'), issues: [{ path: 'senderName', message: SENDER_NAME_RULE }] })
    }
    expect((await (await admin.console('/team/branding')).json()).senderName).toBeNull()
    for (const senderName of ORDINARY) {
      const r = await brand({ senderName })
      expect([r.status, r.body.senderName], senderName).toEqual([200, senderName])
    }
  })

  /** The From of the signing request for a new document titled `title`: parsed, and as the header line was sent. */
  const fromOf = async (title: string) => {
    const e = await createEnvelope(client, { title, recipients: [{ email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] })
    expect((await client.post('/envelope/distribute', { envelopeId: e.id })).status).toBe(200)
    await expect.poll(() => sink.received.find((m) => m.subject?.includes(title)), { timeout: 120_000 }).toBeTruthy()
    const mail = sink.received.find((m) => m.subject?.includes(title))!
    return { from: mail.from!.value, line: mail.headerLines.find((h) => h.key === 'from')!.line }
  }

  it.skipIf(skip)('never shows a stored address-shaped name in From: the service’s own sender goes out instead', async () => {
    expect((await brand({ senderName: 'Acme Legal' })).status).toBe(200)
    const ordinary = await fromOf('Ordinary sender')
    expect(ordinary.from).toEqual([{ name: 'Acme Legal', address: 'no-reply@sign.example.com' }])
    expect(ordinary.line).toMatch(/<no-reply@sign\.example\.com>$/)

    // As stored before the rule, and a team named like a domain: neither is shown.
    await host.db.query('update team_branding set sender_name = $2 where team_id = $1', [teamId, 'security＠paypal.com'])
    await host.db.query('update teams set name = $2 where id = $1', [teamId, 'paypal.com'])
    const forged = await fromOf('Forged sender')
    expect(forged.from).toEqual([{ name: 'Envelope', address: 'no-reply@sign.example.com' }])
    expect(forged.line).not.toMatch(/paypal/i)
    expect(forged.line).toMatch(/<no-reply@sign\.example\.com>$/)
  })
})
