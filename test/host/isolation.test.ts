/**
 * Isolation on every route the host serves (read from its router): a token of another team, a
 * presign token scoped to another envelope and a recipient token of another envelope reach none
 * of a victim's resources: no answer succeeds with the victim's ids in its path or body, no answer
 * carries the victim's data, and the victim is unchanged. Then: no secret in the logs.
 * test/host/access.test.ts checks the same rules call by call, with their exact answers.
 * Database: the embedded one (API rules). A host of its own: the default team is the rival, and
 * the tests run the queue themselves.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fillRoute, servedRoutes, type ServedRoute } from './routes.js'
import { api, createEnvelope, form, makePdf, startTestHost, type Api, type TestHost } from './support.js'
import { makeUser, signInAs } from '../support/console-client.js'

interface Victim {
  envelopeId: string
  itemId: string
  recipientId: number
  fieldId: number
  attachmentId: string
  webhookId: string
  legacyNumber: number
  templateNumber: number
  recipientToken: string
  /** Strings that only the victim's data contains. */
  marks: string[]
}

describe('isolation on every route', () => {
  let host: TestHost
  let owner: Api
  let victim: Victim
  let before: unknown
  // The API's self-description (openapi.json, docs) is public and holds no data.
  const routes = servedRoutes().filter((r) => /^\/api\/(v2|v1|signing)\//.test(r.path) && !/^\/api\/v2\/(docs|openapi)/.test(r.path))

  /** What a caller may do successfully whoever owns the victim: its own lists, creations and settings. */
  const OWN = new RegExp(
    '^(GET|POST) /api/(v2/(envelope|document|template|webhook|team|team/consent-disclosure|embedding/session)|v1/(documents|templates))$' +
      '|^POST /api/v2/((envelope|document|template)/(create|create/beta|get-many)|webhook/create|team/update|embedding/create-presign-token)$',
  )
  const own = (r: ServedRoute) => OWN.test(`${r.method} ${r.path}`)
  const secrets: string[] = []

  /** The victim's id for each path parameter of a route. */
  function param(route: ServedRoute, name: string): string {
    const p = route.path
    const v = victim
    if (p.startsWith('/api/v1/')) return name === 'id' ? String(p.includes('/templates/') ? v.templateNumber : v.legacyNumber) : String(name === 'fieldId' ? v.fieldId : v.recipientId)
    if (/\/(document|template)\//.test(p)) return /field/.test(p) ? String(v.fieldId) : /recipient/.test(p) ? String(v.recipientId) : String(p.includes('/template/') ? v.templateNumber : v.legacyNumber)
    if (p.includes('/envelope/item/') || p.startsWith('/api/signing/')) return v.itemId
    if (p.includes('/envelope/recipient/')) return String(v.recipientId)
    if (p.includes('/envelope/field/')) return String(v.fieldId)
    if (p.includes('/webhook/')) return v.webhookId
    return v.envelopeId
  }

  /** One body naming the victim's resources under every key a route reads an id from. */
  const body = () => ({
    envelopeId: victim.envelopeId,
    envelopeItemId: victim.itemId,
    recipientId: victim.recipientId,
    fieldId: victim.fieldId,
    id: victim.attachmentId,
    documentId: victim.legacyNumber,
    templateId: victim.templateNumber,
    documentIds: [victim.legacyNumber],
    templateIds: [victim.templateNumber],
    ids: { type: 'envelopeId', ids: [victim.envelopeId] },
    recipients: [victim.recipientId],
    data: { label: 'stolen', data: 'https://example.com', title: 'stolen' },
    reason: 'stolen',
  })

  /** Every route with the victim's ids; collects what leaked or succeeded. */
  async function sweep(who: Api, label: string, allowed: (route: ServedRoute, status: number) => boolean): Promise<string[]> {
    const leaks: string[] = []
    for (const route of routes) {
      const p = fillRoute(route.path, (name) => encodeURIComponent(param(route, name)))
      for (const variant of route.method === 'GET' ? [''] : ['json', 'webhook']) {
        const payload = variant === 'webhook' ? { id: victim.webhookId, url: 'http://127.0.0.1:9/x', events: ['DOCUMENT_SENT'] } : body()
        const res = route.method === 'GET' ? await who.send('GET', p.replace(/^\/api\/v2/, '')) : await who.send(route.method, p.replace(/^\/api\/v2/, ''), payload)
        const text = JSON.stringify(res.body instanceof Uint8Array ? Buffer.from(res.body).toString('latin1') : res.body)
        const leaked = victim.marks.filter((m) => text.includes(m))
        if (leaked.length) leaks.push(`${label} ${route.method} ${p}: ${res.status} shows ${leaked.join(', ')}`)
        if (res.status < 400 && !allowed(route, res.status)) leaks.push(`${label} ${route.method} ${p} (${variant}): ${res.status} ${text.slice(0, 120)}`)
      }
    }
    return leaks
  }

  const snapshot = async () => {
    const e = (await owner.get(`/envelope/${victim.envelopeId}`)).body
    const hooks = (await owner.get('/webhook')).body
    return { e, hooks, attachments: (await owner.get(`/envelope/attachment?envelopeId=${victim.envelopeId}`)).body }
  }

  beforeAll(async () => {
    host = await startTestHost('pglite', { queueConcurrency: 0, webhookAllowPrivateUrls: true })
    const team = await host.createTeam({ name: 'Victim', plan: 'enterprise' })
    const t = await host.createApiToken({ name: 'victim', teamId: team.id })
    owner = api(host.apiUrl, t.token)
    const marks = ['Victim title 7f3a', 'victim.person@example.com', 'Victim Person']
    const e = await createEnvelope(owner, {
      title: marks[0],
      recipients: [{ email: marks[1], name: marks[2], role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 10, height: 5 }] }],
    })
    const att = await owner.post('/envelope/attachment/create', { envelopeId: e.id, data: { label: 'Victim label', data: 'https://victim.example/doc' } })
    const hook = await owner.post('/webhook/create', { url: 'http://127.0.0.1:9/victim-hook', events: ['DOCUMENT_SENT'], secret: 'whsec_victim_secret_91' })
    const legacy = await owner.post('/document/create', form({ title: 'Victim legacy', recipients: [{ email: 'legacy.victim@example.com', name: 'L', role: 'SIGNER' }] }, [{ bytes: await makePdf(), name: 'l.pdf' }]))
    const tpl = await owner.post('/template/create', form({ title: 'Victim template' }, [{ bytes: await makePdf(), name: 't.pdf' }]))
    const signed = await createEnvelope(owner, { recipients: [{ email: 'signer.victim@example.com', name: 'S', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 10, height: 5 }] }] })
    const dist = await owner.post('/envelope/distribute', { envelopeId: signed.id })
    expect([att.status, hook.status, legacy.status, tpl.status, dist.status]).toEqual([200, 200, 200, 200, 200])
    victim = {
      envelopeId: e.id,
      itemId: e.envelopeItems[0].id,
      recipientId: e.recipients[0].id,
      fieldId: e.fields[0].id,
      attachmentId: att.body.id,
      webhookId: hook.body.id,
      legacyNumber: legacy.body.id,
      templateNumber: tpl.body.id,
      recipientToken: dist.body.recipients[0].token,
      marks: [...marks, 'Victim label', 'victim.example', 'victim-hook', 'Victim legacy', 'Victim template', e.id, e.envelopeItems[0].id, hook.body.id, dist.body.recipients[0].token],
    }
    secrets.push(t.token, 'whsec_victim_secret_91', hook.body.signingKey, dist.body.recipients[0].token)
    before = await snapshot()
  })
  afterAll(() => host?.stop())

  /** The API's answers come from the host's base: /api/v2 paths as the client's, the others as they are. */
  const client = (auth: string): Api => {
    const a = api(host.url, auth)
    return { ...a, send: (m: string, p: string, b?: BodyInit | object) => a.send(m, p.startsWith('/api/') ? p : `/api/v2${p}`, b) }
  }

  it('enumerates the API routes from the app', () => {
    expect(routes.length).toBeGreaterThan(120)
    for (const prefix of ['/api/v2/envelope/', '/api/v2/document/', '/api/v2/template/', '/api/v1/', '/api/signing/', '/api/v2/webhook']) {
      expect(routes.some((r) => r.path.startsWith(prefix)), prefix).toBe(true)
    }
  })

  it("another team's token reaches nothing of the victim's on any route", async () => {
    const rival = await host.createApiToken({ name: 'rival' }) // the default team
    secrets.push(rival.token)
    // Its own lists, creations and settings may succeed; none of them shows the victim.
    const leaks = await sweep(client(rival.token), 'rival', own)
    expect(leaks).toEqual([])
    expect(await snapshot()).toEqual(before)
  })

  it("another team's console member, calling the API with the session, reaches nothing of the victim's on any route", async () => {
    await makeUser(host.db, 'rival.admin@example.com') // the first account: admin of the default team
    const rival = await signInAs(host.url, 'rival.admin@example.com')
    const a = api(host.url)
    const session = { cookie: rival.cookie, origin: host.url, 'x-csrf-token': rival.csrf }
    const member: Api = { ...a, send: (m, p, b) => a.send(m, p.startsWith('/api/') ? p : `/api/v2${p}`, b, session) }
    const leaks = await sweep(member, 'member', own)
    expect(leaks).toEqual([])
    expect(await snapshot()).toEqual(before)
  })

  it('a presign token scoped to another envelope of the same team reaches nothing of the victim', async () => {
    const other = await createEnvelope(owner, { title: 'Scope' })
    const minted = await owner.post('/embedding/create-presign-token', { scope: `envelopeId:${other.id}` })
    secrets.push(minted.body.token)
    // Lists and the session answer for the scope only; nothing under an id of the victim's succeeds.
    const leaks = await sweep(client(minted.body.token), 'scoped', own)
    expect(leaks).toEqual([])
    expect(await snapshot()).toEqual(before)
  })

  it("a recipient token acts only on its own envelope", async () => {
    // Its signing API answers are about its envelope: the victim's item is 404 on every signing route.
    const sent = await owner.post('/envelope/create', form({ type: 'DOCUMENT', title: 'Mine', recipients: [{ email: 'me@example.com', name: 'Me', role: 'SIGNER', fields: [{ type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 10, height: 5 }] }] }, [{ bytes: await makePdf(), name: 'm.pdf' }]))
    const dist = await owner.post('/envelope/distribute', { envelopeId: sent.body.id })
    const token = dist.body.recipients[0].token
    secrets.push(token)
    const signer = client(`Bearer ${token}`)
    for (const r of routes.filter((x) => x.path.startsWith('/api/signing/') && x.path.includes(':'))) {
      const res = await signer.send(r.method, fillRoute(r.path, () => victim.itemId))
      expect(res.status, r.path).toBe(404)
    }
    // The API does not take it at all.
    expect((await client(token).send('GET', `/envelope/${victim.envelopeId}`)).status).toBe(401)
    expect((await client(token).send('GET', `/api/v1/documents/${victim.legacyNumber}`)).status).toBe(401)
    expect(await snapshot()).toEqual(before)
  })

  it('no token or secret appears in the logs', async () => {
    const lines: string[] = []
    const capture = (...args: unknown[]) => void lines.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '))
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation(capture))
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (lines.push(String(chunk)), true))
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => (lines.push(String(chunk)), true))
    try {
      const admin = JSON.parse(await (await import('node:fs/promises')).readFile(`${host.config.dataDir}/host.json`, 'utf8')).adminSecret as string
      secrets.push(admin)
      const presign = (await owner.post('/embedding/create-presign-token', {})).body.token
      secrets.push(presign)
      for (const auth of [...secrets, `Bearer ${presign}`, `${secrets[0]}x`, 'api_' + 'x'.repeat(32)]) {
        const c = client(auth)
        await c.send('GET', '/envelope')
        await c.send('GET', `/envelope/item/%00/download?token=${encodeURIComponent(auth)}`)
        await c.send('POST', '/envelope/update', { envelopeId: victim.envelopeId, data: { title: 'x\u0000' } })
        await c.send('GET', '/api/signing/session')
        await c.send('POST', '/api/signing/complete', { fields: [{ id: 1, value: auth }] })
        await fetch(`${host.url}/sign/${encodeURIComponent(auth)}`)
        await fetch(`${host.url}/embed/v2/authoring/envelope/create?token=${encodeURIComponent(auth)}`)
        await fetch(`${host.url}/_admin/tokens`, { headers: { 'x-admin-secret': auth } })
      }
      await owner.post('/webhook/update', { id: victim.webhookId, secret: 'whsec_victim_secret_91' })
      await host.queue.drain()
    } finally {
      for (const s of spies) s.mockRestore()
      stdout.mockRestore()
      stderr.mockRestore()
    }
    const log = lines.join('\n')
    for (const s of secrets) expect(log.includes(s), `a secret (${s.slice(0, 6)}...) in the logs`).toBe(false)
  })
})
