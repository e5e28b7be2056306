/**
 * POST /verify: anyone may check a PDF's signatures, no token needed. The file is the request
 * body (application/pdf, or multipart with a `file` part), capped at MAX_UPLOAD_BYTES, parsed with
 * the bounded upload checks first, never stored; requests are limited per address
 * (VERIFY_RATE_LIMIT a minute). When the file is one this service sealed, the answer names that
 * document's title, completion time and recipients, and nothing else.
 */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { iso, type Queryable } from '../db/index.js'
import { sha256Hex } from '../domain/files.js'
import { ApiError, badRequest, issue } from '../errors.js'
import { inspectPdf } from '../pdf/inspect.js'
import type { SignatureReport } from '../pdf/verify.js'
import { runHeavy } from '../workers/heavy.js'
import type { AppEnv, HostContext } from './http.js'
import { addressKey, RateLimiter } from './rate-limit.js'

export interface VerifyResult {
  sha256: string
  pageCount: number
  signatures: SignatureReport[]
  /**
   * At least one signature; every one intact; and nothing after any of them but what long-term
   * validation adds (updatesAfter 'none' or 'validation').
   */
  valid: boolean
  /** The completed document of this service whose sealed file has exactly these bytes. */
  document: { title: string; completedAt: string | null; recipients: { name: string; role: string; completedAt: string | null }[] } | null
}

export function verifyRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()
  const limiter = new RateLimiter({ limit: ctx.config.verifyRateLimit, windowSeconds: 60, clock: ctx.clock })
  const tooLarge = () => new ApiError(413, 'PAYLOAD_TOO_LARGE', `the file exceeds the limit of ${ctx.config.maxUploadBytes} bytes`)
  r.post(
    '/verify',
    async (c, next) => {
      limiter.hit(c, addressKey(c))
      const length = Number(c.req.header('content-length') ?? 0)
      if (length > ctx.config.maxUploadBytes) throw tooLarge()
      await next()
    },
    bodyLimit({ maxSize: ctx.config.maxUploadBytes, onError: () => { throw tooLarge() } }),
    async (c) => c.json(await verifyUpload(ctx.db, await fileOf(c))),
  )
  return r
}

async function fileOf(c: Context): Promise<Uint8Array> {
  const type = c.req.header('content-type') ?? ''
  if (type.startsWith('multipart/form-data')) {
    // A form that does not parse is the sender's mistake (400), not ours.
    const form = await c.req.parseBody().catch(() => {
      throw badRequest('the form cannot be read: send the PDF as the `file` part of a multipart/form-data body')
    })
    const file = form['file']
    if (!(file instanceof File)) throw badRequest('send the PDF as the `file` part of the form', [issue(['file'], 'Required')])
    return new Uint8Array(await file.arrayBuffer())
  }
  if (!/^application\/(pdf|octet-stream)\b/.test(type)) throw badRequest('send the PDF as the body (Content-Type: application/pdf) or as the `file` part of a form')
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  if (!bytes.byteLength) throw badRequest('the body is empty: send the PDF')
  return bytes
}

export async function verifyUpload(db: Queryable, bytes: Uint8Array): Promise<VerifyResult> {
  const { pageCount } = await inspectPdf(bytes, 'the file')
  const signatures = await runHeavy('verify', { bytes }, { failure: (why) => badRequest(`the file's signatures cannot be checked: ${why}`) })
  const sha256 = sha256Hex(bytes)
  return {
    sha256,
    pageCount,
    signatures,
    valid: signatures.length > 0 && signatures.every((s) => s.intact && s.updatesAfter !== 'changes'),
    document: await sealedDocument(db, sha256),
  }
}

async function sealedDocument(db: Queryable, sha256: string): Promise<VerifyResult['document']> {
  const [e] = await db.query<{ id: string; title: string; completed_at: Date | null }>(
    `select e.id, e.title, e.completed_at from document_data d
     join envelope_items i on i.signed_document_data_id = d.id join envelopes e on e.id = i.envelope_id
     where d.sha256 = $1 and e.status = 'COMPLETED' and e.deleted_at is null limit 1`,
    [sha256],
  )
  if (!e) return null
  const recipients = await db.query<{ name: string; role: string; signed_at: Date | null }>(
    'select name, role, signed_at from recipients where envelope_id = $1 order by signing_order nulls last, id',
    [e.id],
  )
  return { title: e.title, completedAt: iso(e.completed_at), recipients: recipients.map((x) => ({ name: x.name, role: x.role, completedAt: iso(x.signed_at) })) }
}
