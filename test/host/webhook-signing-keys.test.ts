/**
 * A webhook's signing key is its own, apart from the secret its calls carry in clear as
 * X-Service-Secret: whoever reads one call (a receiver, a proxy, a log) cannot sign another. The
 * key is shown in the answers that make or rotate it only; the header can be left out; webhooks
 * made before signing keys (migration 030) go on signing with their secret until rotated.
 * Databases: the embedded one for the keys (API rules), on the worker's shared host; both for the
 * webhooks made before migration 030 (the migration over rows of an older table, on a host of its own).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newTeam, test } from './fixtures.js'
import { MIGRATIONS } from '../../host/server/db/migrations/index.js'
import { verifyNodeWebhook, verifySignedWebhookBody, WebhookError } from '../../src/server/index.js'
import { eventBody } from '../server/fixtures.js'
import { receiver, verifiedElsewhere, type Call } from './signed-calls.js'
import { api, createEnvelope, startTestHost, type Api, type TestHost, VARIANTS } from './support.js'

interface Hook {
  id: string
  secret: string
  signingKey?: string
  signsWith: string
  sendSecretHeader: boolean
  previousSecretExpiresAt: string | null
}

/** The headers of a call that say who sent it, to send it again. */
const sentHeaders = (call: Call): Record<string, string> =>
  Object.fromEntries(Object.entries(call.headers).filter(([name]) => /^(content-type|x-service-secret|webhook-)/.test(name)).map(([n, v]) => [n, String(v)]))

/** A receiver that checks each call with the server entry's verifier and the options it holds now. */
async function checkingReceiver() {
  const accepted: string[] = []
  let options: { signingKey: string } | { secret: string } = { secret: '' }
  const server = createServer(async (req, res) => {
    try {
      accepted.push((await verifyNodeWebhook({ ...options, request: req })).event)
      res.writeHead(200).end()
    } catch (e) {
      res.writeHead(e instanceof WebhookError ? e.status : 500).end()
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    accepted,
    holds: (o: typeof options) => void (options = o),
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((r) => server.close(() => r()))
    },
  }
}

describe('webhook signing keys on pglite', () => {
  let host: TestHost
  let client: Api
  let hooks: Awaited<ReturnType<typeof receiver>>

  test.beforeAll(async ({ hosts }) => {
    host = await hosts.on('pglite', { webhookAllowPrivateUrls: true, queuePollMs: 50 })
    client = (await newTeam(host, { name: 'Acme', plan: 'enterprise' })).client
    hooks = await receiver()
  })
  afterAll(async () => {
    await hooks?.close()
  })

  async function nextCall(id: string): Promise<Call> {
    const before = hooks.calls.length
    expect((await client.post(`/webhook/${id}/test`, {})).status).toBe(200)
    await expect.poll(() => hooks.calls.length, { timeout: 120_000 }).toBe(before + 1)
    return hooks.calls.at(-1)!
  }

  test('a receiver that saw the X-Service-Secret header cannot forge a call the signature check accepts', async () => {
    const checking = await checkingReceiver()
    try {
      const made = (await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_COMPLETED'] })).body as Hook
      // A generated secret, as the deployed console made them: the one the header carries.
      const hook = (await client.post(`/webhook/${made.id}/rotate-secret`, {})).body as Hook
      checking.holds({ signingKey: hook.signingKey! })
      const genuine = await nextCall(hook.id)
      const seen = String(genuine.headers['x-service-secret'])
      expect(seen).toBe(hook.secret)
      // What the header gave away does not sign the service's calls...
      expect(verifiedElsewhere(seen, genuine)).toBe(false)
      expect(verifiedElsewhere(hook.signingKey!, genuine)).toBe(true)

      // ...so a call signed with it is refused by the receiver that checks signatures, and one the
      // service signed is taken.
      const body = eventBody('DOCUMENT_COMPLETED')
      const id = 'msg_forged'
      const at = new Date()
      const forged = {
        'content-type': 'application/json',
        'x-service-secret': seen,
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(seen.startsWith('whsec_') ? seen : Buffer.from(seen).toString('base64')).sign(id, at, body),
      }
      expect((await fetch(checking.url, { method: 'POST', headers: forged, body })).status).toBe(401)
      expect(checking.accepted).toEqual([])
      const relayed = await fetch(checking.url, { method: 'POST', headers: sentHeaders(genuine), body: genuine.body })
      // The genuine call passes the signature; its test payload ({test: true}) is then no event.
      expect(relayed.status).toBe(400)
    } finally {
      await checking.close()
    }
  })

  test('shows the signing key in the answers that make or rotate it only', async () => {
    const created = (await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'], secret: 'header-value' })).body as Hook
    expect(created.signingKey).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(created).toMatchObject({ secret: 'header-value', signsWith: 'SIGNING_KEY', sendSecretHeader: true, previousSecretExpiresAt: null })
    const readings = async () => JSON.stringify([(await client.get(`/webhook/${created.id}`)).body, (await client.get('/webhook')).body])
    expect(await readings()).not.toContain('signingKey')
    expect(await readings()).not.toContain(created.signingKey)

    // A new key, the secret kept (a receiver that checks the header is not affected); the old key signs beside it.
    const rotated = (await client.post(`/webhook/${created.id}/rotate-signing-key`, {})).body as Hook
    expect(rotated.signingKey).toMatch(/^whsec_/)
    expect(rotated.signingKey).not.toBe(created.signingKey)
    expect(rotated.secret).toBe('header-value')
    expect(Date.parse(rotated.previousSecretExpiresAt!) - Date.now()).toBeGreaterThan(23 * 3600_000)
    expect(await readings()).not.toContain(rotated.signingKey)
    const call = await nextCall(created.id)
    expect(call.headers['x-service-secret']).toBe('header-value')
    expect(verifiedElsewhere(rotated.signingKey!, call)).toBe(true)
    expect(verifiedElsewhere(created.signingKey!, call)).toBe(true)

    // Both rotations answer the key once; the team's activity says so without its value.
    const again = (await client.post(`/webhook/${created.id}/rotate-secret`, {})).body as Hook
    expect(again.signingKey).toMatch(/^whsec_/)
    expect(await readings()).not.toContain(again.signingKey)
    const activity = JSON.stringify(await host.db.query('select details from team_activity where target = $1', [created.id]))
    expect(activity).toContain('rotated')
    for (const key of [created.signingKey, rotated.signingKey, again.signingKey]) expect(activity).not.toContain(key)
  })

  test('a webhook made without a secret: its generated key in the creation answer only, and it verifies a delivered event', async () => {
    const checking = await checkingReceiver()
    try {
      // A team of its own: the document below is the only event its webhook hears.
      const own = (await newTeam(host, { plan: 'enterprise' })).client
      const res = await own.post('/webhook/create', { url: checking.url, events: ['DOCUMENT_CREATED'] })
      expect(res.status).toBe(200)
      const created = res.body as Hook
      expect(created.signingKey).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(created).toMatchObject({ secret: '', signsWith: 'SIGNING_KEY', previousSecretExpiresAt: null })
      const readings = JSON.stringify([(await own.get(`/webhook/${created.id}`)).body, (await own.get('/webhook')).body])
      expect(readings).toContain(created.id)
      expect(readings).not.toContain('signingKey')
      expect(readings).not.toContain(created.signingKey)

      // A real event, delivered and taken by a receiver that checks its signature with that key.
      checking.holds({ signingKey: created.signingKey! })
      await createEnvelope(own)
      await expect.poll(() => checking.accepted, { timeout: 120_000 }).toEqual(['DOCUMENT_CREATED'])
    } finally {
      await checking.close()
    }
  })

  test('leaves the X-Service-Secret header out when asked, and puts it back', async () => {
    const checking = await checkingReceiver()
    try {
      const hook = (await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'], secret: 'not-sent', sendSecretHeader: false })).body as Hook
      expect(hook.sendSecretHeader).toBe(false)
      expect((await client.get(`/webhook/${hook.id}`)).body.sendSecretHeader).toBe(false)
      const quiet = await nextCall(hook.id)
      expect(quiet.headers['x-service-secret']).toBeUndefined()
      expect(JSON.stringify(quiet.headers)).not.toContain('not-sent')
      expect(verifiedElsewhere(hook.signingKey!, quiet)).toBe(true)
      // A receiver that checks the header refuses it (nothing to check); one that checks the signature takes it.
      const relay = () => fetch(checking.url, { method: 'POST', headers: sentHeaders(quiet), body: quiet.body })
      checking.holds({ secret: 'not-sent' })
      expect((await relay()).status).toBe(401)
      checking.holds({ signingKey: hook.signingKey! })
      expect((await relay()).status).toBe(400)

      const back = (await client.post('/webhook/update', { id: hook.id, sendSecretHeader: true })).body as Hook
      expect(back.sendSecretHeader).toBe(true)
      expect((await nextCall(hook.id)).headers['x-service-secret']).toBe('not-sent')

      const bad = await client.post('/webhook/update', { id: hook.id, sendSecretHeader: 'no' })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ code: expect.any(String), message: expect.any(String), issues: [expect.objectContaining({ path: 'sendSecretHeader' })] })
    } finally {
      await checking.close()
    }
  })
})

describe.each(VARIANTS)('webhooks made before signing keys on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let hooks: Awaited<ReturnType<typeof receiver>>
  const OLD = `whsec_${Buffer.alloc(32, 7).toString('base64')}`

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant, { webhookAllowPrivateUrls: true, queuePollMs: 50 })
    const teamId = (await host.createTeam({ name: 'Acme', plan: 'enterprise' })).id
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId })).token)
    hooks = await receiver()
    // The table as it was before migration 030, with webhooks written then; then 030 runs over them.
    await host.db.exec('alter table webhooks drop column signing_key, drop column previous_signing_key, drop column previous_signing_key_until, drop column send_secret_header')
    const legacy = (id: string, secret: string, previous: string | null) =>
      host.db.query(
        `insert into webhooks (id, team_id, url, events, secret, previous_secret, previous_secret_until) values ($1, $2, $3, '{DOCUMENT_SENT}', $4, $5, $6)`,
        [id, teamId, hooks.url, secret, previous, previous && new Date(Date.now() + 3600_000)],
      )
    await legacy('webhook_generated', OLD, null)
    await legacy('webhook_typed', 'typed-by-a-person', 'older-one')
    await legacy('webhook_unsigned', '', null)
    await host.db.exec(MIGRATIONS.find((m) => m.version === 30)!.sql)
  })
  afterAll(async () => {
    await hooks?.close()
    await host?.stop()
  })

  async function nextCall(id: string): Promise<Call> {
    const before = hooks.calls.length
    expect((await client.post(`/webhook/${id}/test`, {})).status).toBe(200)
    await expect.poll(() => hooks.calls.length, { timeout: 120_000 }).toBe(before + 1)
    return hooks.calls.at(-1)!
  }

  it.skipIf(skip)('go on signing with their secret, so their receivers keep working, until a signing key is issued', async () => {
    expect((await client.get('/webhook/webhook_generated')).body).toMatchObject({ secret: OLD, signsWith: 'SECRET', sendSecretHeader: true })
    const before = await nextCall('webhook_generated')
    expect(before.headers['x-service-secret']).toBe(OLD)
    expect(verifiedElsewhere(OLD, before)).toBe(true)
    // A receiver written before signing keys, verifying with the secret as it was told then.
    const old = await verifySignedWebhookBody({ secret: OLD, headers: before.headers as Record<string, string>, body: before.body }).catch((e: { reason: string }) => e.reason)
    expect(old).toBe('MALFORMED_PAYLOAD')

    // A key issued, the secret kept: the secret signs beside the key for the grace period, then no more.
    const keyed = (await client.post('/webhook/webhook_generated/rotate-signing-key', {})).body as Hook
    expect(keyed).toMatchObject({ secret: OLD, signsWith: 'SIGNING_KEY' })
    expect(Date.parse(keyed.previousSecretExpiresAt!) - Date.now()).toBeGreaterThan(23 * 3600_000)
    const during = await nextCall('webhook_generated')
    expect(during.headers['x-service-secret']).toBe(OLD)
    expect(verifiedElsewhere(keyed.signingKey!, during)).toBe(true)
    expect(verifiedElsewhere(OLD, during)).toBe(true)
    await host.db.query("update webhooks set previous_signing_key_until = now() - interval '1 second' where id = 'webhook_generated'")
    const after = await nextCall('webhook_generated')
    expect(verifiedElsewhere(keyed.signingKey!, after)).toBe(true)
    expect(verifiedElsewhere(OLD, after)).toBe(false)
  })

  it.skipIf(skip)('keep a rotation under way, and a rotation moves them to a key with the secret that signed beside it', async () => {
    const during = await nextCall('webhook_typed')
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(verifiedElsewhere('typed-by-a-person', during)).toBe(true)
    expect(verifiedElsewhere('older-one', during)).toBe(true)

    const rotated = (await client.post('/webhook/webhook_typed/rotate-secret', {})).body as Hook
    expect(rotated.signsWith).toBe('SIGNING_KEY')
    expect(rotated.secret).toMatch(/^whsec_/)
    const moved = await nextCall('webhook_typed')
    expect(moved.headers['x-service-secret']).toBe(rotated.secret)
    expect(verifiedElsewhere(rotated.signingKey!, moved)).toBe(true)
    expect(verifiedElsewhere('typed-by-a-person', moved)).toBe(true)
    expect(verifiedElsewhere(rotated.secret, moved)).toBe(false)
    expect(verifiedElsewhere('older-one', moved)).toBe(false)
  })

  it.skipIf(skip)('one without a secret stays unsigned until a key is issued', async () => {
    expect((await client.get('/webhook/webhook_unsigned')).body.signsWith).toBe('NONE')
    expect((await nextCall('webhook_unsigned')).headers['webhook-signature']).toBeUndefined()
    const keyed = (await client.post('/webhook/webhook_unsigned/rotate-signing-key', {})).body as Hook
    expect(keyed.previousSecretExpiresAt).toBeNull()
    const call = await nextCall('webhook_unsigned')
    expect(String(call.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(verifiedElsewhere(keyed.signingKey!, call)).toBe(true)
  })
})
