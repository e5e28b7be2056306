import { RecipientAuthInput } from '../domain/recipient-auth.js'
import { z } from 'zod'
import { FIELD_TYPES, RECIPIENT_ROLES } from '../../../src/protocol/index.js'
import { notFound } from '../errors.js'

/** Request schemas shared by several resources (types flow from these). */
export { VISIBILITIES } from '../people/roles.js'

export const EnvelopeId = z.string().regex(/^envelope_[a-z0-9]+$/, 'Expected an envelope id (envelope_...)')
/**
 * Every string id the host hands out (`envelope_item_…`, `webhook_call_…`, `team_…`, `token_…`)
 * and every link token (base64url): letters, digits, `_` and `-`. Anything else names nothing, and
 * a NUL byte would only reach the database to fail there.
 */
export const StringId = z.string().min(1).max(100).regex(/^[\w-]+$/, 'Expected an id')
export const ItemId = StringId
export const NumericId = z.int().min(1).max(2147483647)

/** A string id from a path or query: a malformed one cannot exist (404, as `numericParam`). */
export function stringParam(value: string | undefined, what: string): string {
  if (!StringId.safeParse(value).success) throw notFound(what)
  return value!
}

/** A link token (recipient, direct link) or null when the value cannot be one. */
export const tokenOrNull = (value: string | undefined): string | null => (StringId.safeParse(value).success ? value! : null)

export const RecipientInput = z.object({
  email: z.email().max(320),
  name: z.string().trim().max(255).default(''),
  role: z.enum(RECIPIENT_ROLES),
  signingOrder: z.int().min(1).max(1000).nullish(),
  ...RecipientAuthInput,
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
