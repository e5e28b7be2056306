/**
 * A multipart/form-data body, read within its kind's budget (api/body-budget.ts) and parsed only
 * when it has at most the parts its route takes: a form of hundreds of thousands of tiny parts
 * takes the parser seconds on the request loop, while counting its boundaries takes milliseconds.
 * The boundaries are counted, and a part named in `partCaps` is measured, as the body arrives:
 * the read stops at the first part too many or the first byte past a part's cap.
 */
import type { Context } from 'hono'
import { ApiError, badRequest } from '../errors.js'
import { tooLarge } from './body-budget.js'

const HEAD_END = Buffer.from('\r\n\r\n')
/** Longest header block of a part looked at for its name. */
const MAX_PART_HEAD = 16 * 1024

/**
 * The body's form, refused (400) when malformed or with more than `maxParts` parts, and (413) when
 * a part named in `partCaps` is larger than its cap: both before the form is parsed, and the body
 * is read no further than that.
 */
export async function readForm(c: Context, maxParts: number, malformed = 'the multipart body is malformed', partCaps: Record<string, number> = {}): Promise<FormData> {
  const type = c.req.header('content-type') ?? ''
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type)
  if (!boundary) throw badRequest(malformed)
  const bytes = await readParts(c.req.raw.body, Buffer.from(`--${boundary[1] ?? boundary[2]}`), maxParts, partCaps)
  try {
    return await new Response(bytes, { headers: { 'content-type': type } }).formData()
  } catch (err) {
    if (err instanceof ApiError) throw err
    throw badRequest(malformed)
  }
}

/** The body's bytes, read while its delimiters are counted and its capped parts measured. */
async function readParts(body: ReadableStream<Uint8Array> | null, delimiter: Buffer, maxParts: number, caps: Record<string, number>): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0)
  const reader = body.getReader()
  const chunks: Buffer[] = []
  let total = 0
  // The bytes not yet searched (and the current part's head until it is read), from `windowAt` on.
  let window: Buffer = Buffer.alloc(0)
  let windowAt = 0
  let searchFrom = 0
  let count = 0
  let partAt = -1 // just after the current part's delimiter
  let contentAt = -1 // where its content starts, once its head is read
  let cap = Infinity
  /** Reads the current part's head once it has come (or is too long to wait for): its name's cap. */
  const readHead = () => {
    if (partAt === -1 || contentAt !== -1) return
    const end = window.indexOf(HEAD_END, partAt - windowAt)
    if (end === -1 && total - partAt <= MAX_PART_HEAD) return
    const head = window.subarray(partAt - windowAt, end === -1 ? partAt - windowAt + MAX_PART_HEAD : end).toString('latin1')
    const name = /\bname="([^"]*)"/i.exec(head)?.[1]
    cap = name === undefined ? Infinity : (caps[name] ?? Infinity)
    contentAt = end === -1 ? total : windowAt + end + HEAD_END.length
  }
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
      chunks.push(chunk)
      total += chunk.length
      window = window.length ? Buffer.concat([window, chunk]) : chunk
      for (let at = window.indexOf(delimiter, searchFrom - windowAt); at !== -1; at = window.indexOf(delimiter, searchFrom - windowAt)) {
        if (++count > maxParts + 1) throw badRequest(`the form has more than ${maxParts} parts`)
        if (contentAt !== -1 && windowAt + at - 2 - contentAt > cap) throw tooLarge(cap)
        partAt = searchFrom = windowAt + at + delimiter.length
        contentAt = -1
        cap = Infinity
        readHead()
      }
      readHead()
      // Past its cap with no delimiter yet: refused without reading the rest.
      if (contentAt !== -1 && total - contentAt > cap + delimiter.length + 4) throw tooLarge(cap)
      // Keep what a delimiter split between chunks needs, and the current part's head until it is read.
      searchFrom = Math.max(searchFrom, total - delimiter.length + 1)
      const keepFrom = partAt !== -1 && contentAt === -1 ? Math.min(partAt, searchFrom) : searchFrom
      window = window.subarray(Math.max(0, keepFrom - windowAt))
      windowAt = Math.max(windowAt, keepFrom)
    }
  } catch (err) {
    void reader.cancel().catch(() => {})
    throw err
  }
  if (contentAt !== -1 && total - contentAt > cap) throw tooLarge(cap)
  const whole = Buffer.concat(chunks, total)
  return new Uint8Array(whole.buffer, whole.byteOffset, whole.byteLength) as Uint8Array<ArrayBuffer>
}
