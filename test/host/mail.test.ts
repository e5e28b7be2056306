/**
 * E-mails: the templates, the configuration, the local mailbox, SMTP, and what is sent when.
 * Database: the embedded one (mail content and delivery; SQL is held on both in lifecycle.test.ts).
 * Its hosts are its own: the mailbox lists every mail of the instance, and SMTP sinks are its own.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '../../host/server/jobs/queue.js'
import { mailJob, signedFileName } from '../../host/server/mail/job.js'
import { isLoopbackAddress, isLoopbackHost, mailboxRoutes } from '../../host/server/mail/mailbox.js'
import { mailCancelled, mailCompleted, mailRejected, mailTurn, type MailJobPayload } from '../../host/server/mail/notify.js'
import { MAIL_TEMPLATES, render, type MailData, type MailTemplate } from '../../host/server/mail/templates.js'
import { createMailTransport, type MailMessage, type MailTransport } from '../../host/server/mail/transport.js'
import { configFromEnv } from '../../host/server/config.js'
import { verifyPdfSignature } from '../support/pdf-signature.js'
import { api, createEnvelope, makePdf, PNG, sealed as sealingDone, startTestHost, type Api, type TestHost } from './support.js'

const NB = '\u00a0'
const SIGNATURE = `data:image/png;base64,${PNG.toString('base64')}`
const sig = (y: number) => ({ type: 'SIGNATURE', page: 1, positionX: 10, positionY: y, width: 20, height: 5 })

// ---- templates ---------------------------------------------------------------------------------

const URL_ = 'https://sign.example.com/sign/tok_123?x=1&y=2'
const base = { title: 'Lease', teamName: 'Acme & Co', recipientName: 'Ann' }
const samples: { [K in MailTemplate]: MailData[K] } = {
  'signing-request': { ...base, role: 'SIGNER', signingUrl: URL_ },
  reminder: { ...base, role: 'SIGNER', signingUrl: URL_ },
  completed: { ...base, signingUrl: URL_, files: ['Lease (signed).pdf'] },
  rejected: { ...base, rejectedBy: 'Bob', reason: 'Wrong rent' },
  cancelled: { ...base, reason: 'Superseded' },
  'team-completed': { ...base, recipientName: null, files: ['Lease (signed).pdf'], recipients: [{ name: 'Ann', email: 'ann@example.com', role: 'SIGNER' }] },
}

const SUBJECTS: Record<'en' | 'de' | 'fr' | 'es', Record<MailTemplate, string>> = {
  en: {
    'signing-request': 'Please sign “Lease”',
    reminder: 'Reminder: Please sign “Lease”',
    completed: '“Lease” is complete',
    rejected: 'Bob rejected “Lease”',
    cancelled: '“Lease” was cancelled',
    'team-completed': '“Lease” was completed by everyone',
  },
  de: {
    'signing-request': 'Bitte unterschreiben Sie „Lease“',
    reminder: 'Erinnerung: Bitte unterschreiben Sie „Lease“',
    completed: '„Lease“ ist abgeschlossen',
    rejected: 'Bob hat „Lease“ abgelehnt',
    cancelled: '„Lease“ wurde zurückgezogen',
    'team-completed': '„Lease“ wurde von allen abgeschlossen',
  },
  fr: {
    'signing-request': `Veuillez signer «${NB}Lease${NB}»`,
    reminder: `Rappel${NB}: Veuillez signer «${NB}Lease${NB}»`,
    completed: `«${NB}Lease${NB}» est terminé`,
    rejected: `Bob a refusé «${NB}Lease${NB}»`,
    cancelled: `«${NB}Lease${NB}» a été annulé`,
    'team-completed': `«${NB}Lease${NB}» a été complété par tous`,
  },
  es: {
    'signing-request': 'Por favor, firme «Lease»',
    reminder: 'Recordatorio: Por favor, firme «Lease»',
    completed: '«Lease» está completo',
    rejected: 'Bob ha rechazado «Lease»',
    cancelled: '«Lease» se ha anulado',
    'team-completed': 'Todos han completado «Lease»',
  },
}

describe('mail templates', () => {
  it.each(['en', 'de', 'fr', 'es'] as const)('renders every message in %s: subject, text, HTML and link', (lang) => {
    for (const kind of MAIL_TEMPLATES) {
      const m = render(kind, samples[kind] as never, lang)
      expect(m.subject, kind).toBe(SUBJECTS[lang][kind])
      expect(m.html).toMatch(new RegExp(`^<!DOCTYPE html>\\n<html lang="${lang}">`))
      expect(m.html).toContain('Acme &amp; Co')
      expect(m.html).not.toContain('Acme & Co')
      expect(m.text).toContain('Acme & Co')
      expect(m.text).not.toMatch(/<\/?(p|a|div|br|h1|ul|li|html)\b/i)
      // No layout tables, inline styles only.
      expect(m.html).not.toMatch(/<table|<link|<script|class=/i)
      if (kind === 'signing-request' || kind === 'reminder' || kind === 'completed') {
        expect(m.html).toContain(`href="https://sign.example.com/sign/tok_123?x=1&amp;y=2"`)
        expect(m.text).toContain(URL_)
      } else expect(m.text).not.toContain('https://')
    }
  })

  it('says what each role is asked to do, with the greeting, the reason and the files', () => {
    const as = (role: string, lang = 'en') => render('signing-request', { ...samples['signing-request'], role }, lang)
    expect(as('APPROVER').subject).toBe('Please approve “Lease”')
    expect(as('VIEWER').subject).toBe('Please review “Lease”')
    expect(as('ASSISTANT').subject).toBe('Please fill in “Lease”')
    expect(as('ASSISTANT', 'de').subject).toBe('Bitte füllen Sie „Lease“ aus')
    expect(as('APPROVER', 'fr').text).toContain(`Approuver le document${NB}:\n${URL_}`)
    const signer = as('SIGNER')
    expect(signer.text).toContain('Hello Ann,')
    expect(signer.text).toContain('Acme & Co has sent you “Lease” to sign.')
    expect(signer.text).toContain(`Sign the document:\n${URL_}`)
    expect(render('reminder', samples.reminder, 'en').text).toContain('still waiting for you to sign “Lease”')

    const rejected = render('rejected', { ...samples.rejected, reason: 'Rent is\ntoo high' }, 'de')
    expect(rejected.text).toContain('Begründung:\n\nRent is\ntoo high')
    expect(rejected.html).toContain('Rent is<br>\ntoo high')
    expect(render('cancelled', { ...samples.cancelled, reason: null }, 'en').text).not.toContain('Reason')
    expect(render('cancelled', samples.cancelled, 'fr').text).toContain(`Motif${NB}:\n\nSuperseded`)

    expect(render('completed', samples.completed, 'en').text).toContain('The signed document is attached.')
    expect(render('completed', { ...samples.completed, files: ['a', 'b'] }, 'en').text).toContain('The signed documents are attached.')
    expect(render('completed', { ...samples.completed, signingUrl: null }, 'en').text).not.toContain('https://')
    const team = render('team-completed', samples['team-completed'], 'en')
    expect(team.text).toContain('Hello,\n')
    expect(team.text).toContain('- Ann <ann@example.com> – signed')
    expect(team.html).toContain('Ann &lt;ann@example.com&gt; – signed')
  })

  it('uses the team’s subject and message (plain text, newlines kept) and frames reminders', () => {
    const d = { ...samples['signing-request'], subject: 'Your lease\r\nBcc: evil@example.com', message: 'Hi Ann,\n<b>please</b> sign today.\n\nThanks & bye' }
    const m = render('signing-request', d, 'en')
    expect(m.subject).toBe('Your lease Bcc: evil@example.com')
    expect(m.html).toContain('Hi Ann,<br>\n&lt;b&gt;please&lt;/b&gt; sign today.</p>')
    expect(m.html).toContain('Thanks &amp; bye')
    expect(m.html).not.toContain('<b>')
    expect(m.text).toContain('Acme & Co writes:\n\nHi Ann,\n<b>please</b> sign today.\n\nThanks & bye')
    expect(m.text).not.toContain('has sent you')
    const r = render('reminder', d, 'de')
    expect(r.subject).toBe('Erinnerung: Your lease Bcc: evil@example.com')
    expect(r.text).toContain('Zur Erinnerung:')
    expect(r.text).toContain('Acme & Co schreibt:')
  })

  it('keeps a hostile title, name and reason text', () => {
    const title = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'
    for (const kind of MAIL_TEMPLATES) {
      const m = render(kind, { ...samples[kind], title, teamName: '<i>Evil</i>', rejectedBy: '<u>Bob</u>', reason: '</p><script>1</script>' } as never, 'en')
      expect(m.html).not.toMatch(/<script|<img|<i>|<u>/)
      expect(m.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;')
      expect(m.subject).toContain(kind === 'rejected' ? '<u>Bob</u> rejected “<script>' : '<script>alert("x")</script>')
      expect(m.text).toContain(title)
    }
    // A link that is not http(s) never becomes one.
    expect(render('signing-request', { ...samples['signing-request'], signingUrl: 'javascript:alert(1)' }, 'en').html).not.toContain('href="javascript:')
  })

  it('picks the language from documentMeta.language, English for anything else', () => {
    const subject = (lang: string | null) => render('completed', samples.completed, lang).subject
    expect(subject('de-AT')).toBe(SUBJECTS.de.completed)
    expect(subject('FR')).toBe(SUBJECTS.fr.completed)
    expect(subject('es-MX')).toBe(SUBJECTS.es.completed)
    expect(subject('fi')).toBe(SUBJECTS.en.completed)
    expect(subject(null)).toBe(SUBJECTS.en.completed)
    expect(signedFileName('contract.pdf')).toBe('contract (signed).pdf')
    expect(signedFileName('a/b\\c\n.PDF')).toBe('a b c (signed).pdf')
    expect(signedFileName('')).toBe('document (signed).pdf')
  })
})

describe('mail configuration', () => {
  it('reads SMTP_URL and MAIL_FROM, and refuses malformed values at once', () => {
    expect(configFromEnv({})).toMatchObject({ smtpUrl: undefined, mailFrom: 'Envelope <no-reply@localhost>' })
    expect(configFromEnv({ SMTP_URL: 'smtp://u:p@mail:587', MAIL_FROM: 'Acme <a@b.c>' })).toMatchObject({ smtpUrl: 'smtp://u:p@mail:587', mailFrom: 'Acme <a@b.c>' })
    const db = {} as never
    expect(() => createMailTransport({ db, from: 'not an address' })).toThrow(/MAIL_FROM/)
    expect(() => createMailTransport({ db, smtpUrl: 'http://mail:25' })).toThrow(/smtp:\/\/ or smtps:\/\//)
    // The local mailbox only when asked for; without it and without SMTP, nothing can send.
    expect(configFromEnv({}).mailbox).toBe(false)
    expect(configFromEnv({ MAILBOX: '1' }).mailbox).toBe(true)
    expect(createMailTransport({ db }).kind).toBe('none')
    expect(createMailTransport({ db, mailbox: true }).kind).toBe('local')
    expect(createMailTransport({ db, mailbox: true, smtpUrl: 'smtp://127.0.0.1:2525' }).kind).toBe('smtp')
    expect(createMailTransport({ db, smtpUrl: 'smtp://127.0.0.1:2525' }).kind).toBe('smtp')
    expect(isLoopbackAddress('127.0.0.1')).toBe(true)
    expect(isLoopbackAddress('127.8.9.10')).toBe(true)
    expect(isLoopbackAddress('::1')).toBe(true)
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true)
    expect(isLoopbackAddress('10.0.0.1')).toBe(false)
    expect(isLoopbackAddress('::ffff:192.168.1.2')).toBe(false)
    expect(isLoopbackAddress(undefined)).toBe(false)
    expect(['localhost', 'a.localhost', '127.0.0.1', '127.1.2.3', '[::1]'].every(isLoopbackHost)).toBe(true)
    expect(['example.com', 'localhost.example.com', '127.0.0.1.nip.io', '10.0.0.1', '0.0.0.0'].some(isLoopbackHost)).toBe(false)
  })
})

// ---- on a real host --------------------------------------------------------------------------

interface Received {
  mail: ParsedMail
  rcptTo: string[]
  user: string | undefined
}

/** A real SMTP server on 127.0.0.1, parsing what it receives. */
async function smtpSink() {
  const received: Received[] = []
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'mailer' && auth.password === 's3cret') cb(null, { user: auth.username })
      else cb(new Error('invalid credentials'))
    },
    onData(stream, session, cb) {
      simpleParser(stream).then(
        (mail) => {
          received.push({ mail, rcptTo: session.envelope.rcptTo.map((r) => r.address), user: session.user as string | undefined })
          cb()
        },
        (err: Error) => cb(err),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.server.address() as AddressInfo).port
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** A transport that remembers what it was given (and what the one it wraps returned). */
function recording(inner?: MailTransport) {
  const sent: (MailMessage & { id: string })[] = []
  const transport: MailTransport = {
    kind: inner?.kind ?? 'local',
    from: inner?.from ?? 'test',
    async send(m) {
      const out = inner ? await inner.send(m) : { id: String(sent.length + 1) }
      sent.push({ ...m, id: out.id })
      return out
    },
    close: async () => {},
  }
  return { transport, sent }
}

const addresses = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value)

// Signing links are credentials: a served host shows no mailbox unless asked for (a reverse proxy
// on the same machine would make every visitor a loopback caller), and without SMTP its e-mail
// waits in the queue, retried and then failed, rather than being dropped.
describe('no SMTP and no mailbox on pglite', () => {
  let host: TestHost
  beforeAll(async () => {
    host = await startTestHost('pglite', { mailbox: false, queueConcurrency: 0, retryBaseMs: 60_000 })
  })
  afterAll(() => host?.stop())

  it('has no /mailbox, and keeps a signing request queued with its reason', async () => {
    for (const path of ['/mailbox', '/mailbox/1']) {
      const res = await fetch(`${host.url}${path}`)
      expect(res.status, path).toBe(404)
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' })
    }
    const client = api(host.apiUrl, (await host.createApiToken({ name: 'no-mail' })).token)
    const recipients = [{ email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [sig(10)] }]
    const e = await createEnvelope(client, { title: 'Unsent', recipients })
    expect((await client.post('/envelope/distribute', { envelopeId: e.id })).status).toBe(200)
    await host.queue.drain()
    const jobs = await host.db.query<{ status: string; attempts: number; last_error: string | null }>(
      `select status, attempts, last_error from jobs where kind = 'mail' and payload->>'envelopeId' = $1`,
      [e.id],
    )
    expect(jobs).toEqual([{ status: 'pending', attempts: 1, last_error: expect.stringContaining('SMTP_URL') }])
    expect(await host.db.query('select id from mails')).toEqual([])
  })
})

describe('mail on pglite', () => {
  let host: TestHost
  let client: Api
  let teamId: string
  let mailbox: Server
  let mailboxUrl: string

  beforeAll(async () => {
    host = await startTestHost('pglite')
    teamId = (await host.createTeam({ name: 'Acme & Co', plan: 'team' })).id
    await host.db.query('update teams set email = $2 where id = $1', [teamId, 'legal@acme.test'])
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId })).token)
    const app = mailboxRoutes(host.db)
    mailbox = createServer(getRequestListener(app.fetch))
    await new Promise<void>((resolve) => mailbox.listen(0, '127.0.0.1', () => resolve()))
    mailboxUrl = `http://127.0.0.1:${(mailbox.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    if (mailbox) await new Promise<void>((resolve) => mailbox.close(() => resolve()))
    await host?.stop()
  })

  const lastJobId = async () => Number((await host.db.query<{ id: string }>('select coalesce(max(id), 0) as id from jobs'))[0]!.id)

  /** Runs `fn` in a transaction, returning the mail jobs it enqueued. */
  async function enqueued(fn: Parameters<TestHost['db']['transaction']>[0]) {
    const since = await lastJobId()
    await host.db.transaction(fn)
    const rows = await host.db.query<{ id: string; kind: string; payload: MailJobPayload; attempts: number; ordering_key: string | null }>(
      `select id, kind, payload, attempts, ordering_key from jobs where id > $1 and kind = 'mail' order by id`,
      [since],
    )
    return rows
  }

  /** Each job through the mail handler, as the queue would run it. */
  async function run(rows: Awaited<ReturnType<typeof enqueued>>, transport: MailTransport) {
    const handler = mailJob({ db: host.db, transport, publicUrl: () => `${host.url}/` })
    for (const row of rows) {
      const job: Job = { id: String(row.id), kind: row.kind, payload: row.payload as never, attempts: 1, orderingKey: row.ordering_key, requestId: null, teamId: null }
      await handler(job, { insert: () => {} })
    }
  }

  /** Ann signs, Bob approves, Carla is CC (and Dan signs third when given). */
  async function sendDocument(opts: { meta?: object; title?: string; dan?: boolean; files?: { bytes: Uint8Array; name: string }[] } = {}) {
    const recipients = [
      { email: 'ann@example.com', name: 'Ann', role: 'SIGNER', signingOrder: 1, fields: [sig(10)] },
      { email: 'bob@example.com', name: 'Bob', role: 'APPROVER', signingOrder: 2 },
      { email: 'carla@example.com', name: 'Carla', role: 'CC', signingOrder: 4 },
      ...(opts.dan ? [{ email: 'dan@example.com', name: '', role: 'SIGNER', signingOrder: 3, fields: [sig(40)] }] : []),
    ]
    const e = await createEnvelope(client, { title: opts.title ?? 'Contract', meta: opts.meta ?? {}, recipients }, opts.files)
    const res = await client.post('/envelope/distribute', { envelopeId: e.id })
    expect(res.status).toBe(200)
    const by = (email: string) => res.body.recipients.find((r: any) => r.email === email)
    return { id: e.id as string, ann: by('ann@example.com'), bob: by('bob@example.com'), carla: by('carla@example.com'), dan: by('dan@example.com') }
  }

  const signing = (token: string) => api(`${host.url}/api/signing`, `Bearer ${token}`)
  async function sign(token: string) {
    const s = signing(token)
    const session = (await s.get('/session')).body
    const fields = session.fields.filter((f: any) => f.type === 'SIGNATURE').map((f: any) => ({ id: f.id, value: SIGNATURE }))
    const res = await s.post('/complete', { fields })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body
  }

  it('enqueues signing requests for those whose turn it is, never for CC', async () => {
    const parallel = await sendDocument()
    const ids = [parallel.ann.id, parallel.bob.id, parallel.carla.id]
    const jobs = await enqueued((tx) => mailTurn(tx, parallel.id, ids))
    expect(jobs.map((j) => [j.payload.template, j.payload.to, j.payload.recipientId, j.payload.vars.role])).toEqual([
      ['signing-request', 'ann@example.com', parallel.ann.id, 'SIGNER'],
      ['signing-request', 'bob@example.com', parallel.bob.id, 'APPROVER'],
    ])
    expect(jobs[0]!.payload).toMatchObject({ envelopeId: parallel.id, teamId, language: 'en', vars: { title: 'Contract', teamName: 'Acme & Co', recipientName: 'Ann' } })
    expect(jobs[0]!.ordering_key).toBe(`mail:${parallel.id}:${parallel.ann.id}`)
    // No credentials in the queue: the job reads the token when it sends.
    expect(JSON.stringify(jobs.map((j) => j.payload))).not.toContain(parallel.ann.token)

    const reminders = await enqueued((tx) => mailTurn(tx, parallel.id, [parallel.bob.id], { reminder: true }))
    expect(reminders.map((j) => [j.payload.template, j.payload.to])).toEqual([['reminder', 'bob@example.com']])

    const sequential = await sendDocument({ meta: { signingOrder: 'SEQUENTIAL' } })
    const first = await enqueued((tx) => mailTurn(tx, sequential.id, [sequential.ann.id, sequential.bob.id, sequential.carla.id]))
    expect(first.map((j) => j.payload.to)).toEqual(['ann@example.com'])
    await sign(sequential.ann.token)
    const next = await enqueued((tx) => mailTurn(tx, sequential.id, [sequential.ann.id, sequential.bob.id]))
    expect(next.map((j) => j.payload.to)).toEqual(['bob@example.com'])
  })

  it('sends nothing to recipients with distributionMethod NONE, and honours emailSettings', async () => {
    const none = await sendDocument({ meta: { distributionMethod: 'NONE' } })
    const all = [none.ann.id, none.bob.id, none.carla.id]
    expect(await enqueued((tx) => mailTurn(tx, none.id, all))).toEqual([])
    // The team's notices still go.
    const teamOnly = (rows: Awaited<ReturnType<typeof enqueued>>) => rows.map((j) => [j.payload.template, j.payload.to, j.payload.recipientId])
    expect(teamOnly(await enqueued((tx) => mailRejected(tx, none.id, none.ann.id, 'No')))).toEqual([['rejected', 'legal@acme.test', null]])
    expect(teamOnly(await enqueued((tx) => mailCancelled(tx, none.id)))).toEqual([['cancelled', 'legal@acme.test', null]])
    expect(teamOnly(await enqueued((tx) => mailCompleted(tx, none.id)))).toEqual([['team-completed', 'legal@acme.test', null]])

    const quiet = await sendDocument({
      meta: { emailSettings: { recipientSigningRequest: false, documentCompleted: false, ownerDocumentCompleted: false, documentDeleted: false } },
    })
    expect(await enqueued((tx) => mailTurn(tx, quiet.id, [quiet.ann.id, quiet.bob.id]))).toEqual([])
    expect(await enqueued((tx) => mailCompleted(tx, quiet.id))).toEqual([])
    expect(teamOnly(await enqueued((tx) => mailCancelled(tx, quiet.id, 'Oops')))).toEqual([['cancelled', 'legal@acme.test', null]])

    const partly = await sendDocument({ meta: { emailSettings: { documentCompleted: true, ownerDocumentCompleted: false } } })
    const done = await enqueued((tx) => mailCompleted(tx, partly.id))
    expect(done.map((j) => [j.payload.template, j.payload.to])).toEqual([
      ['completed', 'ann@example.com'],
      ['completed', 'bob@example.com'],
      ['completed', 'carla@example.com'],
    ])
    expect(await enqueued((tx) => mailTurn(tx, partly.id, [partly.ann.id]))).toHaveLength(1)

    // Without a team address, no team notices.
    await host.db.query('update teams set email = null where id = $1', [teamId])
    try {
      expect(await enqueued((tx) => mailCancelled(tx, none.id))).toEqual([])
    } finally {
      await host.db.query('update teams set email = $2 where id = $1', [teamId, 'legal@acme.test'])
    }
  })

  it('stores signing requests in the local mailbox and shows them to loopback callers only', async () => {
    const title = 'Lease <script>alert(1)</script>'
    const doc = await sendDocument({ title, meta: { language: 'de', message: 'Hallo,\nbitte bis Freitag.' } })
    const rows = await enqueued((tx) => mailTurn(tx, doc.id, [doc.ann.id, doc.bob.id, doc.carla.id]))
    const { transport, sent } = recording(createMailTransport({ db: host.db, mailbox: true }))
    await run(rows, transport)
    expect(sent.map((m) => m.to)).toEqual(['ann@example.com', 'bob@example.com'])

    const [stored] = await host.db.query<any>('select * from mails where id = $1', [sent[0]!.id])
    const link = `${host.url}/sign/${doc.ann.token}`
    expect(stored).toMatchObject({
      template: 'signing-request',
      to_address: 'ann@example.com',
      from_address: '"Acme & Co via Envelope" <no-reply@localhost>',
      subject: `Bitte unterschreiben Sie „${title}“`,
      envelope_id: doc.id,
      recipient_id: doc.ann.id,
      team_id: teamId,
      attachments: [],
    })
    expect(stored.text).toContain(`Dokument unterschreiben:\n${link}`)
    expect(stored.text).toContain('Hallo,\nbitte bis Freitag.')
    expect(stored.html).toContain(`href="${link}"`)
    expect(stored.html).not.toContain('<script>')

    // The list, newest first, then the message.
    const list = await fetch(`${mailboxUrl}/mailbox`)
    expect(list.status).toBe(200)
    expect(list.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(list.headers.get('referrer-policy')).toBe('no-referrer')
    expect(list.headers.get('cache-control')).toBe('no-store')
    expect(list.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/)
    const listHtml = await list.text()
    expect(listHtml).toContain('<meta http-equiv="refresh" content="5">')
    expect(listHtml).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(listHtml).not.toMatch(/<script/i)
    const bobAt = listHtml.indexOf(`href="/mailbox/${sent[1]!.id}"`)
    const annAt = listHtml.indexOf(`href="/mailbox/${sent[0]!.id}"`)
    expect(bobAt).toBeGreaterThan(-1)
    expect(annAt).toBeGreaterThan(bobAt)
    expect(listHtml).toContain('To ann@example.com')
    expect(listHtml).toContain('Lease &lt;script&gt;alert(1)&lt;/script&gt;')

    const page = await fetch(`${mailboxUrl}/mailbox/${sent[0]!.id}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')
    const pageHtml = await page.text()
    expect(pageHtml).not.toMatch(/<script/i)
    expect(pageHtml).toMatch(/<iframe [^>]*sandbox="allow-popups allow-popups-to-escape-sandbox"[^>]*srcdoc="&lt;!DOCTYPE html&gt;/)
    expect(pageHtml).toContain('&lt;base target=&quot;_blank&quot;&gt;')
    expect(pageHtml).toContain(`<a href="${link}" target="_blank" rel="noopener noreferrer">${link}</a>`)
    expect(pageHtml).toContain('&quot;Acme &amp; Co via Envelope&quot; &lt;no-reply@localhost&gt;')

    for (const path of ['/mailbox/999999999', '/mailbox/abc', `/mailbox/${sent[0]!.id}/attachments/0`, '/mailbox/0']) {
      const res = await fetch(mailboxUrl + path)
      expect(res.status, path).toBe(404)
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String) })
    }

    // Anyone not on this machine sees nothing, as if the mailbox did not exist: another peer, a
    // request relayed by a local proxy, a page on another site whose name points at 127.0.0.1.
    const app = mailboxRoutes(host.db)
    const from = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } })
    const ask = (url: string, peer: string, headers: Record<string, string> = {}) => app.fetch(new Request(url, { headers }), from(peer))
    for (const path of ['/mailbox', `/mailbox/${sent[0]!.id}`]) {
      const refused = await ask(`http://127.0.0.1:3100${path}`, '203.0.113.9')
      expect(refused.status).toBe(404)
      expect(await refused.json()).toEqual({ message: `no route for GET ${path}`, code: 'NOT_FOUND' })
      expect((await ask(`http://127.0.0.1${path}`, '::ffff:10.1.2.3')).status).toBe(404)
      expect((await ask(`http://127.0.0.1${path}`, '127.0.0.1', { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(404)
      expect((await ask(`http://127.0.0.1${path}`, '127.0.0.1', { Forwarded: 'for=203.0.113.9' })).status).toBe(404)
      expect((await ask(`http://rebound.example:3100${path}`, '127.0.0.1')).status).toBe(404)
      for (const origin of ['http://127.0.0.1:3100', 'http://localhost:3100', 'http://[::1]:3100', 'http://app.localhost']) {
        expect((await ask(origin + path, '::1')).status, origin).toBe(200)
      }
      expect((await ask(`http://127.0.0.1${path}`, '::ffff:127.0.0.1')).status).toBe(200)
    }
    expect((await app.fetch(new Request('http://127.0.0.1/mailbox'), {})).status).toBe(404)
    // Mounted at the root, the mailbox leaves every other path alone.
    expect((await ask('http://127.0.0.1/sign/abc', '127.0.0.1')).status).toBe(404)
    expect((await ask('http://127.0.0.1/mailboxes', '127.0.0.1')).status).toBe(404)
  })

  it('drops a signing request that is no longer due when it is sent', async () => {
    const doc = await sendDocument()
    const rows = await enqueued((tx) => mailTurn(tx, doc.id, [doc.ann.id, doc.bob.id]))
    await sign(doc.ann.token)
    const { transport, sent } = recording()
    await run(rows, transport)
    expect(sent.map((m) => m.to)).toEqual(['bob@example.com'])
    expect((await client.post('/envelope/cancel', { envelopeId: doc.id })).status).toBe(200)
    const late = recording()
    await run(rows, late.transport)
    expect(late.sent).toEqual([])
  })

  it('mails the completed document with its sealed PDFs over SMTP, to everyone and the team', async () => {
    const sink = await smtpSink()
    try {
      const doc = await sendDocument({
        title: 'Service agreement',
        files: [
          { bytes: await makePdf(1, [{ text: 'Agreement', x: 50, y: 700 }]), name: 'agreement.pdf' },
          { bytes: await makePdf(1, [{ text: 'Annex', x: 50, y: 700 }]), name: 'Annex A.pdf' },
        ],
      })
      await sign(doc.ann.token)
      expect((await sign(doc.bob.token)).status).toBe('COMPLETED')
      await sealingDone(host, doc.id)
      const rows = await enqueued((tx) => mailCompleted(tx, doc.id))
      expect(rows.map((j) => [j.payload.template, j.payload.to])).toEqual([
        ['completed', 'ann@example.com'],
        ['completed', 'bob@example.com'],
        ['completed', 'carla@example.com'],
        ['team-completed', 'legal@acme.test'],
      ])

      const smtp = createMailTransport({ db: host.db, smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${sink.port}`, from: 'Envelope Test <sign@envelope.test>' })
      try {
        await run(rows, smtp)
      } finally {
        await smtp.close()
      }
      expect(sink.received.map((r) => r.rcptTo)).toEqual([['ann@example.com'], ['bob@example.com'], ['carla@example.com'], ['legal@acme.test']])
      expect(sink.received.every((r) => r.user === 'mailer')).toBe(true)

      const resource = (await client.get(`/envelope/${doc.id}`)).body
      const sealed = await Promise.all(resource.envelopeItems.map(async (i: any) => (await client.get(`/envelope/item/${i.id}/download`)).body as Uint8Array))

      const [ann, , carla, team] = sink.received.map((r) => r.mail)
      expect(ann!.subject).toBe('“Service agreement” is complete')
      expect(addresses(ann!.from)).toEqual([{ name: 'Acme & Co via Envelope Test', address: 'sign@envelope.test' }])
      expect(addresses(ann!.to)).toEqual([{ name: 'Ann', address: 'ann@example.com' }])
      expect(ann!.headers.get('auto-submitted')).toBe('auto-generated')
      const annLink = `${host.url}/sign/${doc.ann.token}`
      expect(ann!.text).toContain(annLink)
      expect(ann!.html).toContain(`href="${annLink}"`)
      expect(ann!.text).toContain('The signed documents are attached.')
      expect(carla!.text).toContain(`${host.url}/sign/${doc.carla.token}`)

      for (const m of [ann!, carla!, team!]) {
        expect(m.attachments.map((a) => [a.filename, a.contentType])).toEqual([
          ['agreement (signed).pdf', 'application/pdf'],
          ['Annex A (signed).pdf', 'application/pdf'],
        ])
        m.attachments.forEach((a, i) => {
          expect(new Uint8Array(a.content)).toEqual(new Uint8Array(sealed[i]!))
          expect(verifyPdfSignature(new Uint8Array(a.content))).toMatchObject({ signed: true, digestOk: true, signatureOk: true })
        })
      }
      expect(team!.subject).toBe('“Service agreement” was completed by everyone')
      expect(addresses(team!.to)).toEqual([{ name: '', address: 'legal@acme.test' }])
      expect(team!.text).toContain('- Ann <ann@example.com> – signed')
      expect(team!.text).toContain('- Bob <bob@example.com> – approved')
      expect(team!.text).toContain('- Carla <carla@example.com> – received a copy')
      expect(team!.text).not.toContain('/sign/')

      // The same messages in the local mailbox keep references; the mailbox serves the bytes.
      const local = recording(createMailTransport({ db: host.db, mailbox: true }))
      await run(rows.slice(0, 1), local.transport)
      const [stored] = await host.db.query<any>('select attachments from mails where id = $1', [local.sent[0]!.id])
      expect(stored.attachments).toEqual(resource.envelopeItems.map((i: any, n: number) => ({ filename: n ? 'Annex A (signed).pdf' : 'agreement (signed).pdf', documentDataId: expect.stringMatching(/^document_data_/) })))
      const page = await (await fetch(`${mailboxUrl}/mailbox/${local.sent[0]!.id}`)).text()
      expect(page).toContain(`<a href="/mailbox/${local.sent[0]!.id}/attachments/1" download>Annex A (signed).pdf</a>`)
      const download = await fetch(`${mailboxUrl}/mailbox/${local.sent[0]!.id}/attachments/1`)
      expect(download.status).toBe(200)
      expect(download.headers.get('content-type')).toBe('application/pdf')
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="Annex A (signed).pdf"; filename*=UTF-8''Annex%20A%20(signed).pdf`)
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(new Uint8Array(sealed[1]!))
      expect((await fetch(`${mailboxUrl}/mailbox/${local.sent[0]!.id}/attachments/2`)).status).toBe(404)
    } finally {
      await sink.close()
    }
  })

  it('tells those who were sent a rejected document, and the team, who rejected and why', async () => {
    const doc = await sendDocument({ dan: true, meta: { signingOrder: 'SEQUENTIAL', language: 'fr' } })
    await sign(doc.ann.token)
    expect((await signing(doc.bob.token).post('/reject', { reason: 'Le loyer\nest faux' })).status).toBe(200)
    const rows = await enqueued((tx) => mailRejected(tx, doc.id, doc.bob.id, 'Le loyer\nest faux'))
    // Ann had signed; Dan (after Bob) and Carla (CC) never got anything before.
    expect(rows.map((j) => [j.payload.template, j.payload.to])).toEqual([
      ['rejected', 'ann@example.com'],
      ['rejected', 'legal@acme.test'],
    ])
    const { transport, sent } = recording(createMailTransport({ db: host.db, mailbox: true }))
    await run(rows, transport)
    expect(sent[0]!.subject).toBe(`Bob a refusé «${NB}Contract${NB}»`)
    expect(sent[0]!.text).toContain('Bonjour Ann,')
    expect(sent[0]!.text).toContain(`Motif${NB}:\n\nLe loyer\nest faux`)
    expect(sent[1]!.text).toContain('Bonjour,')
    expect(sent[0]!.text).not.toContain('/sign/')

    // A parallel document: everyone who acts was sent it.
    const parallel = await sendDocument({ dan: true })
    const all = await enqueued((tx) => mailRejected(tx, parallel.id, parallel.dan.id, 'No'))
    expect(all.map((j) => j.payload.to)).toEqual(['ann@example.com', 'bob@example.com', 'legal@acme.test'])
    const danNamed = recording()
    await run(all.slice(0, 1), danNamed.transport)
    expect(danNamed.sent[0]!.subject).toBe('dan@example.com rejected “Contract”')
  })

  it('tells recipients and the team that a document was cancelled, with the reason', async () => {
    const doc = await sendDocument({ meta: { language: 'de' } })
    expect((await client.post('/envelope/cancel', { envelopeId: doc.id, reason: 'Neue Fassung' })).status).toBe(200)
    const rows = await enqueued((tx) => mailCancelled(tx, doc.id, 'Neue Fassung'))
    expect(rows.map((j) => [j.payload.template, j.payload.to])).toEqual([
      ['cancelled', 'ann@example.com'],
      ['cancelled', 'bob@example.com'],
      ['cancelled', 'legal@acme.test'],
    ])
    // Rendered from what the job holds: the envelope may be gone by then (a pending document is deleted for good).
    await host.db.query('delete from envelopes where id = $1', [doc.id])
    const { transport, sent } = recording()
    await run(rows, transport)
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      ['ann@example.com', '„Contract“ wurde zurückgezogen'],
      ['bob@example.com', '„Contract“ wurde zurückgezogen'],
      ['legal@acme.test', '„Contract“ wurde zurückgezogen'],
    ])
    expect(sent[0]!.text).toContain('Acme & Co hat „Contract“ zurückgezogen.')
    expect(sent[0]!.text).toContain('Begründung:\n\nNeue Fassung')
    expect(sent[0]!.senderName).toBe('Acme & Co')
  })

  it('throws when the SMTP server cannot be reached, so the queue retries', async () => {
    const sink = await smtpSink()
    const port = sink.port
    await sink.close()
    const doc = await sendDocument()
    const rows = await enqueued((tx) => mailTurn(tx, doc.id, [doc.ann.id]))
    const smtp = createMailTransport({ db: host.db, smtpUrl: `smtp://127.0.0.1:${port}` })
    try {
      await expect(run(rows, smtp)).rejects.toThrow()
    } finally {
      await smtp.close()
    }
    const wrongPassword = await smtpSink()
    const refused = createMailTransport({ db: host.db, smtpUrl: `smtp://mailer:wrong@127.0.0.1:${wrongPassword.port}` })
    try {
      await expect(run(rows, refused)).rejects.toThrow()
      expect(wrongPassword.received).toEqual([])
    } finally {
      await refused.close()
      await wrongPassword.close()
    }
  })
})
