/**
 * Several hosts on one PostgreSQL database: caches kept true by notifications, revoked tokens
 * stopped everywhere, numbers without gaps under concurrent creation.
 * Database: PostgreSQL (LISTEN/NOTIFY between processes; the embedded database admits one).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHost, type Host } from '../../host/server/start.js'
import { api, createEnvelope, DATABASE_TEST_URL, pgReason, type Res } from './support.js'

/** Asks until `done` holds; changes made through another process arrive by notification. */
async function eventually(ask: () => Promise<Res>, done: (r: Res) => boolean): Promise<Res> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const r = await ask()
    if (done(r) || Date.now() > deadline) return r
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe.skipIf(pgReason !== null)('several hosts on one PostgreSQL database', () => {
  const schema = `host_multi_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`
  let dir: string
  let a: Host
  let b: Host

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'host-multi-'))
    const url = new URL(DATABASE_TEST_URL)
    url.searchParams.set('schema', schema)
    const opts = { port: 0, hostname: '127.0.0.1', databaseUrl: url.toString(), appDistDir: path.join(dir, 'none') }
    a = await startHost({ ...opts, dataDir: path.join(dir, 'a') })
    b = await startHost({ ...opts, dataDir: path.join(dir, 'b') })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    const client = new pg.Client({ connectionString: DATABASE_TEST_URL })
    await client.connect()
    await client.query(`drop schema if exists ${schema} cascade`)
    await client.end()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves each host its own writes at once and the other hosts writes once notified', async () => {
    // Caches are in use (not bypassed) once each host listens.
    const deadline = Date.now() + 15_000
    while (!(a.db.notificationsLive && b.db.notificationsLive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect([a.db.notificationsLive, b.db.notificationsLive]).toEqual([true, true])
    const token = (await a.createApiToken({ name: 'shared' })).token
    const onA = api(a.apiUrl, token)
    const onB = api(b.apiUrl, token)
    const e = await createEnvelope(onA)
    expect((await onB.get(`/envelope/${e.id}`)).body.title).toBe('Contract') // now cached on both

    const renamed = await onB.post('/envelope/update', { envelopeId: e.id, data: { title: 'Renamed on B' } })
    expect(renamed.status).toBe(200)
    expect((await onB.get(`/envelope/${e.id}`)).body.title).toBe('Renamed on B')
    expect((await eventually(() => onA.get(`/envelope/${e.id}`), (r) => r.body.title === 'Renamed on B')).body.title).toBe('Renamed on B')

    await onA.post('/envelope/delete', { envelopeId: e.id })
    expect((await eventually(() => onB.get(`/envelope/${e.id}`), (r) => r.status === 404)).status).toBe(404)
  })

  it('stops a token revoked through one host on every host', async () => {
    const t = await b.createApiToken({ name: 'doomed' })
    const onA = api(a.apiUrl, t.token)
    expect((await onA.get('/envelope')).status).toBe(200) // cached on A
    await b.revokeApiToken(t.id)
    expect((await api(b.apiUrl, t.token).get('/envelope')).status).toBe(401)
    expect((await eventually(() => onA.get('/envelope'), (r) => r.status === 401)).body).toMatchObject({ code: 'INVALID_API_TOKEN' })
  })

  it('numbers concurrent creations without gaps or duplicates', async () => {
    const token = (await a.createApiToken({ name: 'race' })).token
    const clients = [api(a.apiUrl, token), api(b.apiUrl, token)]
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => createEnvelope(clients[i % 2]!, { type: 'TEMPLATE', title: `T${i}` })))
    const numbers = made.map((e) => Number(e.secondaryId.split('_')[1])).sort((x, y) => x - y)
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
  })
})
