import { AUTH_AT } from './auth-options.js'
/**
 * API v1 (`/api/v1/...`, docs/api-notes.md "API v1": deprecated, legacy documents and templates only): thin
 * translations onto the operations their v2 replacements call. Path ids are legacy numbers
 * (`document_3` -> 3); only envelopes with internal_version 1 answer (v1-shared.ts). The
 * deprecation headers and the API gate are set where the module is mounted (app.ts).
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { assertMayCreate } from '../auth/principal.js'
import { teamActor } from '../domain/evidence/audit.js'
import { createEnvelope, deleteEnvelope } from '../domain/envelope/envelopes.js'
import { itemPdf, itemsOf } from '../domain/item/items.js'
import { distributeEnvelope, redistribute } from '../domain/signing/lifecycle.js'
import { findEnvelope, listEnvelopes, loadEnvelope } from '../domain/envelope/lookup.js'
import { documentFromTemplate } from '../domain/template/templates.js'
import { badRequest, issue, notFound } from '../errors.js'
import { createPayloadFor } from './deprecated.js'
import { TYPE, type Kind } from './deprecated-shared.js'
import { clientOf, jsonBody, multipartBody, parse, storedPdfResponse, principal, type Ctx } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { DistributeMeta, sentRecipient } from './lifecycle.js'
import { tokenView } from '../domain/recipient/link-holders.js'
import { NumericId } from './schemas.js'
import { UsePayload } from './template.js'
import { LEGACY, V1ListQuery, pathNumber, resolveV1, v1Envelope, v1FieldNames, withSigningUrl } from './v1-shared.js'
import { v1PartRoutes } from './v1-parts.js'

const SendBody = z
  .object({
    /** false: sent without e-mails (distributionMethod NONE); the recipients' links are in the answer. */
    sendEmail: z.boolean().optional(),
    meta: DistributeMeta.optional(),
  })
  .optional()
const ResendBody = z.object({ recipients: z.array(NumericId).min(1).max(100) })
const DownloadQuery = z.object({ version: z.enum(['signed', 'original']).optional() })

/** create-document / generate-document: recipients by template recipient id, or by position when `id` is left out. */
const FromTemplate = z
  .object({
    title: z.string().trim().min(1).max(255).optional(),
    externalId: UsePayload.shape.externalId,
    recipients: z
      .array(z.object({ id: NumericId.optional(), email: z.email().max(320).optional(), name: z.string().trim().max(255).optional() }))
      .max(100)
      .optional(),
    prefillFields: UsePayload.shape.prefillFields,
    distributeDocument: z.boolean().optional(),
  })
  .optional()

function kindRoutes(ctx: HostContext, kind: Kind) {
  const r = new Hono<AppEnv>()
  const type = TYPE[kind]
  const base = `/${kind}s`
  const actor = (c: Ctx) => teamActor(principal(c), clientOf(c))
  const number = (c: Ctx) => pathNumber(c, 'id', kind)

  r.get(base, async (c) => {
    const q = parse(V1ListQuery, c.req.query())
    const { data, count } = await listEnvelopes(ctx.db, principal(c), { type, internalVersion: LEGACY, ...q })
    return c.json({ [`${kind}s`]: data.map(v1Envelope), totalPages: Math.ceil(count / q.perPage), totalCount: count, page: q.page, perPage: q.perPage })
  })

  // Multipart: a `payload` part (the legacy JSON) and the PDF as `file` (or `files` parts).
  r.post(base, async (c) => {
    const p = principal(c)
    assertMayCreate(p)
    const { payload, files } = await multipartBody(c, createPayloadFor(kind, v1FieldNames), ['file', 'files', 'files[]'], { authAt: AUTH_AT.envelopeCreate })
    const env = await loadEnvelope(ctx.db, p, await createEnvelope(ctx.db, p, actor(c), payload, files, { internalVersion: 1 }))
    const n = Number(env.secondaryId.split('_')[1])
    return c.json({
      [`${kind}Id`]: n,
      envelopeId: env.id,
      recipients: env.recipients.map((x) => withSigningUrl(ctx, c, x)),
    })
  })

  r.get(`${base}/:id`, async (c) => {
    const p = principal(c)
    const e = await resolveV1(ctx.db, p, kind, number(c))
    return c.json(v1Envelope(await loadEnvelope(ctx.db, p, e.id)))
  })

  // The document or template as it was, like the deployed v1 answers a deletion.
  r.delete(`${base}/:id`, async (c) => {
    const p = principal(c)
    const e = await resolveV1(ctx.db, p, kind, number(c))
    return c.json(v1Envelope(await deleteEnvelope(ctx.db, p, actor(c), e.id)))
  })

  if (kind === 'document') {
    r.post('/documents/:id/send', async (c) => {
      const p = principal(c)
      const n = number(c)
      const body = await jsonBody(c, SendBody)
      const { emailId: _i, emailReplyTo: _r, ...meta } = body?.meta ?? {}
      if (body?.sendEmail === false) meta.distributionMethod = 'NONE'
      const e = await resolveV1(ctx.db, p, kind, n)
      const sent = await distributeEnvelope(ctx.db, p, actor(c), { envelopeId: e.id, meta }, ctx.clock.now())
      const view = tokenView(p, sent.envelope)
      return c.json({
        message: 'Document sent for signing successfully',
        ...v1Envelope(await loadEnvelope(ctx.db, p, e.id)),
        recipients: sent.recipients.map((x) => ({ ...sentRecipient(ctx, c, x, view), recipientId: x.id })),
      })
    })

    r.post('/documents/:id/resend', async (c) => {
      const p = principal(c)
      const n = number(c)
      const body = await jsonBody(c, ResendBody)
      const e = await resolveV1(ctx.db, p, kind, n)
      await redistribute(ctx.db, p, actor(c), { envelopeId: e.id, recipients: body.recipients }, ctx.clock.now())
      return c.json({ success: true, message: 'Document resent successfully' })
    })

    // The PDF itself (the signed one once completed): legacy documents have one file.
    r.get('/documents/:id/download', async (c) => {
      const { version } = parse(DownloadQuery, c.req.query())
      const e = await resolveV1(ctx.db, principal(c), kind, number(c))
      const [item] = await itemsOf(ctx.db, e.id)
      if (!item) throw notFound('document file')
      const { title, file } = await itemPdf(ctx.db, item.id, version)
      return storedPdfResponse(c, ctx, file, title)
    })

    r.route('/', v1PartRoutes(ctx))
  } else {
    for (const path of ['/templates/:id/create-document', '/templates/:id/generate-document']) {
      r.post(path, async (c) => {
        const p = principal(c)
        assertMayCreate(p)
        const n = number(c)
        const body = (await jsonBody(c, FromTemplate)) ?? {}
        const t = await resolveV1(ctx.db, p, kind, n)
        // Entries without `id` stand for the template's recipients in order.
        const sources = (await loadEnvelope(ctx.db, p, t.id)).recipients
        const recipients = (body.recipients ?? []).map((x, i) => {
          const id = x.id ?? sources[i]?.id
          if (id === undefined) throw badRequest(`invalid request: recipients.${i}: the template has no recipient ${i + 1}`, [issue(['recipients', i], 'No template recipient at this position')])
          return { ...x, id }
        })
        const input = {
          envelopeId: t.id,
          title: body.title,
          externalId: body.externalId,
          recipients,
          prefillFields: body.prefillFields,
          distributeDocument: body.distributeDocument,
        }
        const made = await documentFromTemplate(ctx.db, p, actor(c), input, [], ctx.clock.now(), { internalVersion: 1 })
        const env = await findEnvelope(ctx.db, p, made.envelope.id)
        return c.json({
          documentId: env.secondary_number,
          envelopeId: env.id,
          recipients: made.recipients.map((x) => ({ ...sentRecipient(ctx, c, x, tokenView(p, env)), recipientId: x.id })),
        })
      })
    }
  }

  return r
}

/** Mounted at /api/v1, behind the API gate and the deprecation headers (app.ts). */
export function v1Routes(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  r.route('/', kindRoutes(ctx, 'document'))
  r.route('/', kindRoutes(ctx, 'template'))
  return r
}
