/**
 * The host tests' shared set-up, as Vitest fixtures (docs/testing.md).
 *
 * The Node projects run without per-file isolation, so a worker-scoped fixture lives as long as
 * the worker's process: `hosts` starts one host per database and settings the first time a file
 * asks, and every later file of that worker gets the same one. What a test owns is made per test
 * and named uniquely (a team with its token, a console account, a recipient), so tests on one
 * host never meet. A file that needs a host of its own (a driven clock, an SMTP server, a host it
 * stops) keeps starting one with `startTestHost`.
 *
 *   import { test } from './fixtures.js'
 *   test('…', async ({ team }) => { await team.client.get('/envelope') })
 *   describe('on PostgreSQL', () => { test.override({ variant: 'postgres' }); … })
 */
import { randomBytes } from 'node:crypto'
import { test as base } from 'vitest'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import type { Plan } from '../../host/server/domain/team/plans.js'
import type { Role } from '../../host/server/people/roles.js'
import { api, createEnvelope, pgReason, startTestHost, type Api, type TestHost, type Variant } from './support.js'

type Settings = Parameters<typeof startTestHost>[1]

export interface Hosts {
  /** The worker's host on `variant` with `settings` (plain values only: they are its key); started on first use. */
  on(variant: Variant, settings?: Settings): Promise<TestHost>
}

export interface Team {
  id: string
  /** The team's API token (the Authorization header's value). */
  token: string
  /** API v2 with the team's token. */
  client: Api
}

export interface Member {
  email: string
  /** A console session of the account, signed in. */
  console: ConsoleClient
}

export interface Signer {
  envelopeId: string
  token: string
  /** The signing API with the recipient's token. */
  client: Api
}

/** A name no other test of the run uses: tests share hosts. */
export const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`

/** A team of its own on `host`, with an API token. */
export async function newTeam(host: TestHost, o: { name?: string; plan?: Plan } = {}): Promise<Team> {
  const { id } = await host.createTeam({ name: o.name ?? unique('team'), plan: o.plan ?? 'team' })
  const { token } = await host.createApiToken({ name: 'tests', teamId: id })
  return { id, token, client: api(host.apiUrl, token) }
}

/**
 * A verified account with a unique address, `role` in `teamId`, signed in to the console and
 * acting for that team (a host's first account also administers the default team, which a fresh
 * session would otherwise open).
 */
export async function newMember(host: TestHost, teamId: string, role: Role = 'ADMIN'): Promise<Member> {
  const email = `${unique('member')}@example.com`
  await makeUser(host.db, email, { teamId, role })
  const session = await signInAs(host.url, email)
  const switched = await session.console('/teams/switch', { body: { teamId } })
  if (!switched.ok) throw new Error(`${email} cannot act for ${teamId}: ${switched.status} ${await switched.text()}`)
  return { email, console: session }
}

/** A one-signer document of `team`, sent: the recipient's token and the signing API with it. */
export async function newSigner(host: TestHost, team: Team): Promise<Signer> {
  const e = await createEnvelope(team.client, {
    recipients: [{ name: 'Jana', email: `${unique('signer')}@example.com`, role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }] }],
  })
  const sent = await team.client.post('/envelope/distribute', { envelopeId: e.id })
  if (sent.status !== 200) throw new Error(`distribute failed: ${sent.status} ${JSON.stringify(sent.body)}`)
  const token = sent.body.recipients[0].token as string
  return { envelopeId: e.id, token, client: api(`${host.url}/api/signing`, `Bearer ${token}`) }
}

export const test = base
  .extend('hosts', { scope: 'worker' }, async ({}, { onCleanup }): Promise<Hosts> => {
    const started = new Map<string, Promise<TestHost>>()
    onCleanup(async () => {
      for (const host of started.values()) await (await host.catch(() => null))?.stop()
    })
    return {
      on(variant, settings = {}) {
        if (variant === 'postgres' && pgReason) throw new Error(pgReason)
        const key = `${variant} ${JSON.stringify(settings)}`
        let host = started.get(key)
        if (!host) started.set(key, (host = startTestHost(variant, settings)))
        return host
      },
    }
  })
  /** The database a test runs on: the embedded one unless a suite overrides it. */
  .extend('variant', 'pglite' as Variant)
  .extend('host', async ({ hosts, variant }) => hosts.on(variant))
  .extend('team', async ({ host }) => newTeam(host))
  .extend('member', async ({ host, team }) => newMember(host, team.id))
  .extend('signer', async ({ host, team }) => newSigner(host, team))

export { describe, expect } from 'vitest'
