import { z } from 'zod'
import { FIELD_TYPES, RECIPIENT_ROLES } from '../../../src/protocol/index.js'

/** Request schemas shared by several resources (types flow from these). */
export const VISIBILITIES = ['EVERYONE', 'MANAGER_AND_ABOVE', 'ADMIN'] as const

export const EnvelopeId = z.string().regex(/^envelope_[a-z0-9]+$/, 'Expected an envelope id (envelope_...)')
export const ItemId = z.string().min(1).max(100)
export const NumericId = z.int().min(1).max(2147483647)

export const RecipientInput = z.object({
  email: z.email().max(320),
  name: z.string().trim().max(255).default(''),
  role: z.enum(RECIPIENT_ROLES),
  signingOrder: z.int().min(1).max(1000).nullish(),
})
export type RecipientInput = z.infer<typeof RecipientInput>

const percent = z.number().min(0).max(100)
export const FieldGeometry = z.object({
  page: z.int().min(1),
  positionX: percent,
  positionY: percent,
  width: percent,
  height: percent,
})
export const FieldMeta = z.record(z.string(), z.unknown()).nullish()

/** A field placed by coordinates (percent of the page). */
export const CoordinateField = FieldGeometry.extend({
  recipientId: NumericId,
  envelopeItemId: ItemId.optional(),
  type: z.enum(FIELD_TYPES),
  fieldMeta: FieldMeta,
})

/** A field placed where `placeholder` text occurs in the PDF. */
export const PlaceholderField = z.object({
  recipientId: NumericId,
  envelopeItemId: ItemId.optional(),
  type: z.enum(FIELD_TYPES),
  placeholder: z.string().min(1).max(200),
  width: percent.optional(),
  height: percent.optional(),
  matchAll: z.boolean().optional(),
  fieldMeta: FieldMeta,
})

/** A field inside an envelope-create payload: `identifier` names the file (index or file name). */
export const CreatePayloadField = FieldGeometry.extend({
  identifier: z.union([z.int().min(0), z.string().min(1)]).optional(),
  type: z.enum(FIELD_TYPES),
  fieldMeta: FieldMeta,
})
