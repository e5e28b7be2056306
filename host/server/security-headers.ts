/**
 * The headers that keep the host's answers from being turned against their users: one place for
 * every answer (API, pages, assets, errors) and for the page policies.
 */
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'

/** /api/v2, its /api/v2-beta alias and the deprecated /api/v1, with or without a path after them. */
const API_PATH = /^\/api\/(?:v2(?:-beta)?|v1)(?:[/?#]|$)/

/**
 * On every answer, `X-Content-Type-Options: nosniff` (a JSON error or an upload is never read as
 * a script or a page), and on every API answer CORS for any origin, without credentials. Set on
 * the node response before the app runs: set through Hono (c.header, or a second header in
 * c.json) they would turn each response's headers into a Headers object, which
 * @hono/node-server copies header by header instead of passing the plain object to writeHead.
 */
export function withBaseHeaders(listener: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('X-Content-Type-Options', 'nosniff')
    if (API_PATH.test(req.url ?? '')) res.setHeader('Access-Control-Allow-Origin', '*')
    listener(req, res)
  }
}

/** A fresh nonce for one page answer (128 bits). */
export const newNonce = (): string => randomBytes(16).toString('base64')

/**
 * The policy of the authoring and signing pages: scripts, styles, fonts, images and connections
 * of this origin only (images and fonts also as data:/blob:, signatures and the PDF renderer
 * make them), the pdf.js worker from this origin. The customer's `css` is one <style> element
 * carrying the page's nonce; anything it would load from elsewhere (url(), @import, image-set(),
 * a font's src) is refused by the browser. `frameAncestors`: the origins that may frame the page,
 * [] for none, null for anyone.
 */
export function pagePolicy(nonce: string, frameAncestors: string[] | null): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    ...(frameAncestors ? [`frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`] : []),
  ].join('; ')
}

/** The API reference (Swagger UI): its own files only, never framed. */
export const DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** The landing page (`/`): its own stylesheet only, no script, never framed. */
export const LANDING_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * The local mailbox: no scripts at all (the framed message inherits this policy); inline styles
 * only, for the page and the message's own inline-styled HTML; nothing loaded from elsewhere
 * (images of this origin: the icon).
 */
export const MAILBOX_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
