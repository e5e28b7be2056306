/**
 * envelope-embed/server: what a customer's backend needs. Mint presign tokens for the browser,
 * verify the service's webhooks, call the API. Web-standard APIs only (fetch, FormData, Blob,
 * TextEncoder), so it runs on Node 18+ and on edge runtimes.
 */
export { createPresignToken } from './presign.js'
export type { CreatePresignTokenOptions, PresignOptions, PresignToken } from './presign.js'
export type { ConnectionOptions } from './config.js'
export {
  EnvelopeEmbedError,
  InvalidInputError,
  ApiError,
  NetworkError,
  TimeoutError,
  InvalidResponseError,
  WebhookError,
} from './errors.js'
export type { Issue, WebhookErrorReason } from './errors.js'
export { presignScope, PRESIGN_EXPIRES_IN } from '../protocol/presign.js'
export type { PresignScope, PresignTokenRequest, PresignTokenResponse } from '../protocol/presign.js'
export { verifyWebhook, verifyNodeWebhook, verifyWebhookBody, WEBHOOK_SECRET_HEADER } from './webhooks/verify.js'
export type { VerifyWebhookBodyOptions, VerifyWebhookOptions, NodeRequestLike } from './webhooks/verify.js'
export { verifySignedWebhook, verifySignedNodeWebhook, verifySignedWebhookBody, memoryReplayStore } from './webhooks/signed.js'
export type { VerifySignedWebhookOptions, VerifySignedWebhookBodyOptions, WebhookReplayStore } from './webhooks/signed.js'
export { WEBHOOK_ID_HEADER, WEBHOOK_TIMESTAMP_HEADER, WEBHOOK_SIGNATURE_HEADER } from '../protocol/webhook-signature.js'
export { WEBHOOK_EVENTS, FULL_PAYLOAD_EVENTS, RECIPIENT_EVENTS, TEMPLATE_EVENTS } from './webhooks/events.js'
export type {
  WebhookEvent,
  WebhookEventName,
  WebhookPayloads,
  WebhookDocumentPayload,
  WebhookReducedPayload,
  WebhookTemplatePayload,
  WebhookTemplateUsedPayload,
  WebhookRecipient,
  WebhookDocumentMeta,
} from './webhooks/events.js'
export type * from '../protocol/api.js'
export type { EnvelopeType } from '../protocol/options.js'
export { verifyEvidence } from './evidence.js'
export type {
  VerifyEvidenceOptions,
  VerifiedEvidence,
  Evidence,
  EvidenceConsent,
  EvidenceDocument,
  EvidenceProof,
  EvidenceRecipient,
  EvidenceSeal,
  EvidenceStep,
} from './evidence.js'
export { createClient } from './client.js'
export type {
  EnvelopeClient,
  FileInput,
  CreateEnvelopeInput,
  CreateEnvelopeFieldInput,
  FieldPlacement,
  UpdateEnvelopeInput,
  ListEnvelopesInput,
  GetManyInput,
  RecipientInput,
  AccessAuth,
  ActionAuth,
  EnvelopeAuthInput,
  FieldCoordinateInput,
  FieldPlaceholderInput,
  FieldUpdateInput,
  ItemUpdateInput,
  ItemUpdateResult,
  AttachmentInput,
  DistributeInput,
  RedistributeInput,
  CancelInput,
  RejectInput,
  PdfVersion,
  DownloadInput,
  AuditLogInput,
  EvidenceInput,
  WebhookInput,
} from './client.js'
export type { CallOptions } from './request.js'
