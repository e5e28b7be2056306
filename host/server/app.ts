import type { HttpBindings } from '@hono/node-server'
import { Hono, type Context, type MiddlewareHandler, type Next } from 'hono'
import { routePath } from 'hono/route'
import { HTTPException } from 'hono/http-exception'
import { authenticate, tokenFromHeader, type Principal } from './auth/principal.js'
import { noteTokenUse } from './auth/api-tokens.js'
import { addressKey } from './api/rate-limit.js'
import { verifyRoutes } from './api/verify.js'
import { ApiError, UnknownLinkError } from './errors.js'
import { adminRoutes } from './api/admin.js'
import { faviconRoutes } from './favicon.js'
import { attachmentRoutes } from './api/attachment.js'
import { deprecatedRoutes, deprecation } from './api/deprecated.js'
import { v1Routes } from './api/v1.js'
import { docsRoutes } from './api/docs.js'
import { embeddingRoutes } from './api/embedding.js'
import { envelopeRoutes } from './api/envelope.js'
import { fieldRoutes } from './api/field.js'
import type { AppEnv, HostContext } from './context.js'
import { itemRoutes } from './api/item.js'
import { recipientRoutes } from './api/recipient.js'
import { lifecycleRoutes } from './api/lifecycle.js'
import { webhookRoutes } from './api/webhook.js'
import { templateRoutes } from './api/template.js'
import { bulkSendRoutes } from './api/bulk-send.js'
import { teamRoutes } from './api/team.js'
import { signingRoutes } from './api/signing.js'
import { pageRoutes } from './pages.js'
import { healthRoutes, type Runtime } from './health.js'
import { measureRequests, metricsRoutes, type Metrics } from './metrics.js'
import { landingRoutes } from './landing.js'
import { mailboxRoutes } from './mail/mailbox.js'
import { consoleRoutes } from './console/index.js'
import { cookiePrincipal } from './console/gate.js'
import { bodyBudget } from './api/body-budget.js'
import { brandingLogoRoutes } from './api/branding-logo.js'
import { log, requestIdFrom, withRequestId } from './log.js'

const PREFLIGHT = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET,POST,OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization,Content-Type',
  'Access-Control-Max-Age': '600',
}

/** API v1 also takes PATCH and DELETE. */
const V1_PREFLIGHT = { ...PREFLIGHT, 'Access-Control-Allow-Methods': 'GET,POST,PATCH,DELETE,OPTIONS' }

/**
 * The one gate of every API request (v2, its beta alias, v1): preflights, then who is calling (an
 * API token, `Authorization: <token>` or `Bearer <token>`, or a presign token). The body's size
 * was checked before (api/body-budget.ts) and nothing of it is read before the caller is known.
 */
function apiGate(ctx: HostContext, preflight: Record<string, string>): MiddlewareHandler<AppEnv> {
  const authenticated = async (c: Context<AppEnv>, next: Next) => {
    let p: Principal
    try {
      // The console calls the API with its session cookie (and its anti-forgery header) instead of a token.
      const header = c.req.header('authorization')
      p = (!header && (await cookiePrincipal(c, ctx))) || (await authenticate(ctx, header))
    } catch (err) {
      // No valid token: counted by address, so guessing tokens is limited too.
      ctx.rateLimit.hit(c, addressKey(c))
      throw err
    }
    // A presign token counts with the API token that minted it.
    ctx.rateLimit.hit(c, p.tokenId)
    if (p.kind !== 'user') noteTokenUse(ctx.db, p.tokenId)
    c.set('principal', p)
    await next()
  }
  return async (c, next) => {
    // Preflights end here; withBaseHeaders gives every API response its Access-Control-Allow-Origin.
    if (c.req.method === 'OPTIONS') return c.body(null, 204, preflight)
    // Answers for a credential (documents, recipients' signing tokens) are never kept by a cache.
    c.header('Cache-Control', 'no-store')
    return authenticated(c, next)
  }
}

/** The API v2 routes, mounted at /api/v2 and at its /api/v2-beta alias. */
function api(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  // The API's self-description (openapi.json, docs): public, so before the gate.
  r.route('/', docsRoutes())
  // Checking a PDF's seal is public too, with its own limits (api/verify.ts).
  r.route('/', verifyRoutes(ctx))
  // One gate for every API request: CORS, then who is calling.
  r.use('*', apiGate(ctx, PREFLIGHT))
  // Fixed paths before the envelope module's /envelope/:id.
  r.route('/', embeddingRoutes(ctx))
  r.route('/', teamRoutes(ctx))
  r.route('/', lifecycleRoutes(ctx))
  r.route('/', webhookRoutes(ctx))
  r.route('/', templateRoutes(ctx))
  r.route('/', bulkSendRoutes(ctx))
  r.route('/', itemRoutes(ctx))
  r.route('/', recipientRoutes(ctx))
  r.route('/', fieldRoutes(ctx))
  r.route('/', attachmentRoutes(ctx))
  r.route('/', deprecatedRoutes(ctx))
  r.route('/', envelopeRoutes(ctx))
  return r
}

/** The deprecated API v1: marked deprecated first (so the gate's refusals are marked too), then the same gate as v2. */
function apiV1(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  r.use('*', deprecation)
  r.use('*', apiGate(ctx, V1_PREFLIGHT))
  r.route('/', v1Routes(ctx))
  return r
}

/** The signing pages' API: same origin; bodies capped by their kind (api/body-budget.ts). */
function signingApi(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  // Fair use per recipient (or link) token as presented; without one, per address.
  // A token that names nothing counts by address too, so guessing tokens is limited as on the API.
  r.use('*', async (c, next) => {
    // Answers carry the recipient's token and the document: never kept by a cache.
    c.header('Cache-Control', 'no-store')
    const token = tokenFromHeader(c.req.header('authorization'))
    ctx.rateLimit.hit(c, token ? `recipient:${token}` : addressKey(c))
    await next()
    if (token && c.error instanceof UnknownLinkError) ctx.rateLimit.hit(c, addressKey(c))
  })
  r.route('/', signingRoutes(ctx))
  return r
}

/** The console's API: small bodies (api/body-budget.ts), fair use per address (sign-in has its own limits, people/throttle.ts). */
function consoleApi(ctx: HostContext) {
  const r = new Hono()
  r.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store')
    ctx.rateLimit.hit(c, `console:${addressKey(c)}`)
    await next()
  })
  r.route('/', consoleRoutes(ctx))
  return r
}

function errorResponse(err: Error, c: Context): Response {
  if (err instanceof ApiError) return c.json(err.toJSON(), err.status, err.headers)
  if (err instanceof HTTPException && err.status < 500) {
    return c.json({ message: err.message || 'bad request', code: err.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_REQUEST' }, err.status)
  }
  // The client's request was cut before its body arrived (a slow body after its time budget, a
  // peer gone): the connection is closed, nobody reads this answer and nothing went wrong here.
  if ((c.env as HttpBindings | undefined)?.incoming?.readableAborted) return c.json({ message: 'the request was cut off', code: 'REQUEST_TIMEOUT' }, 408)
  // The route pattern only: paths and query strings carry tokens.
  log.error({ err, method: c.req.method, route: routePath(c, -1) || 'unmatched' }, 'request failed')
  return c.json({ message: 'internal server error', code: 'INTERNAL' }, 500)
}

export function createApp(ctx: HostContext & { adminSecret: string | null; mailbox: boolean; runtime?: Runtime; metrics?: Metrics }) {
  const app = new Hono<AppEnv>()
  app.use('*', async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'))
    const started = performance.now()
    // On the node response itself, as the CORS and rate-limit headers: set on the answer after it
    // is made, it turned every answer's light headers into a Headers object, copied one by one.
    const out = (c.env as HttpBindings | undefined)?.outgoing
    if (out?.setHeader) out.setHeader('X-Request-Id', requestId)
    await withRequestId(requestId, async () => {
      await next()
      if (!out?.setHeader) c.res.headers.set('X-Request-Id', requestId)
      // Answered before its body was all read (refused from the head, cut at its cap, a form that
      // gave up at its parts): the rest of an upload would sit between this answer and the
      // connection's next request, so the connection ends with this answer rather than be kept
      // alive on a promise. What still comes is read and dropped (nobody else reads it now), so
      // the sender can finish sending and read the answer in the linger (slow-requests.ts).
      const incoming = (c.env as HttpBindings | undefined)?.incoming
      if (out?.setHeader && incoming && !incoming.complete) {
        out.setHeader('Connection', 'close')
        incoming.removeAllListeners('data').on('data', () => {}).resume()
      }
      log.info({ method: c.req.method, route: routePath(c, -1) || 'unmatched', status: c.res.status, ms: Math.round(performance.now() - started) }, 'request')
    })
  })
  if (ctx.metrics) {
    app.use('*', measureRequests(ctx.metrics))
    app.route('/', metricsRoutes(ctx.metrics, ctx.config.metricsToken))
  }
  // Every body of every door, capped by its kind before it is read.
  app.use('*', bodyBudget(ctx.config))
  // Without a token there is no /metrics at all (the page routes answer 404 for it).
  app.route('/', healthRoutes(ctx.db, ctx.runtime ?? { queueRunning: () => false, queueExpected: false, closing: false }))
  const v2 = api(ctx)
  app.route('/api/v2', v2)
  app.route('/api/v2-beta', v2)
  app.route('/api/v1', apiV1(ctx))
  app.route('/api/signing', signingApi(ctx))
  app.route('/api/console', consoleApi(ctx))
  app.route('/_admin', adminRoutes(ctx, ctx.adminSecret))
  // The local mailbox exists only when asked for (MAILBOX=1) and no SMTP server is configured.
  if (ctx.mailbox) app.route('/', mailboxRoutes(ctx.db))
  app.route('/', faviconRoutes())
  app.route('/', brandingLogoRoutes(ctx))
  app.route('/', pageRoutes(ctx))
  app.route('/', landingRoutes(ctx))

  app.notFound((c) => c.json({ message: `no route for ${c.req.method} ${c.req.path}`, code: 'NOT_FOUND' }, 404))
  app.onError(errorResponse)
  return app
}
