/**
 * The typed API client. Each method is one `request` call: path, body, and the check of the answer.
 * Methods taking a single id take it positionally; the others take the API's own JSON body.
 */
import { connect, type ConnectionOptions } from './config.js'
import { InvalidInputError } from './errors.js'
import { mint, presignBody, type PresignOptions, type PresignToken } from './presign.js'
import { request, requestBytes, type CallOptions } from './request.js'
import * as s from './schemas.js'
import type {
  Attachment, AuditLogPage, DistributeResponse, DocumentMeta, Envelope, EnvelopeItem, EnvelopePage, EnvelopeSummary,
  Field, FieldType, Recipient, RecipientRole, Team, Webhook, WebhookCallPage,
} from '../protocol/api.js'
import type { WebhookEventName } from './webhooks/events.js'
import type { EnvelopeType } from '../protocol/options.js'
import type { Issue } from './errors.js'
import { record, type Schema } from './check.js'
import type { Evidence } from '../protocol/evidence.js'

export interface WebhookInput {
  /** http(s); the service refuses private and loopback addresses unless configured otherwise. */
  url: string
  events: WebhookEventName[]
  /** Sent back as X-Service-Secret; `''` (none) by default. It does not sign the calls: the webhook's `signingKey` does. */
  secret?: string
  /** false: calls carry no X-Service-Secret header (for a receiver that checks the signature only). Default true. */
  sendSecretHeader?: boolean
  enabled?: boolean
}

/** A file to upload. `data` as a Blob (or File), ArrayBuffer or Uint8Array (a Node Buffer is one). */
export interface FileInput {
  name: string
  data: Blob | ArrayBuffer | Uint8Array
  /** Default `application/pdf`. */
  type?: string
}

/** Where a field goes on its page, in percent of the page; `page` is 1-based. */
export interface FieldPlacement extends Pick<Field, 'type' | 'page' | 'positionX' | 'positionY' | 'width' | 'height'> {
  fieldMeta?: Record<string, unknown>
}

export interface CreateEnvelopeFieldInput extends FieldPlacement {
  /** Index of the uploaded file (0-based) or its file name. */
  identifier: number | string
}

/** What a recipient proves before the document is shown. */
export type AccessAuth = 'ACCOUNT' | 'TWO_FACTOR_AUTH'
/** What a recipient proves when signing, approving or rejecting; EXPLICIT_NONE lifts the envelope's. */
export type ActionAuth = 'ACCOUNT' | 'PASSKEY' | 'TWO_FACTOR_AUTH' | 'PASSWORD' | 'EXPLICIT_NONE'

export interface RecipientInput {
  email: string
  name: string
  role: RecipientRole
  signingOrder?: number
  /** Several mean any one of them; the recipient's own override the envelope's. */
  accessAuth?: AccessAuth[]
  actionAuth?: ActionAuth[]
}

/** Methods every recipient of the envelope must use unless their own say otherwise. */
export interface EnvelopeAuthInput {
  globalAccessAuth?: AccessAuth[]
  globalActionAuth?: Exclude<ActionAuth, 'EXPLICIT_NONE'>[]
}

export interface CreateEnvelopeInput extends EnvelopeAuthInput {
  type: EnvelopeType
  title: string
  externalId?: string
  visibility?: string
  meta?: Partial<DocumentMeta>
  recipients?: (RecipientInput & { fields?: CreateEnvelopeFieldInput[] })[]
  /** One or more PDFs; each becomes an envelope item. */
  files: FileInput[]
}

export interface UpdateEnvelopeInput {
  envelopeId: string
  data?: { title?: string; externalId?: string | null; visibility?: string } & EnvelopeAuthInput
  meta?: Partial<DocumentMeta>
}

export type GetManyInput =
  | { type: 'envelopeId'; ids: string[] }
  | { type: 'documentId' | 'templateId'; ids: number[] }

/** A field placed by coordinates (percent of the page). */
export interface FieldCoordinateInput extends FieldPlacement {
  recipientId: number
  /** Default: the envelope's first item. */
  envelopeItemId?: string
}

/** A field placed where `placeholder` text occurs in the PDF. */
export interface FieldPlaceholderInput {
  recipientId: number
  envelopeItemId?: string
  type: FieldType
  placeholder: string
  width?: number
  height?: number
  /** Every occurrence instead of the first. */
  matchAll?: boolean
  fieldMeta?: Record<string, unknown>
}

export type FieldUpdateInput = { id: number } & Partial<Omit<FieldCoordinateInput, 'recipientId'>> & { recipientId?: number }

export interface ItemUpdateInput {
  envelopeItemId: string
  order?: number
  title?: string
}

export type ItemUpdateResult = Pick<EnvelopeItem, 'id' | 'order' | 'title' | 'envelopeId'>

export interface AttachmentInput {
  label: string
  /** A URI. */
  data: string
}

export interface ListEnvelopesInput {
  type?: EnvelopeType
  page?: number
  /** Default 20, at most 100. */
  perPage?: number
}

export interface DistributeInput {
  envelopeId: string
  /** Settings applied as the envelope is sent (subject, message, signingOrder, ...); the others stay. */
  meta?: Partial<DocumentMeta>
}

export interface RedistributeInput {
  envelopeId: string
  /** Ids of the recipients to send to again (those who have not completed). */
  recipients: number[]
}

export interface CancelInput {
  envelopeId: string
  reason?: string
}

export interface RejectInput {
  /** When given, the recipient must belong to this envelope. */
  envelopeId?: string
  reason: string
}

/** `signed`: the sealed PDF (once every recipient has completed); `original`: as uploaded. */
export type PdfVersion = 'signed' | 'original'

export interface DownloadInput {
  /** Default: the signed PDF once there is one, else the original. */
  version?: PdfVersion
}

export interface AuditLogInput {
  page?: number
  /** Default 50, at most 100. */
  perPage?: number
  /** Default `asc` (oldest first). */
  orderByDirection?: 'asc' | 'desc'
}

export interface EvidenceInput {
  /** `json` (the default): the summary; `jws`: the same, signed with the host's sealing key, as a compact JWS (check it with verifyEvidence). */
  format?: 'json' | 'jws'
}

export type EnvelopeClient = ReturnType<typeof createClient>

/** A client for the API of the service at `baseUrl`, acting with `apiKey`. Throws InvalidInputError on bad options. */
export function createClient(options: ConnectionOptions) {
  const c = connect(options)
  const get = <T>(path: string, schema: Schema<T>, o?: CallOptions, query?: Record<string, string | number | undefined>) =>
    request(c, { method: 'GET', path, query, signal: o?.signal }, schema)
  const post = <T>(path: string, json: unknown, schema: Schema<T>, o?: CallOptions) =>
    request(c, { method: 'POST', path, json, signal: o?.signal }, schema)
  const upload = <T>(path: string, payload: unknown, files: FileInput[], schema: Schema<T>, o?: CallOptions) =>
    request(c, { method: 'POST', path, form: multipart(payload, files), signal: o?.signal }, schema)
  const bytes = (path: string, o?: CallOptions, query?: Record<string, string | number | undefined>) =>
    requestBytes(c, { method: 'GET', path, query, signal: o?.signal })
  const id = (v: string | number) => encodeURIComponent(String(v))
  const done = () => undefined
  function evidenceOf(envelopeId: string, q?: { format?: 'json' }, o?: CallOptions): Promise<Evidence>
  function evidenceOf(envelopeId: string, q: { format: 'jws' }, o?: CallOptions): Promise<string>
  async function evidenceOf(envelopeId: string, q: EvidenceInput = {}, o?: CallOptions): Promise<Evidence | string> {
    const path = `/envelope/${id(envelopeId)}/evidence`
    if (q.format === 'jws') return new TextDecoder().decode(await bytes(path, o, { format: 'jws' }))
    return (await get(path, record, o)) as unknown as Evidence
  }

  return {
    /** Mints a presign token (see createPresignToken). */
    async createPresignToken(o: PresignOptions = {}): Promise<PresignToken> {
      const issues: Issue[] = []
      const body = presignBody(o, issues)
      if (issues.length) throw new InvalidInputError(issues)
      return mint(c, body, o.signal)
    },

    envelopes: {
      /** POST /envelope/create (multipart). Resolves to the new envelope's id. */
      create: async ({ files, ...payload }: CreateEnvelopeInput, o?: CallOptions): Promise<{ id: string }> =>
        upload('/envelope/create', payload, files, s.created, o),
      get: (envelopeId: string, o?: CallOptions): Promise<Envelope> => get(`/envelope/${id(envelopeId)}`, s.envelope, o),
      /** Newest first. */
      list: (q: ListEnvelopesInput = {}, o?: CallOptions): Promise<EnvelopePage> =>
        get('/envelope', s.envelopePage, o, { type: q.type, page: q.page, perPage: q.perPage }),
      update: (input: UpdateEnvelopeInput, o?: CallOptions): Promise<Envelope> => post('/envelope/update', input, s.envelope, o),
      delete: (envelopeId: string, o?: CallOptions): Promise<void> =>
        post('/envelope/delete', { envelopeId }, s.success, o).then(done),
      getMany: async (ids: GetManyInput, o?: CallOptions): Promise<EnvelopeSummary[]> =>
        (await post('/envelope/get-many', { ids }, s.list(s.envelopeSummary), o)).data,
      /** Sends a draft document to its recipients (PENDING). Resolves to each recipient's token and signing link. */
      distribute: (input: DistributeInput, o?: CallOptions): Promise<DistributeResponse> =>
        post('/envelope/distribute', input, s.distributed, o),
      /** Sends a pending document again to these recipients. */
      redistribute: (input: RedistributeInput, o?: CallOptions): Promise<DistributeResponse> =>
        post('/envelope/redistribute', input, s.distributed, o),
      /** Cancels a pending document (CANCELLED): every signing link stops working. */
      cancel: (input: CancelInput, o?: CallOptions): Promise<void> => post('/envelope/cancel', input, s.success, o).then(done),
      /** Who did what and when, a page at a time. */
      auditLog: (envelopeId: string, q: AuditLogInput = {}, o?: CallOptions): Promise<AuditLogPage> =>
        get(`/envelope/${id(envelopeId)}/audit-log`, s.auditLogPage, o, { page: q.page, perPage: q.perPage, orderByDirection: q.orderByDirection }),
      /** The signing certificate (PDF bytes): the envelope, its recipients and their actions. */
      certificate: (envelopeId: string, o?: CallOptions): Promise<Uint8Array> => bytes(`/envelope/${id(envelopeId)}/certificate/download`, o),
      /** The whole audit log as a sealed PDF. */
      auditLogPdf: (envelopeId: string, o?: CallOptions): Promise<Uint8Array> => bytes(`/envelope/${id(envelopeId)}/audit-log/download`, o),
      /** The evidence summary (any status): documents' hashes, recipients' proofs and outcomes, the seal, the audit log's head. */
      evidence: evidenceOf,
    },

    items: {
      /** Adds PDFs to an envelope; one item each. */
      createMany: async (envelopeId: string, files: FileInput[], o?: CallOptions): Promise<EnvelopeItem[]> =>
        (await upload('/envelope/item/create-many', { envelopeId }, files, s.list(s.envelopeItem), o)).data,
      updateMany: async (envelopeId: string, data: ItemUpdateInput[], o?: CallOptions): Promise<ItemUpdateResult[]> =>
        (await post('/envelope/item/update-many', { envelopeId, data }, s.list(s.itemUpdate), o)).data,
      /** Deletes the item and its fields; the last item of an envelope cannot be deleted. */
      delete: (envelopeItemId: string, o?: CallOptions): Promise<void> =>
        post('/envelope/item/delete', { envelopeItemId }, s.success, o).then(done),
      /** The item's PDF bytes: the signed version once there is one, unless `version` says otherwise. */
      download: (envelopeItemId: string, q: DownloadInput = {}, o?: CallOptions): Promise<Uint8Array> =>
        bytes(`/envelope/item/${id(envelopeItemId)}/download`, o, { version: q.version }),
    },

    recipients: {
      createMany: async (envelopeId: string, data: RecipientInput[], o?: CallOptions): Promise<Recipient[]> =>
        (await post('/envelope/recipient/create-many', { envelopeId, data }, s.list(s.recipient), o)).data,
      get: (recipientId: number, o?: CallOptions): Promise<Recipient> =>
        get(`/envelope/recipient/${id(recipientId)}`, s.recipient, o),
      updateMany: async (envelopeId: string, data: ({ id: number } & Partial<RecipientInput>)[], o?: CallOptions): Promise<Recipient[]> =>
        (await post('/envelope/recipient/update-many', { envelopeId, data }, s.list(s.recipient), o)).data,
      /** Deletes the recipient and its fields. */
      delete: (recipientId: number, o?: CallOptions): Promise<void> =>
        post('/envelope/recipient/delete', { recipientId }, s.success, o).then(done),
      /** Rejects a pending document on the recipient's behalf (the document becomes REJECTED). Resolves to the recipient. */
      reject: (recipientId: number, input: RejectInput, o?: CallOptions): Promise<Recipient> =>
        post(`/envelope/recipient/${id(recipientId)}/reject`, input, s.recipient, o),
    },

    fields: {
      /** Coordinate and placeholder entries may be mixed. */
      createMany: async (envelopeId: string, data: (FieldCoordinateInput | FieldPlaceholderInput)[], o?: CallOptions): Promise<Field[]> =>
        (await post('/envelope/field/create-many', { envelopeId, data }, s.list(s.field), o)).data,
      get: (fieldId: number, o?: CallOptions): Promise<Field> => get(`/envelope/field/${id(fieldId)}`, s.field, o),
      updateMany: async (envelopeId: string, data: FieldUpdateInput[], o?: CallOptions): Promise<Field[]> =>
        (await post('/envelope/field/update-many', { envelopeId, data }, s.list(s.field), o)).data,
      delete: (fieldId: number, o?: CallOptions): Promise<void> =>
        post('/envelope/field/delete', { fieldId }, s.success, o).then(done),
    },

    /** The calling team (API tokens only; an extension of this project's host). */
    team: {
      get: (o?: CallOptions): Promise<Team> => get('/team', s.team, o),
      /** Limits who may frame the team's authoring and signing pages (`frame-ancestors`); null: anyone. */
      update: (input: { embedOrigins: string[] | null }, o?: CallOptions): Promise<Team> => post('/team/update', input, s.team, o),
    },

    /** The team's webhooks (API tokens only). */
    webhooks: {
      create: (input: WebhookInput, o?: CallOptions): Promise<Webhook> => post('/webhook/create', input, s.webhook, o),
      list: async (o?: CallOptions): Promise<Webhook[]> => (await get('/webhook', s.list(s.webhook), o)).data,
      get: (webhookId: string, o?: CallOptions): Promise<Webhook> => get(`/webhook/${id(webhookId)}`, s.webhook, o),
      update: (webhookId: string, patch: Partial<WebhookInput>, o?: CallOptions): Promise<Webhook> =>
        post('/webhook/update', { ...patch, id: webhookId }, s.webhook, o),
      delete: (webhookId: string, o?: CallOptions): Promise<void> => post('/webhook/delete', { id: webhookId }, s.success, o).then(done),
      /** The delivery log, newest first: one entry per attempt. */
      calls: (webhookId: string, q: { page?: number; perPage?: number } = {}, o?: CallOptions): Promise<WebhookCallPage> =>
        get(`/webhook/${id(webhookId)}/calls`, s.webhookCallPage, o, { page: q.page, perPage: q.perPage }),
      /**
       * Gives the webhook a generated secret and a new `signingKey` (in this answer only); what
       * signed until now signs the calls beside the new key for 24 hours (`previousSecretExpiresAt`),
       * so the receiver can move over without a gap.
       */
      rotateSecret: (webhookId: string, o?: CallOptions): Promise<Webhook> => post(`/webhook/${id(webhookId)}/rotate-secret`, {}, s.webhook, o),
      /**
       * Gives the webhook a new `signingKey` (in this answer only) and keeps its secret; what signed
       * until now (the old key, or the secret of a webhook made before signing keys) signs beside it
       * for 24 hours.
       */
      rotateSigningKey: (webhookId: string, o?: CallOptions): Promise<Webhook> =>
        post(`/webhook/${id(webhookId)}/rotate-signing-key`, {}, s.webhook, o),
      /** Delivers a logged call's event again. */
      resend: (callId: string, o?: CallOptions): Promise<void> => post(`/webhook/call/${id(callId)}/resend`, {}, s.success, o).then(done),
    },

    attachments: {
      find: async (envelopeId: string, o?: CallOptions): Promise<Attachment[]> =>
        (await get('/envelope/attachment', s.list(s.attachment), o, { envelopeId })).data,
      /** Resolves to the new attachment's id. */
      create: async (envelopeId: string, data: AttachmentInput, o?: CallOptions): Promise<{ id: string }> =>
        post('/envelope/attachment/create', { envelopeId, data }, s.created, o),
      update: (attachmentId: string, data: AttachmentInput, o?: CallOptions): Promise<void> =>
        post('/envelope/attachment/update', { id: attachmentId, data }, s.success, o).then(done),
      delete: (attachmentId: string, o?: CallOptions): Promise<void> =>
        post('/envelope/attachment/delete', { id: attachmentId }, s.success, o).then(done),
    },
  }
}

/** The API's multipart shape for uploads: a `payload` JSON part and repeated `files` parts. */
function multipart(payload: unknown, files: FileInput[]): FormData {
  const issues: Issue[] = []
  if (!Array.isArray(files) || files.length === 0) issues.push({ path: 'files', message: 'at least one file is required' })
  const form = new FormData()
  form.append('payload', JSON.stringify(payload))
  ;(Array.isArray(files) ? files : []).forEach((f, i) => {
    if (!f || typeof f.name !== 'string' || !f.name) return void issues.push({ path: `files.${i}.name`, message: 'is required' })
    const { data } = f
    if (!(data instanceof Blob || data instanceof ArrayBuffer || data instanceof Uint8Array)) {
      return void issues.push({ path: `files.${i}.data`, message: 'must be a Blob, ArrayBuffer or Uint8Array' })
    }
    form.append('files', new Blob([data as BlobPart], { type: f.type || (data instanceof Blob && data.type) || 'application/pdf' }), f.name)
  })
  if (issues.length) throw new InvalidInputError(issues)
  return form
}
