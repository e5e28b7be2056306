/**
 * How many bytes a request body may have, by what the body is, for every door of the host: one
 * middleware (bodyBudget) mounted once in front of every route. A body is refused with 413
 * PAYLOAD_TOO_LARGE from its Content-Length before a byte of it is read, and a body without one
 * (chunked) is counted as the handler reads it and cut at its cap. Nothing is read for a route
 * before its handler asks, so a caller without a credential is refused (401) before its body is
 * read at all, and a caller a route takes without one (verify, signing links, sign-up) can send at
 * most its kind's cap. Parsing what was read: api/json-text.ts (JSON), api/multipart.ts (forms).
 */
import type { MiddlewareHandler } from 'hono'
import { ApiError } from '../errors.js'
import type { HostConfig } from '../config.js'
import { LOGO_BODY_LIMIT, LOGO_ROUTE } from '../images/logo.js'

/** What a body is, and so how large it may be (bodyCaps). */
export type BodyKind =
  /** The small JSON of a form: sign-in, sign-up, e-mailed codes, consent, passkeys, declining. */
  | 'form'
  /** A signed-in console call (JSON). */
  | 'console'
  /** A team's logo, a data URL (console/branding-routes.ts). */
  | 'logo'
  /** An evidence summary (a compact JWS) to check: kilobytes, never the PDF cap. */
  | 'evidence'
  /** A PDF to check, alone or in a form beside its evidence summary. */
  | 'pdf'
  /** A signer's completion: their fields and signature pictures (one per field, repeated). */
  | 'signing'
  /** An API call with a credential (checked before the body is read): PDFs in multipart forms, JSON. */
  | 'api'

/** The small JSON bodies: sign-in, sign-up, codes and passkey answers are all well under it. */
export const FORM_MAX_BYTES = 16 * 1024
/** The console's signed-in calls are small JSON bodies. */
export const CONSOLE_MAX_BYTES = 64 * 1024
/**
 * An evidence summary: a few kilobytes of certificates and a kilobyte or two per recipient,
 * base64url; a document with hundreds of recipients fits.
 */
export const EVIDENCE_MAX_BYTES = 1024 * 1024

/** Each kind's cap in bytes; the PDF-carrying kinds follow MAX_UPLOAD_BYTES. */
export function bodyCaps(config: Pick<HostConfig, 'maxUploadBytes'>): Record<BodyKind, number> {
  return {
    form: FORM_MAX_BYTES,
    console: CONSOLE_MAX_BYTES,
    logo: LOGO_BODY_LIMIT,
    evidence: EVIDENCE_MAX_BYTES,
    // A form's evidence part beside the PDF is held to the evidence cap as the form is read (api/multipart.ts).
    pdf: config.maxUploadBytes,
    signing: config.maxUploadBytes,
    api: config.maxUploadBytes,
  }
}

const VERIFY = /^\/api\/v2(-beta)?\/verify$/

/**
 * The kind of a request's body, from its path and (for /verify, whose body may be either) its
 * Content-Type. Every path has one: a door not named here takes a form's budget.
 */
export function bodyKindOf(path: string, contentType: string): BodyKind {
  if (VERIFY.test(path)) return /^application\/jose\b/i.test(contentType) ? 'evidence' : 'pdf'
  if (/^\/api\/(v2|v2-beta|v1)\//.test(path)) return 'api'
  if (/^\/api\/signing\/(direct\/)?complete$/.test(path)) return 'signing'
  if (path === `/api/console${LOGO_ROUTE}`) return 'logo'
  // Who calls these has no session yet: sign-in, sign-up, resets, links, invitations.
  if (/^\/api\/console\/(auth|invitations)\//.test(path)) return 'form'
  if (path.startsWith('/api/console/') || path.startsWith('/_admin/')) return 'console'
  return 'form'
}

export const tooLarge = (cap: number) => new ApiError(413, 'PAYLOAD_TOO_LARGE', `the request body exceeds the limit of ${cap} bytes for this request`)

/** `body` as it is read, failing with 413 once more than `cap` bytes came (a chunked body's meter). */
function metered(body: ReadableStream<Uint8Array>, cap: number): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  let size = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) return controller.close()
      size += value.byteLength
      if (size > cap) {
        void reader.cancel().catch(() => {})
        return controller.error(tooLarge(cap))
      }
      controller.enqueue(value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
}

/** The one body budget of every door (mounted first in app.ts): each body capped by its kind before it is read. */
export function bodyBudget(config: Pick<HostConfig, 'maxUploadBytes'>): MiddlewareHandler {
  const caps = bodyCaps(config)
  return async (c, next) => {
    const raw = c.req.raw
    if (!raw.body) return next()
    const cap = caps[bodyKindOf(c.req.path, c.req.header('content-type') ?? '')]
    const length = c.req.header('content-length')
    // A declared length is the length (node's parser reads no more): checked from the header alone.
    if (length !== undefined && !c.req.header('transfer-encoding')) {
      if (!/^\d+$/.test(length) || Number(length) > cap) throw tooLarge(cap)
      return next()
    }
    c.req.raw = new Request(raw, { body: metered(raw.body, cap), duplex: 'half' } as RequestInit)
    return next()
  }
}
