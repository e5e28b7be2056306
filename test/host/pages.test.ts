import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { embedPath, EMBED_ROUTES, type EmbedRoute } from '../../src/protocol/index.js'
import { startHost } from '../../host/server/start.js'
import { startTestHost, type TestHost } from './support.js'

describe('authoring pages', () => {
  let dir: string
  let host: TestHost
  const INDEX = '<!doctype html><title>authoring</title><script type="module" src="/embed/assets/app-1a2b.js"></script>'

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'host-pages-'))
    await mkdir(path.join(dir, 'dist', 'assets'), { recursive: true })
    await writeFile(path.join(dir, 'dist', 'index.html'), INDEX)
    await writeFile(path.join(dir, 'dist', 'assets', 'app-1a2b.js'), 'console.log(1)')
    await writeFile(path.join(dir, 'secret.txt'), 'outside')
    host = await startTestHost('pglite', { appDistDir: path.join(dir, 'dist') })
  })
  afterAll(async () => {
    await host?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves index.html on every embed route with the security headers', async () => {
    for (const route of Object.keys(EMBED_ROUTES) as EmbedRoute[]) {
      const res = await fetch(`${host.url}${embedPath(route, route.endsWith('edit') ? 'envelope_abc' : undefined)}?token=t`)
      expect(res.status, route).toBe(200)
      expect(await res.text()).toBe(INDEX)
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(res.headers.get('referrer-policy')).toBe('no-referrer')
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  it('serves hashed assets with a long cache and nothing outside them', async () => {
    const js = await fetch(`${host.url}/embed/assets/app-1a2b.js`)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toContain('javascript')
    expect(js.headers.get('cache-control')).toContain('max-age=31536000')
    expect(await js.text()).toBe('console.log(1)')
    expect((await fetch(`${host.url}/embed/assets/missing.js`)).status).toBe(404)
    const escape = await fetch(`${host.url}/embed/assets/..%2F..%2Fsecret.txt`)
    expect(escape.status).toBe(404)
    expect(await escape.text()).not.toContain('outside')
  })

  it('says the pages are not built when the dist folder is missing, and fails closed when the database is gone', async () => {
    const bare = await startTestHost('pglite') // points at a directory that does not exist
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const res = await fetch(`${bare.url}${EMBED_ROUTES['envelope.create']}`)
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ message: 'authoring pages are not built: run npm run build:app', code: 'APP_NOT_BUILT' })

      // The database going away is an internal error: a generic 500, logged without the query string.
      await bare.db.close()
      const broken = await fetch(`${bare.apiUrl}/envelope?perPage=5&token=query-secret`, { headers: { Authorization: 'api_whatever' } })
      expect(broken.status).toBe(500)
      expect(await broken.json()).toEqual({ message: 'internal server error', code: 'INTERNAL' })
      const logged = errors.mock.calls.flat().map(String).join(' ')
      expect(logged).toContain('GET /api/v2/envelope')
      expect(logged).not.toContain('query-secret')
    } finally {
      errors.mockRestore()
      await bare.stop().catch(() => {})
    }
  })

  it('refuses to open a data directory another host holds', async () => {
    await expect(startHost({ port: 0, dataDir: host.config.dataDir })).rejects.toThrow(/in use by process/)
  })
})
