/** The service's webhook events: their names, payload types and the checks a receiver runs. */
import type {
  AuthOptions, DocumentMeta, EnvelopeSource, EnvelopeStatus, ReadStatus, RecipientRole, SendStatus, SigningStatus,
} from '../../protocol/api.js'
import {
  any, arr, both, int, isNull, literal, nullable, num, obj, optional, record, str, type Schema,
} from '../check.js'
import { documentMeta as apiDocumentMeta } from '../schemas.js'

/** Events whose payload is the full document payload. */
export const FULL_PAYLOAD_EVENTS = ['DOCUMENT_CREATED', 'DOCUMENT_SENT', 'DOCUMENT_COMPLETED', 'DOCUMENT_CANCELLED'] as const
/** Events about one recipient's progress; reduced payload. */
export const RECIPIENT_EVENTS = [
  'DOCUMENT_OPENED', 'DOCUMENT_SIGNED', 'DOCUMENT_RECIPIENT_COMPLETED', 'DOCUMENT_REJECTED',
  'RECIPIENT_EXPIRED', 'DOCUMENT_REMINDER_SENT',
] as const
/** Template lifecycle; reduced payload, the template's own legacy id in `id`, `templateId` null. */
export const TEMPLATE_EVENTS = ['TEMPLATE_CREATED', 'TEMPLATE_UPDATED', 'TEMPLATE_DELETED'] as const

/** All fourteen event names. */
export const WEBHOOK_EVENTS = [...FULL_PAYLOAD_EVENTS, ...RECIPIENT_EVENTS, ...TEMPLATE_EVENTS, 'TEMPLATE_USED'] as const
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number]

/** A recipient as webhook payloads carry it. Exactly one of documentId and templateId is null. */
export interface WebhookRecipient {
  id: number
  /** The reliable parent link. */
  envelopeId: string
  documentId: number | null
  templateId: number | null
  email: string
  name: string
  role: RecipientRole
  token: string
  readStatus: ReadStatus
  signingStatus: SigningStatus
  sendStatus: SendStatus
  signingOrder: number | null
  signedAt: string | null
  rejectionReason: string | null
  documentDeletedAt: string | null
  /** The signing-link deadline. */
  expiresAt: string | null
  expirationNotifiedAt: string | null
  authOptions: AuthOptions | null
}

export interface WebhookDocumentMeta extends DocumentMeta {
  /** Listed in API v2's webhook payloads; absent from some senders (the reference host), so optional. */
  id?: string
}

/** The full payload (DOCUMENT_CREATED, DOCUMENT_SENT, DOCUMENT_COMPLETED, DOCUMENT_CANCELLED). */
export interface WebhookDocumentPayload {
  /** Legacy numeric id. */
  id: number
  envelopeId: string
  externalId: string | null
  /** A number in API v2's payloads; null when no user made the change (e.g. an API token did, on the reference host). */
  userId: number | null
  authOptions: Record<string, unknown> | null
  formValues: Record<string, unknown> | null
  title: string
  status: EnvelopeStatus
  visibility: string
  createdAt: string
  updatedAt: string
  completedAt: string | null
  deletedAt: string | null
  teamId: number | null
  templateId: number | null
  source: EnvelopeSource
  documentMeta: WebhookDocumentMeta | null
  recipients: WebhookRecipient[]
  /** Legacy duplicate of `recipients`. */
  Recipient: WebhookRecipient[]
}

/** The reduced payload of the other events. */
export type WebhookReducedPayload = Pick<WebhookDocumentPayload, 'id' | 'envelopeId' | 'status' | 'title' | 'source' | 'recipients'>

/** TEMPLATE_CREATED / UPDATED / DELETED: `id` is the template's legacy id. */
export interface WebhookTemplatePayload extends WebhookReducedPayload {
  templateId: null
}

/** TEMPLATE_USED: describes the new document; `templateId` is the originating template's legacy id. */
export interface WebhookTemplateUsedPayload extends WebhookReducedPayload {
  templateId: number
}

/** The payload type of each event. */
export interface WebhookPayloads {
  DOCUMENT_CREATED: WebhookDocumentPayload
  DOCUMENT_SENT: WebhookDocumentPayload
  DOCUMENT_COMPLETED: WebhookDocumentPayload
  DOCUMENT_CANCELLED: WebhookDocumentPayload
  DOCUMENT_OPENED: WebhookReducedPayload
  DOCUMENT_SIGNED: WebhookReducedPayload
  DOCUMENT_RECIPIENT_COMPLETED: WebhookReducedPayload
  DOCUMENT_REJECTED: WebhookReducedPayload
  RECIPIENT_EXPIRED: WebhookReducedPayload
  DOCUMENT_REMINDER_SENT: WebhookReducedPayload
  TEMPLATE_CREATED: WebhookTemplatePayload
  TEMPLATE_UPDATED: WebhookTemplatePayload
  TEMPLATE_DELETED: WebhookTemplatePayload
  TEMPLATE_USED: WebhookTemplateUsedPayload
}

/** One event body; `switch (event.event)` narrows `payload`. */
export type WebhookEvent = {
  [E in WebhookEventName]: {
    event: E
    payload: WebhookPayloads[E]
    /** When the event was created (ISO date-time). With `event` and `payload.envelopeId`, a key for idempotency. */
    createdAt: string
    /** The URL the service delivered to. */
    webhookEndpoint: string
  }
}[WebhookEventName]

const date = str
const recipient = obj<WebhookRecipient>({
  id: int,
  envelopeId: str,
  documentId: nullable(int),
  templateId: nullable(int),
  email: str,
  name: str,
  role: literal('SIGNER', 'VIEWER', 'APPROVER', 'ASSISTANT', 'CC'),
  token: str,
  readStatus: literal('NOT_OPENED', 'OPENED'),
  signingStatus: literal('NOT_SIGNED', 'SIGNED', 'REJECTED'),
  sendStatus: literal('NOT_SENT', 'SENT'),
  signingOrder: nullable(num),
  signedAt: nullable(date),
  rejectionReason: nullable(str),
  documentDeletedAt: nullable(date),
  expiresAt: nullable(date),
  expirationNotifiedAt: nullable(date),
  authOptions: nullable(obj<AuthOptions>({ accessAuth: nullable(arr(any)), actionAuth: nullable(arr(any)) })),
})

// The API's documentMeta check, plus the id API v2 lists in webhook payloads.
const documentMeta = both(apiDocumentMeta, obj<Pick<WebhookDocumentMeta, 'id'>>({ id: optional(str) }))

const status = literal('DRAFT', 'PENDING', 'COMPLETED', 'REJECTED', 'CANCELLED')
const source = literal('DOCUMENT', 'TEMPLATE', 'TEMPLATE_DIRECT_LINK')

const reduced = obj<WebhookReducedPayload>({
  id: int,
  envelopeId: str,
  status,
  title: str,
  source,
  recipients: arr(recipient),
})

const full = both(reduced, obj<Omit<WebhookDocumentPayload, keyof WebhookReducedPayload>>({
  externalId: nullable(str),
  userId: nullable(int),
  authOptions: nullable(record),
  formValues: nullable(record),
  visibility: str,
  createdAt: date,
  updatedAt: date,
  completedAt: nullable(date),
  deletedAt: nullable(date),
  teamId: nullable(int),
  templateId: nullable(int),
  documentMeta: nullable(documentMeta),
  Recipient: arr(recipient),
}))

const template = both(reduced, obj<{ templateId: null }>({ templateId: isNull }))
const templateUsed = both(reduced, obj<{ templateId: number }>({ templateId: int }))

/** The payload check of each event. */
export const PAYLOAD_SCHEMAS: { [E in WebhookEventName]: Schema<WebhookPayloads[E]> } = {
  DOCUMENT_CREATED: full,
  DOCUMENT_SENT: full,
  DOCUMENT_COMPLETED: full,
  DOCUMENT_CANCELLED: full,
  DOCUMENT_OPENED: reduced,
  DOCUMENT_SIGNED: reduced,
  DOCUMENT_RECIPIENT_COMPLETED: reduced,
  DOCUMENT_REJECTED: reduced,
  RECIPIENT_EXPIRED: reduced,
  DOCUMENT_REMINDER_SENT: reduced,
  TEMPLATE_CREATED: template,
  TEMPLATE_UPDATED: template,
  TEMPLATE_DELETED: template,
  TEMPLATE_USED: templateUsed,
}
