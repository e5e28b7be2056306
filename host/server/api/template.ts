import { Hono } from 'hono'
import { z } from 'zod'
import { assertMayCreate } from '../auth/principal.js'
import { teamActor } from '../domain/evidence/audit.js'
import { documentFromTemplate, duplicate } from '../domain/template/templates.js'
import { clientOf, jsonBody, multipartBody, principal } from './http.js'
import type { AppEnv, HostContext } from '../context.js'
import { sentRecipient } from './lifecycle.js'
import { tokenView } from '../domain/recipient/link-holders.js'
import { EnvelopeId, ItemId, NumericId } from './schemas.js'
import type { V2Answer } from '../contract/api-v2.js'

export const DuplicateBody = z.object({
  envelopeId: EnvelopeId,
  includeRecipients: z.boolean().optional(),
  includeFields: z.boolean().optional(),
})

export const UsePayload = z.object({
  envelopeId: EnvelopeId,
  title: z.string().trim().min(1).max(255).optional(),
  externalId: z.string().max(255).nullish(),
  recipients: z
    .array(z.object({ id: NumericId, email: z.email().max(320).optional(), name: z.string().trim().max(255).optional() }))
    .max(100)
    .optional(),
  customDocumentData: z.array(z.object({ identifier: z.string().min(1).max(255), envelopeItemId: ItemId })).max(20).optional(),
  prefillFields: z
    .array(
      z.object({
        id: NumericId,
        type: z.enum(['text', 'number', 'checkbox', 'radio', 'dropdown', 'date']),
        label: z.string().max(255).optional(),
        placeholder: z.string().max(255).optional(),
        value: z.union([z.string().max(1000), z.array(z.string().max(1000)).max(100)]),
      }),
    )
    .max(500)
    .optional(),
  distributeDocument: z.boolean().optional(),
})

/** Documents from templates (use) and copies of envelopes (duplicate). */
export function templateRoutes(ctx: HostContext) {
  const r = new Hono<AppEnv>()

  r.post('/envelope/duplicate', async (c) => {
    const p = principal(c)
    assertMayCreate(p)
    const body = await jsonBody(c, DuplicateBody)
    return c.json({ id: await duplicate(ctx.db, p, teamActor(p, clientOf(c)), body) } satisfies V2Answer<'POST /envelope/duplicate'>)
  })

  r.post('/envelope/use', async (c) => {
    const p = principal(c)
    assertMayCreate(p)
    const { payload, files } = await multipartBody(c, UsePayload)
    const out = await documentFromTemplate(ctx.db, p, teamActor(p, clientOf(c)), payload, files, ctx.clock.now())
    return c.json({ id: out.envelope.id, recipients: out.recipients.map((x) => sentRecipient(ctx, c, x, tokenView(p, out.envelope))) } satisfies V2Answer<'POST /envelope/use'>)
  })

  return r
}
