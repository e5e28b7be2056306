/**
 * API v2's answers, declared once: the mappers that make them (domain/common/rows.ts) are typed by these
 * schemas, the OpenAPI document's components are generated from them (api/openapi.ts), each is tied
 * to the library's type of the same resource (src/protocol/api.ts) by test/host/answers.test.ts,
 * and that test parses real answers with them: a key the schema does not declare fails it. The
 * answers about an envelope's record (the evidence summary, POST /verify's) are declared in
 * record-answers.ts and registered here.
 * Nothing validates answers at run time; the schemas are the declaration.
 */
import { z } from 'zod'
import { FIELD_TYPES, RECIPIENT_ROLES, type DocumentMeta } from '../../../src/protocol/index.js'
import { BulkSendAnswer, BulkSendPreviewAnswer, BulkSendStartedAnswer, BulkTableAnswer } from './bulk-answers.js'
import { EvidenceAnswer, EvidenceCheckAnswer, VerifiedSignatureAnswer, VerifyAnswer, VerifyResultAnswer } from './record-answers.js'

/** Every answer schema by its component name (`#/components/schemas/{id}`). */
export const answers = z.registry<{ id: string; description?: string }>()

const date = z.iso.datetime({ offset: true })
const dateOrNull = date.nullable()
const int = z.int()

export const DirectLinkAnswer = z
  .object({
    id: z.string(),
    envelopeId: z.string(),
    templateId: int,
    token: z.string().describe('the public link is {host}/d/{token}; embedded: /embed/direct/{token}'),
    createdAt: date,
    enabled: z.boolean(),
    directTemplateRecipientId: int,
  })
  .register(answers, { id: 'DirectLink' })

export const ItemAnswer = z
  .object({ id: z.string(), envelopeId: z.string(), title: z.string(), order: int, documentDataId: z.string(), pageCount: int })
  .register(answers, { id: 'Item' })

export const RecipientAnswer = z
  .object({
    id: int,
    envelopeId: z.string(),
    documentId: int.nullable().describe("the legacy document number, on a document's recipient"),
    templateId: int.nullable().describe("the legacy template number, on a template's recipient"),
    email: z.string().describe('the address; "" for a role not yet filled in (its `name` is the role, e.g. "Client"): a template\'s, or a draft\'s made from one'),
    name: z.string(),
    role: z.enum(RECIPIENT_ROLES),
    token: z.string().describe('the signing secret; "" for a caller who may not hold it (only the creator, managers, admins and team-wide tokens do)'),
    readStatus: z.enum(['NOT_OPENED', 'OPENED']),
    signingStatus: z.enum(['NOT_SIGNED', 'SIGNED', 'REJECTED']),
    sendStatus: z.enum(['NOT_SENT', 'SENT']),
    signingOrder: int.nullable(),
    signedAt: dateOrNull,
    rejectionReason: z.string().nullable(),
    documentDeletedAt: dateOrNull,
    expired: z.null(),
    expiresAt: dateOrNull.describe("when the recipient's link expires (the envelope's expiry period from sending)"),
    expirationNotifiedAt: dateOrNull,
    authOptions: z.object({ accessAuth: z.array(z.string()), actionAuth: z.array(z.string()) }),
  })
  .register(answers, { id: 'Recipient' })

export const FieldAnswer = z
  .object({
    id: int,
    envelopeId: z.string(),
    envelopeItemId: z.string(),
    recipientId: int,
    type: z.enum(FIELD_TYPES),
    page: int.describe('1-based'),
    positionX: z.number().describe('percent 0..100 of the page'),
    positionY: z.number(),
    width: z.number(),
    height: z.number(),
    fieldMeta: z.record(z.string(), z.unknown()).nullable(),
    inserted: z.boolean(),
    customText: z.string().describe('the value once filled: text, a JSON array for checkboxes, a PNG data URL for signatures; "" before'),
    secondaryId: z.string().describe('`field_{id}`: the deployed clients require a string secondary id'),
  })
  .register(answers, { id: 'Field' })

/** POST /pdf/form-fields: each file's own form fields, as envelope fields would take them. */
export const PdfFormFieldsAnswer = z
  .object({
    name: z.string().describe("the file part's name"),
    pageCount: int,
    fields: z.array(
      FieldAnswer.pick({ type: true, page: true, positionX: true, positionY: true, width: true, height: true }).extend({
        fieldMeta: z.record(z.string(), z.unknown()).describe('{type, label, required, options?}: the form\'s description or name as the label'),
      }),
    ),
  })
  .register(answers, { id: 'PdfFormFields' })

/** GET /envelope/recipient/{id}: the recipient with its fields, as the deployed clients expect. */
export const RecipientWithFieldsAnswer = RecipientAnswer.extend({ fields: z.array(FieldAnswer) }).register(answers, { id: 'RecipientWithFields' })

export const AttachmentAnswer = z
  .object({ id: z.string(), type: z.literal('link'), label: z.string(), data: z.url() })
  .register(answers, { id: 'Attachment' })

/** The settings as answers show them: every key, defaults filled in, with the envelope's id. */
const DocumentMetaAnswer = z
  .custom<DocumentMeta & { id: string; emailId: null; emailReplyTo: null }>()
  .meta({ type: 'object', description: 'every documentMeta key (defaults filled in), `id` the envelope\'s, `emailId` and `emailReplyTo` null' })

export const EnvelopeAnswer = z
  .object({
    id: z.string(),
    secondaryId: z.string().describe('`document_N` or `template_N`'),
    internalVersion: int,
    type: z.enum(['DOCUMENT', 'TEMPLATE']),
    status: z.enum(['DRAFT', 'PENDING', 'COMPLETED', 'REJECTED', 'CANCELLED']),
    source: z.enum(['DOCUMENT', 'TEMPLATE', 'TEMPLATE_DIRECT_LINK']),
    visibility: z.string(),
    templateType: z.string(),
    externalId: z.string().nullable(),
    title: z.string(),
    createdAt: date,
    updatedAt: date,
    completedAt: dateOrNull,
    deletedAt: dateOrNull,
    purgedAt: date.optional().describe("only once purged at the end of its team's retention: its files are gone"),
    documentMeta: DocumentMetaAnswer,
    recipients: z.array(RecipientAnswer),
    envelopeItems: z.array(ItemAnswer),
    fields: z.array(FieldAnswer).optional().describe('left out of list answers'),
    // What the deployed clients' models require besides (docs/api-notes.md).
    authOptions: z.object({ globalAccessAuth: z.array(z.string()), globalActionAuth: z.array(z.string()) }),
    formValues: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
    publicTitle: z.string(),
    publicDescription: z.string(),
    userId: int.describe('the owning team number (API tokens belong to teams)'),
    teamId: int.describe('the owning team number'),
    folderId: z.string().nullable(),
    templateId: int.nullable().describe('the number of the template a document was made from'),
    directLink: DirectLinkAnswer.nullable(),
    team: z.object({ id: int, url: z.string() }),
    user: z.object({ id: int, name: z.string(), email: z.string() }),
  })
  .register(answers, { id: 'Envelope' })

export const SentRecipientAnswer = z
  .object({
    id: int,
    name: z.string(),
    email: z.string(),
    role: z.enum(RECIPIENT_ROLES),
    signingOrder: int.nullable(),
    token: z.string().describe('as Recipient.token: "" for a caller who may not hold it'),
    signingUrl: z.union([z.url(), z.literal('')]).describe('{origin}/sign/{token}; "" where the token is withheld'),
  })
  .register(answers, { id: 'SentRecipient' })

export const SentAnswer = z
  .object({ success: z.literal(true), id: z.string(), recipients: z.array(SentRecipientAnswer) })
  .register(answers, { id: 'Sent' })

export const AuditLogEntryAnswer = z
  .object({
    id: z.string(),
    envelopeId: z.string(),
    type: z.string().describe('what happened, e.g. DOCUMENT_SENT'),
    createdAt: date,
    name: z.string().nullable(),
    email: z.string().nullable(),
    userId: z.null(),
    recipientId: int.nullable(),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .register(answers, { id: 'AuditLogEntry' })

export const WebhookAnswer = z
  .object({
    id: z.string(),
    url: z.url(),
    events: z.array(z.string()),
    secret: z.string().describe('sent as the X-Service-Secret header (unless sendSecretHeader is false); "" when none'),
    sendSecretHeader: z.boolean().describe('false: calls carry no X-Service-Secret header'),
    signsWith: z.enum(['SIGNING_KEY', 'SECRET', 'NONE']).describe("what signs the calls: the webhook's own signing key, its secret (a webhook made before signing keys, until rotated), or nothing"),
    signingKey: z.string().optional().describe("the key of the calls' webhook-signature: in the answers of create, rotate-secret and rotate-signing-key only"),
    previousSecretExpiresAt: dateOrNull.describe('while a rotation lasts: until when what signed before still signs beside the current key'),
    enabled: z.boolean(),
    createdAt: date,
    updatedAt: date,
  })
  .register(answers, { id: 'Webhook' })

export const WebhookCallAnswer = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: int,
    event: z.string(),
    attempt: int,
    url: z.string(),
    requestBody: z.unknown().describe('the JSON body that was sent'),
    responseStatus: int.nullable().describe('null when the receiver never answered (see error)'),
    responseBody: z.string().nullable(),
    error: z.string().nullable(),
    durationMs: int,
    createdAt: date,
  })
  .register(answers, { id: 'WebhookCall' })

// The answers about an envelope's record (record-answers.ts).
answers
  .add(VerifiedSignatureAnswer, { id: 'VerifiedSignature' })
  .add(EvidenceAnswer, { id: 'Evidence' })
  .add(EvidenceCheckAnswer, { id: 'EvidenceCheck' })
  .add(VerifyResultAnswer, { id: 'VerifyResult' })
  .add(VerifyAnswer, { id: 'VerifyAnswer' })

// Bulk send's answers (bulk-answers.ts).
answers
  .add(BulkTableAnswer, { id: 'BulkTable' })
  .add(BulkSendPreviewAnswer, { id: 'BulkSendPreview' })
  .add(BulkSendAnswer, { id: 'BulkSend' })
  .add(BulkSendStartedAnswer, { id: 'BulkSendStarted' })

export type WebhookAnswer = z.output<typeof WebhookAnswer>
export type WebhookCallAnswer = z.output<typeof WebhookCallAnswer>
export type DirectLinkAnswer = z.output<typeof DirectLinkAnswer>
export type ItemAnswer = z.output<typeof ItemAnswer>
export type RecipientAnswer = z.output<typeof RecipientAnswer>
export type FieldAnswer = z.output<typeof FieldAnswer>
export type PdfFormFieldsAnswer = z.output<typeof PdfFormFieldsAnswer>
export type RecipientWithFieldsAnswer = z.output<typeof RecipientWithFieldsAnswer>
export type AttachmentAnswer = z.output<typeof AttachmentAnswer>
export type EnvelopeAnswer = z.output<typeof EnvelopeAnswer>
export type SentRecipientAnswer = z.output<typeof SentRecipientAnswer>
export type AuditLogEntryAnswer = z.output<typeof AuditLogEntryAnswer>
export type SentAnswer = z.output<typeof SentAnswer>
export type { BulkSendAnswer, BulkSendPreviewAnswer, BulkSendStartedAnswer, BulkTableAnswer } from './bulk-answers.js'

/** The registered answers as OpenAPI components: JSON Schema 2020-12, references between them by name. */
export function answerComponents(): Record<string, Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(answers, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, Record<string, unknown>>
  }
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _, id: _id, ...schema }]) => [id, schema]))
}
