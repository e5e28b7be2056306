/**
 * API v2 describes itself: an OpenAPI 3.1 document built from a registry of its routes, whose
 * request bodies, queries and multipart payloads are the very zod schemas the handlers validate
 * with (converted by zod's own z.toJSONSchema, JSON Schema 2020-12 as OpenAPI 3.1 uses). A route
 * added to a module and not to ROUTES fails test/host/openapi.test.ts.
 */
import { z } from 'zod'
import * as attachment from './attachment.js'
import * as bulkSend from './bulk-send.js'
import { DEPRECATED_ROUTES } from './openapi-deprecated.js'
import * as embedding from './embedding.js'
import * as team from './team.js'
import * as teamConsent from './team-consent.js'
import * as envelope from './envelope.js'
import * as field from './field.js'
import * as item from './item.js'
import * as lifecycle from './lifecycle.js'
import * as recipient from './recipient.js'
import { CoordinateField, EnvelopeId, PlaceholderField } from './schemas.js'
import * as template from './template.js'
import * as webhook from './webhook.js'
import type { JsonSchema, RouteDoc } from './route-doc.js'
import { answerComponents } from '../contract/answers.js'

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const dataOf = (name: string): JsonSchema => ({ type: 'object', properties: { data: { type: 'array', items: ref(name) } }, required: ['data'] })
const SUCCESS = { description: 'Done', schema: ref('Success') }
const ID = { description: 'The new envelope', schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } }
const SENT = { description: 'Sent, with each recipient and their signing link', schema: ref('Sent') }
const page = (item: string): JsonSchema => ({
  type: 'object',
  properties: { data: { type: 'array', items: ref(item) }, count: { type: 'integer' }, currentPage: { type: 'integer' }, perPage: { type: 'integer' }, totalPages: { type: 'integer' } },
  required: ['data', 'count', 'currentPage', 'perPage', 'totalPages'],
})

/** Field create-many validates each `data` entry with one of these two (field.ts parseFieldEntries). */
const FieldCreateMany = field.CreateMany.extend({ data: z.array(z.union([CoordinateField, PlaceholderField])).min(1).max(500) })

/** Every route of API v2 (the deprecated ones from openapi-deprecated.ts). */
export const ROUTES: RouteDoc[] = [
  // ---- the team (an extension)
  { method: 'get', path: '/team', tag: 'Team', summary: "The calling team's settings (API tokens only)", response: { description: 'The team', schema: team.TeamSchema } },
  { method: 'post', path: '/team/update', tag: 'Team', summary: 'Set the origins allowed to frame the team\'s authoring and signing pages (null: any) and the retention of finished envelopes (null: for good)', body: team.TeamUpdateBody, response: { description: 'The team', schema: team.TeamSchema } },
  { method: 'get', path: '/team/consent-disclosure', tag: 'Team', summary: "The team's disclosure for consent to sign electronically (version 0, text null: the default)", response: { description: 'The disclosure', schema: teamConsent.DisclosureSchema } },
  { method: 'post', path: '/team/consent-disclosure', tag: 'Team', summary: "Set the team's disclosure for consent to sign electronically (null: the default again); each change is a new version", body: teamConsent.DisclosureBody, response: { description: 'The disclosure', schema: teamConsent.DisclosureSchema } },
  // ---- embedding
  { method: 'post', path: '/embedding/create-presign-token', tag: 'Embedding', summary: 'Mint a presign token for an embedding session', body: embedding.PresignBody, response: { description: 'The presign token', schema: ref('PresignToken') } },
  { method: 'get', path: '/embedding/session', tag: 'Embedding', summary: 'What the calling presign token may do (403 FRAME_ANCESTOR_NOT_ALLOWED when `parentOrigin` is not among the team\'s embed origins)', query: embedding.SessionQuery, response: { description: 'The session', schema: { type: 'object', properties: { teamId: { type: 'string' }, scope: { type: ['string', 'null'] }, expiresAt: { type: 'string', format: 'date-time' } } } } },
  // ---- envelopes
  { method: 'post', path: '/envelope/create', tag: 'Envelopes', summary: 'Create an envelope (document or template) from PDF files', multipart: envelope.CreatePayload, response: ID },
  { method: 'get', path: '/envelope', tag: 'Envelopes', summary: 'List envelopes', query: envelope.ListQuery, response: { description: 'A page of envelopes (without fields)', schema: page('Envelope') } },
  { method: 'get', path: '/envelope/{envelopeId}', tag: 'Envelopes', summary: 'Get an envelope with its recipients, fields and items', response: { description: 'The envelope', schema: ref('Envelope') } },
  { method: 'post', path: '/envelope/get-many', tag: 'Envelopes', summary: 'Get envelopes by ids (at most 100)', body: envelope.GetManyBody, response: { description: 'The envelopes found', schema: dataOf('Envelope') } },
  { method: 'post', path: '/envelope/update', tag: 'Envelopes', summary: 'Update an envelope and its document settings', body: envelope.UpdateBody, response: { description: 'The envelope', schema: ref('Envelope') } },
  { method: 'post', path: '/envelope/delete', tag: 'Envelopes', summary: 'Delete an envelope', body: envelope.DeleteBody, response: SUCCESS },
  // ---- templates
  { method: 'post', path: '/envelope/duplicate', tag: 'Templates', summary: 'Duplicate an envelope (410 DOCUMENT_PURGED once purged)', body: template.DuplicateBody, response: ID, errors: [410] },
  { method: 'post', path: '/envelope/bulk-send/columns', tag: 'Templates', summary: "A table's columns and rows, read as a bulk send reads it, before a mapping is chosen (nothing is stored; the payload part may be left out)", multipart: bulkSend.ColumnsPayload, tableFile: true, payloadOptional: true, response: { description: 'The columns', schema: ref('BulkTable') }, errors: [413] },
  { method: 'post', path: '/envelope/bulk-send', tag: 'Templates', summary: 'Send a template to many: one document per row of a table (CSV or XLSX) (with `dryRun`, only check it and answer what would be sent)', description: 'The mapping names the columns that give each role its address (and name), fields filled in ahead, and the title. A row with a bad address, or the same as an earlier row, is refused and the others go; more rows to send than the plan allows refuse the whole send (400 BULK_OVER_PLAN). The documents are made and sent in the background; read the progress and the report below.', multipart: bulkSend.BulkSendPayload, tableFile: true, response: { description: 'With dryRun, the preview; else the bulk send started', schema: { anyOf: [ref('BulkSendPreview'), ref('BulkSendStarted')] } }, errors: [413] },
  { method: 'get', path: '/envelope/bulk-send/{bulkSendId}', tag: 'Templates', summary: "A bulk send's progress", response: { description: 'The bulk send', schema: ref('BulkSend') } },
  { method: 'get', path: '/envelope/bulk-send/{bulkSendId}/report', tag: 'Templates', summary: 'What became of each row: its document, or why it was refused (CSV; a value that would start a spreadsheet formula is made text)', response: 'csv' },
  { method: 'post', path: '/envelope/use', tag: 'Templates', summary: 'Generate a document from a template', multipart: template.UsePayload, response: { description: 'The new document and its recipients', schema: { type: 'object', properties: { id: { type: 'string' }, recipients: { type: 'array', items: ref('SentRecipient') } }, required: ['id', 'recipients'] } } },
  // ---- items
  { method: 'post', path: '/envelope/item/create-many', tag: 'Items', summary: 'Add PDF files to an envelope', multipart: item.CreateManyPayload, response: { description: 'The new items', schema: dataOf('Item') } },
  { method: 'post', path: '/pdf/form-fields', tag: 'Items', summary: "Read the form fields PDFs hold, as envelope fields would take them (nothing is stored; the payload part may be left out)", multipart: item.FormFieldsPayload, payloadOptional: true, response: { description: 'Each file with its form fields', schema: dataOf('PdfFormFields') } },
  { method: 'post', path: '/envelope/item/update-many', tag: 'Items', summary: 'Rename or reorder items', body: item.UpdateMany, response: { description: 'The items', schema: dataOf('Item') } },
  { method: 'post', path: '/envelope/item/delete', tag: 'Items', summary: 'Delete an item and its fields', body: item.DeleteBody, response: SUCCESS },
  { method: 'get', path: '/envelope/item/{envelopeItemId}/download', tag: 'Items', summary: "Download an item's PDF (sealed once completed; 410 DOCUMENT_PURGED once purged)", query: item.DownloadQuery, response: 'pdf', errors: [409, 410] },
  // ---- recipients
  { method: 'post', path: '/envelope/recipient/create-many', tag: 'Recipients', summary: 'Add recipients', body: recipient.CreateMany, response: { description: 'The new recipients', schema: dataOf('Recipient') } },
  { method: 'get', path: '/envelope/recipient/{recipientId}', tag: 'Recipients', summary: 'Get a recipient, with its fields', response: { description: 'The recipient', schema: ref('RecipientWithFields') } },
  { method: 'post', path: '/envelope/recipient/update-many', tag: 'Recipients', summary: 'Update recipients', body: recipient.UpdateMany, response: { description: 'The recipients', schema: dataOf('Recipient') } },
  { method: 'post', path: '/envelope/recipient/delete', tag: 'Recipients', summary: 'Delete a recipient and its fields', body: recipient.DeleteBody, response: SUCCESS },
  { method: 'post', path: '/envelope/recipient/{recipientId}/reject', tag: 'Lifecycle', summary: 'Reject on behalf of a recipient', body: lifecycle.RejectBody, response: { description: 'The recipient', schema: ref('Recipient') } },
  // ---- fields
  { method: 'post', path: '/envelope/field/create-many', tag: 'Fields', summary: 'Place fields by coordinates or by placeholder text', description: 'Each `data` entry is a coordinate entry, or a placeholder entry when it has `placeholder`.', body: FieldCreateMany, response: { description: 'The new fields', schema: dataOf('Field') } },
  { method: 'get', path: '/envelope/field/{fieldId}', tag: 'Fields', summary: 'Get a field', response: { description: 'The field', schema: ref('Field') } },
  { method: 'post', path: '/envelope/field/update-many', tag: 'Fields', summary: 'Update fields', body: field.UpdateMany, response: { description: 'The fields', schema: dataOf('Field') } },
  { method: 'post', path: '/envelope/field/delete', tag: 'Fields', summary: 'Delete a field', body: field.DeleteBody, response: SUCCESS },
  // ---- attachments
  { method: 'get', path: '/envelope/attachment', tag: 'Attachments', summary: "List an envelope's link attachments", query: attachment.FindQuery, response: { description: 'The attachments', schema: dataOf('Attachment') } },
  { method: 'post', path: '/envelope/attachment/create', tag: 'Attachments', summary: 'Attach a link', body: attachment.CreateBody, response: { description: 'The new attachment', schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } },
  { method: 'post', path: '/envelope/attachment/update', tag: 'Attachments', summary: 'Change a link attachment', body: attachment.UpdateBody, response: SUCCESS },
  { method: 'post', path: '/envelope/attachment/delete', tag: 'Attachments', summary: 'Delete a link attachment', body: attachment.DeleteBody, response: SUCCESS },
  // ---- lifecycle
  { method: 'post', path: '/envelope/distribute', tag: 'Lifecycle', summary: 'Send a draft document to its recipients', body: lifecycle.DistributeBody, response: SENT },
  { method: 'post', path: '/envelope/redistribute', tag: 'Lifecycle', summary: 'Send a pending document again to some recipients', body: lifecycle.RedistributeBody, response: SENT },
  { method: 'post', path: '/envelope/cancel', tag: 'Lifecycle', summary: 'Cancel a pending document', body: lifecycle.CancelBody, response: SUCCESS },
  { method: 'get', path: '/envelope/{envelopeId}/audit-log', tag: 'Records', summary: 'The audit log of an envelope', query: lifecycle.AuditQuery, paramChecked: true, response: { description: 'A page of audit-log entries', schema: page('AuditLogEntry') } },
  { method: 'get', path: '/envelope/{envelopeId}/certificate/download', tag: 'Records', summary: 'Download the signing certificate (sealed PDF)', paramChecked: true, response: 'pdf', errors: [410] },
  { method: 'get', path: '/envelope/{envelopeId}/audit-log/download', tag: 'Records', summary: 'Download the audit log as a sealed PDF', paramChecked: true, response: 'pdf', errors: [410] },
  { method: 'get', path: '/envelope/{envelopeId}/evidence', tag: 'Records', summary: 'The evidence summary of an envelope (JSON, or with `format=jws` a JWS signed with the sealing key)', description: 'Any status; documents\' sealed hashes and the seal are null until sealed. `format=jws` answers the same JSON as a compact JWS (RS256 or ES256, the certificate chain in `x5c`), as an `application/jose` download.', query: lifecycle.EvidenceQuery, paramChecked: true, joseResponse: true, response: { description: 'The evidence summary', schema: ref('Evidence') } },
  // ---- webhooks
  { method: 'post', path: '/webhook/create', tag: 'Webhooks', summary: 'Create a webhook, with a generated signing key (shown in this answer only)', body: webhook.CreateBody, response: { description: 'The webhook, with its `signingKey`', schema: ref('Webhook') } },
  { method: 'get', path: '/webhook', tag: 'Webhooks', summary: "List the team's webhooks", response: { description: 'The webhooks', schema: dataOf('Webhook') } },
  { method: 'get', path: '/webhook/{webhookId}', tag: 'Webhooks', summary: 'Get a webhook', paramChecked: true, response: { description: 'The webhook', schema: ref('Webhook') } },
  { method: 'post', path: '/webhook/update', tag: 'Webhooks', summary: 'Update a webhook', body: webhook.UpdateBody, response: { description: 'The webhook', schema: ref('Webhook') } },
  { method: 'post', path: '/webhook/delete', tag: 'Webhooks', summary: 'Delete a webhook', body: webhook.DeleteBody, response: SUCCESS },
  { method: 'get', path: '/webhook/{webhookId}/calls', tag: 'Webhooks', summary: "A webhook's delivery attempts, newest first", query: webhook.CallsQuery, paramChecked: true, response: { description: 'A page of calls', schema: page('WebhookCall') } },
  { method: 'post', path: '/webhook/call/{callId}/resend', tag: 'Webhooks', summary: 'Deliver a call again', response: SUCCESS },
  { method: 'post', path: '/webhook/{webhookId}/rotate-secret', tag: 'Webhooks', summary: 'Give the webhook a new generated secret and a new signing key (shown in this answer only); what signed its calls until now signs beside the new key for 24 hours', paramChecked: true, response: { description: 'The webhook, with its new secret and `signingKey`', schema: ref('Webhook') } },
  { method: 'post', path: '/webhook/{webhookId}/rotate-signing-key', tag: 'Webhooks', summary: 'Give the webhook a new signing key (shown in this answer only), its secret kept; what signed its calls until now signs beside the new key for 24 hours', paramChecked: true, response: { description: 'The webhook, with its new `signingKey`', schema: ref('Webhook') } },
  { method: 'post', path: '/webhook/{webhookId}/test', tag: 'Webhooks', summary: 'Send a test delivery of the webhook\'s first event (payload `{test: true}`), logged like any call', paramChecked: true, response: SUCCESS },
  // ---- this document
  { method: 'post', path: '/verify', tag: 'Records', summary: "Check a PDF's signatures (no token; limited per address; the file is not kept)", public: true, pdfBody: true, joseBody: true, errors: [400, 413, 429, 503], response: { description: 'Each signature, and the sealed document of this service with these bytes, if any; with an evidence file, `evidence` (alone: only `evidence`)', schema: ref('VerifyAnswer') } },
  { method: 'get', path: '/openapi.json', tag: 'Reference', summary: 'This OpenAPI document', public: true, response: { description: 'The OpenAPI 3.1 document', schema: { type: 'object' } } },
  ...DEPRECATED_ROUTES,
]

/** Path parameters: their schema and the example the tests request with. */
const PARAMS: Record<string, { schema: JsonSchema; example: string | number; description: string }> = {
  envelopeId: { schema: jsonSchema(EnvelopeId), example: 'envelope_0000000000000000', description: 'Envelope id' },
  envelopeItemId: { schema: { type: 'string' }, example: 'envelope_item_0000000000000000', description: 'Envelope item id' },
  bulkSendId: { schema: { type: 'string' }, example: 'bulk_send_0000000000000000', description: 'Bulk send id' },
  recipientId: { schema: { type: 'integer', minimum: 1 }, example: 1, description: 'Recipient id' },
  fieldId: { schema: { type: 'integer', minimum: 1 }, example: 1, description: 'Field id' },
  webhookId: { schema: jsonSchema(webhook.WebhookId), example: 'webhook_0000000000000000', description: 'Webhook id' },
  callId: { schema: { type: 'string' }, example: 'webhook_call_0000000000000000', description: 'Webhook call id' },
  documentId: { schema: { type: 'integer', minimum: 1 }, example: 1, description: 'Legacy document number (`document_N`)' },
  templateId: { schema: { type: 'integer', minimum: 1 }, example: 1, description: 'Legacy template number (`template_N`)' },
}

/** The request schema as JSON Schema 2020-12, the shape a client sends (defaults make keys optional). */
export function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...out } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema
  return out
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request (`INVALID_REQUEST` with `issues`), recipient authentication on a route that does not take it (`AUTH_METHOD_NOT_SUPPORTED`), or a rule of the operation refused it (its own code)',
  401: 'Missing, unknown, expired or revoked token (`UNAUTHORIZED`)',
  403: 'The token may not do this (`FORBIDDEN`): a presign token outside its scope, or the plan',
  404: 'Not found, or not visible to this token (`NOT_FOUND`)',
  409: 'The document is complete and its signed PDF is still being sealed (`DOCUMENT_SEALING`, with `Retry-After`): try again shortly',
  410: "The envelope was purged at the end of its team's retention: its files are gone (`DOCUMENT_PURGED`)",
  408: 'The request body did not arrive within the time budget (`REQUEST_TIMEOUT`; REQUEST_TIMEOUT_MS)',
  413: 'The request body exceeds the upload limit (`PAYLOAD_TOO_LARGE`)',
  429: 'Too many requests from this address or token (`RATE_LIMITED`, with `Retry-After`)',
  500: 'Internal error (`INTERNAL`)',
  503: 'Too many files are waiting to be checked (`BUSY`, with `Retry-After`): try again shortly',
}

function errorsOf(r: RouteDoc): number[] {
  if (r.public) return [...(r.errors ?? []), 500].sort()
  const input = !!(r.body || r.multipart || r.query || r.paramChecked)
  const set = new Set<number>([...(input ? [400] : []), 401, 403, 404, ...(r.method === 'post' ? [408, 413] : []), ...(r.errors ?? []), 500])
  return [...set].sort()
}

function operation(r: RouteDoc) {
  const parameters: JsonSchema[] = []
  for (const [, name] of r.path.matchAll(/\{(\w+)\}/g)) {
    const p = PARAMS[name!]
    if (!p) throw new Error(`openapi: no description of path parameter ${name} (${r.path})`)
    parameters.push({ name, in: 'path', required: true, description: p.description, schema: p.schema, example: p.example })
  }
  if (r.query) {
    const q = jsonSchema(r.query) as { properties?: Record<string, JsonSchema>; required?: string[] }
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      parameters.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema })
    }
  }
  let requestBody: JsonSchema | undefined
  if (r.body) requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(r.body) } } }
  if (r.multipart) {
    const files = r.tableFile ? 'file' : (r.fileParts ?? 'files')
    const filePart = r.tableFile
      ? { type: 'string', description: 'The table: an XLSX workbook (its first sheet) or CSV (`,` or `;`; UTF-8, a byte-order mark is fine, or Windows-1252), the first row naming the columns; 5 MiB at most' }
      : { type: 'array', items: { type: 'string', contentMediaType: 'application/pdf' }, description: 'PDF files (at most 20), one part each' }
    requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              payload: { ...jsonSchema(r.multipart), description: 'JSON, as the part `payload`' },
              [files]: filePart,
            },
            required: [...(r.payloadOptional ? [] : ['payload']), ...(r.tableFile ? [files] : [])],
          },
          encoding: { payload: { contentType: 'application/json' }, [files]: { contentType: r.tableFile ? 'text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'application/pdf' } },
        },
      },
    }
  }
  if (r.pdfBody) {
    const pdf = { type: 'string', contentMediaType: 'application/pdf' }
    requestBody = {
      required: true,
      content: { 'application/pdf': { schema: pdf }, 'multipart/form-data': { schema: { type: 'object', properties: { file: pdf }, required: ['file'] } } },
    }
    if (r.joseBody) {
      const jws = { type: 'string', contentMediaType: 'application/jose', description: 'An evidence file: the compact JWS of GET /envelope/{envelopeId}/evidence?format=jws' }
      requestBody.content = {
        'application/pdf': { schema: pdf },
        'application/jose': { schema: jws },
        'multipart/form-data': { schema: { type: 'object', properties: { file: pdf, evidence: jws }, description: '`file`, `evidence` or both' } },
      }
    }
  }
  const ok =
    r.response === 'pdf'
      ? { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } }
      : r.response === 'csv'
        ? { description: 'The CSV', content: { 'text/csv': { schema: { type: 'string', contentMediaType: 'text/csv' } } } }
        : {
          description: r.response.description,
          ...(r.response.schema
            ? { content: { 'application/json': { schema: r.response.schema }, ...(r.joseResponse ? { 'application/jose': { schema: { type: 'string', description: 'A compact JWS (RFC 7515)' } } } : {}) } }
            : {}),
        }
  const responses: Record<string, unknown> = { '200': ok }
  for (const status of errorsOf(r)) responses[String(status)] = { $ref: `#/components/responses/E${status}` }
  return {
    operationId: `${r.method}${r.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, ch?: string) => (ch ?? '').toUpperCase())}`,
    tags: [r.tag],
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    ...(r.deprecated ? { deprecated: true } : {}),
    ...(r.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  }
}

const loose = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({ type: 'object', properties, required })
const str = { type: 'string' }
const int = { type: 'integer' }
const date = { type: 'string', format: 'date-time' }

/**
 * The answers' shapes: the envelope's resources generated from their one declaration
 * (contract/answers.ts), the rest short (docs/api-notes.md, Resources, has the details).
 */
const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  ...answerComponents(),
  Error: {
    type: 'object',
    properties: {
      message: str,
      code: { type: 'string', description: 'INVALID_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, PAYLOAD_TOO_LARGE, INTERNAL, or the code of a refused rule' },
      issues: { type: 'array', items: { type: 'object', properties: { message: str, path: { type: 'string', description: 'dotted path, e.g. `recipients.0.email`' } }, required: ['message'] } },
    },
    required: ['message', 'code'],
  },
  Success: loose({ success: { type: 'boolean', const: true } }),
  PresignToken: loose({ token: str, expiresAt: date, expiresIn: int }),
  LegacyEnvelope: { type: 'object', description: 'The envelope with `id` its legacy number, `envelopeId`, `documentId`/`templateId`, legacy field names, and `documentData` (templates: `templateDocumentData`, `templateMeta`, `type` PUBLIC/PRIVATE)' },
  LegacyField: { type: 'object', description: 'The field plus `documentId`/`templateId`, `pageNumber`, `pageX`, `pageY`' },
}

let cached: JsonSchema | undefined

/** The OpenAPI 3.1 document of API v2 (built once). */
export function openApiDocument(): JsonSchema {
  if (cached) return cached
  const paths: Record<string, Record<string, unknown>> = {}
  for (const r of ROUTES) {
    const at = (paths[r.path] ??= {})
    if (at[r.method]) throw new Error(`openapi: ${r.method.toUpperCase()} ${r.path} registered twice`)
    at[r.method] = operation(r)
  }
  const responses = Object.fromEntries(
    Object.entries(ERROR_TEXT).map(([status, description]) => [`E${status}`, { description, content: { 'application/json': { schema: ref('Error') } } }]),
  )
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Envelope Signing Service API',
      version: '2',
      description: 'API v2 of the self-hosted envelope-signing service (its behaviour is described in docs/api-notes.md). Also served under /api/v2-beta.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/api/v2' }],
    security: [{ apiToken: [] }],
    tags: [...new Set(ROUTES.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The API token itself (`api_...`), or `Bearer <token>`; a presign token for embedding sessions' },
      },
      schemas: COMPONENT_SCHEMAS,
      responses,
    },
  }
  return cached
}
