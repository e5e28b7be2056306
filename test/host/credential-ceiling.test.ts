/**
 * A credential never grants more than the member who made it: API tokens, the presign tokens they
 * mint (every scope kind), the console's editor tokens and webhooks are bounded by their maker's
 * role as it is at each use (the ceiling it was made with at most), and die when the maker leaves
 * the team. The operator's tokens keep the whole team's rights. Answers for a credential are never
 * cached; presigned download URLs are covered in storage.test.ts.
 * Database: the embedded one (API rules; SQL is held on both in lifecycle.test.ts). Its host is its own: it rewrites every token's ceiling.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findToken, isLive } from '../../host/server/auth/api-tokens.js'
import { MIGRATIONS } from '../../host/server/db/migrations/index.js'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { makePdf, startTestHost, until, type TestHost } from './support.js'

type Role = 'ADMIN' | 'MANAGER' | 'MEMBER'

/** A webhook receiver on loopback: the envelope ids of the events it was sent. */
async function receiver() {
  const envelopes: string[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    envelopes.push((JSON.parse(Buffer.concat(chunks).toString()) as { payload: { envelopeId: string } }).payload.envelopeId)
    res.writeHead(200).end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, envelopes, close: () => new Promise<void>((r) => server.close(() => r())) }
}

describe('credentials never exceed their maker (pglite)', () => {
  let host: TestHost
  let teamId: string
  const people = {} as Record<Role | 'CREATOR', ConsoleClient>
  const userIds = {} as Record<string, string>
  const pdf = makePdf(1)

  /** An envelope made by the creator (an ADMIN) in the console, with one signer. */
  async function make(visibility: string, type: 'DOCUMENT' | 'TEMPLATE' = 'DOCUMENT') {
    const form = new FormData()
    form.set('payload', JSON.stringify({ type, title: `${type} ${visibility}`, visibility, recipients: [{ email: 's@example.com', name: 'S', role: 'SIGNER' }] }))
    form.append('files', new Blob([new Uint8Array(await pdf)], { type: 'application/pdf' }), 'a.pdf')
    const c = people.CREATOR
    const res = await fetch(`${host.apiUrl}/envelope/create`, { method: 'POST', headers: { cookie: c.cookie, origin: host.url, 'x-csrf-token': c.csrf }, body: form })
    expect(res.status).toBe(200)
    const { id } = (await res.json()) as { id: string }
    const [row] = await host.db.query<{ n: number }>('select secondary_number as n from envelopes where id = $1', [id])
    return { id, n: row!.n }
  }

  /** A member's API token, made in the console's team settings. */
  async function memberToken(who: ConsoleClient): Promise<string> {
    const res = await who.console('/team/tokens', { body: { name: 'mine', expires: 'never' } })
    expect(res.status).toBe(200)
    return ((await res.json()) as { token: string }).token
  }

  const v2 = (token: string, path: string, body?: unknown) =>
    fetch(`${host.apiUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
  const presign = async (token: string, scope?: string) => {
    const res = await v2(token, '/embedding/create-presign-token', scope ? { scope } : {})
    expect(res.status).toBe(200)
    return ((await res.json()) as { token: string }).token
  }
  /** How many deliveries of events about this envelope were queued for this webhook. */
  const queued = async (webhookId: string, envelopeId: string) =>
    (
      await host.db.query<{ n: number }>(
        `select count(*)::int as n from jobs where kind = 'webhook' and payload->>'webhookId' = $1 and payload->>'eventId' in (select id::text from events where envelope_id = $2)`,
        [webhookId, envelopeId],
      )
    )[0]!.n
  const ids = async (res: Response) => ((await res.json()) as { data: { id: string }[] }).data.map((e) => e.id)

  async function join(email: string, role: Role): Promise<ConsoleClient> {
    userIds[email] = (await makeUser(host.db, email, { teamId, role })).id
    return signInAs(host.url, email)
  }

  beforeAll(async () => {
    host = await startTestHost('pglite', { webhookAllowPrivateUrls: true, queuePollMs: 50 })
    await makeUser(host.db, 'creator@example.com')
    teamId = (await host.db.query<{ team_id: string }>('select team_id from team_members'))[0]!.team_id
    // Presign tokens are the enterprise plan's.
    await host.db.query(`update teams set plan = 'enterprise' where id = $1`, [teamId])
    people.CREATOR = await signInAs(host.url, 'creator@example.com')
    for (const role of ['ADMIN', 'MANAGER', 'MEMBER'] as const) people[role] = await join(`${role.toLowerCase()}@example.com`, role)
  })
  afterAll(() => host?.stop())

  it('presign tokens see only what the minting member sees, whatever their scope; a console session mints none', async () => {
    const hidden = await make('ADMIN')
    const template = await make('ADMIN', 'TEMPLATE')
    const managers = await make('MANAGER_AND_ABOVE')
    // The console's session is no API token: no presign token of its own, whatever the role.
    for (const who of [people.MEMBER, people.ADMIN]) {
      const refused = await who.v2('/embedding/create-presign-token', { body: { scope: `documentId:${hidden.n}` } })
      expect(refused.status).toBe(403)
      expect((await refused.json()).code).toBe('FORBIDDEN')
    }
    const token = await memberToken(people.MANAGER)
    for (const scope of [`envelopeId:${hidden.id}`, `documentId:${hidden.n}`, undefined]) {
      const p = await presign(token, scope)
      expect((await v2(p, `/envelope/${hidden.id}`)).status, `${scope} GET`).toBe(404)
      expect((await v2(p, `/document/${hidden.n}`)).status, `${scope} deprecated GET`).toBe(404)
      expect((await v2(p, '/envelope/update', { envelopeId: hidden.id, data: { title: 'mine now' } })).status, `${scope} update`).toBe(404)
      expect((await v2(p, '/envelope/delete', { envelopeId: hidden.id })).status, `${scope} delete`).toBe(404)
      expect(await ids(await v2(p, '/envelope/get-many', { ids: { type: 'envelopeId', ids: [hidden.id] } })), `${scope} get-many`).toEqual([])
    }
    const byTemplate = await presign(token, `templateId:${template.n}`)
    expect((await v2(byTemplate, `/envelope/${template.id}`)).status).toBe(404)
    expect((await v2(byTemplate, `/template/${template.n}`)).status).toBe(404)
    const unscoped = await presign(token)
    const listed = await ids(await v2(unscoped, '/envelope?type=DOCUMENT&perPage=100'))
    expect(listed).toContain(managers.id)
    expect(listed).not.toContain(hidden.id)
    expect((await v2(unscoped, `/envelope/${managers.id}`)).status).toBe(200)
    // The operator's token (no member made it) keeps the team's rights, and so do its presign tokens.
    const operator = await presign((await host.createApiToken({ name: 'operator', teamId })).token, `documentId:${hidden.n}`)
    expect((await v2(operator, `/envelope/${hidden.id}`)).status).toBe(200)
  })

  it("a member's API token: no document, team setting or visibility above the member's role", async () => {
    const hidden = await make('ADMIN')
    const token = await memberToken(people.MANAGER)
    expect((await v2(token, `/envelope/${hidden.id}`)).status).toBe(404)
    expect(await ids(await v2(token, '/envelope?type=DOCUMENT&perPage=100'))).not.toContain(hidden.id)
    const origins = await v2(token, '/team/update', { embedOrigins: [] })
    expect(origins.status).toBe(403)
    const form = new FormData()
    form.set('payload', JSON.stringify({ type: 'DOCUMENT', title: 'Above me', visibility: 'ADMIN' }))
    form.append('files', new Blob([new Uint8Array(await pdf)], { type: 'application/pdf' }), 'a.pdf')
    const above = await fetch(`${host.apiUrl}/envelope/create`, { method: 'POST', headers: { authorization: token }, body: form })
    expect(above.status).toBe(403)
    expect((await above.json()).code).toBe('VISIBILITY_NOT_ALLOWED')
  })

  it("webhooks are told only what their maker sees, and a manager cannot reach an admin's webhook", async () => {
    const [forManager, forAdmin] = [await receiver(), await receiver()]
    try {
      const hook = async (who: ConsoleClient, url: string) => {
        const res = await who.v2('/webhook/create', { body: { url, events: ['DOCUMENT_CREATED'], secret: 's' } })
        expect(res.status).toBe(200)
        return ((await res.json()) as { id: string }).id
      }
      const managers = await hook(people.MANAGER, forManager.url)
      const admins = await hook(people.ADMIN, forAdmin.url)
      const open = await make('EVERYONE')
      const hidden = await make('ADMIN')
      await until(() => forAdmin.envelopes.length >= 2 && forManager.envelopes.includes(open.id), 20_000)
      expect(forAdmin.envelopes).toEqual(expect.arrayContaining([open.id, hidden.id]))
      // Nothing about the admin's document (its recipients' signing tokens with it) reached the manager's.
      expect(await queued(managers, hidden.id)).toBe(0)
      expect(forManager.envelopes).not.toContain(hidden.id)

      // The admin's webhook (its secret, its calls' payloads, its address) is out of the manager's reach.
      const m = people.MANAGER
      expect((await ids(await m.v2('/webhook')))).toEqual([managers])
      expect((await m.v2(`/webhook/${admins}`)).status).toBe(404)
      expect((await m.v2(`/webhook/${admins}/calls`)).status).toBe(404)
      expect((await m.v2('/webhook/update', { body: { id: admins, url: forManager.url } })).status).toBe(404)
      const [call] = await host.db.query<{ id: string }>('select id from webhook_calls where webhook_id = $1 limit 1', [admins])
      expect((await m.v2(`/webhook/call/${call!.id}/resend`, { body: {} })).status).toBe(404)
      expect((await people.ADMIN.v2(`/webhook/${admins}`)).status).toBe(200)
    } finally {
      await forManager.close()
      await forAdmin.close()
    }
  })

  it("a webhook follows its maker's role, and stops when they leave", async () => {
    const maker = await join('hooks@example.com', 'MANAGER')
    const res = await maker.v2('/webhook/create', { body: { url: 'http://127.0.0.1:9/none', events: ['DOCUMENT_CREATED'], enabled: true } })
    const { id } = (await res.json()) as { id: string }
    // Made disabled afterwards, so nothing is posted: what is queued at each event is what counts.
    await host.db.query('update webhooks set enabled = false where id = $1', [id])
    const told = async (visibility: string) => {
      await host.db.query('update webhooks set enabled = true where id = $1', [id])
      const doc = await make(visibility)
      await host.db.query('update webhooks set enabled = false where id = $1', [id])
      return (await queued(id, doc.id)) > 0
    }
    expect(await told('MANAGER_AND_ABOVE')).toBe(true)
    const admin = people.ADMIN
    expect((await admin.console('/team/members/role', { body: { userId: userIds['hooks@example.com'], role: 'MEMBER' } })).status).toBe(200)
    expect(await told('MANAGER_AND_ABOVE')).toBe(false)
    expect(await told('EVERYONE')).toBe(true)
    expect((await admin.console('/team/members/remove', { body: { userId: userIds['hooks@example.com'] } })).status).toBe(200)
    expect(await told('EVERYONE')).toBe(false)
  })

  it("the console's editor token: no visibility above the member's role, and nothing once the envelope leaves their reach", async () => {
    const doc = await make('EVERYONE')
    const minted = await people.MEMBER.console('/documents/editor', { body: { envelopeId: doc.id } })
    expect(minted.status).toBe(200)
    const { token } = (await minted.json()) as { token: string }
    expect((await v2(token, `/envelope/${doc.id}`)).status).toBe(200)
    const raised = await v2(token, '/envelope/update', { envelopeId: doc.id, data: { visibility: 'ADMIN' } })
    expect(raised.status).toBe(403)
    expect((await raised.json()).code).toBe('VISIBILITY_NOT_ALLOWED')
    expect((await people.ADMIN.v2('/envelope/update', { body: { envelopeId: doc.id, data: { visibility: 'ADMIN' } } })).status).toBe(200)
    expect((await v2(token, `/envelope/${doc.id}`)).status).toBe(404)
    expect((await v2(token, '/envelope/update', { envelopeId: doc.id, data: { title: 'still mine?' } })).status).toBe(404)
  })

  it("a member's tokens follow their role at once, and die when they leave the team", async () => {
    const managers = await make('MANAGER_AND_ABOVE')
    const demoted = await join('demoted@example.com', 'MANAGER')
    const leaver = await join('leaver@example.com', 'MANAGER')
    const [demotedToken, leaverToken] = [await memberToken(demoted), await memberToken(leaver)]
    const [demotedPresign, leaverPresign] = [await presign(demotedToken), await presign(leaverToken)]
    for (const t of [demotedToken, demotedPresign, leaverToken, leaverPresign]) expect((await v2(t, `/envelope/${managers.id}`)).status).toBe(200)
    expect((await v2(demotedToken, '/webhook')).status).toBe(200)

    const admin = people.ADMIN
    expect((await admin.console('/team/members/role', { body: { userId: userIds['demoted@example.com'], role: 'MEMBER' } })).status).toBe(200)
    for (const t of [demotedToken, demotedPresign]) expect((await v2(t, `/envelope/${managers.id}`)).status).toBe(404)
    expect((await v2(demotedToken, '/webhook')).status).toBe(403)
    // Promoted again: back to the ceiling it was made with, never above it.
    expect((await admin.console('/team/members/role', { body: { userId: userIds['demoted@example.com'], role: 'ADMIN' } })).status).toBe(200)
    expect((await v2(demotedToken, `/envelope/${managers.id}`)).status).toBe(200)
    expect((await v2(demotedToken, '/team/update', { embedOrigins: null })).status).toBe(403)

    expect((await admin.console('/team/members/remove', { body: { userId: userIds['leaver@example.com'] } })).status).toBe(200)
    const gone = await v2(leaverToken, '/envelope?perPage=1')
    expect(gone.status).toBe(401)
    expect((await gone.json()).code).toBe('INVALID_API_TOKEN')
    expect((await v2(leaverPresign, `/envelope/${managers.id}`)).status).toBe(401)
  })

  it('answers for any credential are never cached: API v2, deprecated, v1, console, signing, downloads, errors', async () => {
    const doc = await make('EVERYONE')
    const token = (await host.createApiToken({ name: 'cache', teamId })).token
    const [row] = await host.db.query<{ token: string; item: string }>(
      'select r.token, i.id as item from recipients r join envelope_items i on i.envelope_id = r.envelope_id where r.envelope_id = $1',
      [doc.id],
    )
    const answers: [string, Promise<Response>][] = [
      ['v2 with a token', v2(token, `/envelope/${doc.id}`)],
      ['v2 with the console cookie', people.MEMBER.v2(`/envelope/${doc.id}`)],
      ['v2 list', people.MEMBER.v2('/envelope?perPage=5')],
      ['v2 error', v2(token, '/envelope/envelope_nothere')],
      ['v2 unauthorized', fetch(`${host.apiUrl}/envelope?perPage=1`)],
      ['deprecated', v2(token, `/document/${doc.n}`)],
      ['v1', fetch(`${host.url}/api/v1/documents`, { headers: { authorization: token } })],
      ['console JSON', people.MEMBER.console('/team/members')],
      ['download', v2(token, `/envelope/item/${row!.item}/download`)],
      ['audit-log PDF', v2(token, `/envelope/${doc.id}/audit-log/download`)],
      ['signing API', fetch(`${host.url}/api/signing/session`, { headers: { authorization: row!.token } })],
      ['signing API error', fetch(`${host.url}/api/signing/session`, { headers: { authorization: 'nothing' } })],
    ]
    for (const [what, res] of answers) {
      const r = await res
      expect(r.status, what).toBeLessThan(500)
      expect(r.headers.get('cache-control'), what).toMatch(/no-store/)
      await r.body?.cancel()
    }
  })

  // Last: it rewrites the ceilings of every token and webhook of the host.
  it("tokens and webhooks made before ceilings existed get their maker's role as it is; a departed maker's token is dead", async () => {
    const stays = await join('stays@example.com', 'MANAGER')
    const leaves = await join('leaves@example.com', 'MANAGER')
    const [kept, orphan] = [await memberToken(stays), await memberToken(leaves)]
    const hook = ((await (await stays.v2('/webhook/create', { body: { url: 'http://127.0.0.1:9/none', events: ['DOCUMENT_SENT'] } })).json()) as { id: string }).id
    const operator = await host.createApiToken({ name: 'operator', teamId })
    expect((await people.ADMIN.console('/team/members/remove', { body: { userId: userIds['leaves@example.com'] } })).status).toBe(200)
    // The schema as it was before (no ceilings, no webhook maker), then the migration.
    await host.db.exec('alter table api_tokens drop column role_ceiling; alter table webhooks drop column role_ceiling; alter table webhooks drop column created_by')
    await host.db.exec(MIGRATIONS.find((m) => m.version === 20)!.sql)
    const ceilings = await host.db.query<{ name: string; role_ceiling: string | null }>('select name, role_ceiling from api_tokens where id = any($1)', [
      [operator.id],
    ])
    expect(ceilings).toEqual([{ name: 'operator', role_ceiling: null }])
    const owner = async (token: string) => findToken(host.db, { token })
    expect(await owner(kept)).toMatchObject({ member: { userId: userIds['stays@example.com'], role: 'MANAGER' }, orphaned: false })
    expect(isLive(await owner(orphan))).toBe(false)
    expect(await host.db.query('select created_by, role_ceiling from webhooks where id = $1', [hook])).toEqual([
      { created_by: userIds['stays@example.com'], role_ceiling: 'MANAGER' },
    ])
  })
})
