/** Checks of the API's answers, typed against the resource interfaces. */
import type {
  Attachment, AuditLogEntry, AuditLogPage, AuthOptions, DistributedRecipient, DistributeResponse, DocumentMeta, Envelope,
  EnvelopeAuthOptions, EnvelopeItem, EnvelopePage, EnvelopeSummary, ExpirationPeriod, Field, Recipient, ReminderPeriod, ReminderSettings, Team, Webhook, WebhookCall, WebhookCallPage,
} from '../protocol/api.js'
import { any, arr, bool, both, int, literal, nullable, num, obj, optional, record, str, type Schema } from './check.js'

export const recipientRole = literal('SIGNER', 'VIEWER', 'APPROVER', 'ASSISTANT', 'CC')

export const recipient = obj<Recipient>({
  id: int,
  envelopeId: str,
  email: str,
  name: str,
  role: recipientRole,
  signingOrder: nullable(num),
  token: optional(str),
  readStatus: optional(literal('NOT_OPENED', 'OPENED')),
  signingStatus: optional(literal('NOT_SIGNED', 'SIGNED', 'REJECTED')),
  sendStatus: optional(literal('NOT_SENT', 'SENT')),
  signedAt: optional(nullable(str)),
  rejectionReason: optional(nullable(str)),
  documentDeletedAt: optional(nullable(str)),
  expired: any,
  authOptions: optional(nullable(obj<AuthOptions>({ accessAuth: nullable(arr(any)), actionAuth: nullable(arr(any)) }))),
})

export const envelopeItem = obj<EnvelopeItem>({
  id: str,
  envelopeId: str,
  title: str,
  order: int,
  documentDataId: str,
  pageCount: optional(int),
})

export const itemUpdate = obj<Pick<EnvelopeItem, 'id' | 'order' | 'title' | 'envelopeId'>>({
  id: str,
  order: int,
  title: str,
  envelopeId: str,
})

export const field = obj<Field>({
  id: int,
  envelopeId: str,
  envelopeItemId: str,
  recipientId: int,
  type: literal(
    'SIGNATURE', 'FREE_SIGNATURE', 'INITIALS', 'NAME', 'EMAIL', 'DATE', 'TEXT', 'NUMBER', 'CHECKBOX', 'RADIO', 'DROPDOWN',
  ),
  page: int,
  positionX: num,
  positionY: num,
  width: num,
  height: num,
  fieldMeta: nullable(record),
  inserted: optional(bool),
  customText: optional(str),
  secondaryId: optional(str),
})

export const documentMeta = obj<DocumentMeta>({
  subject: nullable(str),
  message: nullable(str),
  timezone: str,
  dateFormat: str,
  redirectUrl: nullable(str),
  signingOrder: literal('PARALLEL', 'SEQUENTIAL'),
  allowDictateNextSigner: bool,
  typedSignatureEnabled: bool,
  uploadSignatureEnabled: bool,
  drawSignatureEnabled: bool,
  language: str,
  distributionMethod: str,
  emailSettings: nullable(record),
  envelopeExpirationPeriod: optional(nullable(record as Schema<ExpirationPeriod>)),
  reminderSettings: optional(nullable(obj<ReminderSettings>({ sendAfter: record as Schema<ReminderPeriod>, repeatEvery: record as Schema<ReminderPeriod> }))),
  includeSigningCertificate: optional(bool),
  includeAuditLog: optional(bool),
})

export const envelopeSummary = obj<EnvelopeSummary>({
  id: str,
  secondaryId: str,
  internalVersion: num,
  type: literal('DOCUMENT', 'TEMPLATE'),
  status: literal('DRAFT', 'PENDING', 'COMPLETED', 'REJECTED', 'CANCELLED'),
  source: literal('DOCUMENT', 'TEMPLATE', 'TEMPLATE_DIRECT_LINK'),
  visibility: str,
  templateType: str,
  externalId: nullable(str),
  title: str,
  createdAt: str,
  updatedAt: str,
  completedAt: nullable(str),
  deletedAt: nullable(str),
  documentMeta,
  recipients: arr(recipient),
  envelopeItems: arr(envelopeItem),
  authOptions: optional(nullable(obj<EnvelopeAuthOptions>({ globalAccessAuth: arr(str), globalActionAuth: arr(str) }))),
  formValues: optional(nullable(record as Schema<Record<string, string | number | boolean>>)),
  publicTitle: optional(str),
  publicDescription: optional(str),
  userId: optional(int),
  teamId: optional(int),
  folderId: optional(nullable(str)),
  templateId: optional(nullable(int)),
  directLink: any,
  team: optional(nullable(obj<{ id: number; url: string }>({ id: int, url: str }))),
  user: optional(obj<{ id: number; name: string; email: string }>({ id: int, name: str, email: str })),
})

export const envelope: Schema<Envelope> = both(envelopeSummary, obj<{ fields: Field[] }>({ fields: arr(field) }))

export const attachment = obj<Attachment>({ id: str, type: literal('link'), label: str, data: str })

export const envelopePage = obj<EnvelopePage>({
  data: arr(envelopeSummary),
  count: int,
  currentPage: int,
  perPage: int,
  totalPages: int,
})

/** `{data: T[]}`, the API's list wrapper. */
export const list = <T>(s: Schema<T>) => obj<{ data: T[] }>({ data: arr(s) })
export const success = obj<{ success: true }>({ success: literal(true) })
export const created = obj<{ id: string }>({ id: str })

export const distributedRecipient = obj<DistributedRecipient>({
  id: int,
  name: str,
  email: str,
  token: str,
  role: recipientRole,
  signingOrder: nullable(num),
  signingUrl: str,
})

export const distributed = obj<DistributeResponse>({ success: literal(true), id: str, recipients: arr(distributedRecipient) })

export const auditLogEntry = obj<AuditLogEntry>({
  id: str,
  envelopeId: str,
  type: str,
  createdAt: str,
  name: nullable(str),
  email: nullable(str),
  userId: nullable(int),
  recipientId: nullable(int),
  ipAddress: nullable(str),
  userAgent: nullable(str),
  data: record,
})

export const auditLogPage = obj<AuditLogPage>({
  data: arr(auditLogEntry),
  count: int,
  currentPage: int,
  perPage: int,
  totalPages: int,
})

export const team = obj<Team>({ id: str, number: int, name: str, plan: str, embedOrigins: nullable(arr(str)) })

export const webhook = obj<Webhook>({
  id: str,
  url: str,
  events: arr(str),
  secret: str,
  sendSecretHeader: optional(bool),
  signsWith: optional(literal('SIGNING_KEY', 'SECRET', 'NONE')),
  signingKey: optional(str),
  previousSecretExpiresAt: optional(nullable(str)),
  enabled: bool,
  createdAt: str,
  updatedAt: str,
})

export const webhookCallPage = obj<WebhookCallPage>({
  data: arr(
    obj<WebhookCall>({
      id: str,
      webhookId: str,
      eventId: int,
      event: str,
      attempt: int,
      url: str,
      requestBody: any,
      responseStatus: nullable(int),
      responseBody: nullable(str),
      error: nullable(str),
      durationMs: num,
      createdAt: str,
    }),
  ),
  count: int,
  currentPage: int,
  perPage: int,
  totalPages: int,
})
