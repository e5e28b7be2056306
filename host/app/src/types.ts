/** The API resources as the authoring pages read them (CONTRACT.md "API shapes"). */
import type { EnvelopeType } from '../../../src/protocol/index.js'

export type RecipientRole = 'SIGNER' | 'VIEWER' | 'APPROVER' | 'ASSISTANT' | 'CC'
export const RECIPIENT_ROLES: RecipientRole[] = ['SIGNER', 'APPROVER', 'VIEWER', 'ASSISTANT', 'CC']

export const FIELD_TYPES = [
  'SIGNATURE', 'INITIALS', 'NAME', 'EMAIL', 'DATE', 'TEXT', 'NUMBER', 'CHECKBOX', 'RADIO', 'DROPDOWN',
] as const
export type FieldType = (typeof FIELD_TYPES)[number]
/** Types whose fieldMeta carries a list of options. */
export const OPTION_FIELD_TYPES: readonly FieldType[] = ['CHECKBOX', 'RADIO', 'DROPDOWN']

export interface FieldMeta {
  type?: string
  label?: string
  required?: boolean
  options?: string[]
  [key: string]: unknown
}

export interface DocumentMeta {
  subject: string | null
  message: string | null
  timezone: string
  dateFormat: string
  redirectUrl: string | null
  signingOrder: 'PARALLEL' | 'SEQUENTIAL'
  allowDictateNextSigner: boolean
  typedSignatureEnabled: boolean
  uploadSignatureEnabled: boolean
  drawSignatureEnabled: boolean
  language: string
  distributionMethod: 'EMAIL' | 'NONE'
  emailSettings?: unknown
}

export interface Recipient {
  id: number
  envelopeId: string
  email: string
  name: string
  role: RecipientRole
  signingOrder: number | null
}

export interface EnvelopeItem {
  id: string
  envelopeId: string
  title: string
  order: number
  documentDataId: string
  pageCount?: number
}

export interface Field {
  id: number
  envelopeId: string
  envelopeItemId: string
  recipientId: number
  type: FieldType | 'FREE_SIGNATURE'
  page: number
  positionX: number
  positionY: number
  width: number
  height: number
  fieldMeta: FieldMeta | null
}

export interface Envelope {
  id: string
  secondaryId: string
  type: EnvelopeType
  status: string
  title: string
  externalId: string | null
  documentMeta: DocumentMeta | null
  recipients: Recipient[]
  envelopeItems: EnvelopeItem[]
  fields: Field[]
}

export interface Attachment {
  id: string
  type: 'link'
  label: string
  data: string
}

export interface EmbeddingSession {
  teamId: string
  scope: string | null
  expiresAt: string
}

/** `document_42` -> 42. */
export function legacyId(secondaryId: string): number {
  const n = Number(/_(\d+)$/.exec(secondaryId)?.[1])
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`no legacy id in ${secondaryId}`)
  return n
}
