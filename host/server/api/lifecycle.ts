import { Hono } from 'hono'
import { z } from 'zod'
import { signPath } from '../../../src/protocol/index.js'
import { auditPage, HOST_AUDIT_TYPES, teamActor } from '../domain/evidence/audit.js'
import { auditChainHead } from '../domain/evidence/audit-chain.js'
import { envelopeEvidence } from '../domain/evidence/evidence.js'
import { signJws } from '../pdf/jws.js'
import { sealInput } from '../domain/evidence/completion.js'
import { DocumentMetaPatchSchema } from '../domain/envelope/document-meta.js'
import { cancel, distributeEnvelope, redistribute, rejectForRecipient } from '../domain/signing/lifecycle.js'
import { toRecipient, type EnvelopeRow, type RecipientRow, type TokenView } from '../domain/common/rows.js'
import { findEnvelope } from '../domain/envelope/lookup.js'
import { tokenView, WITHHELD_LINK } from '../domain/recipient/link-holders.js'
import { auditLogPdf } from '../pdf/audit-log-pdf.js'
import { certificatePdf } from '../pdf/seal.js'
import { numericParam } from './recipient.js'
import { clientOf, jsonBody, parse, pdfResponse, principal, publicOrigin, type Ctx } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { EnvelopeId, NumericId } from './schemas.js'
import type { SentRecipientAnswer } from '../contract/answers.js'
import type { V2Answer } from '../contract/api-v2.js'

// The deployed service's clients also send these e-mail settings; accepted and not used.
export const DistributeMeta = DocumentMetaPatchSchema.extend({ emailId: z.string().nullish(), emailReplyTo: z.string().nullish() })
export const DistributeBody = z.object({ envelopeId: EnvelopeId, meta: DistributeMeta.optional() })
export const RedistributeBody = z.object({ envelopeId: EnvelopeId, recipients: z.array(NumericId).min(1).max(100) })
export const CancelBody = z.object({ envelopeId: EnvelopeId, reason: z.string().trim().max(500).optional() })
export const RejectBody = z.object({ envelopeId: EnvelopeId.optional(), reason: z.string().trim().min(1).max(500) })
export const AuditQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(50),
  orderByDirection: z.enum(['asc', 'desc']).default('asc'),
  /** `all`: this host's own entry types too (consent, locked proofs, renewed archives, failed seals). */
  include: z.enum(['service', 'all']).default('service'),
})
/** `format=jws`: the summary signed with the sealing key, as a compact JWS download (application/jose). */
export const EvidenceQuery = z.object({ format: z.enum(['json', 'jws']).default('json') })

/** A sent recipient as distribute and redistribute answer: with the link that signs, for who may hold it (domain/recipient/link-holders.ts). */
export function sentRecipient(ctx: HostContext, c: Ctx, r: RecipientRow, view: TokenView): SentRecipientAnswer {
  const token = view(r.token)
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    token,
    role: r.role as SentRecipientAnswer['role'],
    signingOrder: r.signing_order,
    signingUrl: token ? publicOrigin(ctx, c) + signPath('page', token) : WITHHELD_LINK,
  }
}

/** distribute, redistribute, cancel, reject on a recipient's behalf, and the envelope's records. */
export function lifecycleRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  const actor = (c: Ctx) => teamActor(principal(c), clientOf(c))
  const sent = (c: Ctx, out: { envelope: EnvelopeRow; recipients: RecipientRow[] }) =>
    c.json({ success: true, id: out.envelope.id, recipients: out.recipients.map((x) => sentRecipient(ctx, c, x, tokenView(principal(c), out.envelope))) } satisfies V2Answer<'POST /envelope/distribute' | 'POST /envelope/redistribute'>)

  r.post('/envelope/distribute', async (c) => {
    const { envelopeId, meta } = await jsonBody(c, DistributeBody)
    const { emailId: _i, emailReplyTo: _r, ...documentMeta } = meta ?? {}
    return sent(c, await distributeEnvelope(ctx.db, principal(c), actor(c), { envelopeId, meta: documentMeta }, ctx.clock.now()))
  })

  r.post('/envelope/redistribute', async (c) => {
    const body = await jsonBody(c, RedistributeBody)
    return sent(c, await redistribute(ctx.db, principal(c), actor(c), body, ctx.clock.now()))
  })

  r.post('/envelope/cancel', async (c) => {
    const body = await jsonBody(c, CancelBody)
    await cancel(ctx.db, principal(c), actor(c), body)
    return c.json({ success: true } satisfies V2Answer<'POST /envelope/cancel'>)
  })

  r.post('/envelope/recipient/:id/reject', async (c) => {
    const recipientId = numericParam(c.req.param('id'), 'recipient')
    const body = await jsonBody(c, RejectBody)
    const p = principal(c)
    const { recipient, envelope } = await rejectForRecipient(ctx.db, p, actor(c), { recipientId, ...body })
    return c.json(toRecipient(recipient, envelope, tokenView(p, envelope)) satisfies V2Answer<'POST /envelope/recipient/:recipientId/reject'>)
  })

  r.get('/envelope/:id/audit-log', async (c) => {
    const e = await findEnvelope(ctx.db, principal(c), parse(EnvelopeId, c.req.param('id')))
    const q = parse(AuditQuery, c.req.query())
    const page = await auditPage(ctx.db, e.id, { page: q.page, perPage: q.perPage, desc: q.orderByDirection === 'desc', except: q.include === 'all' ? [] : HOST_AUDIT_TYPES })
    // The hash of the newest entry, whichever page this is: what the evidence PDFs name.
    return c.json({ ...page, chainHead: await auditChainHead(ctx.db, e.id) } satisfies V2Answer<'GET /envelope/:envelopeId/audit-log'>)
  })

  r.get('/envelope/:id/audit-log/download', async (c) => {
    const e = await findEnvelope(ctx.db, principal(c), parse(EnvelopeId, c.req.param('id')))
    const input = await sealInput(ctx.db, e)
    const content = { envelope: { id: e.id, title: e.title, status: e.status }, locale: input.meta!, entries: input.auditLog!, generatedAt: new Date().toISOString(), chainHead: input.auditChainHead }
    const pdf = await auditLogPdf(content, await ctx.sealingKey(), ctx.config.sealing)
    return pdfResponse(c, pdf, `${e.title} - audit log.pdf`)
  })

  r.get('/envelope/:id/evidence', async (c) => {
    const id = parse(EnvelopeId, c.req.param('id'))
    const { format } = parse(EvidenceQuery, c.req.query())
    const evidence = await envelopeEvidence(ctx.db, principal(c), id, ctx.clock.now())
    if (format === 'json') return c.json(evidence satisfies V2Answer<'GET /envelope/:envelopeId/evidence'>)
    const name = `${evidence.envelope.title} - evidence.jws`
    return c.body(signJws(evidence, await ctx.sealingKey()), 200, {
      'Content-Type': 'application/jose',
      'Content-Disposition': `attachment; filename="${name.replace(/[^\w. -]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'Cache-Control': 'private, no-store',
    })
  })

  r.get('/envelope/:id/certificate/download', async (c) => {
    const e = await findEnvelope(ctx.db, principal(c), parse(EnvelopeId, c.req.param('id')))
    const pdf = await certificatePdf(await sealInput(ctx.db, e), await ctx.sealingKey(), ctx.config.sealing)
    return pdfResponse(c, pdf, `${e.title} - certificate.pdf`)
  })

  return r
}
