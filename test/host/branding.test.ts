/**
 * Team branding and defaults: what may be stored, and how mails carry the logo, colours and sender,
 * through a real SMTP server and in the local mailbox.
 * Database: the embedded one (API rules, mails). A host of its own for SMTP (it sends to this
 * file's server); the mailbox case on the worker's shared host, in a team of its own.
 */
import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodePng } from '../../host/server/images/png.js'
import { MAX_LOGO_BYTES } from '../../host/server/images/logo.js'
import { MAIL_STRINGS } from '../../host/server/mail/i18n.js'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { test } from './fixtures.js'
import { api, createEnvelope, form, makePdf, startTestHost, type Api, type TestHost } from './support.js'

const sig = { type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }

/** A real PNG of w x h pixels, each a different shade (so it does not compress to nothing). */
function png(w: number, h: number): Buffer {
  const rgba = new Uint8Array(w * h * 4)
  for (let i = 0; i < w * h; i++) rgba.set([(i * 37) % 256, (i * 91) % 256, (i * 13) % 256, 255], i * 4)
  return encodePng({ width: w, height: h, rgba })
}
const dataUrl = (bytes: Uint8Array, type = 'image/png') => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`

/** A minimal baseline JPEG header: SOI, an SOF0 of w x h, SOS, then EOI (walked, never decoded). */
function jpeg(w: number, h: number): Buffer {
  const sof = [0xff, 0xc0, 0x00, 0x0b, 0x08, h >> 8, h & 255, w >> 8, w & 255, 0x01, 0x01, 0x11, 0x00]
  const sos = [0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]
  return Buffer.from([0xff, 0xd8, ...sof, ...sos, 0x00, 0xff, 0xd9])
}

/** A real SMTP server on 127.0.0.1, parsing what it receives. */
async function smtpSink() {
  const received: ParsedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, cb) {
      simpleParser(stream, { keepCidLinks: true }).then(
        (mail) => (received.push(mail), cb()),
        (err: Error) => cb(err),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return { received, port: (server.server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe('team branding and defaults on pglite', () => {
  let host: TestHost
  let sink: Awaited<ReturnType<typeof smtpSink>>
  let admin: ConsoleClient
  let member: ConsoleClient
  let client: Api

  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })
  const brand = (body: object) => admin.console('/team/branding', { body }).then(json)

  beforeAll(async () => {
    sink = await smtpSink()
    host = await startTestHost('pglite', { mailbox: false, smtpUrl: `smtp://127.0.0.1:${sink.port}`, mailFrom: 'Envelope <no-reply@sign.example.com>' })
    await makeUser(host.db, 'owner@example.com')
    admin = await signInAs(host.url, 'owner@example.com')
    const teamId = (await (await admin.console('/me')).json()).team.teamId as string
    await makeUser(host.db, 'member@example.com', { teamId, role: 'MEMBER' })
    member = await signInAs(host.url, 'member@example.com')
    client = api(host.apiUrl, (await host.createApiToken({ name: 'branding', teamId })).token)
  })
  afterAll(async () => {
    await host?.stop()
    await sink?.close()
  })

  it('refuses what may not be stored with 400 {message, code, issues}', async () => {
    const refused = async (res: Promise<{ status: number; body: any }>, code: string, path: string) => {
      const r = await res
      expect(r.status, JSON.stringify(r.body)).toBe(400)
      expect(r.body).toMatchObject({ code, message: expect.any(String) })
      expect(r.body.issues.map((i: any) => i.path)).toContain(path)
    }
    await refused(brand({ brandColor: 'blue' }), 'INVALID_REQUEST', 'brandColor')
    await refused(brand({ brandColor: '#12345g' }), 'INVALID_REQUEST', 'brandColor')
    await refused(brand({ timezone: 'Mars/Olympus' }), 'INVALID_REQUEST', 'timezone')
    await refused(brand({ timezone: '+01:00' }), 'INVALID_REQUEST', 'timezone')
    await refused(brand({ senderName: 'Acme\r\nBcc: victim@example.com' }), 'INVALID_REQUEST', 'senderName')
    await refused(brand({ senderName: 'Acme <ceo@bank.example>' }), 'INVALID_REQUEST', 'senderName')
    await refused(brand({ emailSubject: 'Hi\nBcc: x@example.com' }), 'INVALID_REQUEST', 'emailSubject')
    await refused(brand({ replyTo: 'not an address' }), 'INVALID_REQUEST', 'replyTo')
    await refused(brand({ dateFormat: 'yyyy' }), 'INVALID_REQUEST', 'dateFormat')
    await refused(brand({ language: 'xx' }), 'INVALID_REQUEST', 'language')
    await refused(brand({ defaultAccessAuth: ['PASSWORD'] }), 'INVALID_REQUEST', 'defaultAccessAuth.0')

    const logo = (image: string) => admin.console('/team/branding/logo', { body: { image } }).then(json)
    // Over the byte cap (random bytes do not compress: the PNG stays large).
    const big = Buffer.concat([png(8, 8), Buffer.alloc(MAX_LOGO_BYTES)])
    await refused(logo(dataUrl(big)), 'LOGO_TOO_LARGE', 'image')
    // Declares more pixels than accepted: refused from its header, before any decoding.
    const huge = png(1, 1)
    huge.writeUInt32BE(20_000, 16)
    huge.writeUInt32BE(20_000, 20)
    await refused(logo(dataUrl(huge)), 'LOGO_TOO_LARGE', 'image')
    await refused(logo(dataUrl(jpeg(5000, 5000), 'image/jpeg')), 'LOGO_TOO_LARGE', 'image')
    // Named a PNG, but it is text; an SVG under any name; a cut JPEG.
    await refused(logo(dataUrl(Buffer.from('GIF89a not really a png'))), 'UNSUPPORTED_IMAGE', 'image')
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>')
    await refused(logo(dataUrl(svg, 'image/svg+xml')), 'UNSUPPORTED_IMAGE', 'image')
    await refused(logo(dataUrl(svg)), 'UNSUPPORTED_IMAGE', 'image')
    await refused(logo(dataUrl(jpeg(10, 10).subarray(0, 12), 'image/jpeg')), 'INVALID_IMAGE', 'image')
    // A broken PNG: right signature and header, data that does not inflate.
    const broken = Buffer.concat([png(4, 4).subarray(0, 33), Buffer.from([0, 0, 0, 4, 0x49, 0x44, 0x41, 0x54, 1, 2, 3, 4, 0, 0, 0, 0])])
    await refused(logo(dataUrl(broken)), 'INVALID_IMAGE', 'image')
    // Nothing was stored.
    expect((await json(await admin.console('/team/branding'))).body).toMatchObject({ logo: null, brandColor: null, senderName: null, timezone: null })
  })

  it('lets an admin change it; a member reads it and is refused a change', async () => {
    expect((await json(await member.console('/team/branding'))).status).toBe(200)
    const denied = await json(await member.console('/team/branding', { body: { brandColor: '#ff0000' } }))
    expect(denied).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } })
    expect((await json(await member.console('/team/branding/logo', { body: { image: dataUrl(png(4, 4)) } }))).status).toBe(403)
    const set = await brand({ brandColor: '#0F766E', emailMessage: '  ' })
    expect(set).toMatchObject({ status: 200, body: { brandColor: '#0f766e', emailMessage: null } })
    expect((await brand({ brandColor: null })).body.brandColor).toBeNull()
  })

  it('stores a logo, served at a stable address with its type, nosniff and a long cache', async () => {
    const set = await json(await admin.console('/team/branding/logo', { body: { image: dataUrl(png(800, 200)) } }))
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    // Scaled to fit 512 a side, re-encoded.
    expect(set.body.logo).toMatchObject({ type: 'image/png', width: 512, height: 128, url: expect.stringMatching(/^\/branding\/logo\/[0-9a-f]{64}$/) })
    const res = await fetch(host.url + set.body.logo.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toMatch(/max-age=31536000/)
    expect(Buffer.from(await res.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG')
    // The same image again: the same address.
    const again = await json(await admin.console('/team/branding/logo', { body: { image: dataUrl(png(800, 200)) } }))
    expect(again.body.logo.url).toBe(set.body.logo.url)
    // A JPEG is kept as sent, served as a JPEG.
    const j = await json(await admin.console('/team/branding/logo', { body: { image: dataUrl(jpeg(300, 100), 'image/png') } }))
    expect(j.body.logo).toMatchObject({ type: 'image/jpeg', width: 300, height: 100 })
    expect((await fetch(host.url + j.body.logo.url)).headers.get('content-type')).toBe('image/jpeg')
    // The old address is gone with the old logo; removing leaves none.
    expect((await fetch(host.url + set.body.logo.url)).status).toBe(404)
    const removed = await json(await admin.console('/team/branding/logo/remove', { body: {} }))
    expect(removed.body.logo).toBeNull()
    expect((await fetch(host.url + j.body.logo.url)).status).toBe(404)
    expect((await fetch(`${host.url}/branding/logo/not-a-hash`)).status).toBe(404)
  })

  it('applies the defaults where a request leaves them unset: API v2 and a template’s use', async () => {
    const set = await brand({
      timezone: 'Europe/Berlin',
      dateFormat: 'dd.MM.yyyy HH:mm',
      language: 'de',
      emailSubject: 'Bitte unterschreiben',
      emailMessage: 'Hallo,\nbitte unterschreiben.',
      defaultAccessAuth: ['TWO_FACTOR_AUTH'],
    })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    try {
      const plain = await createEnvelope(client)
      expect(plain.documentMeta).toMatchObject({ timezone: 'Europe/Berlin', dateFormat: 'dd.MM.yyyy HH:mm', language: 'de', subject: 'Bitte unterschreiben', message: 'Hallo,\nbitte unterschreiben.' })
      expect(plain.authOptions).toMatchObject({ globalAccessAuth: ['TWO_FACTOR_AUTH'], globalActionAuth: [] })
      // What the request gives wins; a subject given as null is none given.
      const own = await createEnvelope(client, { meta: { timezone: 'America/New_York', language: 'fr', subject: null }, globalAccessAuth: [] })
      expect(own.documentMeta).toMatchObject({ timezone: 'America/New_York', language: 'fr', dateFormat: 'dd.MM.yyyy HH:mm', subject: 'Bitte unterschreiben' })
      expect(own.authOptions).toMatchObject({ globalAccessAuth: [], globalActionAuth: [] })

      // A template made now carries them; a document made from it too, with the subject the template left unset.
      const t = await createEnvelope(client, { type: 'TEMPLATE', title: 'Lease', meta: { timezone: 'Asia/Tokyo' }, recipients: [{ email: 'tenant@example.com', name: 'T', role: 'SIGNER', fields: [sig] }] })
      await host.db.query(`update envelopes set document_meta = document_meta || '{"subject": null}' where id = $1`, [t.id])
      await brand({ emailSubject: 'Neuer Betreff' })
      const used = await client.post('/envelope/use', form({ envelopeId: t.id }, []))
      expect(used.status, JSON.stringify(used.body)).toBe(200)
      const doc = (await client.get(`/envelope/${used.body.id}`)).body
      expect(doc.documentMeta).toMatchObject({ timezone: 'Asia/Tokyo', language: 'de', dateFormat: 'dd.MM.yyyy HH:mm', subject: 'Neuer Betreff' })
      expect(doc.authOptions).toMatchObject({ globalAccessAuth: ['TWO_FACTOR_AUTH'] })
    } finally {
      await brand({ timezone: null, dateFormat: null, language: null, emailSubject: null, emailMessage: null, defaultAccessAuth: null })
    }
    // Cleared: the service's own defaults again.
    expect((await createEnvelope(client)).documentMeta).toMatchObject({ timezone: 'Etc/UTC', language: 'en', subject: null })
  })

  it('sends e-mail from the team’s sender name, with its Reply-To, logo (inline) and colour', async () => {
    await admin.console('/team/branding/logo', { body: { image: dataUrl(png(120, 40)) } })
    const set = await brand({ senderName: 'Acme Legal', replyTo: 'legal@acme.example', brandColor: '#ffd500' })
    expect(set.status).toBe(200)
    const e = await createEnvelope(client, { title: 'Branded', recipients: [{ email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [sig] }] })
    expect((await client.post('/envelope/distribute', { envelopeId: e.id })).status).toBe(200)
    await expect.poll(() => sink.received.find((m) => m.subject?.includes('Branded')), { timeout: 120_000 }).toBeTruthy()
    const mail = sink.received.find((m) => m.subject?.includes('Branded'))!
    expect(mail.from?.value[0]).toMatchObject({ name: 'Acme Legal', address: 'no-reply@sign.example.com' })
    expect(mail.replyTo?.value[0]?.address).toBe('legal@acme.example')
    const logo = mail.attachments.find((a) => a.contentType === 'image/png')
    expect(logo?.cid).toBeTruthy()
    expect(logo?.contentDisposition).toBe('inline')
    expect(String(mail.html)).toContain(`src="cid:${logo!.cid}"`)
    expect(String(mail.html)).toContain('alt="Acme Legal"')
    // Yellow fails AA against white: the button takes the nearest readable shade, with a label that reads on it.
    expect(String(mail.html)).not.toMatch(/background:#ffd500/)
    expect(String(mail.html)).toMatch(/background:#[0-9a-f]{6};color:#(000000|ffffff)/)

    // The signing page hears of the logo and colour with its session.
    const token = (await client.get(`/envelope/${e.id}`)).body.recipients[0].token
    const session = await api(`${host.url}/api/signing`, `Bearer ${token}`).get('/session')
    expect(session.body.branding).toMatchObject({ logoUrl: expect.stringMatching(/^\/branding\/logo\//), color: '#ffd500', name: 'Acme Legal' })
  })

  it('brands every e-mail the team sends (a recipient’s code, an invitation), never one about a user’s own account', async () => {
    await admin.console('/team/branding/logo', { body: { image: dataUrl(png(90, 30)) } })
    expect((await brand({ senderName: 'Acme Legal', replyTo: 'legal@acme.example', brandColor: '#0f766e' })).status).toBe(200)
    const mailTo = async (to: string, subject?: string) => {
      const find = () => sink.received.find((m) => m.to && 'value' in m.to && m.to.value[0]?.address === to && (!subject || m.subject === subject))
      await expect.poll(find, { timeout: 120_000 }).toBeTruthy()
      return find()!
    }
    const branded = (mail: ParsedMail) => {
      expect(mail.from?.value[0]).toMatchObject({ name: 'Acme Legal', address: 'no-reply@sign.example.com' })
      expect(mail.replyTo?.value[0]?.address).toBe('legal@acme.example')
      const logo = mail.attachments.find((a) => a.contentType === 'image/png')
      expect(logo?.contentDisposition).toBe('inline')
      expect(String(mail.html)).toContain(`<img src="cid:${logo!.cid}" alt="Acme Legal"`)
      // Teal reads on white: kept as it is.
      expect(String(mail.html)).toContain('color:#0f766e')
    }

    // The one-time code a recipient asks for on the signing page.
    const e = await createEnvelope(client, { title: 'Coded', recipients: [{ email: 'coded@example.com', name: 'Cody', role: 'SIGNER', accessAuth: ['TWO_FACTOR_AUTH'], fields: [sig] }] })
    expect((await client.post('/envelope/distribute', { envelopeId: e.id })).status).toBe(200)
    const token = (await client.get(`/envelope/${e.id}`)).body.recipients[0].token
    expect((await api(`${host.url}/api/signing`, `Bearer ${token}`).post('/auth/code', { purpose: 'access' })).status).toBe(200)
    const code = await mailTo('coded@example.com', MAIL_STRINGS.en.code.subject)
    branded(code)
    expect(String(code.html)).toMatch(/color:#0f766e;">\d{6}<\/p>/)

    // An invitation to the team, from its admin.
    const invited = await admin.console('/team/invitations', { body: { email: 'newcomer@example.com', role: 'MEMBER' } })
    expect(invited.status).toBe(200)
    const invitation = await mailTo('newcomer@example.com')
    branded(invitation)

    // A sign-in link is about the reader's own account: the service's sender and look, whatever team they are in.
    const link = await fetch(`${host.url}/api/console/auth/link`, {
      method: 'POST',
      headers: { origin: host.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com' }),
    })
    expect(link.status).toBe(200)
    const account = await mailTo('owner@example.com', MAIL_STRINGS.en.account({}).signin.subject)
    expect(account.from?.value[0]).toMatchObject({ name: 'Envelope', address: 'no-reply@sign.example.com' })
    expect(account.replyTo).toBeUndefined()
    expect(account.attachments).toHaveLength(0)
    expect(String(account.html)).not.toContain('cid:')
    expect(String(account.html)).not.toContain('#0f766e')
  })
})

// Without SMTP, the local mailbox keeps the message: the logo by its address on this host, as `cid:` means nothing there.
describe('team branding in the local mailbox', () => {
  test('shows the logo from its address', async ({ host, team, member }) => {
    // The first account of a host also administers its default team: the session acts for this one.
    expect((await member.console.console('/teams/switch', { body: { teamId: team.id } })).status).toBe(200)
    const set = await (await member.console.console('/team/branding/logo', { body: { image: dataUrl(png(60, 20)) } })).json()
    const { client } = team
    const e = await createEnvelope(client, { title: 'Mailbox logo', recipients: [{ email: 'ann@example.com', name: 'Ann', role: 'SIGNER', fields: [sig] }] })
    await client.post('/envelope/distribute', { envelopeId: e.id })
    const html = async () => (await host.db.query<{ html: string }>('select html from mails where envelope_id = $1', [e.id]))[0]?.html ?? ''
    await expect.poll(html, { timeout: 120_000 }).toContain(`src="${host.url}${set.logo.url}"`)
    expect(await html()).not.toContain('cid:')
  })
})
