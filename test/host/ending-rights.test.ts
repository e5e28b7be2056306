/**
 * Who may end an envelope (docs/accounts.md, "Who ends an envelope"): a MEMBER cancels and deletes
 * only what they created, through every door (API v2, the deprecated routes, their tokens and the
 * presign tokens those mint); another's is 403 NOT_CREATOR and nothing changes. A MANAGER or ADMIN
 * ends any envelope they see; the operator's tokens act for the whole team.
 * Database: the embedded one (ownership is an API rule; the SQL is the same on both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { makePdf, startTestHost, VARIANTS, type TestHost } from './support.js'

type Role = 'ADMIN' | 'MANAGER' | 'MEMBER'

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('who ends an envelope ($variant)', ({ variant, skip }) => {
  let host: TestHost
  let teamId: string
  const people = {} as Record<Role | 'CREATOR', ConsoleClient>
  const pdf = makePdf(1)

  /** An envelope `who` makes in the console (one signer with a signature field), sent when `send`. */
  async function make(who: ConsoleClient, o: { send?: boolean; type?: 'DOCUMENT' | 'TEMPLATE' } = {}) {
    const type = o.type ?? 'DOCUMENT'
    const form = new FormData()
    const fields = [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }]
    form.set('payload', JSON.stringify({ type, title: `${type} of someone`, recipients: [{ email: 's@example.com', name: 'S', role: 'SIGNER', fields }] }))
    form.append('files', new Blob([new Uint8Array(await pdf)], { type: 'application/pdf' }), 'a.pdf')
    const res = await fetch(`${host.apiUrl}/envelope/create`, { method: 'POST', headers: { cookie: who.cookie, origin: host.url, 'x-csrf-token': who.csrf }, body: form })
    expect(res.status).toBe(200)
    const { id } = (await res.json()) as { id: string }
    if (o.send) expect((await who.v2('/envelope/distribute', { body: { envelopeId: id } })).status).toBe(200)
    const [row] = await host.db.query<{ n: number }>('select secondary_number as n from envelopes where id = $1', [id])
    return { id, n: row!.n }
  }

  /**
   * What a refusal must leave as it was: the row, its audit entries and its events (the signing
   * request's EMAIL_SENT is written by its mail job whenever that runs, so it is left out).
   */
  const state = async (id: string) =>
    (
      await host.db.query(
        `select e.status, e.deleted_at, (select count(*)::int from audit_logs a where a.envelope_id = e.id and a.type <> 'EMAIL_SENT') as audit,
           (select count(*)::int from events v where v.envelope_id = e.id) as events
         from envelopes e where e.id = $1`,
        [id],
      )
    )[0]

  const bearer = (token: string, path: string, body: unknown) =>
    fetch(`${host.apiUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

  /** Expects a 403 NOT_CREATOR that left the envelope as it was. */
  async function refused(id: string, send: () => Promise<Response>, what: string) {
    const before = await state(id)
    const res = await send()
    expect(res.status, what).toBe(403)
    const body = (await res.json()) as { code: string; message: string }
    expect(body.code, what).toBe('NOT_CREATOR')
    expect(body.message, what).toMatch(/only the (documents|templates) they created/)
    expect(await state(id), what).toEqual(before)
  }

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant)
    await makeUser(host.db, 'creator@example.com')
    teamId = (await host.db.query<{ team_id: string }>('select team_id from team_members'))[0]!.team_id
    await host.db.query(`update teams set plan = 'enterprise' where id = $1`, [teamId])
    people.CREATOR = await signInAs(host.url, 'creator@example.com')
    for (const role of ['ADMIN', 'MANAGER', 'MEMBER'] as const) {
      await makeUser(host.db, `${role.toLowerCase()}@example.com`, { teamId, role })
      people[role] = await signInAs(host.url, `${role.toLowerCase()}@example.com`)
    }
  })
  afterAll(() => host?.stop())

  it.skipIf(skip)('a MEMBER cancels and deletes their own document and template', async () => {
    const m = people.MEMBER
    const sent = await make(m, { send: true })
    expect((await m.v2('/envelope/cancel', { body: { envelopeId: sent.id } })).status).toBe(200)
    expect((await state(sent.id))!.status).toBe('CANCELLED')
    const draft = await make(m)
    expect((await m.v2('/envelope/delete', { body: { envelopeId: draft.id } })).status).toBe(200)
    expect(await state(draft.id)).toBeUndefined()
    const template = await make(m, { type: 'TEMPLATE' })
    expect((await m.v2('/template/delete', { body: { templateId: template.n } })).status).toBe(200)
    // Through the deprecated route, by number, too (a sent one that is not finished goes for good).
    const old = await make(m, { send: true })
    expect((await m.v2('/document/delete', { body: { documentId: old.n } })).status).toBe(200)
    expect(await state(old.id)).toBeUndefined()
  })

  it.skipIf(skip)("a MEMBER is refused another's document and template, through every door, and nothing changes", async () => {
    const m = people.MEMBER
    const sent = await make(people.CREATOR, { send: true })
    const draft = await make(people.CREATOR)
    const template = await make(people.CREATOR, { type: 'TEMPLATE' })
    await refused(sent.id, () => m.v2('/envelope/cancel', { body: { envelopeId: sent.id } }), 'cancel')
    await refused(sent.id, () => m.v2('/envelope/delete', { body: { envelopeId: sent.id } }), 'delete a sent one')
    await refused(sent.id, () => m.v2('/document/delete', { body: { documentId: sent.n } }), 'deprecated delete')
    await refused(draft.id, () => m.v2('/envelope/delete', { body: { envelopeId: draft.id } }), 'delete a draft')
    await refused(template.id, () => m.v2('/envelope/delete', { body: { envelopeId: template.id } }), 'delete a template')
    await refused(template.id, () => m.v2('/template/delete', { body: { templateId: template.n } }), 'deprecated template delete')
    // What they see but did not make is otherwise theirs to work with.
    expect((await m.v2(`/envelope/${sent.id}`)).status).toBe(200)
  })

  it.skipIf(skip)("a MEMBER cannot end another's document by rejecting on a recipient's behalf", async () => {
    const m = people.MEMBER
    const sent = await make(people.CREATOR, { send: true })
    const [r] = await host.db.query<{ id: number }>('select id from recipients where envelope_id = $1', [sent.id])
    await refused(sent.id, () => m.v2(`/envelope/recipient/${r!.id}/reject`, { body: { envelopeId: sent.id, reason: 'not mine to end' } }), 'reject on behalf')
    const [still] = await host.db.query<{ signing_status: string }>('select signing_status from recipients where id = $1', [r!.id])
    expect(still!.signing_status).toBe('NOT_SIGNED')
    // Their own, and a MANAGER on another's, as cancel.
    const own = await make(m, { send: true })
    const [mine] = await host.db.query<{ id: number }>('select id from recipients where envelope_id = $1', [own.id])
    expect((await m.v2(`/envelope/recipient/${mine!.id}/reject`, { body: { reason: 'mine' } })).status).toBe(200)
    expect((await state(own.id))!.status).toBe('REJECTED')
    const other = await make(people.CREATOR, { send: true })
    const [theirs] = await host.db.query<{ id: number }>('select id from recipients where envelope_id = $1', [other.id])
    expect((await people.MANAGER.v2(`/envelope/recipient/${theirs!.id}/reject`, { body: { reason: 'for the team' } })).status).toBe(200)
    expect((await state(other.id))!.status).toBe('REJECTED')
  })

  it.skipIf(skip)("a MANAGER and an ADMIN end another's document", async () => {
    for (const role of ['MANAGER', 'ADMIN'] as const) {
      const sent = await make(people.CREATOR, { send: true })
      expect((await people[role].v2('/envelope/cancel', { body: { envelopeId: sent.id } })).status, `${role} cancel`).toBe(200)
      expect((await state(sent.id))!.status).toBe('CANCELLED')
      // Cancelled is finished: deleting keeps the row, marked deleted.
      expect((await people[role].v2('/envelope/delete', { body: { envelopeId: sent.id } })).status, `${role} delete`).toBe(200)
      expect((await state(sent.id))!.deleted_at).not.toBeNull()
    }
  })

  it.skipIf(skip)("a MEMBER's token and its presign tokens end only the member's own; the operator's token any", async () => {
    // A manager makes a token, then becomes a MEMBER: the token acts at MEMBER from its next request.
    const maker = await makeUser(host.db, 'maker@example.com', { teamId, role: 'MANAGER' })
    const makerSession = await signInAs(host.url, 'maker@example.com')
    const res = await makerSession.console('/team/tokens', { body: { name: 'mine', expires: 'never' } })
    expect(res.status).toBe(200)
    const token = ((await res.json()) as { token: string }).token
    expect((await people.ADMIN.console('/team/members/role', { body: { userId: maker.id, role: 'MEMBER' } })).status).toBe(200)

    const other = await make(people.CREATOR, { send: true })
    await refused(other.id, () => bearer(token, '/envelope/cancel', { envelopeId: other.id }), 'token cancel')
    await refused(other.id, () => bearer(token, '/envelope/delete', { envelopeId: other.id }), 'token delete')
    const presigned = ((await (await bearer(token, '/embedding/create-presign-token', {})).json()) as { token: string }).token
    await refused(other.id, () => bearer(presigned, '/envelope/delete', { envelopeId: other.id }), 'presign delete')

    const own = await make(makerSession, { send: true })
    expect((await bearer(token, '/envelope/cancel', { envelopeId: own.id })).status).toBe(200)
    expect((await bearer(presigned, '/envelope/delete', { envelopeId: own.id })).status).toBe(200)

    // The operator's token (no member made it) acts for the team, as before.
    const operator = (await host.createApiToken({ name: 'operator', teamId })).token
    expect((await bearer(operator, '/envelope/cancel', { envelopeId: other.id })).status).toBe(200)
    expect((await bearer(operator, '/envelope/delete', { envelopeId: other.id })).status).toBe(200)
    const mine = await make(makerSession)
    expect((await bearer(operator, '/envelope/delete', { envelopeId: mine.id })).status).toBe(200)
  })
})
