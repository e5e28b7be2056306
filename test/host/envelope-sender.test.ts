/**
 * `GET /api/console/documents/:id/sender`: who created an envelope, for the envelope page's
 * buttons. The creator reads `mine`; another member reads the creator's name; an envelope made
 * with a team API token has no creator; an envelope the member does not see, or of another team,
 * is 404, as API v2 answers it.
 * Database: the embedded one (an API rule; SQL is held on both in lifecycle.test.ts).
 */
import type { ConsoleClient } from '../support/console-client.js'
import { describe, expect, newMember, newTeam, test, type Member, type Team } from './fixtures.js'
import { createEnvelope, makePdf, type TestHost } from './support.js'

describe('who created an envelope, for the console, on pglite', () => {
  let host: TestHost
  let team: Team
  let ada: Member
  let mo: Member

  /** An envelope Ada creates in the console, seen by `visibility`. */
  async function madeByAda(visibility: string): Promise<string> {
    const form = new FormData()
    form.set('payload', JSON.stringify({ type: 'DOCUMENT', title: 'Made by Ada', visibility }))
    form.append('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'a.pdf')
    const res = await fetch(`${host.apiUrl}/envelope/create`, { method: 'POST', headers: { cookie: ada.console.cookie, origin: host.url, 'x-csrf-token': ada.console.csrf }, body: form })
    expect(res.status).toBe(200)
    return ((await res.json()) as { id: string }).id
  }
  const sender = async (who: ConsoleClient, id: string) => {
    const res = await who.console(`/documents/${id}/sender`)
    return { status: res.status, body: (await res.json()) as any }
  }

  test.beforeAll(async ({ hosts }) => {
    host = await hosts.on('pglite')
    team = await newTeam(host)
    ada = await newMember(host, team.id, 'ADMIN')
    mo = await newMember(host, team.id, 'MEMBER')
    for (const who of [ada, mo]) expect((await who.console.console('/teams/switch', { body: { teamId: team.id } })).status).toBe(200)
  })

  test('names the creator, says whether it is the caller, and hides what the caller does not see', async () => {
    const id = await madeByAda('EVERYONE')
    const adaUser = (await host.db.query<{ id: string }>(`select id from users where email = $1`, [ada.email]))[0]!.id
    expect(await sender(ada.console, id)).toEqual({ status: 200, body: { createdBy: { userId: adaUser, name: '', email: ada.email }, mine: true } })
    expect(await sender(mo.console, id)).toMatchObject({ status: 200, body: { createdBy: { email: ada.email }, mine: false } })

    // Made with a team API token: nobody in particular.
    const byToken = await createEnvelope(team.client)
    expect(await sender(mo.console, byToken.id)).toEqual({ status: 200, body: { createdBy: null, mine: false } })

    // Hidden from a member by its visibility, and another team's: not found, as API v2 says.
    const adminsOnly = await madeByAda('ADMIN')
    expect((await sender(mo.console, adminsOnly)).status).toBe(404)
    expect((await mo.console.v2(`/envelope/${adminsOnly}`)).status).toBe(404)
    const other = await newTeam(host)
    const theirs = await createEnvelope(other.client)
    expect(await sender(ada.console, theirs.id)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    expect((await sender(ada.console, 'not-an-id')).status).toBe(400)
  })
})
