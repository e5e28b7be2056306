import type { Context } from 'hono'
import type { z } from 'zod'
import type { FileRef, UploadedPdf } from '../domain/files.js'
import { refuseAuthOptions } from './auth-options.js'
import { ApiError, badRequest, fromZod, issue } from '../errors.js'
import { inspectPdf } from '../pdf/inspect.js'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Client } from '../domain/audit.js'
import type { AppEnv, HostContext } from '../context.js'

export type Ctx = Context<AppEnv>

export function parse<S extends z.ZodType>(schema: S, value: unknown, prefix: (string | number)[] = []): z.infer<S> {
  const r = schema.safeParse(value)
  if (!r.success) throw fromZod(r.error, prefix)
  return r.data
}

/** Deepest nesting a JSON body may have (the API's own shapes nest 5 deep; fieldMeta is free JSON). */
export const MAX_JSON_DEPTH = 64

/** Escapes JSON text needs to hold a string PostgreSQL cannot store: NUL, or a lone UTF-16 surrogate. */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i
/** A NUL or an unpaired surrogate: what PostgreSQL's text refuses (search-text.ts uses it too). */
export const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * JSON as the API takes it: parsed, at most MAX_JSON_DEPTH deep, and without strings that text
 * and jsonb columns refuse (NUL, unpaired surrogates), so such input is a 400 here rather than a
 * database error later. The walk runs only when the text could break a rule, keeping small
 * bodies on the fast path. A refusal comes back as its reason, for the caller to word.
 */
export function parseJsonText(text: string): { value: unknown } | { error: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { error: 'not valid JSON' }
  }
  const strings = UNSTORABLE_ESCAPE.test(text)
  if (!strings && text.length <= 2 * MAX_JSON_DEPTH) return { value }
  const bad = (s: string) => strings && UNSTORABLE.test(s)
  const walk = (v: unknown, depth: number): string | null => {
    if (typeof v === 'string') return bad(v) ? 'a string holds a NUL character or an unpaired surrogate' : null
    if (typeof v !== 'object' || v === null) return null
    if (depth >= MAX_JSON_DEPTH) return `nested deeper than ${MAX_JSON_DEPTH} levels`
    if (Array.isArray(v)) {
      for (const x of v) {
        const why = walk(x, depth + 1)
        if (why) return why
      }
      return null
    }
    for (const [k, x] of Object.entries(v)) {
      const why = bad(k) ? 'a key holds a NUL character or an unpaired surrogate' : walk(x, depth + 1)
      if (why) return why
    }
    return null
  }
  const why = walk(value, 0)
  return why ? { error: why } : { value }
}

/** The JSON body, whatever its Content-Type claims (curl -d sends form encoding); empty = undefined. */
export async function jsonBody<S extends z.ZodType>(c: Ctx, schema: S, options: { authAt?: RegExp } = {}): Promise<z.infer<S>> {
  const text = await c.req.text()
  if (text.trim() === '') return parse(schema, undefined)
  const json = parseJsonText(text)
  if ('error' in json) throw badRequest(json.error === 'not valid JSON' ? 'the request body is not valid JSON' : `the request body is refused: ${json.error}`)
  refuseAuthOptions(json.value, [], options.authAt)
  return parse(schema, json.value)
}

/** Most PDF parts one request may carry. */
export const MAX_FILES = 20

/** A multipart request: the `payload` part as JSON (validated) and every `files` part as a checked PDF. */
export async function multipartBody<S extends z.ZodType>(
  c: Ctx,
  schema: S,
  /** The names of the file parts (the deprecated create routes also take the old single `file`). */
  fileParts: string[] = ['files', 'files[]'],
  options: { authAt?: RegExp } = {},
): Promise<{ payload: z.infer<S>; files: UploadedPdf[] }> {
  if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) {
    throw badRequest('the request must be multipart/form-data with a payload part and files parts')
  }
  let form: FormData
  try {
    form = await c.req.raw.formData()
  } catch (err) {
    if (err instanceof ApiError) throw err
    if (err instanceof Error && err.name === 'BodyLimitError') throw err
    throw badRequest('the multipart body is malformed')
  }
  const raw = form.get('payload')
  if (raw === null) throw badRequest('the payload part is missing', [issue(['payload'], 'Required')])
  const json = parseJsonText(typeof raw === 'string' ? raw : await raw.text())
  if ('error' in json) {
    throw json.error === 'not valid JSON'
      ? badRequest('the payload part is not valid JSON', [issue(['payload'], 'Invalid JSON')])
      : badRequest(`the payload part is refused: ${json.error}`, [issue(['payload'], json.error)])
  }
  refuseAuthOptions(json.value, ['payload'], options.authAt)
  const parsed = parse(schema, json.value, ['payload'])
  // `files[]` is how some clients (the deployed service's SDK among them) name the repeated part.
  const parts = fileParts.flatMap((name) => form.getAll(name))
  if (parts.length > MAX_FILES) throw badRequest(`at most ${MAX_FILES} files per request`, [issue(['files'], `At most ${MAX_FILES} files`)])
  const files: UploadedPdf[] = []
  for (const [i, part] of parts.entries()) {
    if (typeof part === 'string') throw badRequest(`files part ${i} is not a file`, [issue(['files', i], 'Expected a file')])
    const bytes = new Uint8Array(await part.arrayBuffer())
    const name = part.name || `document-${i + 1}.pdf`
    // The checked file: what is stored (active content removed).
    files.push({ name, ...(await inspectPdf(bytes, name)) })
  }
  return { payload: parsed, files }
}

export const principal = (c: Ctx) => c.get('principal')

/** Where the request came from, for the audit trail: the peer address (no proxy headers are trusted). */
export function clientOf(c: Context): Client {
  let ipAddress: string | null = null
  try {
    ipAddress = getConnInfo(c).remote.address ?? null
  } catch {}
  return { ipAddress, userAgent: c.req.header('user-agent')?.slice(0, 500) ?? null }
}

/** The public origin links are built on: PUBLIC_URL, else the origin this request reached. */
export const publicOrigin = (ctx: HostContext, c: Context) => ctx.config.publicUrl ?? new URL(c.req.url).origin

const pdfName = (title: string) => (/\.pdf$/i.test(title) ? title : `${title}.pdf`)

/** A PDF download's headers: the file name kept readable for old clients, exact in filename*; a stored file's hash as its RFC 9530 digest and ETag. */
function pdfHeaders(title: string, size: number, sha256?: string): Record<string, string> {
  const name = pdfName(title)
  return {
    ...(sha256 && { ETag: `"sha256-${sha256}"`, 'Repr-Digest': `sha-256=:${Buffer.from(sha256, 'hex').toString('base64')}:` }),
    'Content-Type': 'application/pdf',
    'Content-Length': String(size),
    'Content-Disposition': `attachment; filename="${name.replace(/[^\w. -]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'Cache-Control': 'private, no-store',
  }
}

/** A PDF made for this answer (audit log, certificate). */
export function pdfResponse(c: Context, bytes: Uint8Array, title: string): Response {
  return c.body(new Uint8Array(bytes), 200, pdfHeaders(title, bytes.byteLength))
}

/**
 * A stored file as a download: from its row, else streamed from the object store (checked
 * against its hash as it passes), or with STORAGE_REDIRECT_SECONDS a redirect to a URL of the
 * store valid that long.
 */
export async function storedPdfResponse(c: Context, ctx: HostContext, file: FileRef, title: string): Promise<Response> {
  if (file.bytes) return c.body(new Uint8Array(file.bytes), 200, pdfHeaders(title, file.size, file.sha256))
  const store = ctx.db.files
  if (!store) throw new Error(`stored file ${file.sha256} is in an object store and STORAGE_URL names none`)
  const seconds = ctx.config.storageRedirectSeconds
  if (seconds > 0) {
    const url = await store.presignedUrl(file.sha256, { filename: pdfName(title), seconds })
    return new Response(null, { status: 302, headers: { Location: url, 'Cache-Control': 'private, no-store' } })
  }
  return new Response(await store.stream(file.sha256), { status: 200, headers: pdfHeaders(title, file.size, file.sha256) })
}
