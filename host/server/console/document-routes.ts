/**
 * What the console does with documents beyond API v2 (which it calls with its session for
 * everything else): the documents list with the console's filters and its status counts, a
 * token to open one envelope in the editor, and the review of what sending a draft will e-mail.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { Answer } from '../../shared/console-contract.js'
import type { HostContext } from '../context.js'
import { mintPresignToken } from '../auth/presign.js'
import { countByStatus, findEnvelope, LIST_SORTS, listEnvelopes, type ListFilters } from '../domain/envelope/lookup.js'
import { ENVELOPE_STATUSES } from '../domain/common/status.js'
import { envelopeSender } from '../domain/envelope/sender.js'
import { parse, publicOrigin } from '../api/http.js'
import { DocumentMetaPatchSchema } from '../domain/envelope/document-meta.js'
import { sendPreview } from '../mail/send-preview.js'
import { memberPrincipal, type ConsoleEnv } from './gate.js'
import { consoleBody } from './session-routes.js'
import { SearchQuery, searchText } from '../api/search-text.js'

const EnvelopeIdParam = z.string().regex(/^envelope_[a-z0-9]+$/, 'Expected an envelope id')

/** An editing session's length; the token also dies with the console session. */
const EDITOR_MINUTES = 60

/** The periods the list offers, in days back from now. */
const PERIODS = { '7d': 7, '30d': 30, '90d': 90, '12m': 365 } as const

export const DocumentListQuery = z.object({
  type: z.enum(['DOCUMENT', 'TEMPLATE']).default('DOCUMENT'),
  query: SearchQuery.optional(),
  status: z.enum(ENVELOPE_STATUSES).optional(),
  period: z.enum(Object.keys(PERIODS) as [keyof typeof PERIODS]).optional(),
  sender: searchText({ min: 1, max: 100 }).optional(),
  owner: z.enum(['me', 'api']).optional(),
  sort: z.enum(LIST_SORTS).default('created'),
  dir: z.enum(['asc', 'desc']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(20),
})

export function documentRoutes(ctx: HostContext) {
  const r = new Hono<ConsoleEnv>()
  r.get('/documents', async (c) => {
    const p = memberPrincipal(c.get('caller'))
    const q = parse(DocumentListQuery, c.req.query())
    // "me" and a sender are both a creator: asked for together, only an envelope both name matches.
    const me = p.kind === 'user' ? p.userId : undefined
    const creator = q.owner === 'api' ? null : q.owner === 'me' ? me : q.sender
    const clash = (q.owner === 'me' && q.sender && q.sender !== me) || (q.owner === 'api' && q.sender)
    const filters: ListFilters = {
      type: q.type,
      query: q.query || undefined,
      status: q.status,
      createdBy: clash ? '-' : creator,
      createdAfter: q.period ? new Date(ctx.clock.now().getTime() - PERIODS[q.period] * 86_400_000) : undefined,
    }
    const [{ data, count }, statusCounts] = await Promise.all([
      listEnvelopes(ctx.db, p, { ...filters, page: q.page, perPage: q.perPage, sort: q.sort, direction: q.dir ?? (q.sort === 'title' ? 'asc' : 'desc') }),
      countByStatus(ctx.db, p, filters),
    ])
    // The envelopes are API v2's answers (contract/answers.ts), usable as the library's EnvelopeSummary.
    return c.json({ data, count, page: q.page, perPage: q.perPage, totalPages: Math.ceil(count / q.perPage), statusCounts } satisfies Answer<'GET /documents'>)
  })
  r.get('/documents/:id/sender', async (c) => {
    const id = parse(EnvelopeIdParam, c.req.param('id'))
    return c.json((await envelopeSender(ctx.db, memberPrincipal(c.get('caller')), id)) satisfies Answer<'GET /documents/:id/sender'>)
  })
  r.post('/documents/:id/send-preview', async (c) => {
    const id = parse(EnvelopeIdParam, c.req.param('id'))
    // The same rules as the subject and message sent with it (POST /envelope/distribute's meta).
    const change = await consoleBody(c, DocumentMetaPatchSchema.pick({ subject: true, message: true }))
    const preview = await sendPreview(ctx.db, memberPrincipal(c.get('caller')), id, change, { origin: publicOrigin(ctx, c), mailFrom: ctx.config.mailFrom })
    return c.json(preview satisfies Answer<'POST /documents/:id/send-preview'>)
  })
  r.post('/documents/editor', async (c) => {
    const caller = c.get('caller')
    const p = memberPrincipal(caller)
    const { envelopeId } = await consoleBody(c, z.object({ envelopeId: EnvelopeIdParam }))
    // Only an envelope this member sees (visibility), scoped to it alone, and never above their role
    // (the token is checked against their role at each use too: auth/principal.ts).
    await findEnvelope(ctx.db, p, envelopeId)
    const role = p.kind === 'user' ? p.role : undefined
    return c.json(mintPresignToken(ctx.presignSecret, { teamId: p.teamId, tokenId: caller.session.id, expiresInMinutes: EDITOR_MINUTES, scope: `envelopeId:${envelopeId}`, role }) satisfies Answer<'POST /documents/editor'>)
  })
  return r
}
