import { Hono } from 'hono'
import { z } from 'zod'
import { assertMayCreate } from '../auth/principal.js'
import { badRequest, issue, notFound, type ApiIssue } from '../errors.js'
import { emit } from '../events/index.js'
import { recordChange } from '../domain/changes.js'
import { DEFAULT_DOCUMENT_META, DocumentMetaPatchSchema } from '../domain/document-meta.js'
import { insertEnvelope } from '../domain/envelopes.js'
import { insertFields, placementIssues, throwIfIssues, type FieldPlacement } from '../domain/fields.js'
import { insertItems } from '../domain/items.js'
import { insertRecipients } from '../domain/recipients.js'
import { canSee, findEnvelope, loadEnvelope, loadEnvelopes, loadForCache, visibleTo } from '../domain/resources.js'
import { CHANNELS } from '../cache.js'
import { iso } from '../db/index.js'
import { assertEditable, deletionKind } from '../domain/status.js'
import { clientOf, jsonBody, multipartBody, parse, principal, type AppEnv, type HostContext } from './http.js'
import { audit, teamActor } from '../domain/audit.js'
import { mailCancelled } from '../mail/notify.js'
import { CreatePayloadField, EnvelopeId, RecipientInput, VISIBILITIES } from './schemas.js'

const CreatePayload = z.object({
  type: z.enum(['DOCUMENT', 'TEMPLATE']),
  title: z.string().trim().min(1).max(255).optional(),
  externalId: z.string().max(255).nullish(),
  visibility: z.enum(VISIBILITIES).optional(),
  meta: DocumentMetaPatchSchema.optional(),
  recipients: z.array(RecipientInput.extend({ fields: z.array(CreatePayloadField).max(500).optional() })).max(100).optional(),
})

const UpdateBody = z.object({
  envelopeId: EnvelopeId,
  data: z
    .object({
      title: z.string().trim().min(1).max(255).optional(),
      externalId: z.string().max(255).nullish(),
      visibility: z.enum(VISIBILITIES).optional(),
    })
    .strict()
    .optional(),
  meta: DocumentMetaPatchSchema.optional(),
})

const ListQuery = z.object({
  type: z.enum(['DOCUMENT', 'TEMPLATE']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(20),
})

const GetManyBody = z.object({
  ids: z.object({
    type: z.enum(['documentId', 'templateId', 'envelopeId']),
    ids: z.array(z.union([z.int().min(1).max(2147483647), z.string().min(1).max(100)])).max(100),
  }),
})

export function envelopeRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/envelope/create', async (c) => {
    const p = principal(c)
    assertMayCreate(p)
    const { payload, files } = await multipartBody(c, CreatePayload)
    if (!files.length) throw badRequest('at least one PDF is required in the files parts', [issue(['files'], 'At least one file is required')])

    // Resolve each field's file before writing anything.
    const issues: ApiIssue[] = []
    const pending: { recipient: number; field: Omit<FieldPlacement, 'recipientId' | 'envelopeItemId'>; file: number }[] = []
    for (const [ri, rec] of (payload.recipients ?? []).entries()) {
      for (const [fi, f] of (rec.fields ?? []).entries()) {
        const path = ['payload', 'recipients', ri, 'fields', fi]
        const id = f.identifier ?? 0
        const file = typeof id === 'number' ? (id < files.length ? id : -1) : files.findIndex((x) => x.name === id)
        if (file < 0) {
          issues.push(issue([...path, 'identifier'], `No uploaded file matches identifier ${JSON.stringify(id)}`))
          continue
        }
        const pseudoItems = [{ id: String(file), page_count: files[file]!.pageCount }]
        issues.push(...placementIssues({ ...f, recipientId: 0, envelopeItemId: String(file) }, path, pseudoItems, null))
        const { identifier: _i, ...placement } = f
        pending.push({ recipient: ri, field: placement, file })
      }
    }
    throwIfIssues(issues)

    const id = await ctx.db.transaction(async (tx) => {
      const id = await insertEnvelope(tx, p, {
        type: payload.type,
        source: payload.type,
        title: payload.title ?? files[0]!.name.replace(/\.pdf$/i, '').slice(0, 255),
        externalId: payload.externalId,
        visibility: payload.visibility,
        meta: payload.meta,
      })
      const items = await insertItems(tx, id, files)
      const recipients = await insertRecipients(tx, id, payload.recipients ?? [])
      await insertFields(
        tx,
        id,
        pending.map((f) => ({ ...f.field, recipientId: recipients[f.recipient]!.id, envelopeItemId: items[f.file]!.id })),
      )
      await emit(tx, p.teamId, payload.type === 'DOCUMENT' ? 'DOCUMENT_CREATED' : 'TEMPLATE_CREATED', await loadEnvelope(tx, p, id))
      await audit(tx, { id, team_id: p.teamId }, 'DOCUMENT_CREATED', teamActor(p, clientOf(c)), { title: payload.title ?? null, type: payload.type })
      return id
    })
    return c.json({ id })
  })

  r.get('/envelope', async (c) => {
    const p = principal(c)
    const q = parse(ListQuery, c.req.query())
    const params: unknown[] = []
    const where = q.type ? `e.type = $${params.push(q.type)}` : ''
    const all = [...params]
    const cond = visibleTo(p, all)
    const [{ count }] = (await ctx.db.query<{ count: number }>(
      `select count(*)::int as count from envelopes e where ${cond}${where ? ` and ${where}` : ''}`,
      all,
    )) as [{ count: number }]
    const data = await loadEnvelopes(ctx.db, p, where, params, {
      withFields: false,
      tail: `order by e.created_at desc, e.id desc limit ${q.perPage} offset ${(q.page - 1) * q.perPage}`,
    })
    return c.json({ data, page: q.page, perPage: q.perPage, totalPages: Math.ceil(count / q.perPage), totalCount: count })
  })

  r.post('/envelope/get-many', async (c) => {
    const p = principal(c)
    const { ids } = await jsonBody(c, GetManyBody)
    const wrong = ids.ids.findIndex((v) => (ids.type === 'envelopeId' ? typeof v !== 'string' : typeof v !== 'number'))
    if (wrong >= 0) {
      throw badRequest(`ids.ids must all be ${ids.type === 'envelopeId' ? 'strings' : 'numbers'}`, [
        issue(['ids', 'ids', wrong], ids.type === 'envelopeId' ? 'Expected an envelope id' : 'Expected a number'),
      ])
    }
    if (!ids.ids.length) return c.json({ data: [] })
    const where =
      ids.type === 'envelopeId'
        ? 'e.id = any($1::text[])'
        : `e.type = '${ids.type === 'documentId' ? 'DOCUMENT' : 'TEMPLATE'}' and e.secondary_number = any($1::int[])`
    const found = await loadEnvelopes(ctx.db, p, where, [ids.ids], { withFields: true })
    // In the order asked for.
    const key = (e: (typeof found)[number]) => (ids.type === 'envelopeId' ? e.id : Number(e.secondaryId.split('_')[1]))
    const byKey = new Map(found.map((e) => [key(e), e]))
    return c.json({ data: ids.ids.flatMap((k) => byKey.get(k) ?? []) })
  })

  r.post('/envelope/update', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, UpdateBody)
    const env = await ctx.db.transaction(async (tx) => {
      const e = await findEnvelope(tx, p, body.envelopeId, true)
      assertEditable(e)
      const d = body.data ?? {}
      await tx.query(
        `update envelopes set title = coalesce($2, title), visibility = coalesce($3, visibility),
           external_id = case when $4 then $5 else external_id end, document_meta = $6
         where id = $1`,
        [
          e.id,
          d.title ?? null,
          d.visibility ?? null,
          d.externalId !== undefined,
          d.externalId ?? null,
          JSON.stringify({ ...DEFAULT_DOCUMENT_META, ...e.document_meta, ...body.meta }),
        ],
      )
      await recordChange(tx, p, e)
      await audit(tx, e, 'DOCUMENT_META_UPDATED', teamActor(p, clientOf(c)), { data: body.data ?? {}, meta: body.meta ?? {} })
      return loadEnvelope(tx, p, e.id)
    })
    return c.json(env)
  })

  r.post('/envelope/delete', async (c) => {
    const p = principal(c)
    const { envelopeId } = await jsonBody(c, z.object({ envelopeId: EnvelopeId }))
    await ctx.db.transaction(async (tx) => {
      const e = await findEnvelope(tx, p, envelopeId, true)
      const snapshot = await loadEnvelope(tx, p, e.id)
      // Recipients of a sent document hear that it is gone.
      if (e.status === 'PENDING') await mailCancelled(tx, e.id)
      if (deletionKind(e.status) === 'hard') await tx.query('delete from envelopes where id = $1', [e.id])
      else {
        const [row] = await tx.query<{ deleted_at: Date }>(
          'update envelopes set deleted_at = now(), updated_at = now() where id = $1 returning deleted_at',
          [e.id],
        )
        snapshot.deletedAt = iso(row!.deleted_at)
      }
      await tx.notify(CHANNELS.envelopes, e.id)
      await audit(tx, e, 'DOCUMENT_DELETED', teamActor(p, clientOf(c)), { kind: deletionKind(e.status) })
      await emit(tx, e.team_id, e.type === 'DOCUMENT' ? 'DOCUMENT_CANCELLED' : 'TEMPLATE_DELETED', snapshot)
    })
    return c.json({ success: true })
  })

  // Last: `/envelope/:id` would otherwise swallow the fixed paths above and in other modules.
  r.get('/envelope/:id{envelope_[a-z0-9]+}', async (c) => {
    const id = c.req.param('id')
    const e = await ctx.cache.envelopes.load(id, () => loadForCache(ctx.db, id))
    if (!e || !canSee(principal(c), e)) throw notFound('envelope')
    return c.body(e.json, 200, { 'Content-Type': 'application/json' })
  })

  return r
}
