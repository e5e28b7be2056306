/**
 * The same backend for a Fetch-style runtime (Cloudflare Workers, Deno, Bun, Vercel/Netlify edge
 * functions): POST /presign for the browser and POST /webhooks for the service.
 * Only Web-standard APIs, no Node import. `env` holds BASE_URL, API_KEY and WEBHOOK_SIGNING_KEY.
 *
 * In your app, import from 'envelope-embed/server'.
 */
import { ApiError, createPresignToken, InvalidInputError, verifyWebhook, WebhookError } from '../src/server/index.js'

export interface Env {
  BASE_URL: string
  API_KEY: string
  /** The webhook's signing key (shown once when it was made or rotated): the calls' signature is checked with it. */
  WEBHOOK_SIGNING_KEY?: string
  /** Without a signing key: the webhook's secret, checked in the X-Service-Secret header ('' when it has none). */
  WEBHOOK_SECRET?: string
}

const json = (body: unknown, status = 200) =>
  Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url)
    if (request.method === 'POST' && pathname === '/presign') {
      // Authorize your user here before minting.
      try {
        const { scope, expiresIn } = (await request.json().catch(() => ({}))) as { scope?: string; expiresIn?: number }
        return json(await createPresignToken({ baseUrl: env.BASE_URL, apiKey: env.API_KEY, scope, expiresIn }))
      } catch (e) {
        if (e instanceof ApiError) return json({ message: e.message, code: e.code }, e.status)
        if (e instanceof InvalidInputError) return json({ message: e.message, code: 'INVALID_REQUEST' }, 400)
        return json({ message: 'the signing service is unreachable', code: 'UPSTREAM_UNAVAILABLE' }, 502)
      }
    }
    if (request.method === 'POST' && pathname === '/webhooks') {
      try {
        const event = await verifyWebhook(
          env.WEBHOOK_SIGNING_KEY ? { signingKey: env.WEBHOOK_SIGNING_KEY, request } : { secret: env.WEBHOOK_SECRET ?? '', request },
        )
        // Queue the work and answer within 10 s; the same event may arrive twice.
        console.log(event.event, event.payload.envelopeId, event.createdAt)
        return new Response(null, { status: 204 })
      } catch (e) {
        if (e instanceof WebhookError) return new Response(null, { status: e.status }) // no detail
        throw e
      }
    }
    return json({ message: 'not found', code: 'NOT_FOUND' }, 404)
  },
}
