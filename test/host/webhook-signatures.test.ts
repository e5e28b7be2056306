/**
 * Signed webhook calls: each call's signature verified as a receiver does.
 * Database: the embedded one (signing is the host's, not the database's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifySignedWebhookBody } from '../../src/server/index.js'
import { receiver, verifiedElsewhere, type Call } from './signed-calls.js'
import { api, startTestHost, type Api, type TestHost, VARIANTS } from './support.js'

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('signed webhook calls on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let hooks: Awaited<ReturnType<typeof receiver>>

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant, { webhookAllowPrivateUrls: true, queuePollMs: 50 })
    const teamId = (await host.createTeam({ name: 'Acme', plan: 'enterprise' })).id
    client = api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId })).token)
    hooks = await receiver()
  })
  afterAll(async () => {
    await hooks?.close()
    await host?.stop()
  })

  /** Sends the webhook's test event and answers the call it causes. */
  async function nextCall(id: string): Promise<Call> {
    const before = hooks.calls.length
    expect((await client.post(`/webhook/${id}/test`, {})).status).toBe(200)
    await expect.poll(() => hooks.calls.length, { timeout: 120_000 }).toBe(before + 1)
    return hooks.calls.at(-1)!
  }

  interface Hook {
    id: string
    secret: string
    signingKey: string
    signsWith: string
    previousSecretExpiresAt: string | null
  }

  it.skipIf(skip)('signs every call with its own key, then with the new and the old key through a rotation, then the new one alone', async () => {
    const created = await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'] })
    expect(created.status).toBe(200)
    // Made without a secret, as the deployed clients may: no secret, but a signing key of its own.
    const hook = created.body as Hook
    expect(hook.secret).toBe('')
    expect(hook.signingKey).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(hook.signsWith).toBe('SIGNING_KEY')
    expect(hook.previousSecretExpiresAt).toBeNull()

    const first = await nextCall(hook.id)
    expect(first.headers['webhook-id']).toBe(first.headers['x-service-event-id'])
    expect(Math.abs(Number(first.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60)
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(verifiedElsewhere(hook.signingKey, first)).toBe(true)
    // The shared-secret header stays for receivers that read it.
    expect(first.headers['x-service-secret']).toBe('')
    // Our own check proves the sender too: it then reads the body, where the test event's payload
    // ({test: true}) is no envelope. A body changed on the way fails both checks at the signature.
    const ours = (body: string) => verifySignedWebhookBody({ signingKey: hook.signingKey, headers: first.headers as Record<string, string>, body }).catch((e: { reason: string }) => e.reason)
    expect(await ours(first.body)).toBe('MALFORMED_PAYLOAD')
    const changed = first.body.replace('"test":true', '"test":false')
    expect(changed).not.toBe(first.body)
    expect(await ours(changed)).toBe('SIGNATURE_MISMATCH')
    expect(verifiedElsewhere(hook.signingKey, { ...first, body: changed })).toBe(false)

    const rotated = (await client.post(`/webhook/${hook.id}/rotate-secret`, {})).body as Hook
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.signingKey).toMatch(/^whsec_/)
    expect(new Set([rotated.secret, rotated.signingKey, hook.signingKey]).size).toBe(3)
    const grace = Date.parse(rotated.previousSecretExpiresAt!) - Date.now()
    expect(grace).toBeGreaterThan(23 * 3600_000)
    expect(grace).toBeLessThanOrEqual(24 * 3600_000)
    expect((await client.get(`/webhook/${hook.id}`)).body.previousSecretExpiresAt).toBe(rotated.previousSecretExpiresAt)

    const during = await nextCall(hook.id)
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(verifiedElsewhere(rotated.signingKey, during)).toBe(true)
    expect(verifiedElsewhere(hook.signingKey, during)).toBe(true)
    expect(verifiedElsewhere(rotated.secret, during)).toBe(false)
    expect(during.headers['x-service-secret']).toBe(rotated.secret)
    // A receiver holding both keys takes the call, as the rotation's overlap promises.
    const both = await verifySignedWebhookBody({ signingKey: [rotated.signingKey, hook.signingKey], headers: during.headers as Record<string, string>, body: during.body }).catch((e: { reason: string }) => e.reason)
    expect(both).toBe('MALFORMED_PAYLOAD')

    // The grace period over (the clock moved by hand): the old key signs no more.
    await host.db.query('update webhooks set previous_signing_key_until = now() - interval \'1 second\' where id = $1', [hook.id])
    expect((await client.get(`/webhook/${hook.id}`)).body.previousSecretExpiresAt).toBeNull()
    const after = await nextCall(hook.id)
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(verifiedElsewhere(rotated.signingKey, after)).toBe(true)
    expect(verifiedElsewhere(hook.signingKey, after)).toBe(false)

    // A secret a person chose goes in the header; it signs nothing, and the key goes on signing alone.
    const typed = (await client.post('/webhook/update', { id: hook.id, secret: 'chosen-by-a-person' })).body as Hook
    expect(typed.previousSecretExpiresAt).toBeNull()
    const chosen = await nextCall(hook.id)
    expect(chosen.headers['x-service-secret']).toBe('chosen-by-a-person')
    expect(verifiedElsewhere('chosen-by-a-person', chosen)).toBe(false)
    expect(verifiedElsewhere(rotated.signingKey, chosen)).toBe(true)

    // The rotation is in the team's activity, without a secret's or a key's value.
    const activity = JSON.stringify((await host.db.query("select details from team_activity where target = $1", [hook.id])))
    expect(activity).toContain('rotated')
    for (const value of [rotated.secret, rotated.signingKey, hook.signingKey]) expect(activity).not.toContain(value)
  })

  it.skipIf(skip)('signs the calls of a webhook without a secret with its key, and sends the empty secret header', async () => {
    const hook = (await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'], secret: '' })).body as Hook
    expect(hook.secret).toBe('')
    const call = await nextCall(hook.id)
    expect(call.headers['x-service-secret']).toBe('')
    expect(verifiedElsewhere(hook.signingKey, call)).toBe(true)
  })

  it.skipIf(skip)('refuses a secret no HTTP header could carry, on create and on update, and keeps the one it had', async () => {
    const hook = (await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'], secret: 'kept' })).body as Hook
    for (const secret of ['chosen by a person €', 'with space', 'tab\there', 'line\nbreak', 'é']) {
      const created = await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'], secret })
      expect(created.status).toBe(400)
      expect(created.body).toMatchObject({ code: expect.any(String), message: expect.any(String), issues: [expect.objectContaining({ path: 'secret' })] })
      expect((await client.post('/webhook/update', { id: hook.id, secret })).status).toBe(400)
    }
    expect((await client.get(`/webhook/${hook.id}`)).body.secret).toBe(hook.secret)
    const call = await nextCall(hook.id)
    expect(call.headers['x-service-secret']).toBe('kept')
    expect(verifiedElsewhere(hook.signingKey, call)).toBe(true)
  })

  it.skipIf(skip)("rotates only a webhook of the caller's team", async () => {
    const other = await host.createTeam({ name: 'Other', plan: 'enterprise' })
    const stranger = api(host.apiUrl, (await host.createApiToken({ name: 'other', teamId: other.id })).token)
    const hook = (await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'] })).body as Hook
    for (const rotation of ['rotate-secret', 'rotate-signing-key']) {
      const refused = await stranger.post(`/webhook/${hook.id}/${rotation}`, {})
      expect(refused.status).toBe(404)
      expect(refused.body).toMatchObject({ code: expect.any(String), message: expect.any(String) })
    }
    expect((await client.get(`/webhook/${hook.id}`)).body.secret).toBe(hook.secret)
    expect(verifiedElsewhere(hook.signingKey, await nextCall(hook.id))).toBe(true)
  })
})
