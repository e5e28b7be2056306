/**
 * The shapes of what a request asks the operations for, which the domain takes as they are: the
 * API's schemas (api/schemas.ts) build on these, the domain imports them from here.
 */
import { z } from 'zod'
import { FIELD_TYPES, RECIPIENT_ROLES } from '../../../../src/protocol/index.js'
import { RecipientAuthInput, type RecipientAuthGiven } from '../recipient/auth.js'

/**
 * Every string id the host hands out (`envelope_item_…`, `webhook_call_…`, `team_…`, `token_…`)
 * and every link token (base64url): letters, digits, `_` and `-`. Anything else names nothing, and
 * a NUL byte would only reach the database to fail there.
 */
export const StringId = z.string().min(1).max(100).regex(/^[\w-]+$/, 'Expected an id')
export const ItemId = StringId
export const NumericId = z.int().min(1).max(2147483647)

/**
 * A recipient's address; empty for a role not yet filled in ("Client" on a template): a draft may
 * hold one, sending refuses it (signing/lifecycle.ts distribute).
 */
export const RecipientEmail = z.union([z.email().max(320), z.literal('')])

export const RecipientInput = z.object({
  email: RecipientEmail,
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
export const FieldMeta = z
  .record(z.string(), z.unknown())
  .nullish()
  .describe(
    'The field\'s settings as the deployed clients write them (label, placeholder, required, readOnly, options, ...); also `condition` ({effect: show|hide|require|optional, match: all|any, rules: [{field: another field\'s label, test, value?}]}) and, on a NUMBER field, `formula` ("{Quantity} * {Unit price}"): see "Conditional fields and formulas" in the API notes',
  )

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

/** Where a field goes, resolved: its recipient, file, page and box (percent of the page). */
export interface FieldPlacement {
  recipientId: number
  envelopeItemId: string
  type: string
  page: number
  positionX: number
  positionY: number
  width: number
  height: number
  fieldMeta?: Record<string, unknown> | null | undefined
}

/** One recipient's change (update-many's entries, as the domain takes them). */
export type RecipientPatch = RecipientAuthGiven & {
  id: number
  email?: string | undefined
  name?: string | undefined
  role?: string | undefined
  signingOrder?: number | null | undefined
}
