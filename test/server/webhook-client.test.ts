/**
 * The client's webhook methods against the real host: a team registers its receiver, the host
 * delivers a real event to it (checked with the project's own verifyNodeWebhook), the call log
 * shows the delivery, and a resend delivers the same event again.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startHost, type Host } from '../../host/server/start.js'
import { ApiError, createClient, verifyNodeWebhook, verifySignedWebhookBody, type EnvelopeClient, type WebhookEvent } from '../../src/server/index.js'
import { makePdf } from './fixtures.js'

let host: Host
let dir: string
let client: EnvelopeClient
const received: { event: WebhookEvent; id: string }[] = []
const signedCalls: { headers: Record<string, string>; body: string }[] = []
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  if (req.headers['x-service-secret'] !== 'shh') {
    signedCalls.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') })
    return void res.writeHead(200).end()
  }
  try {
    received.push({ event: await verifyNodeWebhook({ secret: 'shh', request: req, body: Buffer.concat(chunks) }), id: String(req.headers['x-service-event-id']) })
    res.writeHead(200).end()
  } catch (err) {
    res.writeHead((err as { status?: number }).status ?? 400).end()
  }
})

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'envelope-embed-webhooks-'))
  host = await startHost({ port: 0, dataDir: join(dir, 'data'), webhookAllowPrivateUrls: true, queuePollMs: 50 })
  client = createClient({ baseUrl: host.url, apiKey: (await host.createApiToken({ name: 'webhook tests' })).token })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
})

afterAll(async () => {
  receiver.close()
  await host?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** Waits for `ok` to hold; the limit is a safety net for a busy machine, not an expectation. */
const until = async (ok: () => boolean) => {
  for (const end = Date.now() + 60_000; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50))
  expect(ok()).toBe(true)
}

// Deliveries wait on the host's queue: a busy machine gets time.
it('registers, delivers, logs and resends', { timeout: 120_000 }, async () => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  const hook = await client.webhooks.create({ url, events: ['TEMPLATE_CREATED'], secret: 'shh' })
  expect(hook).toMatchObject({ url, events: ['TEMPLATE_CREATED'], secret: 'shh', enabled: true })
  expect((await client.webhooks.list()).map((w) => w.id)).toEqual([hook.id])
  const { signingKey, ...shown } = hook
  expect(signingKey).toMatch(/^whsec_/)
  expect(await client.webhooks.get(hook.id)).toEqual(shown)

  const { id } = await client.envelopes.create({ type: 'TEMPLATE', title: 'NDA', files: [{ name: 'nda.pdf', data: await makePdf(1, 'NDA') }] })
  await until(() => received.length === 1)
  expect(received[0]!.event).toMatchObject({ event: 'TEMPLATE_CREATED', payload: { envelopeId: id, title: 'NDA', templateId: null } })

  const log = await client.webhooks.calls(hook.id)
  expect(log).toMatchObject({ count: 1, currentPage: 1, totalPages: 1 })
  expect(log.data[0]).toMatchObject({ event: 'TEMPLATE_CREATED', attempt: 1, responseStatus: 200, error: null })
  await client.webhooks.resend(log.data[0]!.id)
  await until(() => received.length === 2)
  expect(received[1]!.id).toBe(received[0]!.id) // the same event, so receivers can deduplicate

  expect(await client.webhooks.update(hook.id, { enabled: false })).toMatchObject({ enabled: false })
  await client.webhooks.delete(hook.id)
  const gone = await client.webhooks.get(hook.id).catch((e: unknown) => e)
  expect(gone).toBeInstanceOf(ApiError)
  expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' })
})

it('rotates: the calls carry both signatures through the grace period, each checks with its own key; the key rotates alone too', { timeout: 120_000 }, async () => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  // The header left out: a receiver that checks the signature only.
  const hook = await client.webhooks.create({ url, events: ['TEMPLATE_CREATED'], secret: 'shh', sendSecretHeader: false })
  expect(hook).toMatchObject({ sendSecretHeader: false, signsWith: 'SIGNING_KEY', signingKey: expect.stringMatching(/^whsec_/) })
  const rotated = await client.webhooks.rotateSecret(hook.id)
  expect(rotated.secret).toMatch(/^whsec_/)
  expect(rotated.signingKey).toMatch(/^whsec_/)
  expect(rotated.signingKey).not.toBe(hook.signingKey)
  expect(Date.parse(rotated.previousSecretExpiresAt!)).toBeGreaterThan(Date.now() + 23 * 3600_000)
  // Read again, the same but the key: shown in the answers that make or rotate it only.
  const { signingKey: _shownOnce, ...rest } = rotated
  expect(await client.webhooks.get(hook.id)).toEqual(rest)

  signedCalls.length = 0
  await client.envelopes.create({ type: 'TEMPLATE', title: 'Rotated', files: [{ name: 'r.pdf', data: await makePdf(1, 'R') }] })
  await until(() => signedCalls.length === 1)
  const call = signedCalls[0]!
  expect(call.headers['x-service-secret']).toBeUndefined()
  for (const signingKey of [rotated.signingKey!, hook.signingKey!]) {
    expect((await verifySignedWebhookBody({ signingKey, headers: call.headers, body: call.body })).event).toBe('TEMPLATE_CREATED')
  }
  const keyOnly = await client.webhooks.rotateSigningKey(hook.id)
  expect(keyOnly.secret).toBe(rotated.secret)
  expect(keyOnly.signingKey).not.toBe(rotated.signingKey)
  await client.webhooks.delete(hook.id)
  await expect(client.webhooks.rotateSecret(hook.id)).rejects.toMatchObject({ status: 404 })
  await expect(client.webhooks.rotateSigningKey(hook.id)).rejects.toMatchObject({ status: 404 })
})

it("team: reads and sets the origins allowed to frame the team's pages; a bad origin is refused with the API error", async () => {
  expect(await client.team.get()).toMatchObject({ plan: 'enterprise', embedOrigins: null })
  expect((await client.team.update({ embedOrigins: ['https://app.example.com'] })).embedOrigins).toEqual(['https://app.example.com'])
  await expect(client.team.update({ embedOrigins: ['https://app.example.com/path'] })).rejects.toMatchObject({ status: 400, code: 'INVALID_REQUEST' })
  expect((await client.team.get()).embedOrigins).toEqual(['https://app.example.com'])
  expect((await client.team.update({ embedOrigins: null })).embedOrigins).toBeNull()
})
