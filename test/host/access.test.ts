/**
 * API v2's door: API and presign tokens, plans, scopes, teams kept apart, bad input, CORS. Its host
 * is its own: it uses the default team's tokens and counts every envelope.
 * Database: the embedded one (API rules; SQL is held on both in lifecycle.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PRESIGN_EXPIRES_IN, presignScope } from '../../src/protocol/index.js'
import { api, createEnvelope, form, makePdf, PNG, startTestHost, type Api, type TestHost } from './support.js'

const MAX_UPLOAD = 256 * 1024

describe('authentication, plans and bad input on pglite', () => {
  let host: TestHost
  let token: string
  let client: Api

  beforeAll(async () => {
    host = await startTestHost('pglite', { maxUploadBytes: MAX_UPLOAD })
    token = (await host.createApiToken({ name: 'main' })).token // default enterprise team
    client = api(host.apiUrl, token)
  })
  afterAll(async () => {
    await host?.stop()
  })

  it('accepts API tokens with and without Bearer, and refuses missing, unknown, expired and revoked ones', async () => {
    expect(token).toMatch(/^api_[\w-]{20,}$/)
    expect((await api(host.apiUrl, token).get('/envelope')).status).toBe(200)
    expect((await api(host.apiUrl, `Bearer ${token}`).get('/envelope')).status).toBe(200)

    const none = await api(host.apiUrl).get('/envelope')
    expect(none).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
    expect((await api(host.apiUrl, 'api_unknown').get('/envelope')).body).toMatchObject({ code: 'INVALID_API_TOKEN' })
    expect((await api(host.apiUrl, 'garbage').get('/envelope')).body).toMatchObject({ code: 'INVALID_TOKEN' })

    // Stored hashed only.
    const stored = await host.db.query<{ token_hash: string }>('select token_hash from api_tokens')
    expect(stored.some((r) => r.token_hash.includes(token) || token.includes(r.token_hash))).toBe(false)

    const expiring = await host.createApiToken({ name: 'expiring', expires: '7d' })
    const [row] = await host.db.query<{ expires_at: Date }>('select expires_at from api_tokens where id = $1', [expiring.id])
    const days = (new Date(row!.expires_at).getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6.9)
    expect(days).toBeLessThan(7.1)
    expect((await api(host.apiUrl, expiring.token).get('/envelope')).status).toBe(200)
    // Time travel: move its expiry into the past (and tell the token cache, as every writer does).
    await host.db.query(`update api_tokens set expires_at = now() - interval '1 second' where id = $1`, [expiring.id])
    await host.db.notify('api_tokens', expiring.id)
    expect((await api(host.apiUrl, expiring.token).get('/envelope')).body).toMatchObject({ code: 'INVALID_API_TOKEN' })

    const revoked = await host.createApiToken({ name: 'revoked' })
    const presign = await api(host.apiUrl, revoked.token).post('/embedding/create-presign-token', {})
    expect((await api(host.apiUrl, presign.body.token).get('/envelope')).status).toBe(200)
    await host.revokeApiToken(revoked.id)
    const after = await api(host.apiUrl, revoked.token).get('/envelope')
    expect(after).toMatchObject({ status: 401, body: { code: 'INVALID_API_TOKEN' } })
    // Presign tokens die with the API token that minted them.
    expect((await api(host.apiUrl, presign.body.token).get('/envelope')).body).toMatchObject({ code: 'INVALID_TOKEN' })
  })

  it('mints presign tokens within bounds and reports their session', async () => {
    const before = Date.now()
    const def = await client.post('/embedding/create-presign-token')
    expect(def.status).toBe(200)
    expect(Object.keys(def.body).sort()).toEqual(['expiresAt', 'expiresIn', 'token'])
    expect(def.body.expiresIn).toBe(3600)
    expect(Math.abs(Date.parse(def.body.expiresAt) - before - 3600_000)).toBeLessThan(5000)
    const claims = JSON.parse(Buffer.from(def.body.token.split('.')[1], 'base64url').toString())
    const header = JSON.parse(Buffer.from(def.body.token.split('.')[0], 'base64url').toString())
    expect(header.alg).toBe('HS256')
    expect(claims).toMatchObject({ aud: expect.stringMatching(/^team_/), sub: expect.stringMatching(/^token_/), exp: expect.any(Number) })

    const max = await client.post('/embedding/create-presign-token', { expiresIn: PRESIGN_EXPIRES_IN.max })
    expect(max.body.expiresIn).toBe(PRESIGN_EXPIRES_IN.max * 60)
    for (const bad of [{ expiresIn: -1 }, { expiresIn: 10081 }, { expiresIn: 1.5 }, { expiresIn: '60' }, { scope: 'envelopeId:nope' }, { scope: 'documentId:0' }]) {
      const res = await client.post('/embedding/create-presign-token', bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.code).toBe('INVALID_REQUEST')
      expect(res.body.issues[0].path).toBe(Object.keys(bad)[0])
    }

    const session = await api(host.apiUrl, def.body.token).get('/embedding/session')
    expect(session.body).toEqual({ teamId: claims.aud, scope: null, expiresAt: def.body.expiresAt })
    expect((await client.get('/embedding/session')).body).toMatchObject({ code: 'FORBIDDEN' })

    // expiresIn 0 is expired at once.
    const zero = await client.post('/embedding/create-presign-token', { expiresIn: 0 })
    expect(zero.body.expiresIn).toBe(0)
    expect((await api(host.apiUrl, zero.body.token).get('/embedding/session')).body).toMatchObject({ code: 'TOKEN_EXPIRED' })
    // A changed signature or payload is not accepted.
    const [h, p, s] = def.body.token.split('.')
    const tampered = `${h}.${p}.${s.slice(0, -4)}${s.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`
    expect((await api(host.apiUrl, tampered).get('/embedding/session')).body).toMatchObject({ code: 'INVALID_TOKEN' })
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, aud: 'team_other' })).toString('base64url')}.${s}`
    expect((await api(host.apiUrl, forged).get('/embedding/session')).body).toMatchObject({ code: 'INVALID_TOKEN' })
  })

  it('confines a scoped presign token to its envelope', async () => {
    const mine = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER' }] })
    const other = await createEnvelope(client, { recipients: [{ email: 'b@example.com', name: 'B', role: 'SIGNER' }] })
    const minted = await client.post('/embedding/create-presign-token', { scope: presignScope({ kind: 'envelopeId', id: mine.id }) })
    const scoped = api(host.apiUrl, minted.body.token)

    expect((await scoped.get('/embedding/session')).body.scope).toBe(`envelopeId:${mine.id}`)
    expect((await scoped.get(`/envelope/${mine.id}`)).status).toBe(200)
    expect((await scoped.post('/envelope/update', { envelopeId: mine.id, data: { title: 'Edited in the iframe' } })).status).toBe(200)
    expect(
      (await scoped.post('/envelope/field/create-many', {
        envelopeId: mine.id,
        data: [{ recipientId: mine.recipients[0].id, type: 'SIGNATURE', page: 1, positionX: 1, positionY: 1, width: 10, height: 5 }],
      })).status,
    ).toBe(200)
    const list = await scoped.get('/envelope')
    expect(list.body.data.map((e: any) => e.id)).toEqual([mine.id])

    for (const res of [
      await scoped.get(`/envelope/${other.id}`),
      await scoped.post('/envelope/update', { envelopeId: other.id, data: { title: 'x' } }),
      await scoped.post('/envelope/delete', { envelopeId: other.id }),
      await scoped.get(`/envelope/recipient/${other.recipients[0].id}`),
      await scoped.get(`/envelope/item/${other.envelopeItems[0].id}/download`),
      await scoped.get(`/envelope/attachment?envelopeId=${other.id}`),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    }
    expect((await scoped.post('/envelope/get-many', { ids: { type: 'envelopeId', ids: [mine.id, other.id] } })).body.data.map((e: any) => e.id)).toEqual([mine.id])

    const create = await scoped.post('/envelope/create', form({ type: 'DOCUMENT', title: 'x' }, [{ bytes: await makePdf(), name: 'x.pdf' }]))
    expect(create).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } })
    expect((await scoped.post('/embedding/create-presign-token', {})).body).toMatchObject({ code: 'FORBIDDEN' })

    // Legacy scopes address the envelope by its number.
    const n = Number(other.secondaryId.split('_')[1])
    const byNumber = api(host.apiUrl, (await client.post('/embedding/create-presign-token', { scope: `documentId:${n}` })).body.token)
    expect((await byNumber.get(`/envelope/${other.id}`)).status).toBe(200)
    expect((await byNumber.get(`/envelope/${mine.id}`)).status).toBe(404)
    expect((await byNumber.post('/envelope/get-many', { ids: { type: 'documentId', ids: [n] } })).body.data).toHaveLength(1)

    // An unscoped presign token acts for the whole team, creation included.
    const teamWide = api(host.apiUrl, (await client.post('/embedding/create-presign-token', {})).body.token)
    expect((await teamWide.post('/envelope/create', form({ type: 'TEMPLATE', title: 'From the iframe' }, [{ bytes: await makePdf(), name: 't.pdf' }]))).status).toBe(200)
  })

  it('keeps teams apart: another team gets 404 for everything', async () => {
    const e = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ type: 'NAME', page: 1, positionX: 1, positionY: 1, width: 5, height: 5 }] }] })
    const att = await client.post('/envelope/attachment/create', { envelopeId: e.id, data: { label: 'L', data: 'https://example.com' } })
    const team = await host.createTeam({ name: 'Rival', plan: 'enterprise' })
    const rival = api(host.apiUrl, (await host.createApiToken({ name: 'rival', teamId: team.id })).token)
    const rid = e.recipients[0].id
    const fid = e.fields[0].id
    const iid = e.envelopeItems[0].id
    const attempts = [
      await rival.get(`/envelope/${e.id}`),
      await rival.post('/envelope/update', { envelopeId: e.id, data: { title: 'stolen' } }),
      await rival.post('/envelope/delete', { envelopeId: e.id }),
      await rival.get(`/envelope/item/${iid}/download`),
      await rival.post('/envelope/item/create-many', form({ envelopeId: e.id }, [{ bytes: await makePdf(), name: 'x.pdf' }])),
      await rival.post('/envelope/item/update-many', { envelopeId: e.id, data: [{ envelopeItemId: iid, title: 'x' }] }),
      await rival.post('/envelope/item/delete', { envelopeItemId: iid }),
      await rival.get(`/envelope/recipient/${rid}`),
      await rival.post('/envelope/recipient/create-many', { envelopeId: e.id, data: [{ email: 'x@example.com', name: 'x', role: 'SIGNER' }] }),
      await rival.post('/envelope/recipient/update-many', { envelopeId: e.id, data: [{ id: rid, name: 'x' }] }),
      await rival.post('/envelope/recipient/delete', { recipientId: rid }),
      await rival.get(`/envelope/field/${fid}`),
      await rival.post('/envelope/field/create-many', { envelopeId: e.id, data: [{ recipientId: rid, type: 'NAME', page: 1, positionX: 1, positionY: 1, width: 5, height: 5 }] }),
      await rival.post('/envelope/field/update-many', { envelopeId: e.id, data: [{ id: fid, page: 1 }] }),
      await rival.post('/envelope/field/delete', { fieldId: fid }),
      await rival.get(`/envelope/attachment?envelopeId=${e.id}`),
      await rival.post('/envelope/attachment/create', { envelopeId: e.id, data: { label: 'x', data: 'https://example.com' } }),
      await rival.post('/envelope/attachment/update', { id: att.body.id, data: { label: 'x', data: 'https://example.com' } }),
      await rival.post('/envelope/attachment/delete', { id: att.body.id }),
    ]
    for (const [i, res] of attempts.entries()) expect(res, `attempt ${i}`).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    expect((await rival.post('/envelope/get-many', { ids: { type: 'envelopeId', ids: [e.id] } })).body.data).toEqual([])
    expect((await rival.get('/envelope')).body.count).toBe(0)
    // Nothing changed.
    const still = (await client.get(`/envelope/${e.id}`)).body
    expect(still.title).toBe(e.title)
    expect(still.fields).toHaveLength(1)
    expect(still.recipients[0].name).toBe('A')
  })

  it('limits a free team to 5 documents a month and embedding to enterprise', async () => {
    const free = await host.createTeam({ name: 'Free', plan: 'free' })
    const freeClient = api(host.apiUrl, (await host.createApiToken({ name: 'free', teamId: free.id })).token)
    const pdf = await makePdf()
    for (let i = 1; i <= 5; i++) {
      expect((await freeClient.post('/envelope/create', form({ type: 'DOCUMENT', title: `D${i}` }, [{ bytes: pdf, name: 'd.pdf' }]))).status).toBe(200)
    }
    // Deleting one does not give it back.
    const list = await freeClient.get('/envelope')
    await freeClient.post('/envelope/delete', { envelopeId: list.body.data[0].id })
    const sixth = await freeClient.post('/envelope/create', form({ type: 'DOCUMENT', title: 'D6' }, [{ bytes: pdf, name: 'd.pdf' }]))
    expect(sixth.status).toBe(403)
    expect(sixth.body.code).toBe('PLAN_LIMIT_REACHED')
    expect(sixth.body.message).toMatch(/5 documents per calendar month/)
    expect((await freeClient.get('/envelope')).body.count).toBe(4)
    // Templates are not documents; the refused document used no number.
    const template = await freeClient.post('/envelope/create', form({ type: 'TEMPLATE', title: 'T' }, [{ bytes: pdf, name: 't.pdf' }]))
    expect(template.status).toBe(200)
    const usage = await host.db.query<{ documents: number }>('select documents from team_usage where team_id = $1', [free.id])
    expect(usage.map((u) => u.documents)).toEqual([5])

    for (const plan of ['free', 'individual', 'team'] as const) {
      const team = await host.createTeam({ name: plan, plan })
      const c = api(host.apiUrl, (await host.createApiToken({ name: plan, teamId: team.id })).token)
      const res = await c.post('/embedding/create-presign-token', {})
      expect(res, plan).toMatchObject({ status: 403, body: { code: 'PLAN_REQUIRED' } })
      expect((await c.get('/envelope')).status).toBe(200) // the API itself is open to every plan
    }
  })

  it('answers bad input with 400/413 and the error shape, and writes nothing', async () => {
    const count = async () => (await host.db.query<{ n: number }>('select count(*)::int as n from envelopes'))[0]!.n
    const before = await count()
    const png = await client.post('/envelope/create', form({ type: 'DOCUMENT', title: 'x' }, [{ bytes: PNG, name: 'photo.pdf' }]))
    expect(png).toMatchObject({ status: 400, body: { code: 'INVALID_PDF' } })
    expect(png.body.message).toContain('photo.pdf')
    const truncated = (await makePdf()).slice(0, 200)
    expect((await client.post('/envelope/create', form({ type: 'DOCUMENT' }, [{ bytes: truncated, name: 't.pdf' }]))).body.code).toBe('INVALID_PDF')

    const big = new Uint8Array(MAX_UPLOAD + 1024)
    const tooLarge = await client.post('/envelope/create', form({ type: 'DOCUMENT' }, [{ bytes: big, name: 'big.pdf' }]))
    expect(tooLarge).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } })

    // Without a Content-Length (chunked), the body is metered as it is read.
    const chunked = (bytes: Uint8Array, type: string) =>
      fetch(`${host.apiUrl}/envelope/update`, {
        method: 'POST',
        headers: { Authorization: token, 'Content-Type': type },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(bytes)
            controller.close()
          },
        }),
        duplex: 'half',
      } as RequestInit)
    const streamedTooLarge = await chunked(new Uint8Array(MAX_UPLOAD + 1), 'application/octet-stream')
    expect(streamedTooLarge.status).toBe(413)
    expect(await streamedTooLarge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
    const streamedSmall = await chunked(new TextEncoder().encode('{"envelopeId": "envelope_nope"}'), 'application/json')
    expect(await streamedSmall.json()).toMatchObject({ code: 'NOT_FOUND' })

    const garbled = await client.post('/envelope/create', '--xyz\r\nContent-Disposition: form-data; name="payload"\r\n\r\n{"type"', {
      'Content-Type': 'multipart/form-data; boundary=xyz',
    })
    expect(garbled).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } })
    expect((await client.post('/envelope/create', { type: 'DOCUMENT' })).body.code).toBe('INVALID_REQUEST') // not multipart
    const noPayload = new FormData()
    noPayload.append('files', new Blob([(await makePdf()) as Uint8Array<ArrayBuffer>]), 'a.pdf')
    expect((await client.post('/envelope/create', noPayload)).body).toMatchObject({ code: 'INVALID_REQUEST', issues: [{ path: 'payload' }] })
    const badPayload = new FormData()
    badPayload.set('payload', '{not json')
    expect((await client.post('/envelope/create', badPayload)).body).toMatchObject({ code: 'INVALID_REQUEST', issues: [{ path: 'payload' }] })
    const noFiles = await client.post('/envelope/create', form({ type: 'DOCUMENT' }, []))
    expect(noFiles.body).toMatchObject({ code: 'INVALID_REQUEST', issues: [{ path: 'files' }] })
    const invalid = await client.post('/envelope/create', form({ type: 'LETTER', recipients: [{ email: 'x', role: 'SIGNER' }] }, [{ bytes: await makePdf(), name: 'a.pdf' }]))
    expect(invalid.status).toBe(400)
    expect(invalid.body.issues.map((i: any) => i.path).sort()).toEqual(['payload.recipients.0.email', 'payload.type'])
    const badField = await client.post(
      '/envelope/create',
      form(
        { type: 'DOCUMENT', recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ identifier: 3, type: 'TEXT', page: 1, positionX: 0, positionY: 0, width: 1, height: 1 }, { identifier: 'a.pdf', type: 'TEXT', page: 2, positionX: 0, positionY: 0, width: 1, height: 1 }] }] },
        [{ bytes: await makePdf(), name: 'a.pdf' }],
      ),
    )
    expect(badField.body.issues.map((i: any) => i.path)).toEqual(['payload.recipients.0.fields.0.identifier', 'payload.recipients.0.fields.1.page'])

    const badJson = await client.post('/envelope/update', '{"envelopeId": ', { 'Content-Type': 'application/json' })
    expect(badJson).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', message: expect.stringContaining('JSON') } })
    expect((await client.post('/envelope/update')).status).toBe(400)
    expect(await count()).toBe(before)

    // A failure half-way through a request leaves no trace of its first half.
    const e = await createEnvelope(client, { recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER' }] })
    const partial = await client.post('/envelope/recipient/update-many', {
      envelopeId: e.id,
      data: [
        { id: e.recipients[0].id, name: 'Changed' },
        { id: 2147483000, name: 'Missing' },
      ],
    })
    expect(partial.status).toBe(400)
    expect(partial.body.issues).toEqual([{ path: 'data.1.id', message: 'Recipient not found in this envelope' }])
    expect((await client.get(`/envelope/${e.id}`)).body.recipients[0].name).toBe('A')

    const unknown = await client.get('/nothing/here')
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    expect((await api(host.url).get('/nothing')).body).toMatchObject({ code: 'NOT_FOUND' })
    expect((await client.get('/envelope/envelope_doesnotexist00')).body).toMatchObject({ code: 'NOT_FOUND', message: 'envelope not found' })
  })

  it('answers CORS so pages on other origins can call it with a presign token', async () => {
    const pre = await fetch(`${host.apiUrl}/envelope/update`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://customer.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    })
    expect(pre.status).toBeLessThan(300)
    expect(pre.headers.get('access-control-allow-origin')).toBe('*')
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization')
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull()
    const res = await fetch(`${host.apiUrl}/envelope`, { headers: { Origin: 'https://customer.example', Authorization: token } })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const denied = await fetch(`${host.apiUrl}/envelope`, { headers: { Origin: 'https://customer.example' } })
    expect(denied.status).toBe(401)
    expect(denied.headers.get('access-control-allow-origin')).toBe('*')
  })
})
