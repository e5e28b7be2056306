/**
 * The client's lifecycle methods against the real host: distribute, redistribute, cancel,
 * reject on a recipient's behalf, download (signed / original), the audit log and the certificate.
 * The answers are checked against their documented shapes by the client itself.
 * Database: the embedded one (the client's view of the API; SQL is held on both in test/host).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TestHost } from '../host/support.js'
import { newTeam, test } from '../host/fixtures.js'
import { ApiError, createClient, InvalidResponseError, type EnvelopeClient } from '../../src/server/index.js'
import { listen, makePdf, readBody } from './fixtures.js'

// A real 1x1 PNG, as the signing pages send a drawn signature.
const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const box = { page: 1, width: 20, height: 5 }

let host: TestHost
let client: EnvelopeClient

// The worker's host without a mailbox, as `npm start` runs by default: mails stay queued, so an
// envelope's audit log holds still. Everything here is a team's own.
test.beforeAll(async ({ hosts }) => {
  host = await hosts.on('pglite', { mailbox: false })
  client = createClient({ baseUrl: host.url, apiKey: (await newTeam(host, { plan: 'enterprise' })).token })
})

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => null, (e: unknown) => e)
  expect(e).toBeInstanceOf(ApiError)
  return e as ApiError
}

/** A draft document: Ann signs, Bob approves; `pdf` is the uploaded file. */
async function draft(title = 'Lease') {
  const pdf = await makePdf(1, title)
  const { id } = await client.envelopes.create({
    type: 'DOCUMENT',
    title,
    recipients: [
      { email: 'ann@example.com', name: 'Ann', role: 'SIGNER', signingOrder: 1, fields: [{ ...box, identifier: 0, type: 'SIGNATURE', positionX: 10, positionY: 80 }] },
      { email: 'bob@example.com', name: 'Bob', role: 'APPROVER', signingOrder: 2 },
    ],
    files: [{ name: 'lease.pdf', data: pdf }],
  })
  return { id, pdf }
}

/** The signing pages' API as the recipient holding `token`: completes with a signature in every field. */
async function complete(token: string) {
  const call = (path: string, body?: unknown) =>
    fetch(`${host.url}/api/signing${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'User-Agent': 'LifecycleTest/1.0' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const session = (await (await call('/session')).json()) as { fields: { id: number }[] }
  // The recipient consents to sign electronically first, as the signing page has them do.
  const { disclosure } = (await (await call('/consent')).json()) as { disclosure: { version: number } }
  expect((await call('/consent', { version: disclosure.version })).status).toBe(200)
  const res = await call('/complete', { fields: session.fields.map((f) => ({ id: f.id, value: SIGNATURE })) })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as { status: string }
}

describe('the lifecycle methods against the real host', () => {
  it('envelopes.distribute sends with meta and answers each recipient with token and signing link', async () => {
    const { id } = await draft()
    const sent = await client.envelopes.distribute({
      envelopeId: id,
      meta: { subject: 'Please sign the lease', message: 'Thanks!', signingOrder: 'SEQUENTIAL', timezone: 'Europe/Berlin' },
    })
    expect(sent).toMatchObject({ success: true, id })
    expect(sent.recipients.map((r) => [r.name, r.email, r.role, r.signingOrder])).toEqual([
      ['Ann', 'ann@example.com', 'SIGNER', 1],
      ['Bob', 'bob@example.com', 'APPROVER', 2],
    ])
    for (const r of sent.recipients) {
      expect(r.id).toEqual(expect.any(Number))
      expect(r.token).toEqual(expect.any(String))
      expect(r.signingUrl).toBe(`${host.url}/sign/${r.token}`)
    }
    const e = await client.envelopes.get(id)
    expect(e.status).toBe('PENDING')
    expect(e.documentMeta).toMatchObject({ subject: 'Please sign the lease', message: 'Thanks!', signingOrder: 'SEQUENTIAL', timezone: 'Europe/Berlin' })
    expect(e.recipients.map((r) => r.sendStatus)).toEqual(['SENT', 'SENT'])

    const again = await apiError(client.envelopes.distribute({ envelopeId: id }))
    expect(again.status).toBe(400)
  })

  it('envelopes.redistribute answers the chosen recipients who have not completed', async () => {
    const { id } = await draft()
    const { recipients } = await client.envelopes.distribute({ envelopeId: id })
    const [ann, bob] = recipients
    expect((await complete(ann!.token)).status).toBe('PENDING')
    const resent = await client.envelopes.redistribute({ envelopeId: id, recipients: [ann!.id, bob!.id] })
    expect(resent).toMatchObject({ success: true, id })
    expect(resent.recipients).toEqual([bob])
    const unknown = await apiError(client.envelopes.redistribute({ envelopeId: id, recipients: [999_999] }))
    expect([unknown.status, unknown.code]).toEqual([400, 'INVALID_REQUEST'])
  })

  it('envelopes.cancel ends a pending document; a draft cannot be cancelled', async () => {
    const { id } = await draft()
    const notSent = await apiError(client.envelopes.cancel({ envelopeId: id }))
    expect(notSent.status).toBe(400)
    await client.envelopes.distribute({ envelopeId: id })
    expect(await client.envelopes.cancel({ envelopeId: id, reason: 'Terms changed' })).toBeUndefined()
    expect((await client.envelopes.get(id)).status).toBe('CANCELLED')
    const log = await client.envelopes.auditLog(id, { orderByDirection: 'desc', perPage: 1 })
    expect(log.data[0]).toMatchObject({ type: 'DOCUMENT_CANCELLED', data: expect.objectContaining({ reason: 'Terms changed' }) })
  })

  it('recipients.reject rejects on the recipient\'s behalf and answers the recipient', async () => {
    const { id } = await draft()
    const { recipients } = await client.envelopes.distribute({ envelopeId: id })
    const ann = recipients[0]!
    const elsewhere = await draft('Other')
    const wrongEnvelope = await apiError(client.recipients.reject(ann.id, { envelopeId: elsewhere.id, reason: 'x' }))
    expect([wrongEnvelope.status, wrongEnvelope.code]).toEqual([404, 'NOT_FOUND'])
    const noReason = await apiError(client.recipients.reject(ann.id, { envelopeId: id, reason: '' }))
    expect([noReason.status, noReason.code]).toEqual([400, 'INVALID_REQUEST'])

    const rejected = await client.recipients.reject(ann.id, { envelopeId: id, reason: 'Wrong rent' })
    expect(rejected).toMatchObject({ id: ann.id, envelopeId: id, email: 'ann@example.com', signingStatus: 'REJECTED', rejectionReason: 'Wrong rent' })
    expect((await client.envelopes.get(id)).status).toBe('REJECTED')
  })

  it('items.download: original always, signed once completed (and by default then); the certificate', async () => {
    const { id, pdf } = await draft()
    const itemId = (await client.envelopes.get(id)).envelopeItems[0]!.id
    expect(await client.items.download(itemId)).toEqual(pdf)
    const early = await apiError(client.items.download(itemId, { version: 'signed' }))
    expect([early.status, early.code]).toEqual([400, 'DOCUMENT_NOT_COMPLETED'])

    const { recipients } = await client.envelopes.distribute({ envelopeId: id })
    for (const r of recipients) await complete(r.token)
    expect((await client.envelopes.get(id)).status).toBe('COMPLETED')

    const signed = await client.items.download(itemId, { version: 'signed' })
    expect(signed).toBeInstanceOf(Uint8Array)
    expect(new TextDecoder().decode(signed.slice(0, 5))).toBe('%PDF-')
    expect(signed).not.toEqual(pdf)
    expect(await client.items.download(itemId)).toEqual(signed)
    expect(await client.items.download(itemId, { version: 'original' })).toEqual(pdf)

    const certificate = await client.envelopes.certificate(id)
    expect(certificate).toBeInstanceOf(Uint8Array)
    expect(new TextDecoder().decode(certificate.slice(0, 5))).toBe('%PDF-')
    const missing = await apiError(client.envelopes.certificate('envelope_doesnotexist'))
    expect(missing.status).toBe(404)
  })

  it('envelopes.auditLog pages through the entries, oldest first unless asked otherwise', async () => {
    const { id } = await draft()
    const { recipients } = await client.envelopes.distribute({ envelopeId: id })
    await complete(recipients[0]!.token)

    const all = await client.envelopes.auditLog(id)
    expect(all).toMatchObject({ currentPage: 1, totalPages: 1 })
    expect(all.count).toBe(all.data.length)
    expect(all.data.map((x) => x.type).slice(0, 2)).toEqual(['DOCUMENT_CREATED', 'DOCUMENT_SENT'])
    for (const entry of all.data) {
      expect(entry).toMatchObject({ id: expect.any(String), envelopeId: id, type: expect.any(String), data: expect.any(Object) })
      expect(Number.isNaN(Date.parse(entry.createdAt))).toBe(false)
    }
    const byAnn = all.data.find((x) => x.type === 'DOCUMENT_RECIPIENT_COMPLETED')!
    expect(byAnn).toMatchObject({ name: 'Ann', email: 'ann@example.com', recipientId: recipients[0]!.id, userAgent: 'LifecycleTest/1.0' })
    expect(all.data[0]).toMatchObject({ name: null, email: null, recipientId: null })

    const page = await client.envelopes.auditLog(id, { page: 2, perPage: 1 })
    expect(page).toMatchObject({ count: all.count, currentPage: 2, perPage: 1, totalPages: all.count })
    expect(page.data).toEqual([all.data[1]])
    const newest = await client.envelopes.auditLog(id, { perPage: 1, orderByDirection: 'desc' })
    expect(newest.data).toEqual([all.data.at(-1)])
    const bad = await apiError(client.envelopes.auditLog(id, { perPage: 1000 }))
    expect([bad.status, bad.code]).toEqual([400, 'INVALID_REQUEST'])
  })
})

describe('the lifecycle methods on the wire', () => {
  let server: Awaited<ReturnType<typeof listen>>
  const seen: { method: string; url: string; body: string }[] = []
  let reply: (res: ServerResponse) => void = (res) => void res.writeHead(500).end()

  beforeAll(async () => {
    server = await listen(async (req: IncomingMessage, res) => {
      seen.push({ method: req.method!, url: req.url!, body: await readBody(req) })
      reply(res)
    })
  })
  afterAll(() => server.close())

  const json = (body: unknown) => (res: ServerResponse) =>
    void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
  const fake = () => createClient({ baseUrl: server.url, apiKey: 'api_test_0123456789' })
  const last = () => {
    const { method, url, body } = seen.at(-1)!
    return { method, url, body: body ? JSON.parse(body) : undefined }
  }

  it('sends each request to its path, with its body or query', async () => {
    const c = fake()
    const sent = { success: true, id: 'envelope_a', recipients: [] }
    reply = json(sent)
    expect(await c.envelopes.distribute({ envelopeId: 'envelope_a', meta: { subject: 'Hi' } })).toEqual(sent)
    expect(last()).toEqual({ method: 'POST', url: '/api/v2/envelope/distribute', body: { envelopeId: 'envelope_a', meta: { subject: 'Hi' } } })
    await c.envelopes.redistribute({ envelopeId: 'envelope_a', recipients: [1, 2] })
    expect(last()).toEqual({ method: 'POST', url: '/api/v2/envelope/redistribute', body: { envelopeId: 'envelope_a', recipients: [1, 2] } })
    reply = json({ success: true })
    await c.envelopes.cancel({ envelopeId: 'envelope_a', reason: 'no' })
    expect(last()).toEqual({ method: 'POST', url: '/api/v2/envelope/cancel', body: { envelopeId: 'envelope_a', reason: 'no' } })
    reply = json({ id: 7, envelopeId: 'envelope_a', email: 'a@example.com', name: 'A', role: 'SIGNER', signingOrder: null, signingStatus: 'REJECTED', rejectionReason: 'r' })
    await c.recipients.reject(7, { envelopeId: 'envelope_a', reason: 'r' })
    expect(last()).toEqual({ method: 'POST', url: '/api/v2/envelope/recipient/7/reject', body: { envelopeId: 'envelope_a', reason: 'r' } })
    reply = json({ data: [], count: 0, currentPage: 3, perPage: 10, totalPages: 0 })
    await c.envelopes.auditLog('envelope_a/x', { page: 3, perPage: 10, orderByDirection: 'desc' })
    expect(last()).toEqual({ method: 'GET', url: '/api/v2/envelope/envelope_a%2Fx/audit-log?page=3&perPage=10&orderByDirection=desc', body: undefined })
    await c.envelopes.auditLog('envelope_a')
    expect(last().url).toBe('/api/v2/envelope/envelope_a/audit-log')
    reply = (res) => void res.writeHead(200, { 'Content-Type': 'application/pdf' }).end(Buffer.from('%PDF-1.7'))
    expect(await c.envelopes.certificate('envelope_a')).toEqual(new TextEncoder().encode('%PDF-1.7'))
    expect(last()).toMatchObject({ method: 'GET', url: '/api/v2/envelope/envelope_a/certificate/download' })
    await c.items.download('item_1', { version: 'original' })
    expect(last().url).toBe('/api/v2/envelope/item/item_1/download?version=original')
    await c.items.download('item_1')
    expect(last().url).toBe('/api/v2/envelope/item/item_1/download')
  })

  it('refuses answers that do not have the documented shape', async () => {
    const c = fake()
    reply = json({ success: true, id: 'envelope_a', recipients: [{ id: 1, name: 'A', email: 'a@example.com', role: 'SIGNER', signingOrder: null, signingUrl: 'x' }] })
    const d = await c.envelopes.distribute({ envelopeId: 'envelope_a' }).catch((e: unknown) => e)
    expect(d).toBeInstanceOf(InvalidResponseError)
    expect((d as InvalidResponseError).issues).toEqual([{ path: 'recipients.0.token', message: 'expected string, got undefined' }])
    reply = json({ data: [{ id: 1 }], count: 1, currentPage: 1, perPage: 50, totalPages: 1 })
    const a = await c.envelopes.auditLog('envelope_a').catch((e: unknown) => e)
    expect(a).toBeInstanceOf(InvalidResponseError)
    expect((a as InvalidResponseError).issues.map((i) => i.path)).toContain('data.0.id')
    reply = json({ success: false })
    expect(await c.envelopes.cancel({ envelopeId: 'envelope_a' }).catch((e: unknown) => e)).toBeInstanceOf(InvalidResponseError)
  })
})
