import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost } from '../../host/server/start.js'

/**
 * A host of its own (fresh data dir, free port) with an enterprise API token and a webhook secret,
 * handed to the demo backend through the environment it reads at request time
 * (.storybook/demo-backend.ts). The demo backend registers its webhook receiver, on this test
 * server's loopback origin, with the host: so the host allows private receivers, and its queue
 * looks for due deliveries often and retries soon.
 */
export default async function setup() {
  const dataDir = await mkdtemp(join(tmpdir(), 'envelope-stories-'))
  const host = await startHost({
    port: 0,
    hostname: '127.0.0.1',
    dataDir,
    webhookAllowPrivateUrls: true,
    queuePollMs: 100,
    // A failed delivery is tried again within a second, not after the production schedule's 10 s.
    retryBaseMs: 200,
    retryFactor: 2,
    retryMaxMs: 2000,
    retryMaxAttempts: 5,
  })
  const page = await fetch(`${host.url}/embed/v2/authoring/envelope/create`)
  if (!page.ok) {
    await host.close()
    throw new Error(`the stories embed the authoring pages, which the host cannot serve: ${await page.text()}`)
  }
  const team = await host.createTeam({ name: 'Stories', plan: 'enterprise' })
  const { token } = await host.createApiToken({ name: 'stories', teamId: team.id, expires: 'never' })
  process.env.ENVELOPE_HOST_URL = host.url
  process.env.STORYBOOK_HOST_URL = host.url
  process.env.ENVELOPE_API_KEY = token
  process.env.ENVELOPE_WEBHOOK_SECRET = randomBytes(24).toString('base64url')

  return async () => {
    await host.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}
