/** The API's resources (spec "Resources and their fields", completed by the service's answers). */

export type EnvelopeType = 'DOCUMENT' | 'TEMPLATE'
export type EnvelopeStatus = 'DRAFT' | 'PENDING' | 'COMPLETED' | 'REJECTED' | 'CANCELLED'
export type EnvelopeSource = 'DOCUMENT' | 'TEMPLATE' | 'TEMPLATE_DIRECT_LINK'
export type RecipientRole = 'SIGNER' | 'VIEWER' | 'APPROVER' | 'ASSISTANT' | 'CC'
export type ReadStatus = 'NOT_OPENED' | 'OPENED'
export type SigningStatus = 'NOT_SIGNED' | 'SIGNED' | 'REJECTED'
export type SendStatus = 'NOT_SENT' | 'SENT'
export type SigningOrder = 'PARALLEL' | 'SEQUENTIAL'
export type FieldType =
  | 'SIGNATURE' | 'FREE_SIGNATURE' | 'INITIALS' | 'NAME' | 'EMAIL' | 'DATE'
  | 'TEXT' | 'NUMBER' | 'CHECKBOX' | 'RADIO' | 'DROPDOWN'

/** Per-envelope settings. Free-form where the spec leaves values open. */
export interface DocumentMeta {
  subject: string | null
  message: string | null
  timezone: string
  dateFormat: string
  redirectUrl: string | null
  signingOrder: SigningOrder
  allowDictateNextSigner: boolean
  typedSignatureEnabled: boolean
  uploadSignatureEnabled: boolean
  drawSignatureEnabled: boolean
  language: string
  distributionMethod: string
  emailSettings: Record<string, unknown> | null
}

export interface AuthOptions {
  accessAuth: unknown[] | null
  actionAuth: unknown[] | null
}

export interface Recipient {
  id: number
  envelopeId: string
  email: string
  name: string
  role: RecipientRole
  signingOrder: number | null
  token?: string
  readStatus?: ReadStatus
  signingStatus?: SigningStatus
  sendStatus?: SendStatus
  signedAt?: string | null
  rejectionReason?: string | null
  documentDeletedAt?: string | null
  expired?: unknown
  authOptions?: AuthOptions | null
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
  type: FieldType
  /** 1-based. */
  page: number
  /** Percent 0..100 of the page. */
  positionX: number
  positionY: number
  width: number
  height: number
  fieldMeta: Record<string, unknown> | null
}

/** An envelope as listed (GET /envelope, get-many): everything but its fields. */
export interface EnvelopeSummary {
  id: string
  /** `document_N` or `template_N`. */
  secondaryId: string
  internalVersion: number
  type: EnvelopeType
  status: EnvelopeStatus
  source: EnvelopeSource
  visibility: string
  templateType: string
  externalId: string | null
  title: string
  createdAt: string
  updatedAt: string
  completedAt: string | null
  deletedAt: string | null
  documentMeta: DocumentMeta
  recipients: Recipient[]
  envelopeItems: EnvelopeItem[]
}

/** GET /envelope/{id}: the envelope with all its fields. */
export interface Envelope extends EnvelopeSummary {
  fields: Field[]
}

export interface Attachment {
  id: string
  type: 'link'
  label: string
  /** A URI. */
  data: string
}

export interface EnvelopePage {
  data: EnvelopeSummary[]
  page: number
  perPage: number
  totalPages: number
  totalCount: number
}
