/**
 * The authoring page carries its token's GET /embedding/session answer when the team lists no
 * origins (nothing to check against the parent); otherwise the page asks, naming its parent.
 * Database: the embedded one (pages). A host of its own: it serves this file's page directory.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { embedPath } from '../../src/protocol/index.js'
import { api, startTestHost, type TestHost } from './support.js'

describe('authoring page: the session in the page', () => {
  let dir: string
  let host: TestHost
  let client: ReturnType<typeof api>
  const INDEX = '<!doctype html><html><head><title>authoring</title></head><body></body></html>'
  const inlined = (html: string) => /<script type="application\/json" id="embed-session">(.*?)<\/script><\/head>/.exec(html)?.[1]

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'host-pages-session-'))
    await mkdir(path.join(dir, 'dist', 'assets'), { recursive: true })
    await writeFile(path.join(dir, 'dist', 'index.html'), INDEX)
    host = await startTestHost('pglite', { appDistDir: path.join(dir, 'dist') })
    const team = await host.createTeam({ name: 'Pages', plan: 'enterprise' })
    client = api(host.apiUrl, (await host.createApiToken({ name: 'pages', teamId: team.id })).token)
  })
  afterAll(async () => {
    await host?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  const page = async (token: string) => {
    const res = await fetch(`${host.url}${embedPath('envelope.create')}?token=${encodeURIComponent(token)}`)
    expect(res.headers.get('cache-control')).toBe('no-store')
    // The frame-ancestors directive only: every page has a policy (security-headers.test.ts).
    const csp = (res.headers.get('content-security-policy') ?? '').split(/;\s*/).find((d) => d.startsWith('frame-ancestors')) ?? null
    // The nonce of the customer's <style> comes with every page (security-headers.test.ts).
    const html = (await res.text()).replace(/<meta property="csp-nonce" nonce="[^"]+">/, '')
    return { html, csp }
  }

  it('inlines exactly what GET /embedding/session answers, for a team without an origin list', async () => {
    const { token } = (await client.post('/embedding/create-presign-token', { scope: 'documentId:7' })).body
    const session = await api(host.apiUrl, `Bearer ${token}`).get('/embedding/session')
    expect(session.status).toBe(200)
    const { html, csp } = await page(token)
    expect(JSON.parse(inlined(html)!)).toEqual(session.body)
    expect(csp).toBeNull()
  })

  it('inlines nothing for a bad token, nor when the team lists origins (the page asks with its parent)', async () => {
    expect(await page('not-a-token')).toEqual({ html: INDEX, csp: null })
    await client.post('/team/update', { embedOrigins: ['https://app.example.com'] })
    try {
      const { token } = (await client.post('/embedding/create-presign-token', {})).body
      const { html, csp } = await page(token)
      expect(html).toBe(INDEX)
      expect(csp).toContain('https://app.example.com')
    } finally {
      await client.post('/team/update', { embedOrigins: null })
    }
  })
})
