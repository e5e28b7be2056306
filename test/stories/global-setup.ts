import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost } from '../../host/server/start.js'

/**
 * A host of its own (fresh data dir, free port) with an enterprise API token, handed to the demo
 * backend through the environment it reads at request time (.storybook/demo-backend.ts).
 */
export default async function setup() {
  const dataDir = await mkdtemp(join(tmpdir(), 'envelope-stories-'))
  const host = await startHost({ port: 0, hostname: '127.0.0.1', dataDir })
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

  return async () => {
    await host.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}
