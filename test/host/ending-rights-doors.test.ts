/**
 * Ending rights, as one mechanism (docs/security.md, "Who ends a document"): every way a document
 * ends for the team (cancel, delete, reject on a recipient's behalf, purge) goes through
 * assertMayEnd (domain/envelope/ownership.ts). The routes that reach an ending operation are read from
 * the route table: a new one fails here until it is listed in DOORS, and each door listed is tried
 * as a MEMBER on another's document (403 NOT_CREATOR, nothing changes).
 * Database: the embedded one (ownership is an API rule; the SQL is the same on both).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Principal } from '../../host/server/auth/principal.js'
import { purgeEnvelope } from '../../host/server/domain/retention/retention.js'
import { makeUser, signInAs, type ConsoleClient } from '../support/console-client.js'
import { routeHandlerSources } from './routes.js'
import { makePdf, startTestHost, VARIANTS, type TestHost } from './support.js'

const repo = resolve(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(join(repo, file), 'utf8')

/** The domain operations that end a document for the whole team, where each lives. */
const ENDING_OPERATIONS: Record<string, string> = {
  cancel: 'host/server/domain/signing/lifecycle.ts',
  rejectForRecipient: 'host/server/domain/signing/lifecycle.ts',
  deleteEnvelope: 'host/server/domain/envelope/envelopes.ts',
  purgeEnvelope: 'host/server/domain/retention/retention.ts',
  // Purges every due envelope, one purgeEnvelope each: how the doors reach purgeEnvelope.
  purgeDue: 'host/server/domain/retention/retention.ts',
}
/** The operator's commands (people/operator-ops.ts, as the admin routes call them) that run an ending operation. */
const OPERATOR_ENDINGS: Record<string, string> = { retentionRun: 'purgeDue' }
const CALLS_AN_ENDING = new RegExp(`\\b(${[...Object.keys(ENDING_OPERATIONS), ...Object.keys(OPERATOR_ENDINGS)].join('|')})\\)?\\(`)

type Doc = { id: string; n: number; recipientId: number }
type Try = (t: { member: ConsoleClient; token: string; host: TestHost; doc: Doc; template: Doc; legacy: Doc; legacyTemplate: Doc }) => Promise<Response>

/** Every route that ends a document, and how a MEMBER tries it on another's. */
const DOORS: Record<string, { doc: 'doc' | 'template' | 'legacy' | 'legacyTemplate'; send: Try } | { operatorOnly: string }> = {
  'POST /api/v2/envelope/cancel': { doc: 'doc', send: ({ member, doc }) => member.v2('/envelope/cancel', { body: { envelopeId: doc.id } }) },
  'POST /api/v2/envelope/delete': { doc: 'doc', send: ({ member, doc }) => member.v2('/envelope/delete', { body: { envelopeId: doc.id } }) },
  'POST /api/v2/envelope/recipient/:id/reject': {
    doc: 'doc',
    send: ({ member, doc }) => member.v2(`/envelope/recipient/${doc.recipientId}/reject`, { body: { reason: 'not mine' } }),
  },
  'POST /api/v2/document/delete': { doc: 'doc', send: ({ member, doc }) => member.v2('/document/delete', { body: { documentId: doc.n } }) },
  'POST /api/v2/template/delete': { doc: 'template', send: ({ member, template }) => member.v2('/template/delete', { body: { templateId: template.n } }) },
  'DELETE /api/v1/documents/:id': {
    doc: 'legacy',
    send: ({ host, token, legacy }) => fetch(`${host.url}/api/v1/documents/${legacy.n}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }),
  },
  'DELETE /api/v1/templates/:id': {
    doc: 'legacyTemplate',
    send: ({ host, token, legacyTemplate }) => fetch(`${host.url}/api/v1/templates/${legacyTemplate.n}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }),
  },
  // The operator's (its secret, or the CLI's `retention run`), after an ADMIN set the retention: tried below.
  'POST /_admin/retention/run': { operatorOnly: 'purges for the team, by the retention its ADMIN set' },
}

/** The body of `export async function name(` in `source`, up to the next top-level export. */
function bodyOf(source: string, name: string): string {
  const start = source.search(new RegExp(`export (async )?function ${name}\\(`))
  if (start < 0) return ''
  const next = source.indexOf('\nexport ', start + 1)
  return source.slice(start, next < 0 ? undefined : next)
}

function serverSources(dir = 'host/server'): [string, string][] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((d) => {
    const path = `${dir}/${d.name}`
    if (d.isDirectory()) return d.name === 'migrations' ? [] : serverSources(path)
    return d.name.endsWith('.ts') ? [[path, read(path)] as [string, string]] : []
  })
}

describe('the doors that end a document', () => {
  it('are the routes calling an ending operation, as the route table has them', () => {
    const calling = [...routeHandlerSources()].filter(([, source]) => CALLS_AN_ENDING.test(source)).map(([key]) => key)
    expect(calling.sort()).toEqual(Object.keys(DOORS).sort())
  })

  it('each ending operation applies assertMayEnd', () => {
    for (const [name, file] of Object.entries(ENDING_OPERATIONS)) {
      const body = bodyOf(read(file), name)
      expect(body, `${name} in ${file}`).not.toBe('')
      // purgeDue reaches the check through purgeEnvelope.
      expect(name === 'purgeDue' ? body.includes('purgeEnvelope(') : body.includes('assertMayEnd('), `${name} applies the check`).toBe(true)
    }
    const operator = read('host/server/people/operator-ops.ts')
    for (const [command, ending] of Object.entries(OPERATOR_ENDINGS)) expect(operator, command).toMatch(new RegExp(`\\b${command}: [^\\n]*\\b${ending}\\(`))
  })

  it("nothing else writes an end state, but a recipient's own decline", () => {
    // Where the server writes CANCELLED or REJECTED, removes an envelope, or marks it deleted or purged.
    const END_WRITE = /nextStatus\([^)]*'(cancel|reject)'\)|delete from envelopes|set deleted_at|set purged_at/g
    const writers: string[] = []
    for (const [file, text] of serverSources()) {
      for (const m of text.matchAll(END_WRITE)) {
        const before = text.slice(0, m.index)
        const fn = [...before.matchAll(/function (\w+)\(/g)].pop()?.[1]
        writers.push(`${file} ${fn}`)
      }
    }
    expect([...new Set(writers)].sort()).toEqual(
      [
        'host/server/domain/envelope/envelopes.ts deleteEnvelope',
        'host/server/domain/signing/lifecycle.ts cancel',
        // One recipient declines: through their own link (rejectByToken, the signer's right) or for them (rejectForRecipient, checked).
        'host/server/domain/signing/lifecycle.ts reject',
        'host/server/domain/retention/retention.ts purgeEnvelope',
      ].sort(),
    )
    const lifecycle = read('host/server/domain/signing/lifecycle.ts')
    const callers = [...lifecycle.matchAll(/\breturn reject\(|\bawait reject\(/g)].map((m) => [...lifecycle.slice(0, m.index).matchAll(/function (\w+)\(/g)].pop()?.[1])
    expect(callers.sort()).toEqual(['rejectByToken', 'rejectForRecipient'])
  })
})

describe.each(VARIANTS.filter((v) => v.variant === 'pglite'))('every door that ends a document applies the ownership check ($variant)', ({ variant, skip }) => {
  let host: TestHost
  let teamId: string
  let creator: ConsoleClient
  let member: ConsoleClient
  let admin: ConsoleClient
  let manager: ConsoleClient
  let memberId = ''
  /** The MEMBER's API token (made while a MANAGER, then demoted). */
  let token = ''
  const pdf = makePdf(1)

  async function make(who: ConsoleClient, o: { send?: boolean; type?: 'DOCUMENT' | 'TEMPLATE'; legacy?: boolean } = {}): Promise<Doc> {
    const type = o.type ?? 'DOCUMENT'
    const form = new FormData()
    const fields = [{ type: 'SIGNATURE', page: 1, positionX: 10, positionY: 70, width: 30, height: 8 }]
    form.set('payload', JSON.stringify({ type, title: `${type} of someone`, recipients: [{ email: 's@example.com', name: 'S', role: 'SIGNER', fields }] }))
    form.append(o.legacy ? 'file' : 'files', new Blob([new Uint8Array(await pdf)], { type: 'application/pdf' }), 'a.pdf')
    const res = await fetch(`${host.apiUrl}${o.legacy ? `/${type.toLowerCase()}/create` : '/envelope/create'}`, {
      method: 'POST',
      headers: { cookie: who.cookie, origin: host.url, 'x-csrf-token': who.csrf },
      body: form,
    })
    expect(res.status).toBe(200)
    const out = (await res.json()) as { id: string | number; envelopeId?: string }
    const id = out.envelopeId ?? (out.id as string)
    if (o.send) expect((await who.v2('/envelope/distribute', { body: { envelopeId: id } })).status).toBe(200)
    const [row] = await host.db.query<{ n: number; rid: number }>(
      'select e.secondary_number as n, r.id as rid from envelopes e join recipients r on r.envelope_id = e.id where e.id = $1',
      [id],
    )
    return { id, n: row!.n, recipientId: row!.rid }
  }

  /** The row, its recipients' decisions, audit entries (but the mail job's EMAIL_SENT) and events. */
  const state = async (id: string) =>
    (
      await host.db.query(
        `select e.status, e.deleted_at, e.purged_at, (select string_agg(r.signing_status, ',') from recipients r where r.envelope_id = e.id) as signing,
           (select count(*)::int from audit_logs a where a.envelope_id = e.id and a.type <> 'EMAIL_SENT') as audit,
           (select count(*)::int from events v where v.envelope_id = e.id) as events
         from envelopes e where e.id = $1`,
        [id],
      )
    )[0]

  beforeAll(async () => {
    if (skip) return
    host = await startTestHost(variant)
    await makeUser(host.db, 'creator@example.com')
    teamId = (await host.db.query<{ team_id: string }>('select team_id from team_members'))[0]!.team_id
    await host.db.query(`update teams set plan = 'enterprise' where id = $1`, [teamId])
    creator = await signInAs(host.url, 'creator@example.com')
    admin = creator
    await makeUser(host.db, 'manager@example.com', { teamId, role: 'MANAGER' })
    manager = await signInAs(host.url, 'manager@example.com')
    memberId = (await makeUser(host.db, 'member@example.com', { teamId, role: 'MANAGER' })).id
    member = await signInAs(host.url, 'member@example.com')
    token = ((await (await member.console('/team/tokens', { body: { name: 'mine', expires: 'never' } })).json()) as { token: string }).token
    expect((await admin.console('/team/members/role', { body: { userId: memberId, role: 'MEMBER' } })).status).toBe(200)
    member = await signInAs(host.url, 'member@example.com')
  })
  afterAll(() => host?.stop())

  it.skipIf(skip)("a MEMBER is refused each door on another's document, and nothing changes", async () => {
    for (const [door, how] of Object.entries(DOORS)) {
      if ('operatorOnly' in how) continue
      const docs = {
        doc: await make(creator, { send: true }),
        template: await make(creator, { type: 'TEMPLATE' }),
        legacy: await make(creator, { send: true, legacy: true }),
        legacyTemplate: await make(creator, { type: 'TEMPLATE', legacy: true }),
      }
      const target = docs[how.doc]
      const before = await state(target.id)
      const res = await how.send({ member, token, host, ...docs })
      expect(res.status, door).toBe(403)
      const body = (await res.json()) as { code: string; message: string }
      expect(body.code, door).toBe('NOT_CREATOR')
      expect(body.message, door).toMatch(/only the (documents|templates) they created/)
      expect(await state(target.id), door).toEqual(before)
    }
  })

  it.skipIf(skip)('a purge is the operator\'s, by the retention an ADMIN set; asked for a MEMBER it is refused like the others', async () => {
    // Neither a MEMBER nor a MANAGER sets the retention that purges everyone's documents.
    for (const who of [member, manager]) {
      const res = await who.v2('/team/update', { body: { retentionDays: 1 } })
      expect(res.status).toBe(403)
      expect(((await res.json()) as { code: string }).code).toBe('FORBIDDEN')
    }
    // The admin routes take the operator's secret, never a member's credentials.
    const viaToken = await fetch(`${host.url}/_admin/retention/run`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    expect([401, 403, 404]).toContain(viaToken.status)

    expect((await admin.v2('/team/update', { body: { retentionDays: 1 } })).status).toBe(200)
    const doc = await make(creator, { send: true })
    expect((await creator.v2('/envelope/cancel', { body: { envelopeId: doc.id } })).status).toBe(200)
    const later = new Date(Date.now() + 3 * 24 * 3600_000)
    const asMember: Principal = { kind: 'api', teamId, plan: 'enterprise', tokenId: 'test', member: { userId: memberId, role: 'MEMBER' } }
    const before = await state(doc.id)
    await expect(host.db.transaction((tx) => purgeEnvelope(tx, doc.id, later, asMember))).rejects.toMatchObject({ status: 403, code: 'NOT_CREATOR' })
    expect(await state(doc.id)).toEqual(before)
    // For the team, as the maintenance job, the CLI and /_admin do it.
    expect(await host.db.transaction((tx) => purgeEnvelope(tx, doc.id, later))).toMatchObject({ envelopeId: doc.id })
    expect((await state(doc.id))!.purged_at).not.toBeNull()
  })
})
