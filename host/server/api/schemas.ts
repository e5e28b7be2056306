import { z } from 'zod'
import { FIELD_TYPES } from '../../../src/protocol/index.js'
import { notFound } from '../errors.js'
import { FieldGeometry, FieldMeta, StringId } from '../domain/common/inputs.js'

/** Request schemas shared by several resources (types flow from these). */
export { VISIBILITIES } from '../people/roles.js'
export { CoordinateField, FieldGeometry, FieldMeta, ItemId, NumericId, PlaceholderField, RecipientInput, StringId } from '../domain/common/inputs.js'

export const EnvelopeId = z.string().regex(/^envelope_[a-z0-9]+$/, 'Expected an envelope id (envelope_...)')

/** A string id from a path or query: a malformed one cannot exist (404, as `numericParam`). */
export function stringParam(value: string | undefined, what: string): string {
  if (!StringId.safeParse(value).success) throw notFound(what)
  return value!
}

/** A link token (recipient, direct link) or null when the value cannot be one. */
export const tokenOrNull = (value: string | undefined): string | null => (StringId.safeParse(value).success ? value! : null)

/** A field inside an envelope-create payload: `identifier` names the file (index or file name). */
export const CreatePayloadField = FieldGeometry.extend({
  identifier: z.union([z.int().min(0), z.string().min(1)]).optional(),
  type: z.enum(FIELD_TYPES),
  fieldMeta: FieldMeta,
})
