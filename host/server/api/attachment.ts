import { Hono } from 'hono'
import { z } from 'zod'
import { notFound } from '../errors.js'
import { editEnvelope } from '../domain/changes.js'
import { newId } from '../domain/ids.js'
import { findEnvelope, toAttachment, type AttachmentRow } from '../domain/resources.js'
import { jsonBody, parse, principal, type AppEnv, type HostContext } from './http.js'
import { EnvelopeId } from './schemas.js'

/** Links only: http(s) URIs (a javascript: link would be a script in every viewer). */
const AttachmentData = z
  .object({ label: z.string().trim().min(1).max(255), data: z.url({ protocol: /^https?$/ }).max(2048) })
  .strict()
const AttachmentId = z.string().regex(/^attachment_[a-z0-9]+$/, 'Expected an attachment id (attachment_...)')

export function attachmentRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  /** `token`, when given, must be a recipient token of the envelope (a recipient's view of it). */
  r.get('/envelope/attachment', async (c) => {
    const p = principal(c)
    const q = parse(z.object({ envelopeId: EnvelopeId, token: z.string().min(1).max(200).optional() }), c.req.query())
    const e = await findEnvelope(ctx.db, p, q.envelopeId)
    if (q.token && !(await ctx.db.query('select 1 from recipients where envelope_id = $1 and token = $2', [e.id, q.token])).length) {
      throw notFound('recipient token')
    }
    const rows = await ctx.db.query<AttachmentRow>('select * from attachments where envelope_id = $1 order by created_at, id', [e.id])
    return c.json({ data: rows.map(toAttachment) })
  })

  r.post('/envelope/attachment/create', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, z.object({ envelopeId: EnvelopeId, data: AttachmentData }))
    const id = await editEnvelope(ctx.db, p, { envelopeId: body.envelopeId }, async (tx, e) => {
      const id = newId.attachment()
      await tx.query('insert into attachments (id, envelope_id, label, data) values ($1, $2, $3, $4)', [id, e.id, body.data.label, body.data.data])
      return id
    })
    return c.json({ id })
  })

  r.post('/envelope/attachment/update', async (c) => {
    const p = principal(c)
    const body = await jsonBody(c, z.object({ id: AttachmentId, data: AttachmentData }))
    await editEnvelope(ctx.db, p, { table: 'attachments', id: body.id, what: 'attachment' }, async (tx) => {
      await tx.query('update attachments set label = $2, data = $3 where id = $1', [body.id, body.data.label, body.data.data])
    })
    return c.json({ success: true })
  })

  r.post('/envelope/attachment/delete', async (c) => {
    const p = principal(c)
    const { id } = await jsonBody(c, z.object({ id: AttachmentId }))
    await editEnvelope(ctx.db, p, { table: 'attachments', id: id, what: 'attachment' }, async (tx) => {
      await tx.query('delete from attachments where id = $1', [id])
    })
    return c.json({ success: true })
  })

  return r
}
