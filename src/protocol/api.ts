/**
 * The API's resources, with every field a host answers, including those API v2 leaves unshown
 * (docs/api-notes.md, "Resources"). The host answers with them; the authoring pages and the
 * server entry's client read them.
 */
import type { EnvelopeType } from './options.js'

export type EnvelopeStatus = 'DRAFT' | 'PENDING' | 'COMPLETED' | 'REJECTED' | 'CANCELLED'
export type EnvelopeSource = 'DOCUMENT' | 'TEMPLATE' | 'TEMPLATE_DIRECT_LINK'
export const RECIPIENT_ROLES = ['SIGNER', 'VIEWER', 'APPROVER', 'ASSISTANT', 'CC'] as const
export type RecipientRole = (typeof RECIPIENT_ROLES)[number]
export type ReadStatus = 'NOT_OPENED' | 'OPENED'
export type SigningStatus = 'NOT_SIGNED' | 'SIGNED' | 'REJECTED'
export type SendStatus = 'NOT_SENT' | 'SENT'
export type SigningOrder = 'PARALLEL' | 'SEQUENTIAL'
export const FIELD_TYPES = [
  'SIGNATURE', 'FREE_SIGNATURE', 'INITIALS', 'NAME', 'EMAIL', 'DATE',
  'TEXT', 'NUMBER', 'CHECKBOX', 'RADIO', 'DROPDOWN',
] as const
export type FieldType = (typeof FIELD_TYPES)[number]

/** Per-envelope settings. Free-form where API v2 leaves values open. */
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
  /** How long each recipient's signing link lives after it is sent; null = for ever. */
  envelopeExpirationPeriod?: ExpirationPeriod | null
  /** When to remind a recipient whose turn it is; null = never. */
  reminderSettings?: ReminderSettings | null
  /** The sealed PDF ends with the signing certificate. Default true. */
  includeSigningCertificate?: boolean
  /** The sealed PDF ends with the audit log (after the certificate). Default false. */
  includeAuditLog?: boolean
}

export type PeriodUnit = 'day' | 'week' | 'month' | 'year'
export type ExpirationPeriod = { unit: PeriodUnit; amount: number } | { disabled: true }
export type ReminderPeriod = { unit: Exclude<PeriodUnit, 'year'>; amount: number } | { disabled: true }
/** The first reminder `sendAfter` the recipient's turn began, then one every `repeatEvery`. */
export interface ReminderSettings {
  sendAfter: ReminderPeriod
  repeatEvery: ReminderPeriod
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
  /** Filled in (by its recipient, or ahead from a template's prefill). */
  inserted?: boolean
  /** The value once filled: text, a JSON array for checkboxes, a PNG data URL for signatures. */
  customText?: string
  /** `field_{id}` on this host: the deployed clients require a string secondary id. */
  secondaryId?: string
}

/** A PDF's own form field as an envelope field would take it (`POST /pdf/form-fields`, a host extension). */
export type FormFieldOffer = Pick<Field, 'type' | 'page' | 'positionX' | 'positionY' | 'width' | 'height'> & {
  /** `{type, label, required, options?}`: the form's description or name as the label. */
  fieldMeta: Record<string, unknown>
}

/** One file's answer of `POST /pdf/form-fields`. */
export interface PdfFormFields {
  name: string
  pageCount: number
  fields: FormFieldOffer[]
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
  // What the deployed service's clients require besides (docs/api-notes.md, "Compatibility with
  // the deployed clients"); optional here, as hosts before it did not send them.
  authOptions?: EnvelopeAuthOptions | null
  formValues?: Record<string, string | number | boolean> | null
  publicTitle?: string
  publicDescription?: string
  /** The owning team's number (this host has no users: API tokens belong to teams). */
  userId?: number
  teamId?: number
  folderId?: string | null
  templateId?: number | null
  directLink?: unknown
  team?: { id: number; url: string } | null
  user?: { id: number; name: string; email: string }
}

/** Envelope-wide authentication requirements (none on this host). */
export interface EnvelopeAuthOptions {
  globalAccessAuth: string[]
  globalActionAuth: string[]
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

/** GET /envelope: one page, paginated as the deployed service's clients expect. */
export interface EnvelopePage {
  data: EnvelopeSummary[]
  /** How many envelopes match, over all pages. */
  count: number
  currentPage: number
  perPage: number
  totalPages: number
}

/** GET /embedding/session: what a presign token allows. */
export interface EmbeddingSession {
  teamId: string
  scope: string | null
  expiresAt: string
}

/** The settings every new envelope starts with. */
export const DEFAULT_DOCUMENT_META: DocumentMeta = {
  subject: null,
  message: null,
  timezone: 'Etc/UTC',
  dateFormat: 'yyyy-MM-dd hh:mm a',
  redirectUrl: null,
  signingOrder: 'PARALLEL',
  allowDictateNextSigner: false,
  typedSignatureEnabled: true,
  uploadSignatureEnabled: true,
  drawSignatureEnabled: true,
  language: 'en',
  distributionMethod: 'EMAIL',
  emailSettings: null,
  envelopeExpirationPeriod: null,
  reminderSettings: null,
  includeSigningCertificate: true,
  includeAuditLog: false,
}

/** The legacy numeric id in a secondaryId: `document_42` -> 42; null when there is none. */
export function legacyId(secondaryId: string): number | null {
  const n = Number(/^(?:document|template)_(\d+)$/.exec(secondaryId)?.[1])
  return Number.isSafeInteger(n) && n > 0 ? n : null
}

// ---- the envelope's lifecycle: distribute, redistribute, the audit log -------------------------

/** A recipient as `POST /envelope/distribute` and `/envelope/redistribute` answer it. */
export interface DistributedRecipient {
  id: number
  name: string
  email: string
  /** The recipient's token: the credential of the signing page (`/sign/{token}`, `/embed/sign/{token}`). */
  token: string
  role: RecipientRole
  signingOrder: number | null
  /** The link that opens the signing page for this recipient. */
  signingUrl: string
}

/** The answer of `POST /envelope/distribute` and `/envelope/redistribute`: `id` is the envelope's. */
export interface DistributeResponse {
  success: true
  id: string
  recipients: DistributedRecipient[]
}

/** One entry of `GET /envelope/{envelopeId}/audit-log`: who did what, when, from where. */
export interface AuditLogEntry {
  id: string
  envelopeId: string
  /** What happened, e.g. `DOCUMENT_SENT`, `DOCUMENT_OPENED`, `DOCUMENT_RECIPIENT_COMPLETED`. */
  type: string
  createdAt: string
  /** The acting recipient's name and e-mail; null when the team acted (through the API). */
  name: string | null
  email: string | null
  userId: number | null
  recipientId: number | null
  ipAddress: string | null
  userAgent: string | null
  /** Details of the action (free-form by type). */
  data: Record<string, unknown>
}

/** A page of the audit log, oldest first unless asked otherwise. */
export interface AuditLogPage {
  data: AuditLogEntry[]
  /** All entries of the envelope. */
  count: number
  currentPage: number
  perPage: number
  totalPages: number
}

/** The calling team (an extension of our host). */
export interface Team {
  id: string
  number: number
  name: string
  plan: string
  /** The origins allowed to frame the team's authoring and signing pages; null: any origin. */
  embedOrigins: string[] | null
}

/** A webhook endpoint of the team; API v2 leaves its configuration to each host (docs/delivery.md, "Webhooks"). */
export interface Webhook {
  id: string
  url: string
  /** Event names, any of EVENT_NAMES. */
  events: string[]
  /**
   * Sent as the X-Service-Secret header (unless `sendSecretHeader` is false); `''` when none.
   * Visible ASCII only. It does not sign the calls (`signingKey` does), except on a webhook made
   * before signing keys (`signsWith: 'SECRET'`) until its secret is rotated.
   */
  secret: string
  /** false: calls carry no X-Service-Secret header, for a receiver that checks the signature only. */
  sendSecretHeader?: boolean
  /** What signs the calls: the webhook's own signing key, its secret (made before signing keys), or nothing. */
  signsWith?: 'SIGNING_KEY' | 'SECRET' | 'NONE'
  /**
   * The key of the calls' `webhook-signature` (Standard Webhooks, `whsec_`): in the answers of
   * create, rotate-secret and rotate-signing-key only, so keep it then.
   */
  signingKey?: string
  /** While a rotation's grace lasts: until when what signed before (the old key or secret) still signs beside the current key. */
  previousSecretExpiresAt?: string | null
  enabled: boolean
  createdAt: string
  updatedAt: string
}

/** One delivery attempt of an event to a webhook. */
export interface WebhookCall {
  id: string
  webhookId: string
  eventId: number
  event: string
  attempt: number
  url: string
  /** The JSON body that was sent. */
  requestBody: unknown
  /** Null when the receiver never answered (see `error`). */
  responseStatus: number | null
  responseBody: string | null
  error: string | null
  durationMs: number
  createdAt: string
}

export interface WebhookCallPage {
  data: WebhookCall[]
  count: number
  currentPage: number
  perPage: number
  totalPages: number
}
