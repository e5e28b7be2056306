/**
 * `GET /api/console/documents/:id/sender`, on both databases: who created an envelope, for the
 * envelope page's buttons. The creator reads `mine`; another member reads the creator's name; an
 * envelope made with a team API token has no creator; an envelope the member does not see, or of
 * another team, is 404, as API v2 answers it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { api, createEnvelope, makePdf, startTestHost, VARIANTS, type TestHost } from './support.js'

describe.each(VARIANTS)('who created an envelope, for the console, on $variant', ({ variant, skip }) => {
  let host: TestHost
  let ada: ConsoleClient
  let mo: ConsoleClient
  let teamId: string

  /** An envelope Ada creates in the console, seen by `visibility`. */
  async function madeByAda(visibility: string): Promise<string> {
    const form = new FormData()
    form.set('payload', JSON.stringify({ type: 'DOCUMENT', title: 'Made by Ada', visibility }))
    form.append('files', new Blob([new Uint8Array(await makePdf(1))], { type: 'application/pdf' }), 'a.pdf')
    const res = await fetch(`${host.apiUrl}/envelope/create`, { method: 'POST', headers: { cookie: ada.cookie, origin: host.url, 'x-csrf-token': ada.csrf }, body: form })
    expect(res.status).toBe(200)
    return ((await res.json()) as { id: string }).id
  }
  const sender = async (who: ConsoleClient, id: string) => {
    const res = await who.console(`/documents/${id}/sender`)
    return { status: res.status, body: (await res.json()) as any }
  }

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant)
    teamId = (await host.createTeam({ name: 'Acme', plan: 'team' })).id
    await makeUser(host.db, 'first@example.com')
    await makeUser(host.db, 'ada@example.com', { teamId, role: 'ADMIN' })
    await makeUser(host.db, 'mo@example.com', { teamId, role: 'MEMBER' })
    ada = await signInAs(host.url, 'ada@example.com')
    mo = await signInAs(host.url, 'mo@example.com')
    for (const who of [ada, mo]) expect((await who.console('/teams/switch', { body: { teamId } })).status).toBe(200)
  })
  afterAll(async () => {
    await host?.stop()
  })

  it.skipIf(skip)('names the creator, says whether it is the caller, and hides what the caller does not see', async () => {
    const id = await madeByAda('EVERYONE')
    const adaUser = (await host.db.query<{ id: string }>(`select id from users where email = 'ada@example.com'`))[0]!.id
    expect(await sender(ada, id)).toEqual({ status: 200, body: { createdBy: { userId: adaUser, name: '', email: 'ada@example.com' }, mine: true } })
    expect(await sender(mo, id)).toMatchObject({ status: 200, body: { createdBy: { email: 'ada@example.com' }, mine: false } })

    // Made with a team API token: nobody in particular.
    const client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId })).token)
    const byToken = await createEnvelope(client)
    expect(await sender(mo, byToken.id)).toEqual({ status: 200, body: { createdBy: null, mine: false } })

    // Hidden from a member by its visibility, and another team's: not found, as API v2 says.
    const adminsOnly = await madeByAda('ADMIN')
    expect((await sender(mo, adminsOnly)).status).toBe(404)
    expect((await mo.v2(`/envelope/${adminsOnly}`)).status).toBe(404)
    const other = api(host.apiUrl, (await host.createApiToken({ name: 'other', teamId: (await host.createTeam({ name: 'Other', plan: 'team' })).id })).token)
    const theirs = await createEnvelope(other)
    expect(await sender(ada, theirs.id)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    expect((await sender(ada, 'not-an-id')).status).toBe(400)
  })
})
