/**
 * Who holds a signing link (docs/security.md, "Who holds a signing link"): the member who created
 * the document, the team's managers and admins, and the team-wide tokens. A MEMBER who sees another's
 * document gets WITHHELD_LINK ('') for every recipient's token and signing URL, on every door
 * that answers one (API v2, the deprecated routes, API v1, their own token, the deployed SDK, their
 * webhooks), and may not correct a recipient's address to send the link elsewhere.
 * Database: the embedded one (API rules). A host of its own: the first account made is the default
 * team's administrator, and the team is found as the only one with members.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Documenso } from '@documenso/sdk-typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillRoute, servedRoutes } from './routes.js'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { makePdf, startTestHost, until, type TestHost } from './support.js'

type Who = 'SENDER' | 'OTHER' | 'MANAGER' | 'ADMIN'

/** Every recipient-shaped object (an e-mail and a token) in an answer, wherever it sits. */
function recipientsIn(body: unknown, out: { token: unknown; signingUrl?: unknown }[] = []): { token: unknown; signingUrl?: unknown }[] {
  if (Array.isArray(body)) for (const x of body) recipientsIn(x, out)
  else if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>
    if ('token' in o && 'email' in o) out.push({ token: o.token, ...('signingUrl' in o ? { signingUrl: o.signingUrl } : {}) })
    for (const v of Object.values(o)) recipientsIn(v, out)
  }
  return out
}

/** Expects recipients in the answer, each with its token and signing URL withheld. */
function withheld(body: unknown, what: string) {
  const found = recipientsIn(body)
  expect(found.length, `${what}: recipients in the answer`).toBeGreaterThan(0)
  for (const r of found) {
    expect(r.token, what).toBe('')
    if ('signingUrl' in r) expect(r.signingUrl, what).toBe('')
  }
}

/** Expects recipients in the answer, each with a live token (and its signing URL). */
function shown(body: unknown, what: string) {
  const found = recipientsIn(body)
  expect(found.length, `${what}: recipients in the answer`).toBeGreaterThan(0)
  for (const r of found) {
    expect(r.token, what).toMatch(/\w{8,}/)
    if ('signingUrl' in r) expect(r.signingUrl, what).toContain(`/sign/${r.token as string}`)
  }
}

/** A list's entries of the envelopes `ids` only (the member's own are in the lists too). */
function only(body: unknown, ids: string[]): unknown {
  const entries = Object.entries(body as Record<string, unknown>).map(([k, v]) => [
    k,
    Array.isArray(v) ? v.filter((e: { id: unknown; envelopeId?: unknown }) => ids.includes(String(e.envelopeId ?? e.id))) : v,
  ])
  return Object.fromEntries(entries)
}

describe('who holds a signing link (pglite)', () => {
  let host: TestHost
  let teamId: string
  const people = {} as Record<Who, ConsoleClient>
  /** The OTHER member's API token (made while a MANAGER, then demoted: it acts as a MEMBER). */
  let otherToken = ''
  let operatorToken = ''
  const pdf = makePdf(1)
  /** What the team's webhooks were told (a receiver on this machine): `?member` is OTHER's, `?operator` the operator's. */
  const bodies: { payload: { envelopeId: string } }[] = []
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { payload: { envelopeId: string } })
      res.writeHead(200).end()
    })
  })

  /** An envelope `who` makes in the console (one signer with a signature field), sent when `send`; legacy (v1) with `legacy`. */
  async function make(who: ConsoleClient, o: { send?: boolean; type?: 'DOCUMENT' | 'TEMPLATE'; legacy?: boolean } = {}) {
    const type = o.type ?? 'DOCUMENT'
    const form = new FormData()
    const fields = [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }]
    form.set('payload', JSON.stringify({ type, title: `${type} of someone`, recipients: [{ email: 's@example.com', name: 'S', role: 'SIGNER', fields }] }))
    form.append(o.legacy ? 'file' : 'files', new Blob([new Uint8Array(await pdf)], { type: 'application/pdf' }), 'a.pdf')
    const path = o.legacy ? `/${type.toLowerCase()}/create` : '/envelope/create'
    const res = await fetch(`${host.apiUrl}${path}`, { method: 'POST', headers: { cookie: who.cookie, origin: host.url, 'x-csrf-token': who.csrf }, body: form })
    expect(res.status).toBe(200)
    const { id, envelopeId } = (await res.json()) as { id: string | number; envelopeId?: string }
    const envId = envelopeId ?? (id as string)
    if (o.send) expect((await who.v2('/envelope/distribute', { body: { envelopeId: envId } })).status).toBe(200)
    const [row] = await host.db.query<{ n: number; rid: number; token: string }>(
      'select e.secondary_number as n, r.id as rid, r.token from envelopes e join recipients r on r.envelope_id = e.id where e.id = $1',
      [envId],
    )
    return { id: envId, n: row!.n, recipientId: row!.rid, token: row!.token }
  }

  const bearer = (token: string, path: string, body?: unknown, base = host.apiUrl) =>
    fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  const json = async (res: Response | Promise<Response>, what: string) => {
    const r = await res
    expect(r.status, what).toBe(200)
    return (await r.json()) as unknown
  }

  beforeAll(async () => {
    host = await startTestHost('pglite', { webhookAllowPrivateUrls: true, queuePollMs: 50 })
    await makeUser(host.db, 'first@example.com')
    teamId = (await host.db.query<{ team_id: string }>('select team_id from team_members'))[0]!.team_id
    await host.db.query(`update teams set plan = 'enterprise' where id = $1`, [teamId])
    const roles: Record<Who, 'ADMIN' | 'MANAGER' | 'MEMBER'> = { SENDER: 'MEMBER', OTHER: 'MANAGER', MANAGER: 'MANAGER', ADMIN: 'ADMIN' }
    const ids = {} as Record<Who, string>
    for (const who of Object.keys(roles) as Who[]) {
      ids[who] = (await makeUser(host.db, `${who.toLowerCase()}@example.com`, { teamId, role: roles[who] })).id
      people[who] = await signInAs(host.url, `${who.toLowerCase()}@example.com`)
    }
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    // OTHER makes a token and a webhook while a MANAGER, then is made a MEMBER: both act as one from then on.
    otherToken = ((await (await people.OTHER.console('/team/tokens', { body: { name: 'other', expires: 'never' } })).json()) as { token: string }).token
    await json(bearer(otherToken, '/webhook/create', { url: `${hooks}?member`, events: ['DOCUMENT_SENT'] }), "OTHER's webhook")
    expect((await people.ADMIN.console('/team/members/role', { body: { userId: ids.OTHER, role: 'MEMBER' } })).status).toBe(200)
    people.OTHER = await signInAs(host.url, 'other@example.com')
    operatorToken = (await host.createApiToken({ name: 'operator', teamId })).token
    await json(bearer(operatorToken, '/webhook/create', { url: `${hooks}?operator`, events: ['DOCUMENT_SENT'] }), "the operator's webhook")
  })
  /** The envelopes SENDER made. */
  const senders = async () => (await host.db.query<{ id: string }>(`select e.id from envelopes e join users u on u.id = e.created_by where u.email = 'sender@example.com'`)).map((r) => r.id)

  afterAll(async () => {
    await host?.stop()
    receiver.closeAllConnections()
    if (receiver.listening) await new Promise<void>((r) => receiver.close(() => r()))
  })

  it("a MEMBER who did not send a document gets no recipient's token from any answer, through every door", async () => {
    const o = people.OTHER
    const sent = await make(people.SENDER, { send: true })
    const draft = await make(people.SENDER)
    const template = await make(people.SENDER, { type: 'TEMPLATE' })
    const legacy = await make(people.SENDER, { send: true, legacy: true })
    const legacyDraft = await make(people.SENDER, { legacy: true })

    // API v2 with the console session.
    withheld(await json(o.v2(`/envelope/${sent.id}`), 'get'), 'get')
    withheld(await json(o.v2(`/envelope/${sent.id}`), 'get again (cached)'), 'get again (cached)')
    withheld(only(await json(o.v2('/envelope?perPage=100'), 'list'), await senders()), 'list')
    withheld(await json(o.v2('/envelope/get-many', { body: { ids: { type: 'envelopeId', ids: [sent.id, template.id] } } }), 'get-many'), 'get-many')
    withheld(await json(o.v2(`/envelope/${template.id}`), 'template get'), 'template get')
    withheld(await json(o.v2(`/envelope/recipient/${sent.recipientId}`), 'recipient get'), 'recipient get')
    withheld(await json(o.v2('/envelope/recipient/update-many', { body: { envelopeId: sent.id, data: [{ id: sent.recipientId, name: 'S. Signer' }] } }), 'name correction'), 'name correction')
    withheld(await json(o.v2('/envelope/redistribute', { body: { envelopeId: sent.id, recipients: [sent.recipientId] } }), 'resend'), 'resend')
    withheld(await json(o.v2('/envelope/distribute', { body: { envelopeId: draft.id } }), 'distribute'), 'distribute')
    // The deprecated routes.
    withheld(await json(o.v2(`/document/${sent.n}`), 'deprecated get'), 'deprecated get')
    withheld(only(await json(o.v2('/document?perPage=100'), 'deprecated list'), await senders()), 'deprecated list')
    withheld(await json(o.v2('/document/get-many', { body: { documentIds: [sent.n] } }), 'deprecated get-many'), 'deprecated get-many')
    withheld(await json(o.v2(`/template/${template.n}`), 'deprecated template get'), 'deprecated template get')
    withheld(only(await json(o.v2('/template?perPage=100'), 'deprecated template list'), await senders()), 'deprecated template list')
    withheld(await json(o.v2(`/document/recipient/${sent.recipientId}`), 'deprecated recipient get'), 'deprecated recipient get')
    // API v1, with the member's own token.
    withheld(await json(bearer(otherToken, `/documents/${legacy.n}`, undefined, host.url + '/api/v1'), 'v1 get'), 'v1 get')
    withheld(only(await json(bearer(otherToken, '/documents?perPage=100', undefined, host.url + '/api/v1'), 'v1 list'), await senders()), 'v1 list')
    withheld(await json(bearer(otherToken, `/documents/${legacyDraft.n}/send`, {}, host.url + '/api/v1'), 'v1 send'), 'v1 send')
    // API v2 with the member's token, and the presign tokens it mints.
    withheld(await json(bearer(otherToken, `/envelope/${sent.id}`), 'token get'), 'token get')
    const presign = ((await json(bearer(otherToken, '/embedding/create-presign-token', {}), 'presign')) as { token: string }).token
    withheld(await json(bearer(presign, `/envelope/${sent.id}`), 'presign get'), 'presign get')
  })

  it('no GET route of API v2 or v1 shows the member a live token, whatever it names (checked against the route table)', async () => {
    const sent = await make(people.SENDER, { send: true })
    const template = await make(people.SENDER, { type: 'TEMPLATE' })
    const legacy = await make(people.SENDER, { send: true, legacy: true })
    const [item] = await host.db.query<{ id: string }>('select id from envelope_items where envelope_id = $1', [sent.id])
    const live = (await host.db.query<{ token: string }>('select r.token from recipients r join envelopes e on e.id = r.envelope_id where e.created_by is not null')).map((r) => r.token)
    const fills = [sent.id, template.id, legacy.id, String(sent.n), String(template.n), String(legacy.n), String(sent.recipientId), String(legacy.recipientId), item!.id]
    const routes = servedRoutes().filter((r) => r.method === 'GET' && /^\/api\/(v2|v1)\//.test(r.path))
    expect(routes.length).toBeGreaterThan(20)
    let answered = 0
    for (const r of routes) {
      const params = (r.path.match(/\/:\w+/g) ?? []).length
      const combos = params === 0 ? [[]] : params === 1 ? fills.map((f) => [f]) : fills.flatMap((a) => fills.map((b) => [a, b]))
      for (const combo of combos) {
        const path = fillRoute(r.path, (_, i) => encodeURIComponent(combo[i]!))
        const res = await fetch(`${host.url}${path}`, { headers: { authorization: `Bearer ${otherToken}` } })
        const text = await res.text()
        if (res.status === 200) answered++
        for (const token of live) expect(text.includes(token), `${path} shows a live token`).toBe(false)
      }
    }
    expect(answered).toBeGreaterThan(10)
  })

  it('the sender, a MANAGER, an ADMIN and the operator hold the links; a MEMBER holds those of what they made', async () => {
    const sent = await make(people.SENDER, { send: true })
    for (const who of ['SENDER', 'MANAGER', 'ADMIN'] as const) {
      const body = await json(people[who].v2(`/envelope/${sent.id}`), who)
      shown(body, who)
      expect(recipientsIn(body)[0]!.token).toBe(sent.token)
    }
    shown(await json(bearer(operatorToken, `/envelope/${sent.id}`), 'operator'), 'operator')
    shown(await json(people.MANAGER.v2('/envelope/redistribute', { body: { envelopeId: sent.id, recipients: [sent.recipientId] } }), 'manager resend'), 'manager resend')
    // OTHER (a MEMBER now) holds the links of their own document, and of one they make from another's template.
    const own = await make(people.OTHER, { send: true })
    shown(await json(people.OTHER.v2(`/envelope/${own.id}`), 'own'), 'own')
    shown(await json(bearer(otherToken, `/envelope/${own.id}`), 'own by token'), 'own by token')
    const template = await make(people.SENDER, { type: 'TEMPLATE' })
    const form = new FormData()
    form.set('payload', JSON.stringify({ envelopeId: template.id, distributeDocument: true }))
    const used = await json(fetch(`${host.apiUrl}/envelope/use`, { method: 'POST', headers: { authorization: `Bearer ${otherToken}` }, body: form }), 'use')
    shown(used, 'use')
  })

  it("a MEMBER who did not send a document cannot correct a recipient's address to receive the link", async () => {
    const o = people.OTHER
    const sent = await make(people.SENDER, { send: true })
    const before = await host.db.query('select email, token, name from recipients where id = $1', [sent.recipientId])
    const tries: [string, () => Promise<Response>][] = [
      ['v2', () => o.v2('/envelope/recipient/update-many', { body: { envelopeId: sent.id, data: [{ id: sent.recipientId, email: 'other@example.com' }] } })],
      ['deprecated', () => o.v2('/document/recipient/update', { body: { documentId: sent.n, recipient: { id: sent.recipientId, email: 'other@example.com' } } })],
      ['token', () => bearer(otherToken, '/envelope/recipient/update-many', { envelopeId: sent.id, data: [{ id: sent.recipientId, name: 'New', email: 'other@example.com' }] })],
    ]
    for (const [what, send] of tries) {
      const res = await send()
      expect(res.status, what).toBe(403)
      const body = (await res.json()) as { code: string; message: string; issues?: { path: string }[] }
      expect(body.code, what).toBe('NOT_CREATOR')
      expect(body.message, what).toMatch(/e-mail address .* only on the documents they created/)
      expect(body.issues?.[0]?.path, what).toMatch(/email$/)
      expect(await host.db.query('select email, token, name from recipients where id = $1', [sent.recipientId]), what).toEqual(before)
    }
    const legacy = await make(people.SENDER, { send: true, legacy: true })
    const v1 = await fetch(`${host.url}/api/v1/documents/${legacy.n}/recipients/${legacy.recipientId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${otherToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'other@example.com' }),
    })
    expect(v1.status, 'v1').toBe(403)
    // A name only, and the same address, change no link: theirs to correct.
    expect((await o.v2('/envelope/recipient/update-many', { body: { envelopeId: sent.id, data: [{ id: sent.recipientId, name: 'S. Signer', email: 's@example.com' }] } })).status).toBe(200)
    // A MANAGER may send it to another address.
    expect((await people.MANAGER.v2('/envelope/recipient/update-many', { body: { envelopeId: sent.id, data: [{ id: sent.recipientId, email: 'right@example.com' }] } })).status).toBe(200)
    const [after] = await host.db.query<{ email: string; token: string }>('select email, token from recipients where id = $1', [sent.recipientId])
    expect(after!.email).toBe('right@example.com')
    expect(after!.token).not.toBe(sent.token)
  })

  it("the deployed SDK reads the withheld answers as they are", async () => {
    const sdk = new Documenso({ serverURL: host.apiUrl, apiKey: otherToken })
    const sent = await make(people.SENDER, { send: true })
    const draft = await make(people.SENDER)
    const template = await make(people.SENDER, { type: 'TEMPLATE' })
    const legacy = await make(people.SENDER, { send: true, legacy: true })
    withheld(await sdk.envelopes.get({ envelopeId: sent.id }), 'envelopes.get')
    withheld(only(await sdk.envelope.envelopeFind({ page: 1, perPage: 100 }), await senders()), 'envelope.envelopeFind')
    withheld(await sdk.envelope.envelopeGetMany({ ids: { type: 'envelopeId', ids: [sent.id] } }), 'envelope.envelopeGetMany')
    withheld(await sdk.envelopes.recipients.get({ recipientId: sent.recipientId }), 'envelopes.recipients.get')
    withheld(await sdk.envelopes.recipients.updateMany({ envelopeId: sent.id, data: [{ id: sent.recipientId, name: 'Sam' }] }), 'envelopes.recipients.updateMany')
    withheld(await sdk.envelopes.redistribute({ envelopeId: sent.id, recipients: [sent.recipientId] }), 'envelopes.redistribute')
    withheld(await sdk.envelopes.distribute({ envelopeId: draft.id }), 'envelopes.distribute')
    withheld(await sdk.documents.get({ documentId: legacy.n }), 'documents.get')
    withheld(await sdk.templates.get({ templateId: template.n }), 'templates.get')
  })

  it("a webhook whose maker may not hold a document's links is told without them", async () => {
    const theirs = await make(people.SENDER, { send: true })
    const own = await make(people.OTHER, { send: true })
    const seen = (id: string) => bodies.filter((b) => b.payload.envelopeId === id)
    await until(() => seen(theirs.id).length === 2 && seen(own.id).length === 2, 120_000)
    // What each webhook was sent, as its call log keeps it (written once the receiver answered).
    const logged = () => host.db.query<{ url: string; request_body: string }>('select url, request_body from webhook_calls')
    let calls = await logged()
    const callOf = (id: string, who: string) =>
      calls.find((c) => c.url.endsWith(`?${who}`) && (JSON.parse(c.request_body) as { payload: { envelopeId: string } }).payload.envelopeId === id)
    await until(async () => {
      calls = await logged()
      return [callOf(theirs.id, 'member'), callOf(theirs.id, 'operator'), callOf(own.id, 'member')].every(Boolean)
    }, 120_000)
    const told = (id: string, who: string) => {
      const call = callOf(id, who)
      expect(call, `${who} told about ${id}`).toBeDefined()
      return JSON.parse(call!.request_body) as unknown
    }
    withheld(told(theirs.id, 'member'), "a MEMBER's webhook, another's document")
    shown(told(theirs.id, 'operator'), "the operator's webhook")
    shown(told(own.id, 'member'), "a MEMBER's webhook, their own document")
    expect(recipientsIn(told(theirs.id, 'operator'))[0]!.token).toBe(theirs.token)
  })
})
