/**
 * A multipart/form-data body, read within its kind's budget (api/body-budget.ts) and parsed only
 * when it has at most the parts its route takes: a form of hundreds of thousands of tiny parts
 * takes the parser seconds on the request loop, while counting its boundaries takes milliseconds.
 */
import type { Context } from 'hono'
import { ApiError, badRequest } from '../errors.js'
import { tooLarge } from './body-budget.js'

/**
 * The body's form, refused (400) when malformed or with more than `maxParts` parts, and (413) when
 * a part named in `partCaps` is larger than its cap: both read from the boundaries and the parts'
 * headers, before the form is parsed.
 */
export async function readForm(c: Context, maxParts: number, malformed = 'the multipart body is malformed', partCaps: Record<string, number> = {}): Promise<FormData> {
  const type = c.req.header('content-type') ?? ''
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type)
  if (!boundary) throw badRequest(malformed)
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`)
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // Each part opens with the delimiter, and the last one closes the form.
  let count = 0
  let previous = -1
  for (let at = body.indexOf(delimiter); at !== -1; previous = at, at = body.indexOf(delimiter, at + delimiter.length)) {
    if (++count > maxParts + 1) throw badRequest(`the form has more than ${maxParts} parts`)
    if (previous !== -1) capPart(body.subarray(previous + delimiter.length, at), partCaps)
  }
  try {
    return await new Response(bytes, { headers: { 'content-type': type } }).formData()
  } catch (err) {
    if (err instanceof ApiError) throw err
    throw badRequest(malformed)
  }
}

const HEAD_END = Buffer.from('\r\n\r\n')

/** Refuses a part (what lies between two delimiters) larger than its name's cap. */
function capPart(part: Buffer, caps: Record<string, number>) {
  const end = part.indexOf(HEAD_END)
  if (end === -1) return // no headers: the parser says it is malformed
  const name = /\bname="([^"]*)"/i.exec(part.subarray(0, Math.min(end, 1024)).toString('latin1'))?.[1]
  const cap = name === undefined ? undefined : caps[name]
  // The content, less the line end before the next delimiter.
  if (cap !== undefined && part.length - end - HEAD_END.length - 2 > cap) throw tooLarge(cap)
}
