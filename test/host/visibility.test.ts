/**
 * Visibility walked: each role (ADMIN, MANAGER, MEMBER) against envelopes of each visibility made
 * by someone else, for every kind of action, through API v2 with the console session: seen and
 * acted on exactly when the role reaches the visibility (404 otherwise, as another team's); the
 * creator always; API tokens always. A member cannot set a visibility above their role.
 * Database: the embedded one (visibility is an API rule; the SQL is the same on both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { makePdf, startTestHost, type TestHost, type Variant } from './support.js'

const ROLES = ['ADMIN', 'MANAGER', 'MEMBER'] as const
const VISIBILITIES = ['EVERYONE', 'MANAGER_AND_ABOVE', 'ADMIN'] as const
const sees = (role: (typeof ROLES)[number], v: (typeof VISIBILITIES)[number]) =>
  v === 'EVERYONE' || (v === 'MANAGER_AND_ABOVE' && role !== 'MEMBER') || (v === 'ADMIN' && role === 'ADMIN')

for (const variant of ['pglite'] as Variant[]) {
  describe(`visibility (${variant})`, () => {
    let host: TestHost
    let token: string
    const people = {} as Record<(typeof ROLES)[number] | 'CREATOR', ConsoleClient>

    /** An envelope made by the creator (an ADMIN, so any visibility is theirs to set) with one signer. */
    async function make(visibility: string, type: 'DOCUMENT' | 'TEMPLATE' = 'DOCUMENT'): Promise<{ id: string; itemId: string }> {
      const form = new FormData()
      form.set('payload', JSON.stringify({ type, title: `${type} ${visibility}`, visibility, recipients: [{ email: 'signer@example.com', name: 'S', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }] }))
      form.append('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'a.pdf')
      const c = people.CREATOR
      const res = await fetch(`${host.apiUrl}/envelope/create`, { method: 'POST', headers: { cookie: c.cookie, origin: host.url, 'x-csrf-token': c.csrf }, body: form })
      expect(res.status).toBe(200)
      const { id } = (await res.json()) as { id: string }
      const env = await (await c.v2(`/envelope/${id}`)).json()
      return { id, itemId: env.envelopeItems[0].id }
    }

    beforeAll(async () => {
      host = await startTestHost(variant)
      await makeUser(host.db, 'creator@example.com')
      const teamId = (await host.db.query<{ team_id: string }>('select team_id from team_members'))[0]!.team_id
      people.CREATOR = await signInAs(host.url, 'creator@example.com')
      for (const role of ROLES) {
        await makeUser(host.db, `${role.toLowerCase()}@example.com`, { teamId, role })
        people[role] = await signInAs(host.url, `${role.toLowerCase()}@example.com`)
      }
      token = (await host.createApiToken({ name: 't', teamId })).token
    })
    afterAll(() => host?.stop())

    for (const v of VISIBILITIES) {
      it(`${v}: read, download and act exactly when the role reaches it`, async () => {
        for (const role of ROLES) {
          const me = people[role]
          const doc = await make(v)
          const want = sees(role, v) ? 200 : 404
          const list = await (await me.v2('/envelope?type=DOCUMENT&perPage=100')).json()
          expect(list.data.some((e: any) => e.id === doc.id), `${role} lists ${v}`).toBe(sees(role, v))
          const reads = [`/envelope/${doc.id}`, `/envelope/${doc.id}/audit-log`, `/envelope/item/${doc.itemId}/download`]
          for (const path of reads) expect((await me.v2(path)).status, `${role} GET ${path} of ${v}`).toBe(want)
          // The other doors to the same envelope: the cached GET (asked again), files, a child by its
          // own id, the deprecated v2 routes (by number), the direct link.
          const [row] = await host.db.query<{ n: number; rid: number }>(
            'select e.secondary_number as n, r.id as rid from envelopes e join recipients r on r.envelope_id = e.id where e.id = $1',
            [doc.id],
          )
          const doors: [string, Promise<Response>][] = [
            ['cached GET', me.v2(`/envelope/${doc.id}`)],
            ['audit-log PDF', me.v2(`/envelope/${doc.id}/audit-log/download`)],
            ['certificate', me.v2(`/envelope/${doc.id}/certificate/download`)],
            ['recipient by id', me.v2(`/envelope/recipient/${row!.rid}`)],
            ['deprecated GET', me.v2(`/document/${row!.n}`)],
            ['deprecated download', me.v2(`/document/${row!.n}/download`)],
          ]
          for (const [door, res] of doors) {
            const status = (await res).status
            if (sees(role, v)) expect(status, `${role} ${door} of ${v}`).not.toBe(404)
            else expect(status, `${role} ${door} of ${v}`).toBe(404)
          }
          if (!sees(role, v)) {
            expect((await me.v2('/envelope/redistribute', { body: { envelopeId: doc.id, recipients: [row!.rid] } })).status, `${role} redistribute ${v}`).toBe(404)
            expect((await me.v2('/document/redistribute', { body: { documentId: row!.n, recipients: [row!.rid] } })).status, `${role} deprecated redistribute ${v}`).toBe(404)
          }
          const many = await (await me.v2('/envelope/get-many', { body: { ids: { type: 'envelopeId', ids: [doc.id] } } })).json()
          expect(many.data.length, `${role} get-many ${v}`).toBe(sees(role, v) ? 1 : 0)
          expect((await me.v2('/envelope/update', { body: { envelopeId: doc.id, data: { title: 'renamed' } } })).status, `${role} update ${v}`).toBe(want)
          expect((await me.v2('/envelope/duplicate', { body: { envelopeId: doc.id } })).status, `${role} duplicate ${v}`).toBe(want)
          expect((await me.v2('/envelope/distribute', { body: { envelopeId: doc.id } })).status, `${role} distribute ${v}`).toBe(want)
          if (sees(role, v)) expect((await me.v2('/envelope/redistribute', { body: { envelopeId: doc.id, recipients: [] } })).status).toBeLessThan(500)
          // A MEMBER ends only what they made (docs/accounts.md, "Who ends an envelope"): 403 where they see it.
          expect((await me.v2('/envelope/delete', { body: { envelopeId: doc.id } })).status, `${role} delete ${v}`).toBe(role === 'MEMBER' && sees(role, v) ? 403 : want)

          const template = await make(v, 'TEMPLATE')
          if (!sees(role, v)) {
            const [t] = await host.db.query<{ n: number }>('select secondary_number as n from envelopes where id = $1', [template.id])
            expect((await me.v2('/template/direct/create', { body: { templateId: t!.n } })).status, `${role} direct link of ${v}`).toBe(404)
            expect((await me.v2(`/template/${t!.n}`)).status, `${role} deprecated template GET ${v}`).toBe(404)
          }
          const useForm = new FormData()
          useForm.set('payload', JSON.stringify({ envelopeId: template.id }))
          const used = await fetch(`${host.apiUrl}/envelope/use`, { method: 'POST', headers: { cookie: me.cookie, origin: host.url, 'x-csrf-token': me.csrf }, body: useForm })
          expect(used.status, `${role} use template ${v}`).toBe(want)
        }
      })
    }

    it('the creator always sees their own; an API token sees everything; a member cannot set a visibility above their role', async () => {
      const form = new FormData()
      form.set('payload', JSON.stringify({ type: 'DOCUMENT', title: 'Mine', visibility: 'ADMIN' }))
      form.append('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'a.pdf')
      const m = people.MEMBER
      const refused = await fetch(`${host.apiUrl}/envelope/create`, { method: 'POST', headers: { cookie: m.cookie, origin: host.url, 'x-csrf-token': m.csrf }, body: form })
      expect(refused.status).toBe(403)
      expect((await refused.json()).code).toBe('VISIBILITY_NOT_ALLOWED')

      const own = await make('ADMIN')
      // Made by the creator (an ADMIN); the MEMBER's own EVERYONE document then lowered by an admin to ADMIN stays theirs.
      const form2 = new FormData()
      form2.set('payload', JSON.stringify({ type: 'DOCUMENT', title: 'Member draft' }))
      form2.append('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'a.pdf')
      const mine = (await (await fetch(`${host.apiUrl}/envelope/create`, { method: 'POST', headers: { cookie: m.cookie, origin: host.url, 'x-csrf-token': m.csrf }, body: form2 })).json()) as { id: string }
      expect((await people.ADMIN.v2('/envelope/update', { body: { envelopeId: mine.id, data: { visibility: 'ADMIN' } } })).status).toBe(200)
      expect((await m.v2(`/envelope/${mine.id}`)).status).toBe(200)
      expect((await m.v2('/envelope/update', { body: { envelopeId: mine.id, data: { visibility: 'MANAGER_AND_ABOVE' } } })).status).toBe(403)

      // The deprecated routes (the deployed SDK's document.create / document.update) take and give
      // `visibility` too, under the same rule.
      const legacy = (who: ConsoleClient, visibility: string) => {
        const f = new FormData()
        f.set('payload', JSON.stringify({ title: 'Legacy', visibility }))
        f.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'a.pdf')
        return fetch(`${host.apiUrl}/document/create`, { method: 'POST', headers: { cookie: who.cookie, origin: host.url, 'x-csrf-token': who.csrf }, body: f })
      }
      const pdf = await makePdf(1)
      const tooHigh = await legacy(m, 'MANAGER_AND_ABOVE')
      expect(tooHigh.status).toBe(403)
      expect((await tooHigh.json()).code).toBe('VISIBILITY_NOT_ALLOWED')
      const made = await legacy(people.MANAGER, 'MANAGER_AND_ABOVE')
      expect(made.status).toBe(200)
      const { id: n } = (await made.json()) as { id: number }
      expect((await (await people.MANAGER.v2(`/document/${n}`)).json()).visibility).toBe('MANAGER_AND_ABOVE')
      expect((await m.v2(`/document/${n}`)).status).toBe(404)
      const raised = await people.MANAGER.v2('/document/update', { body: { documentId: n, data: { visibility: 'ADMIN' } } })
      expect(raised.status).toBe(403)
      const lowered = await people.MANAGER.v2('/document/update', { body: { documentId: n, data: { visibility: 'EVERYONE' } } })
      expect(lowered.status).toBe(200)
      expect((await lowered.json()).visibility).toBe('EVERYONE')
      expect((await m.v2(`/document/${n}`)).status).toBe(200)

      for (const id of [own.id, mine.id]) {
        expect((await fetch(`${host.apiUrl}/envelope/${id}`, { headers: { authorization: token } })).status).toBe(200)
      }
    })
  })
}
