/**
 * The authoring and signing pages the host serves from the app's build, and a data directory in use.
 * Database: the embedded one (its lock on the data directory is what is tested).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { embedPath, EMBED_ROUTES, signPath, type EmbedRoute } from '../../src/protocol/index.js'
import { startHost } from '../../host/server/start.js'
import { startTestHost, type TestHost } from './support.js'
import { chooseEncoding } from '../../host/server/assets.js'

describe('authoring pages', () => {
  let dir: string
  let host: TestHost
  const INDEX = '<!doctype html><title>authoring</title><script type="module" src="/embed/assets/app-1a2b.js"></script>'
  const BIG = Array.from({ length: 500 }, (_, i) => `export const value${i} = 'a line of the app';`).join('\n')

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'host-pages-'))
    await mkdir(path.join(dir, 'dist', 'assets'), { recursive: true })
    await writeFile(path.join(dir, 'dist', 'index.html'), INDEX)
    await writeFile(path.join(dir, 'dist', 'assets', 'app-1a2b.js'), 'console.log(1)')
    // A text asset as the build leaves it: the file, and its Brotli and gzip copies beside it.
    await writeFile(path.join(dir, 'dist', 'assets', 'big-3c4d.js'), BIG)
    await writeFile(path.join(dir, 'dist', 'assets', 'big-3c4d.js.br'), brotliCompressSync(BIG))
    await writeFile(path.join(dir, 'dist', 'assets', 'big-3c4d.js.gz'), gzipSync(BIG))
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

  it('serves the signing pages: the standalone link refuses framing, the embed has the authoring headers', async () => {
    const token = 'VZuY9B41IEfiTU6-TFl0KkvB2Js5MY0A'
    const page = await fetch(`${host.url}${signPath('page', token)}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toBe(INDEX)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')
    expect(page.headers.get('cache-control')).toBe('no-store')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    expect(page.headers.get('content-security-policy')).toMatch(/(^|;)\s*frame-ancestors 'none'\s*(;|$)/)

    // The embed is meant to be framed by customers' apps: exactly the authoring pages' headers.
    const authoring = await fetch(`${host.url}${embedPath('envelope.create')}`)
    const embed = await fetch(`${host.url}${signPath('embed', token)}`)
    expect(embed.status).toBe(200)
    expect(await embed.text()).toBe(INDEX)
    const headers = (res: Response) => {
      const h = Object.fromEntries(res.headers)
      delete h.date
      delete h['x-request-id']
      // Every page answer has a nonce of its own.
      h['content-security-policy'] = h['content-security-policy']!.replace(/'nonce-[^']+'/, "'nonce-N'")
      return h
    }
    expect(headers(embed)).toEqual(headers(authoring))
    expect(embed.headers.get('referrer-policy')).toBe('no-referrer')
    expect(embed.headers.get('cache-control')).toBe('no-store')
    expect(embed.headers.get('x-frame-options')).toBeNull()
    expect(embed.headers.get('content-security-policy') ?? '').not.toContain('frame-ancestors')

    // Only a whole token path is a signing page.
    for (const path of ['/sign/', '/sign/a/b', '/embed/sign/', '/embed/sign/a/b']) expect((await fetch(`${host.url}${path}`)).status, path).toBe(404)

    // A template's direct link: the shared page as the standalone one, its embed as the signing embed.
    const shared = await fetch(`${host.url}/d/${token}`)
    expect([shared.status, await shared.text()]).toEqual([200, INDEX])
    expect(headers(shared)).toEqual(headers(page))
    const direct = await fetch(`${host.url}/embed/direct/${token}?externalId=x`)
    expect([direct.status, await direct.text()]).toEqual([200, INDEX])
    expect(headers(direct)).toEqual(headers(embed))
    // The multi-sign embed (its tokens in the query) is an embed like the others.
    const multi = await fetch(`${host.url}/embed/v1/multisign?token=a&token=b`)
    expect([multi.status, await multi.text()]).toEqual([200, INDEX])
    expect(headers(multi)).toEqual(headers(embed))
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
    // A malformed escape names no file: 404 with the error shape, not a server error.
    const malformed = await fetch(`${host.url}/embed/assets/%E0%A4%A.js`)
    expect([malformed.status, (await malformed.json()).code]).toEqual([404, 'NOT_FOUND'])
  })

  it("sends the build's Brotli or gzip copy to a browser that takes it, and the file as it is to one that does not", async () => {
    // Raw bytes over a socket: fetch would undo the coding before the test could see it.
    const get = (file: string, acceptEncoding?: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = request(`${host.url}/embed/assets/${file}`, { headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) })).on('error', reject)
        })
        req.on('error', reject).end()
      })
    const chromium = await get('big-3c4d.js', 'gzip, deflate, br, zstd')
    expect([chromium.headers['content-encoding'], chromium.headers.vary, chromium.headers['content-type']]).toEqual(['br', 'Accept-Encoding', 'text/javascript; charset=utf-8'])
    expect(chromium.headers['cache-control']).toContain('immutable')
    expect(brotliCompressSync(BIG).equals(chromium.body)).toBe(true)
    const gzipOnly = await get('big-3c4d.js', 'gzip')
    expect(gzipOnly.headers['content-encoding']).toBe('gzip')
    expect(gzipSync(BIG).equals(gzipOnly.body)).toBe(true)
    for (const plain of [undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const res = await get('big-3c4d.js', plain)
      expect(res.headers['content-encoding'], String(plain)).toBeUndefined()
      expect(res.headers.vary).toBe('Accept-Encoding')
      expect(res.body.toString(), String(plain)).toBe(BIG)
    }
    // A file the build wrote no copy of (too small to gain) goes as it is, whatever is accepted.
    const small = await get('app-1a2b.js', 'br, gzip')
    expect([small.headers['content-encoding'], small.body.toString()]).toEqual([undefined, 'console.log(1)'])
    // The copies never open a way out of the assets folder.
    expect((await get('..%2F..%2Fsecret.txt', 'br, gzip')).body.toString()).not.toContain('outside')
  })

  it('reads Accept-Encoding by its weights', () => {
    expect(chooseEncoding(undefined)).toBeNull()
    expect(chooseEncoding('')).toBeNull()
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(chooseEncoding('GZIP;Q=1.0, BR;q=0.5')).toBe('gzip')
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip')
    expect(chooseEncoding('x-gzip')).toBe('gzip')
    expect(chooseEncoding('*')).toBe('br')
    expect(chooseEncoding('*;q=0.5, br;q=0')).toBe('gzip')
    expect(chooseEncoding('*;q=0')).toBeNull()
    expect(chooseEncoding('identity, deflate')).toBeNull()
    expect(chooseEncoding('br;q=nonsense, gzip;q=0.1')).toBe('gzip')
    expect(chooseEncoding(',,; ;q=1,')).toBeNull()
    expect(chooseEncoding(`${'a;q=1, '.repeat(2000)}gzip`)).toBe('gzip')
  })

  it('says the pages are not built when the dist folder is missing, and fails closed when the database is gone', async () => {
    const bare = await startTestHost('pglite') // points at a directory that does not exist
    const errors = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
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
      expect(logged).toContain('"method":"GET","route":"/api/v2/envelope","msg":"request failed"')
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
