/**
 * Evidence that holds: random sequences of what teams, embeds and recipients do (create, use,
 * duplicate, direct-link signing, item create/update/delete, placeholder fields, distribute,
 * sign), on both databases; after every step, every sent or completed envelope still serves
 * exactly the bytes DOCUMENT_SENT recorded, and those are the bytes its source had when it was
 * sent. The database itself refuses to change a stored file or a sent item.
 * Databases: both (the database refuses changes to stored files: triggers).
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pdfText } from '../support/pdf-signature.js'
import { drivenClock } from '../../host/server/jobs/clock.js'
import { seeded } from './hostile.js'
import { api, form, makePdf, sealed, SIGNATURE, startTestHost, VARIANTS, type Api, type TestHost } from './support.js'

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const WORDS = ['{{a}}', '{{b}}', 'unlimited', '{{c}}']
const box = { page: 1, width: 20, height: 5 }

interface Env {
  id: string
  team: number
  type: 'DOCUMENT' | 'TEMPLATE'
}

describe.each(VARIANTS)('immutable evidence on $variant', ({ variant, skip }) => {
  let host: TestHost
  const teams: Api[] = []
  const signing = (token: string) => api(`${host.url}/api/signing`, `Bearer ${token}`)

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant, { webhookAllowPrivateUrls: true })
    for (const name of ['North', 'South']) {
      const team = await host.createTeam({ name, plan: 'enterprise' })
      teams.push(api(host.apiUrl, (await host.createApiToken({ name: 'tests', teamId: team.id })).token))
    }
  })
  afterAll(async () => {
    await host?.stop()
  })

  const pdf = (pages: number, salt: string) =>
    makePdf(pages, [...WORDS.map((text, i) => ({ text: `Clause ${i}: ${text}`, x: 72, y: 700 - i * 40 })), { text: salt, x: 72, y: 100 }])

  async function ok(res: Promise<{ status: number; body: any }>, what: string) {
    const r = await res
    if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }

  it.skipIf(skip)('the database refuses to change a stored file or the file of a sent item', async () => {
    const c = teams[0]!
    const made = await ok(
      c.post(
        '/envelope/create',
        form(
          { type: 'DOCUMENT', title: 'Frozen', recipients: [{ email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 10, positionY: 10 }] }] },
          [{ bytes: await pdf(1, 'frozen'), name: 'f.pdf' }],
        ),
      ),
      'create',
    )
    const [item] = await host.db.query<{ id: string; document_data_id: string }>('select id, document_data_id from envelope_items where envelope_id = $1', [made.id])
    await expect(host.db.query('update document_data set bytes = $2 where id = $1', [item!.document_data_id, new Uint8Array([1])])).rejects.toThrow(/never changes/)
    await expect(host.db.query('update document_data set sha256 = $2 where id = $1', [item!.document_data_id, 'x'])).rejects.toThrow(/never changes/)
    await ok(c.post('/envelope/distribute', { envelopeId: made.id }), 'distribute')
    const other = (await host.db.query<{ id: string }>('select id from document_data where id <> $1 limit 1', [item!.document_data_id]))[0]
    if (other) await expect(host.db.query('update envelope_items set document_data_id = $2 where id = $1', [item!.id, other.id])).rejects.toThrow(/keeps its file/)
    await expect(host.db.query('delete from envelope_items where id = $1', [item!.id])).rejects.toThrow(/cannot change/)
    await expect(host.db.query(`insert into envelope_items (id, envelope_id, title, item_order, document_data_id, page_count) values ('x', $1, 't', 9, $2, 1)`, [made.id, item!.document_data_id])).rejects.toThrow(/cannot change/)
    // Every door refuses first, with the API's error shape `{message, code}`.
    const add = await c.post('/envelope/item/create-many', form({ envelopeId: made.id }, [{ bytes: await pdf(1, 'late'), name: 'late.pdf' }]))
    expect(add.status).toBe(400)
    expect(add.body.code).toBe('ENVELOPE_NOT_EDITABLE')
    // A pending document is still deleted whole (its items with it).
    await ok(c.post('/envelope/delete', { envelopeId: made.id }), 'delete')
    expect(await host.db.query('select 1 from envelope_items where envelope_id = $1', [made.id])).toEqual([])
  })

  it.skipIf(skip)('a copy made from a template or a completed document never shares a transformation with its source', async () => {
    const c = teams[0]!
    const signer = { email: 'tenant@example.com', name: 'Tenant', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 10, positionY: 80 }] }
    const t = await ok(c.post('/envelope/create', form({ type: 'TEMPLATE', title: 'Offer', recipients: [signer] }, [{ bytes: await pdf(1, 'offer'), name: 'offer.pdf' }])), 'template')
    const template = (await c.get(`/envelope/${t.id}`)).body
    const used = await ok(c.post('/envelope/use', form({ envelopeId: t.id, recipients: [{ id: template.recipients[0].id, email: 'x@example.com', name: 'X' }], distributeDocument: true }, [])), 'use')
    const doc = (await c.get(`/envelope/${used.id}`)).body
    const before = sha((await c.get(`/envelope/item/${doc.envelopeItems[0].id}/download`)).body)
    // A presign token scoped to the template adds a placeholder field on "unlimited".
    const presign = await ok(c.post('/embedding/create-presign-token', { scope: `envelopeId:${t.id}` }), 'presign')
    const scoped = api(host.apiUrl, `Bearer ${presign.token}`)
    await ok(scoped.post('/envelope/field/create-many', { envelopeId: t.id, data: [{ recipientId: template.recipients[0].id, type: 'SIGNATURE', placeholder: 'unlimited' }] }), 'placeholder')
    const served = await signing(doc.recipients[0].token).get(`/item/${doc.envelopeItems[0].id}`)
    expect(sha(served.body)).toBe(before)
    expect(served.headers.get('etag')).toBe(`"sha256-${before}"`)
    // The template's own file changed, in a new file of its own.
    expect(sha((await c.get(`/envelope/item/${template.envelopeItems[0].id}/download`)).body)).not.toBe(before)
    const audit = (await c.get(`/envelope/${used.id}/audit-log?perPage=100&include=all`)).body.data
    expect(audit.find((a: any) => a.type === 'DOCUMENT_SENT').data.documents).toEqual([
      { envelopeItemId: doc.envelopeItems[0].id, title: 'offer.pdf', documentDataId: doc.envelopeItems[0].documentDataId, sha256: before },
    ])

    // Completed, then duplicated, then the copy gets a placeholder: the original's bytes stay.
    await ok(signing(doc.recipients[0].token).post('/complete', { fields: doc.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) }), 'sign')
    const original = await c.get(`/envelope/item/${doc.envelopeItems[0].id}/download?version=original`)
    const copy = await ok(c.post('/envelope/duplicate', { envelopeId: used.id }), 'duplicate')
    const copied = (await c.get(`/envelope/${copy.id}`)).body
    await ok(c.post('/envelope/field/create-many', { envelopeId: copy.id, data: [{ recipientId: copied.recipients[0].id, type: 'SIGNATURE', placeholder: '{{a}}' }] }), 'placeholder on copy')
    expect(sha((await c.get(`/envelope/item/${doc.envelopeItems[0].id}/download?version=original`)).body)).toBe(sha(original.body))
    expect(sha(original.body)).toBe(before)
    // The certificate states that same hash as the original's.
    const sealed = await c.get(`/envelope/item/${doc.envelopeItems[0].id}/download?version=signed`)
    expect(sealed.status).toBe(200)
    expect((await pdfText(sealed.body)).join('').replace(/\s+/g, '')).toContain(before)
  })

  it.skipIf(skip)('sealing runs after the last action commits; a failure is in the audit log, retried, and never certifies other bytes', async () => {
    // Its own host: no background workers, a driven clock, two attempts one minute apart.
    const clock = drivenClock()
    const own = await startTestHost(variant, { clock, queueConcurrency: 0, retryMaxAttempts: 2, retryBaseMs: 60_000, retryFactor: 1, retryMaxMs: 60_000 })
    try {
      const c = api(own.apiUrl, (await own.createApiToken({ name: 'tests' })).token)
      const signer = { email: 'a@example.com', name: 'A', role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 10, positionY: 80 }] }
      const made = await ok(c.post('/envelope/create', form({ type: 'DOCUMENT', title: 'Deal', recipients: [signer] }, [{ bytes: await pdf(1, 'deal'), name: 'deal.pdf' }])), 'create')
      await ok(c.post('/envelope/distribute', { envelopeId: made.id }), 'distribute')
      const doc = (await c.get(`/envelope/${made.id}`)).body
      const item = doc.envelopeItems[0]
      const original = (await c.get(`/envelope/item/${item.id}/download`)).body as Uint8Array
      const done = await api(`${own.url}/api/signing`, `Bearer ${doc.recipients[0].token}`).post('/complete', { fields: doc.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) })
      expect(done.body.status).toBe('COMPLETED')
      const types = async () => (await c.get(`/envelope/${made.id}/audit-log?perPage=100&include=all`)).body.data.map((a: any) => a.type)
      const events = async () => (await own.db.query<{ event: string }>('select event from events where envelope_id = $1', [made.id])).map((x) => x.event)
      expect(await types()).toContain('DOCUMENT_COMPLETED')
      expect(await events()).not.toContain('DOCUMENT_COMPLETED')

      // Someone with the database's own rights rewrites the file behind the service's back.
      const swap = async (bytes: Uint8Array) => {
        await own.db.exec('alter table document_data disable trigger document_data_immutable')
        await own.db.query('update document_data set bytes = $2 where id = $1', [item.documentDataId, bytes])
        await own.db.exec('alter table document_data enable trigger document_data_immutable')
      }
      await swap(await pdf(1, 'forged'))
      await own.queue.drain()
      const failed = (await c.get(`/envelope/${made.id}/audit-log?perPage=100&include=all`)).body.data.filter((a: any) => a.type === 'DOCUMENT_SEALING_FAILED')
      expect(failed).toEqual([expect.objectContaining({ data: expect.objectContaining({ attempt: 1, final: false, error: expect.stringContaining('not the file that was sent') }) })])
      const waiting = await c.get(`/envelope/item/${item.id}/download?version=signed`)
      expect(waiting.status).toBe(409)
      expect(waiting.body).toEqual({ message: expect.stringContaining('being sealed'), code: 'DOCUMENT_SEALING' })
      expect(waiting.headers.get('retry-after')).toBe('2')
      expect(await events()).not.toContain('DOCUMENT_COMPLETED')

      // Put back, the retry a minute later seals the file that was sent, and announces it.
      await swap(original)
      clock.advance(61_000)
      await sealed(own, made.id)
      expect(await events()).toContain('DOCUMENT_COMPLETED')
      const signed = await c.get(`/envelope/item/${item.id}/download?version=signed`)
      expect(signed.status).toBe(200)
      expect((await pdfText(signed.body)).join('').replace(/\s+/g, '')).toContain(sha(original))
    } finally {
      await own.stop()
    }
  })

  for (const seed of [1, 2, 3]) {
    it.skipIf(skip)(`random sequence ${seed}: every sent envelope serves the bytes recorded when it was sent`, async () => {
      // A failing seed replays the same sequence.
      const rnd = seeded(seed * 7919 + (variant === 'postgres' ? 1 : 0))
      const envs: Env[] = []
      /** Hash of each item of each sent envelope, as it was when it was sent. */
      const sent = new Map<string, Map<string, string>>()
      const directs = new Map<string, string>() // template id -> link token
      const signer = (i: number) => ({ email: `s${i}@example.com`, name: `Signer ${i}`, role: 'SIGNER', fields: [{ ...box, type: 'SIGNATURE', positionX: 10, positionY: 80 }] })
      let n = 0

      const get = async (e: Env) => (await teams[e.team]!.get(`/envelope/${e.id}`)).body
      const hashes = async (e: Env) => {
        const body = await get(e)
        const out = new Map<string, string>()
        for (const item of body.envelopeItems) out.set(item.id, sha((await teams[e.team]!.get(`/envelope/item/${item.id}/download?version=original`)).body))
        return out
      }
      /** A newly sent envelope: DOCUMENT_SENT's hashes must be the bytes `expected` (its source's, before). */
      const recordSent = async (e: Env, expected: string[]) => {
        const audit = (await teams[e.team]!.get(`/envelope/${e.id}/audit-log?perPage=100&include=all`)).body.data
        const documents = audit.find((a: any) => a.type === 'DOCUMENT_SENT').data.documents as { envelopeItemId: string; sha256: string }[]
        expect(documents.map((d) => d.sha256)).toEqual(expected)
        sent.set(e.id, new Map(documents.map((d) => [d.envelopeItemId, d.sha256])))
      }
      const create = async (team: number, type: Env['type']) => {
        const files = [{ bytes: await pdf(1 + Math.floor(rnd.next() * 2), `file ${++n}`), name: `f${n}.pdf` }]
        const made = await ok(teams[team]!.post('/envelope/create', form({ type, title: `${type} ${n}`, recipients: [signer(n)] }, files)), 'create')
        envs.push({ id: made.id, team, type })
      }
      const drafts = (type?: Env['type']) => envs.filter((e) => !sent.has(e.id) && (!type || e.type === type))
      const pendingSigners = async () => {
        const out: { e: Env; token: string; fields: any[] }[] = []
        for (const e of envs.filter((x) => sent.has(x.id))) {
          const body = await get(e)
          if (body.status !== 'PENDING') continue
          for (const r of body.recipients.filter((x: any) => x.signingStatus === 'NOT_SIGNED')) {
            out.push({ e, token: r.token, fields: body.fields.filter((f: any) => f.recipientId === r.id) })
          }
        }
        return out
      }

      const ops: Record<string, () => Promise<void>> = {
        create: () => create(Math.floor(rnd.next() * 2), rnd.next() < 0.5 ? 'TEMPLATE' : 'DOCUMENT'),
        use: async () => {
          const t = rnd.pick(envs.filter((e) => e.type === 'TEMPLATE'))
          if (!t) return
          const body = await get(t)
          const before = [...(await hashes(t)).values()]
          const distribute = rnd.next() < 0.7
          const used = await ok(
            teams[t.team]!.post('/envelope/use', form({ envelopeId: t.id, recipients: body.recipients.map((r: any) => ({ id: r.id, email: r.email, name: r.name })), distributeDocument: distribute }, [])),
            'use',
          )
          const e: Env = { id: used.id, team: t.team, type: 'DOCUMENT' }
          envs.push(e)
          if (distribute) await recordSent(e, before)
        },
        duplicate: async () => {
          const from = rnd.pick(envs)
          if (!from) return
          const copy = await ok(teams[from.team]!.post('/envelope/duplicate', { envelopeId: from.id }), 'duplicate')
          envs.push({ id: copy.id, team: from.team, type: from.type })
        },
        itemCreate: async () => {
          const e = rnd.pick(drafts())
          if (!e) return
          await ok(teams[e.team]!.post('/envelope/item/create-many', form({ envelopeId: e.id }, [{ bytes: await pdf(1, `added ${++n}`), name: `a${n}.pdf` }])), 'item create')
        },
        itemUpdate: async () => {
          const e = rnd.pick(drafts())
          if (!e) return
          const item = (await get(e)).envelopeItems[0]
          await ok(teams[e.team]!.post('/envelope/item/update-many', { envelopeId: e.id, data: [{ envelopeItemId: item.id, title: `renamed ${++n}.pdf` }] }), 'item update')
        },
        itemDelete: async () => {
          const e = rnd.pick(drafts())
          if (!e) return
          const items = (await get(e)).envelopeItems
          if (items.length < 2) return
          await ok(teams[e.team]!.post('/envelope/item/delete', { envelopeItemId: items[items.length - 1].id }), 'item delete')
        },
        placeholder: async () => {
          const e = rnd.pick(drafts())
          if (!e) return
          const body = await get(e)
          // Through the team's token or a presign token scoped to this envelope, as an embed does.
          const presign = rnd.next() < 0.5 ? await ok(teams[e.team]!.post('/embedding/create-presign-token', { scope: `envelopeId:${e.id}` }), 'presign') : null
          const client = presign ? api(host.apiUrl, `Bearer ${presign.token}`) : teams[e.team]!
          await ok(
            client.post('/envelope/field/create-many', {
              envelopeId: e.id,
              data: [{ recipientId: body.recipients[0].id, envelopeItemId: rnd.pick(body.envelopeItems as any[])!.id, type: 'SIGNATURE', placeholder: rnd.pick(WORDS) }],
            }),
            'placeholder',
          )
        },
        distribute: async () => {
          const e = rnd.pick(drafts('DOCUMENT'))
          if (!e) return
          const before = [...(await hashes(e)).values()]
          await ok(teams[e.team]!.post('/envelope/distribute', { envelopeId: e.id }), 'distribute')
          await recordSent(e, before)
        },
        sign: async () => {
          const s = rnd.pick(await pendingSigners())
          if (!s) return
          await ok(signing(s.token).post('/complete', { fields: s.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) }), 'sign')
        },
        direct: async () => {
          const t = rnd.pick(envs.filter((e) => e.type === 'TEMPLATE'))
          if (!t) return
          const body = await get(t)
          if (!directs.has(t.id)) {
            const number = Number(body.secondaryId.split('_')[1])
            const link = await ok(teams[t.team]!.post('/template/direct/create', { templateId: number, directRecipientId: body.recipients[0].id }), 'direct link')
            directs.set(t.id, link.token)
          }
          const visitor = signing(directs.get(t.id)!)
          const session = (await visitor.get('/direct/session')).body
          const before = [...(await hashes(t)).values()]
          const done = await ok(
            visitor.post('/direct/complete', { signer: { name: 'Visitor', email: `v${++n}@example.com` }, fields: session.fields.map((f: any) => ({ id: f.id, value: SIGNATURE })) }),
            'direct sign',
          )
          const e: Env = { id: done.envelopeId, team: t.team, type: 'DOCUMENT' }
          envs.push(e)
          await recordSent(e, before)
        },
        tamper: async () => {
          // Every door that edits items refuses a sent envelope, with a 4xx and no change.
          const e = rnd.pick(envs.filter((x) => sent.has(x.id)))
          if (!e) return
          const body = await get(e)
          const tries = [
            teams[e.team]!.post('/envelope/item/create-many', form({ envelopeId: e.id }, [{ bytes: await pdf(1, 'x'), name: 'x.pdf' }])),
            teams[e.team]!.post('/envelope/item/delete', { envelopeItemId: body.envelopeItems[0].id }),
            teams[e.team]!.post('/envelope/field/create-many', { envelopeId: e.id, data: [{ recipientId: body.recipients[0].id, type: 'SIGNATURE', placeholder: '{{a}}' }] }),
          ]
          for (const res of await Promise.all(tries)) expect([400, 404]).toContain(res.status)
        },
      }
      const names = Object.keys(ops)
      for (let i = 0; i < 4; i++) await create(i % 2, i < 2 ? 'TEMPLATE' : 'DOCUMENT')
      for (let step = 0; step < 36; step++) {
        const op = rnd.pick(names)!
        try {
          await ops[op]!()
          // After every step: each sent envelope serves its recorded bytes, to its team and its signers.
          for (const e of envs.filter((x) => sent.has(x.id))) {
            const now = await hashes(e)
            expect(Object.fromEntries(now), `${e.id} after ${op}`).toEqual(Object.fromEntries(sent.get(e.id)!))
          }
        } catch (err) {
          throw new Error(`seed ${seed}, step ${step} (${op}): ${(err as Error).message}`, { cause: err })
        }
      }
      // Signing pages serve the same bytes; a completed one is sealed with the recorded hashes.
      for (const e of envs.filter((x) => sent.has(x.id))) {
        const body = await get(e)
        for (const item of body.envelopeItems) {
          expect(sha((await signing(body.recipients[0].token).get(`/item/${item.id}`)).body)).toBe(sent.get(e.id)!.get(item.id))
          if (body.status !== 'COMPLETED') continue
          const sealed = await teams[e.team]!.get(`/envelope/item/${item.id}/download?version=signed`)
          expect(sealed.status).toBe(200)
          expect((await pdfText(sealed.body)).join('').replace(/\s+/g, '')).toContain(sent.get(e.id)!.get(item.id))
        }
      }
      expect(sent.size).toBeGreaterThan(0)
    })
  }
})
