import { Hono } from 'hono'
import { z } from 'zod'
import { createAttachment, deleteAttachment, listAttachments, updateAttachment } from '../domain/envelope/attachments.js'
import { jsonBody, parse, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { EnvelopeId } from './schemas.js'
import { searchText } from './search-text.js'
import type { V2Answer } from '../contract/api-v2.js'

/** Links only: http(s) URIs (a javascript: link would be a script in every viewer). */
export const AttachmentData = z
  .object({ label: z.string().trim().min(1).max(255), data: z.url({ protocol: /^https?$/ }).max(2048) })
  .strict()
export const AttachmentId = z.string().regex(/^attachment_[a-z0-9]+$/, 'Expected an attachment id (attachment_...)')

export const FindQuery = z.object({ envelopeId: EnvelopeId, token: searchText({ min: 1, max: 200 }).optional() })
export const CreateBody = z.object({ envelopeId: EnvelopeId, data: AttachmentData })
export const UpdateBody = z.object({ id: AttachmentId, data: AttachmentData })
export const DeleteBody = z.object({ id: AttachmentId })

export function attachmentRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  /** `token`, when given, must be a recipient token of the envelope (a recipient's view of it). */
  r.get('/envelope/attachment', async (c) => {
    const q = parse(FindQuery, c.req.query())
    return c.json({ data: await listAttachments(ctx.db, principal(c), q.envelopeId, q.token) } satisfies V2Answer<'GET /envelope/attachment'>)
  })

  r.post('/envelope/attachment/create', async (c) => {
    const body = await jsonBody(c, CreateBody)
    return c.json({ id: await createAttachment(ctx.db, principal(c), body.envelopeId, body.data) } satisfies V2Answer<'POST /envelope/attachment/create'>)
  })

  r.post('/envelope/attachment/update', async (c) => {
    const body = await jsonBody(c, UpdateBody)
    await updateAttachment(ctx.db, principal(c), body.id, body.data)
    return c.json({ success: true } satisfies V2Answer<'POST /envelope/attachment/update'>)
  })

  r.post('/envelope/attachment/delete', async (c) => {
    const { id } = await jsonBody(c, DeleteBody)
    await deleteAttachment(ctx.db, principal(c), id)
    return c.json({ success: true } satisfies V2Answer<'POST /envelope/attachment/delete'>)
  })

  return r
}
