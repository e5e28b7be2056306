/**
 * A multipart/form-data body, read within its kind's budget (api/body-budget.ts) and parsed only
 * when it has at most the parts its route takes: a form of hundreds of thousands of tiny parts
 * takes the parser seconds on the request loop, while counting its boundaries takes milliseconds.
 */
import type { Context } from 'hono'
import { ApiError, badRequest } from '../errors.js'

/** The body's form, refused (400) when malformed or with more than `maxParts` parts. */
export async function readForm(c: Context, maxParts: number, malformed = 'the multipart body is malformed'): Promise<FormData> {
  const type = c.req.header('content-type') ?? ''
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type)
  if (!boundary) throw badRequest(malformed)
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`)
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // Each part opens with the delimiter, and the last one closes the form.
  let count = 0
  for (let at = body.indexOf(delimiter); at !== -1; at = body.indexOf(delimiter, at + delimiter.length)) {
    if (++count > maxParts + 1) throw badRequest(`the form has more than ${maxParts} parts`)
  }
  try {
    return await new Response(bytes, { headers: { 'content-type': type } }).formData()
  } catch (err) {
    if (err instanceof ApiError) throw err
    throw badRequest(malformed)
  }
}
