/** The API resources the authoring pages read (src/protocol/api.ts), and the editor's palettes. */
import type { FieldType } from '../../../../src/protocol/index.js'

export type {
  Attachment, DocumentMeta, EmbeddingSession, Envelope, EnvelopeItem, Field, FieldType, FormFieldOffer, PdfFormFields, Recipient, RecipientRole,
} from '../../../../src/protocol/index.js'
export { DEFAULT_DOCUMENT_META, legacyId } from '../../../../src/protocol/index.js'

/** Roles in the order the editor offers them: the common ones first. */
export const RECIPIENT_ROLES = ['SIGNER', 'APPROVER', 'VIEWER', 'ASSISTANT', 'CC'] as const

/** Field types the palette offers (FREE_SIGNATURE is kept when an envelope has it, never offered). */
export const FIELD_TYPES = [
  'SIGNATURE', 'INITIALS', 'NAME', 'EMAIL', 'DATE', 'TEXT', 'NUMBER', 'CHECKBOX', 'RADIO', 'DROPDOWN',
] as const satisfies readonly FieldType[]

/** Types whose fieldMeta carries a list of options. */
export const OPTION_FIELD_TYPES: readonly FieldType[] = ['CHECKBOX', 'RADIO', 'DROPDOWN']

/** The fieldMeta keys the editor edits; others are carried through unchanged. */
export interface FieldMeta {
  type?: string
  label?: string
  required?: boolean
  options?: string[]
  [key: string]: unknown
}
