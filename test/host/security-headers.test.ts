/**
 * Security headers on every answer: the API, the pages, their assets, the mailbox, errors.
 * Database: the embedded one (HTTP headers). A host of its own: it serves this file's page
 * directory and the mailbox, with a token of the default team.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createEnvelope, startTestHost, type Api, type TestHost } from './support.js'

/** The policy's directives by name. */
const directives = (policy: string | null) => Object.fromEntries((policy ?? '').split(/;\s*/).filter(Boolean).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]))

describe('security headers on every answer', () => {
  let dir: string
  let host: TestHost
  let client: Api
  const INDEX = '<!doctype html><html><head><title>pages</title></head><body></body></html>'

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'host-security-headers-'))
    await mkdir(path.join(dir, 'dist', 'assets'), { recursive: true })
    await writeFile(path.join(dir, 'dist', 'index.html'), INDEX)
    await writeFile(path.join(dir, 'dist', 'assets', 'app.js'), 'console.log(1)')
    host = await startTestHost('pglite', { appDistDir: path.join(dir, 'dist'), queueConcurrency: 0 })
    client = api(host.apiUrl, (await host.createApiToken({ name: 'headers' })).token)
  })
  afterAll(async () => {
    await host?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  it('X-Content-Type-Options: nosniff on API answers, errors, the signing API, pages, assets and docs', async () => {
    const answers = [
      await fetch(`${host.apiUrl}/envelope`),
      await fetch(`${host.apiUrl}/no/such/route`),
      await fetch(`${host.url}/api/v1/documents`),
      await fetch(`${host.apiUrl}/openapi.json`),
      await fetch(`${host.url}/api/signing/session`, { headers: { Authorization: 'Bearer nope' } }),
      await fetch(`${host.url}/api/v2/envelope/create`, { method: 'POST', body: 'x'.repeat(10), headers: { 'Content-Type': 'application/json' } }),
      await fetch(`${host.url}/embed/assets/app.js`),
      await fetch(`${host.url}/embed/v2/authoring/envelope/create`),
      await fetch(`${host.url}/nothing-here`),
    ]
    for (const res of answers) expect(res.headers.get('x-content-type-options'), `${res.url} ${res.status}`).toBe('nosniff')
    const ok = await client.get('/envelope')
    expect([ok.status, ok.headers.get('x-content-type-options')]).toEqual([200, 'nosniff'])
  })

  it("every page kind: the host's own scripts, a fresh nonce for the customer's style, nothing from elsewhere", async () => {
    const doc = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 10, height: 5 }] }] })
    const token = (await client.post('/envelope/distribute', { envelopeId: doc.id })).body.recipients[0].token
    const presign = (await client.post('/embedding/create-presign-token', {})).body.token
    const pages = [
      `/embed/v2/authoring/envelope/create?token=${presign}`,
      `/embed/v2/authoring/envelope/edit/${doc.id}?token=${presign}`,
      `/embed/v1/authoring/document/create?token=${presign}`,
      `/sign/${token}`,
      `/embed/sign/${token}`,
      `/d/${token}`,
      `/embed/direct/${token}`,
      `/embed/v1/multisign?token=${token}`,
    ]
    const nonces = new Set<string>()
    for (const p of pages) {
      const res = await fetch(host.url + p)
      const html = await res.text()
      const d = directives(res.headers.get('content-security-policy'))
      expect(d['script-src'], p).toEqual(["'self'"])
      expect(d['default-src'], p).toEqual(["'self'"])
      expect(d['connect-src'], p).toEqual(["'self'"])
      expect(d['img-src'], p).toEqual(["'self'", 'data:', 'blob:'])
      expect(d['font-src'], p).toEqual(["'self'", 'data:'])
      expect(d['object-src'], p).toEqual(["'none'"])
      expect(d['base-uri'], p).toEqual(["'none'"])
      const [self, nonce] = d['style-src']!
      expect(self, p).toBe("'self'")
      const value = /^'nonce-([A-Za-z0-9+/]{22}==)'$/.exec(nonce!)?.[1]
      expect(value, p).toBeDefined()
      // The page names it for the app, which gives it to the customer's <style>.
      expect(html, p).toContain(`<meta property="csp-nonce" nonce="${value}">`)
      nonces.add(value!)
    }
    expect(nonces.size).toBe(pages.length)
    // The standalone pages are never framed.
    for (const p of [`/sign/${token}`, `/d/${token}`]) expect(directives((await fetch(host.url + p)).headers.get('content-security-policy'))['frame-ancestors'], p).toEqual(["'none'"])
    // The landing page, the API reference and the mailbox: strict policies of their own.
    const landing = directives((await fetch(`${host.url}/`)).headers.get('content-security-policy'))
    expect([landing['default-src'], landing['style-src'], landing['script-src'], landing['frame-ancestors']]).toEqual([["'none'"], ["'self'"], undefined, ["'none'"]])
    expect(directives((await fetch(`${host.apiUrl}/docs`)).headers.get('content-security-policy'))['script-src']).toEqual(["'self'"])
    expect(directives((await fetch(`${host.url}/mailbox`)).headers.get('content-security-policy'))['default-src']).toEqual(["'none'"])
  })
})
