import type { Context } from 'hono'
import type { z } from 'zod'
import type { FileRef, UploadedPdf } from '../domain/item/files.js'
import { refuseAuthOptions } from './auth-options.js'
import { badRequest, fromZod, issue } from '../errors.js'
import { inspectPdf } from '../pdf/inspect.js'
import { parseJsonBytes, PARSE_ON_LOOP_MAX } from './json-text.js'
import { readForm } from './multipart.js'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Client } from '../domain/evidence/audit.js'
import type { AppEnv, HostContext } from '../context.js'

export type Ctx = Context<AppEnv>

export function parse<S extends z.ZodType>(schema: S, value: unknown, prefix: (string | number)[] = []): z.infer<S> {
  const r = schema.safeParse(value)
  if (!r.success) throw fromZod(r.error, prefix)
  return r.data
}

export { MAX_JSON_DEPTH, parseJsonText, UNSTORABLE } from './json-text.js'

/**
 * The JSON body, whatever its Content-Type claims (curl -d sends form encoding); empty = undefined.
 * Read within its kind's budget (api/body-budget.ts), parsed off the loop when large (json-text.ts).
 */
export async function jsonBody<S extends z.ZodType>(c: Ctx, schema: S, options: { authAt?: RegExp } = {}): Promise<z.infer<S>> {
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  if (bytes.byteLength <= PARSE_ON_LOOP_MAX && new TextDecoder().decode(bytes).trim() === '') return parse(schema, undefined)
  const json = await parseJsonBytes(bytes)
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
  /** `optionalPayload`: a request with files alone is read as if its payload were `{}`. */
  options: { authAt?: RegExp; optionalPayload?: boolean } = {},
): Promise<{ payload: z.infer<S>; files: UploadedPdf[] }> {
  const { payload, form } = await multipartPayload(c, schema, options)
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
  return { payload, files }
}

/** A multipart request's `payload` part as JSON (validated), and the whole form for its other parts. */
export async function multipartPayload<S extends z.ZodType>(c: Ctx, schema: S, options: { authAt?: RegExp; optionalPayload?: boolean } = {}): Promise<{ payload: z.infer<S>; form: FormData }> {
  if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) {
    throw badRequest('the request must be multipart/form-data with a payload part and files parts')
  }
  // The payload and the files, and a few parts more (a client's own) at most.
  const form = await readForm(c, MAX_FILES + 4)
  const raw = form.get('payload') ?? (options.optionalPayload ? '{}' : null)
  if (raw === null) throw badRequest('the payload part is missing', [issue(['payload'], 'Required')])
  const json = await parseJsonBytes(typeof raw === 'string' ? new TextEncoder().encode(raw) : new Uint8Array(await raw.arrayBuffer()))
  if ('error' in json) {
    throw json.error === 'not valid JSON'
      ? badRequest('the payload part is not valid JSON', [issue(['payload'], 'Invalid JSON')])
      : badRequest(`the payload part is refused: ${json.error}`, [issue(['payload'], json.error)])
  }
  refuseAuthOptions(json.value, ['payload'], options.authAt)
  return { payload: parse(schema, json.value, ['payload']), form }
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
