import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifySignedWebhookBody } from '../../src/server/index.js'
import { api, startTestHost, type Api, type TestHost, VARIANTS } from './support.js'

interface Call {
  headers: IncomingHttpHeaders
  body: string
}

/** A receiver that keeps each call's headers and raw body; it checks nothing itself. */
async function receiver() {
  const calls: Call[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    calls.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
    res.writeHead(200).end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    calls,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((r) => server.close(() => r()))
    },
  }
}

const signatureHeaders = (call: Call) => ({
  'webhook-id': String(call.headers['webhook-id']),
  'webhook-timestamp': String(call.headers['webhook-timestamp']),
  'webhook-signature': String(call.headers['webhook-signature']),
})

/** Checked by standardwebhooks, an implementation of the scheme written by others. */
function verifiedElsewhere(secret: string, call: Call): boolean {
  const key = secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' })
  try {
    key.verify(call.body, signatureHeaders(call))
    return true
  } catch {
    return false
  }
}

describe.each(VARIANTS)('signed webhook calls on $variant', ({ variant, skip }) => {
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
    await expect.poll(() => hooks.calls.length, { timeout: 20_000 }).toBe(before + 1)
    return hooks.calls.at(-1)!
  }

  it.skipIf(skip)('signs every call with a generated secret, then with the new and the old one through a rotation, then the new one alone', async () => {
    const created = await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'] })
    expect(created.status).toBe(200)
    // Made without a secret, as the deployed clients may: it has none until one is generated.
    expect(created.body.secret).toBe('')
    const hook = (await client.post(`/webhook/${created.body.id}/rotate-secret`, {})).body as { id: string; secret: string; previousSecretExpiresAt: string | null }
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(hook.previousSecretExpiresAt).toBeNull()

    const first = await nextCall(hook.id)
    expect(first.headers['webhook-id']).toBe(first.headers['x-service-event-id'])
    expect(Math.abs(Number(first.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60)
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(verifiedElsewhere(hook.secret, first)).toBe(true)
    // The shared-secret header stays for receivers that read it.
    expect(first.headers['x-service-secret']).toBe(hook.secret)
    // Our own check proves the sender too: it then reads the body, where the test event's payload
    // ({test: true}) is no envelope. A body changed on the way fails both checks at the signature.
    const ours = (body: string) => verifySignedWebhookBody({ secret: hook.secret, headers: first.headers as Record<string, string>, body }).catch((e: { reason: string }) => e.reason)
    expect(await ours(first.body)).toBe('MALFORMED_PAYLOAD')
    const changed = first.body.replace('"test":true', '"test":false')
    expect(changed).not.toBe(first.body)
    expect(await ours(changed)).toBe('SIGNATURE_MISMATCH')
    expect(verifiedElsewhere(hook.secret, { ...first, body: changed })).toBe(false)

    const rotated = (await client.post(`/webhook/${hook.id}/rotate-secret`, {})).body as typeof hook
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(hook.secret)
    const grace = Date.parse(rotated.previousSecretExpiresAt!) - Date.now()
    expect(grace).toBeGreaterThan(23 * 3600_000)
    expect(grace).toBeLessThanOrEqual(24 * 3600_000)
    expect((await client.get(`/webhook/${hook.id}`)).body.previousSecretExpiresAt).toBe(rotated.previousSecretExpiresAt)

    const during = await nextCall(hook.id)
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(verifiedElsewhere(rotated.secret, during)).toBe(true)
    expect(verifiedElsewhere(hook.secret, during)).toBe(true)
    expect(during.headers['x-service-secret']).toBe(rotated.secret)

    // The grace period over (the clock moved by hand): the old secret signs no more.
    await host.db.query('update webhooks set previous_secret_until = now() - interval \'1 second\' where id = $1', [hook.id])
    expect((await client.get(`/webhook/${hook.id}`)).body.previousSecretExpiresAt).toBeNull()
    const after = await nextCall(hook.id)
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(verifiedElsewhere(rotated.secret, after)).toBe(true)
    expect(verifiedElsewhere(hook.secret, after)).toBe(false)

    // A secret a person chose is a key of its bytes; the generated one signs beside it for the grace period.
    const typed = (await client.post('/webhook/update', { id: hook.id, secret: 'chosen-by-a-person' })).body as typeof hook
    expect(typed.previousSecretExpiresAt).not.toBeNull()
    const chosen = await nextCall(hook.id)
    expect(verifiedElsewhere('chosen-by-a-person', chosen)).toBe(true)
    expect(verifiedElsewhere(rotated.secret, chosen)).toBe(true)

    // The rotation is in the team's activity, without a secret's value.
    const activity = JSON.stringify((await host.db.query("select details from team_activity where target = $1", [hook.id])))
    expect(activity).toContain('rotated')
    expect(activity).not.toContain(rotated.secret)
  })

  it.skipIf(skip)('sends no signature for a webhook without a secret, and rotation gives it one', async () => {
    const hook = (await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'], secret: '' })).body as { id: string; secret: string }
    expect(hook.secret).toBe('')
    const call = await nextCall(hook.id)
    expect(call.headers['webhook-signature']).toBeUndefined()
    expect(call.headers['x-service-secret']).toBe('')
    const rotated = (await client.post(`/webhook/${hook.id}/rotate-secret`, {})).body as { secret: string; previousSecretExpiresAt: string | null }
    expect(rotated.previousSecretExpiresAt).toBeNull()
    expect(verifiedElsewhere(rotated.secret, await nextCall(hook.id))).toBe(true)
  })

  it.skipIf(skip)('refuses a secret no HTTP header could carry, on create and on update, and keeps the one it had', async () => {
    const hook = (await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'], secret: 'kept' })).body as { id: string; secret: string }
    for (const secret of ['chosen by a person €', 'with space', 'tab\there', 'line\nbreak', 'é']) {
      const created = await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'], secret })
      expect(created.status).toBe(400)
      expect(created.body).toMatchObject({ code: expect.any(String), message: expect.any(String), issues: [expect.objectContaining({ path: 'secret' })] })
      expect((await client.post('/webhook/update', { id: hook.id, secret })).status).toBe(400)
    }
    expect((await client.get(`/webhook/${hook.id}`)).body.secret).toBe(hook.secret)
    expect(verifiedElsewhere(hook.secret, await nextCall(hook.id))).toBe(true)
  })

  it.skipIf(skip)("rotates only a webhook of the caller's team", async () => {
    const other = await host.createTeam({ name: 'Other', plan: 'enterprise' })
    const stranger = api(host.apiUrl, (await host.createApiToken({ name: 'other', teamId: other.id })).token)
    const hook = (await client.post('/webhook/create', { url: hooks.url, events: ['DOCUMENT_SENT'] })).body as { id: string; secret: string }
    const refused = await stranger.post(`/webhook/${hook.id}/rotate-secret`, {})
    expect(refused.status).toBe(404)
    expect(refused.body).toMatchObject({ code: expect.any(String), message: expect.any(String) })
    expect((await client.get(`/webhook/${hook.id}`)).body.secret).toBe(hook.secret)
  })
})
