/**
 * API v2's route table: each route's answer, by method and path (`:name` marks a path parameter),
 * as the console's contract (host/shared/console-contract.ts) is for the console. The handlers
 * check what they answer against it (`satisfies V2Answer<'GET /envelope'>`); the resources' shapes
 * are the schemas of answers.ts, from which the OpenAPI document's components are generated.
 * test/host/api-v2-contract.test.ts holds the table, the routes served and the handlers' checks
 * to each other. The deprecated routes answer the legacy shapes (api/openapi-deprecated.ts).
 */
import type { Evidence } from '../../../src/protocol/evidence.js'
import type { PresignTokenResponse } from '../../../src/protocol/presign.js'
import type { VerifyResult } from './verify-answer.js'
import type { Disclosure } from '../domain/signing/consent.js'
import type { EvidenceCheck } from '../domain/evidence/evidence.js'
import type { TeamSettings } from '../domain/team/settings.js'
import type {
  AttachmentAnswer,
  BulkSendAnswer,
  BulkSendPreviewAnswer,
  BulkSendStartedAnswer,
  BulkTableAnswer,
  AuditLogEntryAnswer,
  EnvelopeAnswer,
  FieldAnswer,
  ItemAnswer,
  PdfFormFieldsAnswer,
  RecipientAnswer,
  RecipientWithFieldsAnswer,
  SentAnswer,
  SentRecipientAnswer,
  WebhookAnswer,
  WebhookCallAnswer,
} from './answers.js'

type Success = { success: true }
type Created = { id: string }
type Data<T> = { data: T[] }
type Page<T> = Data<T> & { count: number; currentPage: number; perPage: number; totalPages: number }
/** A PDF download (`application/pdf`), not JSON. */
type Pdf = { pdf: true }
/** A CSV download (`text/csv`), not JSON. */
type Csv = { csv: true }

export interface ApiV2Routes {
  'GET /team': { answer: TeamSettings }
  'POST /team/update': { answer: TeamSettings }
  'GET /team/consent-disclosure': { answer: Disclosure }
  'POST /team/consent-disclosure': { answer: Disclosure }
  'POST /embedding/create-presign-token': { answer: PresignTokenResponse }
  'GET /embedding/session': { answer: { teamId: string; scope: string | null; expiresAt: string } }
  'POST /envelope/create': { answer: Created }
  'GET /envelope': { answer: Page<EnvelopeAnswer> }
  'GET /envelope/:envelopeId': { answer: EnvelopeAnswer }
  'POST /envelope/get-many': { answer: Data<EnvelopeAnswer> }
  'POST /envelope/update': { answer: EnvelopeAnswer }
  'POST /envelope/delete': { answer: Success }
  'POST /envelope/duplicate': { answer: Created }
  'POST /envelope/bulk-send/columns': { answer: BulkTableAnswer }
  'POST /envelope/bulk-send': { answer: BulkSendPreviewAnswer | BulkSendStartedAnswer }
  'GET /envelope/bulk-send/:bulkSendId': { answer: BulkSendAnswer }
  'GET /envelope/bulk-send/:bulkSendId/report': { answer: Csv }
  'POST /envelope/use': { answer: Created & { recipients: SentRecipientAnswer[] } }
  'POST /envelope/item/create-many': { answer: Data<ItemAnswer> }
  'POST /envelope/item/update-many': { answer: Data<ItemAnswer> }
  'POST /envelope/item/delete': { answer: Success }
  'GET /envelope/item/:envelopeItemId/download': { answer: Pdf }
  'POST /pdf/form-fields': { answer: Data<PdfFormFieldsAnswer> }
  'POST /envelope/recipient/create-many': { answer: Data<RecipientAnswer> }
  'GET /envelope/recipient/:recipientId': { answer: RecipientWithFieldsAnswer }
  'POST /envelope/recipient/update-many': { answer: Data<RecipientAnswer> }
  'POST /envelope/recipient/delete': { answer: Success }
  'POST /envelope/recipient/:recipientId/reject': { answer: RecipientAnswer }
  'POST /envelope/field/create-many': { answer: Data<FieldAnswer> }
  'GET /envelope/field/:fieldId': { answer: FieldAnswer }
  'POST /envelope/field/update-many': { answer: Data<FieldAnswer> }
  'POST /envelope/field/delete': { answer: Success }
  'GET /envelope/attachment': { answer: Data<AttachmentAnswer> }
  'POST /envelope/attachment/create': { answer: Created }
  'POST /envelope/attachment/update': { answer: Success }
  'POST /envelope/attachment/delete': { answer: Success }
  'POST /envelope/distribute': { answer: SentAnswer }
  'POST /envelope/redistribute': { answer: SentAnswer }
  'POST /envelope/cancel': { answer: Success }
  'GET /envelope/:envelopeId/audit-log': { answer: Page<AuditLogEntryAnswer> & { chainHead: string | null } }
  'GET /envelope/:envelopeId/certificate/download': { answer: Pdf }
  'GET /envelope/:envelopeId/audit-log/download': { answer: Pdf }
  'GET /envelope/:envelopeId/evidence': { answer: Evidence }
  'POST /webhook/create': { answer: WebhookAnswer }
  'GET /webhook': { answer: Data<WebhookAnswer> }
  'GET /webhook/:webhookId': { answer: WebhookAnswer }
  'POST /webhook/update': { answer: WebhookAnswer }
  'POST /webhook/delete': { answer: Success }
  'GET /webhook/:webhookId/calls': { answer: Page<WebhookCallAnswer> }
  'POST /webhook/call/:callId/resend': { answer: Success }
  'POST /webhook/:webhookId/rotate-secret': { answer: WebhookAnswer }
  'POST /webhook/:webhookId/rotate-signing-key': { answer: WebhookAnswer }
  'POST /webhook/:webhookId/test': { answer: Success }
  'POST /verify': { answer: VerifyResult | { evidence: EvidenceCheck } }
  'GET /openapi.json': { answer: Record<string, unknown> }
}

export type V2Route = keyof ApiV2Routes
export type V2Answer<R extends V2Route> = ApiV2Routes[R]['answer']
