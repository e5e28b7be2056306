import { AUTH_AT } from './auth-options.js'
import { Hono } from 'hono'
import { z } from 'zod'
import { assertMayCreate } from '../auth/principal.js'
import { notFound } from '../errors.js'
import { createEnvelope, deleteEnvelope, updateEnvelope } from '../domain/envelope/envelopes.js'
import { DocumentMetaPatchSchema } from '../domain/envelope/document-meta.js'
import { ENVELOPE_STATUSES } from '../domain/common/status.js'
import { cachedAnswer, canSee, getManyEnvelopes, listEnvelopes, loadForCache } from '../domain/envelope/lookup.js'
import { clientOf, jsonBody, multipartBody, parse, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { teamActor } from '../domain/evidence/audit.js'
import { EnvelopeAuthInput } from '../domain/recipient/auth.js'
import { CreatePayloadField, EnvelopeId, RecipientInput, VISIBILITIES } from './schemas.js'
import { SearchQuery } from './search-text.js'
import type { V2Answer } from '../contract/api-v2.js'

export const CreatePayload = z.object({
  type: z.enum(['DOCUMENT', 'TEMPLATE']),
  title: z.string().trim().min(1).max(255).optional(),
  externalId: z.string().max(255).nullish(),
  visibility: z.enum(VISIBILITIES).optional(),
  meta: DocumentMetaPatchSchema.optional(),
  recipients: z.array(RecipientInput.extend({ fields: z.array(CreatePayloadField).max(500).optional() })).max(100).optional(),
  /** Extension: every file's own form fields become fields of the recipient at this index of `recipients`. */
  importFormFields: z.object({ recipient: z.int().min(0).max(99) }).strict().optional(),
  ...EnvelopeAuthInput,
})

export const UpdateBody = z.object({
  envelopeId: EnvelopeId,
  data: z
    .object({
      title: z.string().trim().min(1).max(255).optional(),
      externalId: z.string().max(255).nullish(),
      visibility: z.enum(VISIBILITIES).optional(),
      ...EnvelopeAuthInput,
    })
    .strict()
    .optional(),
  meta: DocumentMetaPatchSchema.optional(),
})

export const ListQuery = z.object({
  type: z.enum(['DOCUMENT', 'TEMPLATE']).optional(),
  /** Words of the title, or of a recipient's name or e-mail address (case-insensitive). */
  query: SearchQuery.optional(),
  status: z.enum(ENVELOPE_STATUSES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(20),
})

export const GetManyBody = z.object({
  ids: z.object({
    type: z.enum(['documentId', 'templateId', 'envelopeId']),
    ids: z.array(z.union([z.int().min(1).max(2147483647), z.string().min(1).max(100)])).max(100),
  }),
})

export const DeleteBody = z.object({ envelopeId: EnvelopeId })

export function envelopeRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/envelope/create', async (c) => {
    const p = principal(c)
    assertMayCreate(p)
    const { payload, files } = await multipartBody(c, CreatePayload, undefined, { authAt: AUTH_AT.envelopeCreate })
    const id = await createEnvelope(ctx.db, p, teamActor(p, clientOf(c)), payload, files)
    return c.json({ id } satisfies V2Answer<'POST /envelope/create'>)
  })

  r.get('/envelope', async (c) => {
    const q = parse(ListQuery, c.req.query())
    const { data, count } = await listEnvelopes(ctx.db, principal(c), q)
    return c.json({ data, count, currentPage: q.page, perPage: q.perPage, totalPages: Math.ceil(count / q.perPage) } satisfies V2Answer<'GET /envelope'>)
  })

  r.post('/envelope/get-many', async (c) => {
    const { ids } = await jsonBody(c, GetManyBody)
    return c.json({ data: await getManyEnvelopes(ctx.db, principal(c), ids) } satisfies V2Answer<'POST /envelope/get-many'>)
  })

  r.post('/envelope/update', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, UpdateBody, { authAt: AUTH_AT.envelopeUpdate })
    return c.json(await updateEnvelope(ctx.db, p, teamActor(p, clientOf(c)), body) satisfies V2Answer<'POST /envelope/update'>)
  })

  r.post('/envelope/delete', async (c) => {
    const p = principal(c)
    const { envelopeId } = await jsonBody(c, DeleteBody)
    await deleteEnvelope(ctx.db, p, teamActor(p, clientOf(c)), envelopeId)
    return c.json({ success: true } satisfies V2Answer<'POST /envelope/delete'>)
  })

  // Last: `/envelope/:id` would otherwise swallow the fixed paths above and in other modules.
  r.get('/envelope/:id{envelope_[a-z0-9]+}', async (c) => {
    const id = c.req.param('id')
    const e = await ctx.cache.envelopes.load(id, () => loadForCache(ctx.db, id))
    const p = principal(c)
    if (!e || !canSee(p, e)) throw notFound('envelope')
    return c.body(cachedAnswer(p, e), 200, { 'Content-Type': 'application/json' })
  })

  return r
}
