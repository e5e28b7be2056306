/**
 * Who may frame a team's pages: the team's origins through the API and the frame-ancestors they give.
 * Database: the embedded one (API rules and headers).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createEnvelope, startTestHost, VARIANTS, SIGNATURE, type Api, type TestHost } from './support.js'

const INDEX = '<!doctype html><title>pages</title>'
const sig = { type: 'SIGNATURE', page: 1, positionX: 10, positionY: 80, width: 20, height: 5 }

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('who may frame a team\'s pages, on $variant', ({ variant, skip }) => {
  let host: TestHost
  let client: Api
  let other: Api

  const dist = path.join(tmpdir(), `framing-dist-${process.pid}-${variant}`)
  beforeAll(async () => {
    if (skip) return
    await mkdir(path.join(dist, 'assets'), { recursive: true })
    await writeFile(path.join(dist, 'index.html'), INDEX)
    host = await startTestHost(variant, { appDistDir: dist })
    client = api(host.apiUrl, (await host.createApiToken({ name: 'framing' })).token)
    const team = await host.createTeam({ name: 'Other', plan: 'enterprise' })
    other = api(host.apiUrl, (await host.createApiToken({ name: 'other', teamId: team.id })).token)
  })
  afterAll(async () => {
    await host?.stop()
    await rm(dist, { recursive: true, force: true })
  })

  const presign = async (c: Api) => (await c.post('/embedding/create-presign-token', {})).body.token as string
  /** The page's frame-ancestors directive, or null without one (every page has a policy: see security-headers.test.ts). */
  const csp = async (p: string) =>
    ((await fetch(host.url + p)).headers.get('content-security-policy') ?? '').split(/;\s*/).find((d) => d.startsWith('frame-ancestors')) ?? null

  it.skipIf(skip)('the team lists its origins through the API; bad lists are refused and write nothing', async () => {
    expect((await client.get('/team')).body).toMatchObject({ plan: 'enterprise', embedOrigins: null })
    for (const bad of [['https://app.example.com/'], ['https://app.example.com/path'], ['javascript:alert(1)'], ['app.example.com'], 'https://x.example', [1]]) {
      const res = await client.post('/team/update', { embedOrigins: bad })
      expect([res.status, res.body.code], JSON.stringify(bad)).toEqual([400, 'INVALID_REQUEST'])
    }
    expect((await client.get('/team')).body.embedOrigins).toBeNull()
    // A presign token lives in a browser: it may neither read nor widen the list.
    const browser = api(host.apiUrl, await presign(client))
    expect((await browser.get('/team')).status).toBe(403)
    expect((await browser.post('/team/update', { embedOrigins: null })).status).toBe(403)
    const set = await client.post('/team/update', { embedOrigins: ['https://app.example.com', 'http://localhost:3000', 'https://app.example.com'] })
    expect(set.body.embedOrigins).toEqual(['https://app.example.com', 'http://localhost:3000'])
  })

  it.skipIf(skip)("pages of a team with a list send frame-ancestors with it; other teams' pages and bad tokens do not", async () => {
    await client.post('/team/update', { embedOrigins: ['https://app.example.com', 'http://localhost:3000'] })
    const policy = 'frame-ancestors https://app.example.com http://localhost:3000'
    // The authoring pages also admit this host itself: its console frames the editor for members.
    expect(await csp(`/embed/v2/authoring/envelope/create?token=${await presign(client)}`)).toBe(`${policy} 'self'`)
    expect(await csp(`/embed/v1/authoring/document/edit/1?token=${await presign(client)}`)).toBe(`${policy} 'self'`)
    expect(await csp(`/embed/v2/authoring/envelope/create?token=${await presign(other)}`)).toBeNull()
    expect(await csp('/embed/v2/authoring/envelope/create?token=not.a.token')).toBeNull()
    expect(await csp('/embed/v2/authoring/envelope/create')).toBeNull()

    // Signing pages: the recipient's envelope names the team.
    const doc = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ ...sig, identifier: 0 }] }] })
    const [recipient] = (await client.post('/envelope/distribute', { envelopeId: doc.id })).body.recipients
    expect(await csp(`/embed/sign/${recipient.token}`)).toBe(policy)
    expect(await csp(`/embed/v1/multisign?token=${recipient.token}`)).toBe(policy)
    expect(await csp('/embed/sign/unknown-token')).toBeNull()
    // The standalone link is never framed, list or not.
    expect(await csp(`/sign/${recipient.token}`)).toBe("frame-ancestors 'none'")

    // A direct link's embed: its template's team.
    const t = await createEnvelope(client, { type: 'TEMPLATE', recipients: [{ email: 'v@example.com', name: 'V', role: 'SIGNER', fields: [{ ...sig, identifier: 0 }] }] })
    const link = (await client.post('/template/direct/create', { templateId: Number(t.secondaryId.split('_')[1]), directRecipientId: t.recipients[0].id })).body
    expect(await csp(`/embed/direct/${link.token}`)).toBe(policy)

    // An empty list: nobody may frame them. Null again: anyone (the cache follows at once).
    await client.post('/team/update', { embedOrigins: [] })
    expect(await csp(`/embed/sign/${recipient.token}`)).toBe("frame-ancestors 'none'")
    await client.post('/team/update', { embedOrigins: null })
    expect(await csp(`/embed/sign/${recipient.token}`)).toBeNull()
    // The recipient still signs: framing says nothing about the signing API.
    const session = await api(`${host.url}/api/signing`, `Bearer ${recipient.token}`).get('/session')
    expect((await api(`${host.url}/api/signing`, `Bearer ${recipient.token}`).post('/complete', { fields: [{ id: session.body.fields[0].id, value: SIGNATURE }] })).status).toBe(200)
  })

  it.skipIf(skip)('the multi-sign page is framed only where every document it shows may be', async () => {
    const sent = async (c: Api) => (await c.post('/envelope/distribute', { envelopeId: (await createEnvelope(c, { recipients: [{ email: 'm@example.com', name: 'M', role: 'SIGNER', fields: [{ ...sig, identifier: 0 }] }] })).id })).body.recipients[0].token as string
    const mine = await sent(client)
    const theirs = await sent(other)
    const multi = (...tokens: string[]) => csp(`/embed/v1/multisign?${tokens.map((t) => `token=${t}`).join('&')}`)
    await client.post('/team/update', { embedOrigins: null })
    await other.post('/team/update', { embedOrigins: ['https://other.example'] })
    // The first token's team allows anyone; the second one's does not.
    expect(await multi(mine, theirs)).toBe('frame-ancestors https://other.example')
    expect(await multi(theirs, mine)).toBe('frame-ancestors https://other.example')
    // Two lists: only the origins both allow, 'none' when they share none.
    await client.post('/team/update', { embedOrigins: ['https://app.example.com', 'https://other.example'] })
    expect(await multi(mine, theirs)).toBe('frame-ancestors https://other.example')
    await client.post('/team/update', { embedOrigins: ['https://app.example.com'] })
    expect(await multi(mine, theirs)).toBe("frame-ancestors 'none'")
    // An unknown token among them adds nothing.
    expect(await multi('unknown-token', mine)).toBe('frame-ancestors https://app.example.com')
    await client.post('/team/update', { embedOrigins: null })
    await other.post('/team/update', { embedOrigins: null })
    expect(await multi(mine, theirs)).toBeNull()
  })

  it.skipIf(skip)('a presign token is refused under a parent origin the team does not list', async () => {
    await client.post('/team/update', { embedOrigins: ['https://app.example.com'] })
    const browser = api(host.apiUrl, await presign(client))
    expect((await browser.get('/embedding/session?parentOrigin=https%3A%2F%2Fapp.example.com')).status).toBe(200)
    const refused = await browser.get('/embedding/session?parentOrigin=https%3A%2F%2Fevil.example')
    expect([refused.status, refused.body.code]).toEqual([403, 'FRAME_ANCESTOR_NOT_ALLOWED'])
    expect((await browser.get('/embedding/session?parentOrigin=nope')).status).toBe(400)
    // Not framed (opened in a tab): nothing to compare.
    expect((await browser.get('/embedding/session')).status).toBe(200)
    // Another team's list is its own.
    const elsewhere = api(host.apiUrl, await presign(other))
    expect((await elsewhere.get('/embedding/session?parentOrigin=https%3A%2F%2Fevil.example')).status).toBe(200)
    await client.post('/team/update', { embedOrigins: null })
  })
})
