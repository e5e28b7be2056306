/**
 * The deprecated v2 endpoints (docs/api-notes.md, "Deprecated routes"): thin translations
 * onto the operations their replacements call. Legacy numbers (`documentId`, `templateId`) become
 * envelopes of that type (the other type's number is 404), old field names become new ones, and
 * answers take the legacy shapes (deprecated-shared.ts). One middleware marks every answer.
 */
import { AUTH_AT } from './auth-options.js'
import { Hono, type MiddlewareHandler } from 'hono'
import { z } from 'zod'
import { assertMayCreate } from '../auth/principal.js'
import { teamActor } from '../domain/evidence/audit.js'
import { createEnvelope, deleteEnvelope, updateEnvelope } from '../domain/envelope/envelopes.js'
import { itemPdf, itemsOf } from '../domain/item/items.js'
import { distributeEnvelope, redistribute } from '../domain/signing/lifecycle.js'
import { findEnvelope, getManyEnvelopes, listEnvelopes, loadEnvelope } from '../domain/envelope/lookup.js'
import { documentFromTemplate, duplicate } from '../domain/template/templates.js'
import { createDirectLink, deleteDirectLink, toggleDirectLink } from '../domain/template/direct-links.js'
import { badRequest, issue, notFound } from '../errors.js'
import { ID_KEY, TYPE, deprecatedView, newFieldNames, resolve, type Kind } from './deprecated-shared.js'
import { partRoutes } from './deprecated-parts.js'
import { CreatePayload, ListQuery, UpdateBody } from './envelope.js'
import { clientOf, jsonBody, multipartBody, parse, storedPdfResponse, principal, publicOrigin, type Ctx } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { DistributeMeta } from './lifecycle.js'
import { numericParam } from './recipient.js'
import { NumericId } from './schemas.js'
import { UsePayload } from './template.js'

/** The removal date API v2 announces for the deprecated routes, sent as `Sunset`. */
export const SUNSET = 'Sun, 01 Mar 2027 00:00:00 GMT'

/** Deprecated path (after the /api/v2 prefix) -> its replacement (null: none yet); the first match wins. */
const SUCCESSORS: [RegExp, (m: RegExpMatchArray) => string | null][] = [
  [/^\/template\/direct\/(?:create|delete|toggle)$/, () => null],
  [/^\/template$/, () => '/envelope?type=TEMPLATE'],
  [/^\/document$/, () => '/envelope'],
  [/^\/(?:document|template)\/get-many$/, () => '/envelope/get-many'],
  [/^\/(?:document|template)\/create(?:\/beta)?$/, () => '/envelope/create'],
  [/^\/(?:document|template)\/(update|delete|duplicate)$/, (m) => `/envelope/${m[1]}`],
  [/^\/document\/(distribute|redistribute)$/, (m) => `/envelope/${m[1]}`],
  [/^\/template\/use$/, () => '/envelope/use'],
  [/^\/document\/attachment(\/create|\/update|\/delete)?$/, (m) => `/envelope/attachment${m[1] ?? ''}`],
  [/^\/document\/[^/]+\/download(?:-beta)?$/, () => '/envelope/item/{envelopeItemId}/download'],
  [/^\/(?:document|template)\/(field|recipient)\/(create|update)(?:-many)?$/, (m) => `/envelope/${m[1]}/${m[2]}-many`],
  [/^\/(?:document|template)\/(field|recipient)\/delete$/, (m) => `/envelope/${m[1]}/delete`],
  [/^\/(?:document|template)\/(field|recipient)\/[^/]+$/, (m) => `/envelope/${m[1]}/{${m[1]}Id}`],
  [/^\/(?:document|template)\/[^/]+$/, () => '/envelope/{envelopeId}'],
]

/**
 * API v1 path (after /api/v1) and method -> its v2 replacement (docs/api-notes.md, "API v1"); the
 * first match wins. The method matters: GET and POST /documents differ.
 */
const V1_SUCCESSORS: [RegExp, (method: string) => string][] = [
  [/^\/documents$/, (m) => (m === 'POST' ? '/envelope/create' : '/envelope')],
  [/^\/templates$/, (m) => (m === 'POST' ? '/envelope/create' : '/envelope?type=TEMPLATE')],
  [/^\/documents\/[^/]+\/send$/, () => '/envelope/distribute'],
  [/^\/documents\/[^/]+\/resend$/, () => '/envelope/redistribute'],
  [/^\/documents\/[^/]+\/download$/, () => '/envelope/item/{envelopeItemId}/download'],
  [/^\/documents\/[^/]+\/recipients$/, () => '/envelope/recipient/create-many'],
  [/^\/documents\/[^/]+\/recipients\/[^/]+$/, (m) => (m === 'DELETE' ? '/envelope/recipient/delete' : '/envelope/recipient/update-many')],
  [/^\/documents\/[^/]+\/fields$/, () => '/envelope/field/create-many'],
  [/^\/documents\/[^/]+\/fields\/[^/]+$/, (m) => (m === 'DELETE' ? '/envelope/field/delete' : '/envelope/field/update-many')],
  [/^\/templates\/[^/]+\/(?:create|generate)-document$/, () => '/envelope/use'],
  [/^\/(?:documents|templates)\/[^/]+$/, (m) => (m === 'DELETE' ? '/envelope/delete' : '/envelope/{envelopeId}')],
]

/**
 * Where a deprecated path's replacement lives: under the same prefix (/api/v2 or /api/v2-beta) for
 * the deprecated v2 paths, under /api/v2 for API v1 paths.
 */
export function successorOf(path: string, method = 'GET'): string | null {
  const v1 = /^\/api\/v1(\/.*)?$/.exec(path)
  if (v1) {
    const rest = v1[1] ?? ''
    for (const [re, to] of V1_SUCCESSORS) if (re.test(rest)) return `/api/v2${to(method)}`
    return '/api/v2/envelope'
  }
  const [, prefix = '/api/v2', rest = ''] = /^(\/api\/v2(?:-beta)?)(\/.*)?$/.exec(path) ?? []
  for (const [re, to] of SUCCESSORS) {
    const m = rest.match(re)
    if (m) {
      const successor = to(m)
      return successor && prefix + successor
    }
  }
  return `${prefix}/envelope`
}

/** Every answer of the deprecated v2 paths and of API v1, errors and unknown paths included. */
export const deprecation: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next()
  c.res.headers.set('Deprecation', 'true')
  c.res.headers.set('Sunset', SUNSET)
  const successor = successorOf(c.req.path, c.req.method)
  if (successor) c.res.headers.set('Link', `<${successor}>; rel="successor-version"`)
}

/** The legacy number a body names under documentId / templateId (the other key is ignored). */
function numberIn(kind: Kind, body: Record<string, unknown>): number {
  const key = ID_KEY[kind]
  const r = NumericId.safeParse(body[key])
  if (!r.success) throw badRequest(`invalid request: ${key}: Expected a ${kind} id (a positive integer)`, [issue([key], 'Expected a positive integer')])
  return r.data
}
export const Legacy = z.object({ documentId: z.unknown(), templateId: z.unknown() }).partial()

/**
 * A legacy create payload as an envelope-create payload: its type, new field names (`fieldNames`
 * renames each field's keys; API v1 also renames pageWidth/pageHeight); recipient authentication as envelope create takes it.
 */
export function createPayloadFor(kind: Kind, fieldNames: (entry: unknown) => unknown = newFieldNames) {
  return z.preprocess((v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v
    const o = v as Record<string, unknown>
    const recipients = Array.isArray(o.recipients)
      ? o.recipients.map((r) => {
          const rec = r as Record<string, unknown> | null
          return rec && Array.isArray(rec.fields) ? { ...rec, fields: rec.fields.map(fieldNames) } : rec
        })
      : o.recipients
    return { ...o, type: TYPE[kind], recipients }
  }, CreatePayload)
}

export const ListLegacy = ListQuery.omit({ type: true })
export const DownloadQuery = z.object({ version: z.enum(['signed', 'original']).optional() })
export const UseLegacy = z.object({
  templateId: NumericId,
  externalId: UsePayload.shape.externalId,
  recipients: z.array(z.object({ id: NumericId, email: z.email().max(320).optional(), name: z.string().trim().max(255).optional() })).max(100).optional(),
  prefillFields: UsePayload.shape.prefillFields,
  distributeDocument: z.boolean().optional(),
  override: z.object({ title: z.string().trim().min(1).max(255).optional() }).partial().optional(),
})

export const DirectCreateLegacy = z.object({ templateId: NumericId, directRecipientId: NumericId.optional() })
export const DirectToggleLegacy = z.object({ templateId: NumericId, enabled: z.boolean() })
export const DirectDeleteLegacy = z.object({ templateId: NumericId })

export const UpdateLegacy = Legacy.extend(UpdateBody.omit({ envelopeId: true }).shape)
export const DistributeLegacy = Legacy.extend({ meta: DistributeMeta.optional() })
export const RedistributeLegacy = Legacy.extend({ recipients: z.array(NumericId).min(1).max(100) })
/** get-many's body: `documentIds` or `templateIds`. */
export const getManyLegacy = (kind: Kind) => {
  const key = kind === 'document' ? 'documentIds' : 'templateIds'
  return { key, schema: z.object({ [key]: z.array(NumericId).max(100) }) }
}

/** The team acting through its API token, as the audit trail records it. */
const actor = (c: Ctx) => teamActor(principal(c), clientOf(c))

/** The routes both kinds have: list, get-many, create, update, delete and duplicate. */
function sharedRoutes(r: Hono<AppEnv>, ctx: HostContext, kind: Kind) {
  const type = TYPE[kind]
  const base = `/${kind}`

  r.get(base, async (c) => {
    const q = parse(ListLegacy, c.req.query())
    // The deployed clients' template list carries each template's fields; their document list does not.
    const { data, count } = await listEnvelopes(ctx.db, principal(c), { type, ...q, withFields: kind === 'template' })
    return c.json({ data: data.map(deprecatedView), count, currentPage: q.page, perPage: q.perPage, totalPages: Math.ceil(count / q.perPage) })
  })

  r.post(`${base}/get-many`, async (c) => {
    const { key, schema } = getManyLegacy(kind)
    const body = await jsonBody(c, schema)
    const ids = body[key] as number[]
    const data = await getManyEnvelopes(ctx.db, principal(c), { type: ID_KEY[kind], ids })
    return c.json({ data: data.map(deprecatedView) })
  })

  // The legacy single `file` part, or `files` parts as envelope create takes them.
  for (const path of [`${base}/create`, `${base}/create/beta`]) {
    r.post(path, async (c) => {
      const p = principal(c)
      assertMayCreate(p)
      const { payload, files } = await multipartBody(c, createPayloadFor(kind), ['file', 'files', 'files[]'], { authAt: AUTH_AT.envelopeCreate })
      const id = await createEnvelope(ctx.db, p, actor(c), payload, files, { internalVersion: 1 })
      return c.json({ envelopeId: id, id: (await findEnvelope(ctx.db, p, id)).secondary_number })
    })
  }

  r.post(`${base}/update`, async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, UpdateLegacy, { authAt: AUTH_AT.envelopeUpdate })
    const e = await resolve(ctx.db, p, kind, numberIn(kind, body))
    return c.json(deprecatedView(await updateEnvelope(ctx.db, p, actor(c), { envelopeId: e.id, data: body.data, meta: body.meta })))
  })

  r.post(`${base}/delete`, async (c) => {
    const p = principal(c)
    const e = await resolve(ctx.db, p, kind, numberIn(kind, await jsonBody(c, Legacy)))
    await deleteEnvelope(ctx.db, p, actor(c), e.id)
    return c.json({ success: true })
  })

  r.post(`${base}/duplicate`, async (c) => {
    const p = principal(c)
    assertMayCreate(p)
    const e = await resolve(ctx.db, p, kind, numberIn(kind, await jsonBody(c, Legacy)))
    const id = await duplicate(ctx.db, p, actor(c), { envelopeId: e.id })
    // As the deployed service answers: a document's ids; the new template itself.
    if (kind === 'template') return c.json(deprecatedView(await loadEnvelope(ctx.db, p, id)))
    return c.json({ id, [ID_KEY[kind]]: (await findEnvelope(ctx.db, p, id)).secondary_number })
  })
}

/** A document's own routes: distribute, redistribute, and its PDF's download. */
function documentRoutes(r: Hono<AppEnv>, ctx: HostContext) {
  const kind: Kind = 'document'
  r.post('/document/distribute', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, DistributeLegacy)
    const e = await resolve(ctx.db, p, kind, numberIn(kind, body))
    const { emailId: _i, emailReplyTo: _r, ...meta } = body.meta ?? {}
    await distributeEnvelope(ctx.db, p, actor(c), { envelopeId: e.id, meta }, ctx.clock.now())
    return c.json(deprecatedView(await loadEnvelope(ctx.db, p, e.id)))
  })

  r.post('/document/redistribute', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, RedistributeLegacy)
    const e = await resolve(ctx.db, p, kind, numberIn(kind, body))
    await redistribute(ctx.db, p, actor(c), { envelopeId: e.id, recipients: body.recipients }, ctx.clock.now())
    return c.json({ success: true })
  })

  // The first item's PDF: legacy documents have one file.
  const firstItem = async (c: Ctx) => {
    const e = await resolve(ctx.db, principal(c), kind, numericParam(c.req.param('id') ?? '', kind))
    const [item] = await itemsOf(ctx.db, e.id)
    if (!item) throw notFound('document file')
    return item
  }
  r.get('/document/:id{[0-9]+}/download', async (c) => {
    const { version } = parse(DownloadQuery, c.req.query())
    const item = await firstItem(c)
    const { title, file } = await itemPdf(ctx.db, item.id, version)
    return storedPdfResponse(c, ctx, file, title)
  })
  r.get('/document/:id{[0-9]+}/download-beta', async (c) => {
    const { version } = parse(DownloadQuery, c.req.query())
    const item = await firstItem(c)
    const prefix = /^\/api\/v2(?:-beta)?/.exec(c.req.path)![0]
    const { title } = await itemPdf(ctx.db, item.id, version)
    return c.json({
      downloadUrl: `${publicOrigin(ctx, c)}${prefix}/envelope/item/${item.id}/download${version ? `?version=${version}` : ''}`,
      filename: /\.pdf$/i.test(title) ? title : `${title}.pdf`,
      contentType: 'application/pdf',
    })
  })
}

/** A template's own routes: use, and its direct link's create, toggle and delete. */
function templateRoutes(r: Hono<AppEnv>, ctx: HostContext) {
  const kind: Kind = 'template'
  r.post('/template/use', async (c) => {
    const p = principal(c)
    assertMayCreate(p)
    const body = await jsonBody(c, UseLegacy)
    const t = await resolve(ctx.db, p, kind, body.templateId)
    const input = {
      envelopeId: t.id,
      title: body.override?.title,
      externalId: body.externalId,
      recipients: body.recipients,
      prefillFields: body.prefillFields,
      distributeDocument: body.distributeDocument,
    }
    const out = await documentFromTemplate(ctx.db, p, actor(c), input, [], ctx.clock.now())
    return c.json(deprecatedView(await loadEnvelope(ctx.db, p, out.envelope.id)))
  })

  // Direct links: deprecated, and API v2 names no replacement yet.
  r.post('/template/direct/create', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, DirectCreateLegacy)
    const t = await resolve(ctx.db, p, kind, body.templateId)
    return c.json(await createDirectLink(ctx.db, p, { envelopeId: t.id, recipientId: body.directRecipientId }))
  })
  r.post('/template/direct/toggle', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, DirectToggleLegacy)
    const t = await resolve(ctx.db, p, kind, body.templateId)
    return c.json(await toggleDirectLink(ctx.db, p, { envelopeId: t.id, enabled: body.enabled }))
  })
  r.post('/template/direct/delete', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, DirectDeleteLegacy)
    const t = await resolve(ctx.db, p, kind, body.templateId)
    await deleteDirectLink(ctx.db, p, { envelopeId: t.id })
    return c.json({ success: true })
  })
}

/** One kind's routes, in the order they match: its own, its parts', then one by its number. */
function kindRoutes(ctx: HostContext, kind: Kind) {
  const r = new Hono<AppEnv>()
  sharedRoutes(r, ctx, kind)
  if (kind === 'document') documentRoutes(r, ctx)
  else templateRoutes(r, ctx)

  r.route('/', partRoutes(ctx, kind))

  // Last: after the fixed paths above and in partRoutes.
  r.get(`/${kind}/:id{[0-9]+}`, async (c) => {
    const p = principal(c)
    const e = await resolve(ctx.db, p, kind, numericParam(c.req.param('id') ?? '', kind))
    return c.json(deprecatedView(await loadEnvelope(ctx.db, p, e.id)))
  })

  return r
}

/** Mounted inside the API (after its gate) at /api/v2 and /api/v2-beta. */
export function deprecatedRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  r.use('/document/*', deprecation)
  r.use('/template/*', deprecation)
  r.route('/', kindRoutes(ctx, 'document'))
  r.route('/', kindRoutes(ctx, 'template'))
  return r
}
