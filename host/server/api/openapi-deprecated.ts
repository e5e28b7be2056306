/** The deprecated v2 routes of the OpenAPI document (deprecated.ts, deprecated-parts.ts), for both kinds. */
import * as dep from './deprecated.js'
import { PartSchemas as P } from './deprecated-parts.js'
import type { Kind } from './deprecated-shared.js'
import type { RouteDoc } from './route-doc.js'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const SUCCESS = { description: 'Done', schema: ref('Success') }
const ENVELOPE = { description: 'The legacy view of the envelope', schema: ref('LegacyEnvelope') }
const FIELD = { description: 'The field (legacy view)', schema: ref('LegacyField') }
const FIELDS = { description: 'The fields (legacy view)', schema: { type: 'object', properties: { fields: { type: 'array', items: ref('LegacyField') } } } }
const RECIPIENT = { description: 'The recipient', schema: ref('Recipient') }
const RECIPIENTS = { description: 'The recipients', schema: { type: 'object', properties: { recipients: { type: 'array', items: ref('Recipient') } } } }

function kindRoutes(kind: Kind): RouteDoc[] {
  const b = `/${kind}`
  const idParam = kind === 'document' ? '{documentId}' : '{templateId}'
  const tag = kind === 'document' ? 'Deprecated documents' : 'Deprecated templates'
  const what = kind === 'document' ? 'document' : 'template'
  const id = kind === 'document' ? 'documentId' : 'templateId'
  const routes: Omit<RouteDoc, 'tag' | 'deprecated'>[] = [
    { method: 'get', path: b, summary: `List ${what}s (use GET /envelope)`, query: dep.ListLegacy, response: { description: 'A page', schema: { type: 'object', properties: { data: { type: 'array', items: ref('LegacyEnvelope') }, count: { type: 'integer' }, currentPage: { type: 'integer' }, perPage: { type: 'integer' }, totalPages: { type: 'integer' } } } } },
    { method: 'get', path: `${b}/${idParam}`, summary: `Get a ${what} by its legacy number (use GET /envelope/{envelopeId})`, response: ENVELOPE },
    { method: 'post', path: `${b}/get-many`, summary: `Get ${what}s by legacy numbers (use /envelope/get-many)`, body: dep.getManyLegacy(kind).schema, response: { description: 'The envelopes', schema: { type: 'object', properties: { data: { type: 'array', items: ref('LegacyEnvelope') } } } } },
    ...(['create', 'create/beta'] as const).map((p) => ({
      method: 'post' as const,
      path: `${b}/${p}`,
      summary: `Create a ${what} (use /envelope/create); the file part may also be named \`file\``,
      multipart: dep.createPayloadFor(kind),
      response: { description: 'The new envelope', schema: { type: 'object', properties: { envelopeId: { type: 'string' }, id: { type: 'integer' } } } },
    })),
    { method: 'post', path: `${b}/update`, summary: `Update a ${what} (use /envelope/update)`, body: dep.UpdateLegacy, response: ENVELOPE },
    { method: 'post', path: `${b}/delete`, summary: `Delete a ${what} (use /envelope/delete)`, body: dep.Legacy, response: SUCCESS },
    { method: 'post', path: `${b}/duplicate`, summary: `Duplicate a ${what} (use /envelope/duplicate)`, body: dep.Legacy, response: kind === 'template' ? { ...ENVELOPE, description: 'The copy (legacy view)' } : { description: 'The copy', schema: { type: 'object', properties: { id: { type: 'string' }, [id]: { type: 'integer' } } } } },
    // parts
    { method: 'post', path: `${b}/field/create`, summary: 'Create a field (use /envelope/field/create-many)', body: P.fieldCreate, response: FIELD },
    { method: 'post', path: `${b}/field/create-many`, summary: 'Create fields (use /envelope/field/create-many)', body: P.fieldCreateMany, response: FIELDS },
    { method: 'post', path: `${b}/field/update`, summary: 'Update a field (use /envelope/field/update-many)', body: P.fieldUpdate, response: FIELD },
    { method: 'post', path: `${b}/field/update-many`, summary: 'Update fields (use /envelope/field/update-many)', body: P.fieldUpdateMany, response: FIELDS },
    { method: 'post', path: `${b}/field/delete`, summary: 'Delete a field (use /envelope/field/delete)', body: P.fieldDelete, response: SUCCESS },
    { method: 'get', path: `${b}/field/{fieldId}`, summary: 'Get a field (use /envelope/field/{fieldId})', response: FIELD },
    { method: 'post', path: `${b}/recipient/create`, summary: 'Add a recipient (use /envelope/recipient/create-many)', body: P.recipientCreate, response: RECIPIENT },
    { method: 'post', path: `${b}/recipient/create-many`, summary: 'Add recipients (use /envelope/recipient/create-many)', body: P.recipientCreateMany, response: RECIPIENTS },
    { method: 'post', path: `${b}/recipient/update`, summary: 'Update a recipient (use /envelope/recipient/update-many)', body: P.recipientUpdate, response: RECIPIENT },
    { method: 'post', path: `${b}/recipient/update-many`, summary: 'Update recipients (use /envelope/recipient/update-many)', body: P.recipientUpdateMany, response: RECIPIENTS },
    { method: 'post', path: `${b}/recipient/delete`, summary: 'Delete a recipient (use /envelope/recipient/delete)', body: P.recipientDelete, response: SUCCESS },
    { method: 'get', path: `${b}/recipient/{recipientId}`, summary: 'Get a recipient (use /envelope/recipient/{recipientId})', response: RECIPIENT },
  ]
  if (kind === 'document') {
    routes.push(
      { method: 'post', path: '/document/distribute', summary: 'Send a document (use /envelope/distribute)', body: dep.DistributeLegacy, response: ENVELOPE },
      { method: 'post', path: '/document/redistribute', summary: 'Send a document again (use /envelope/redistribute)', body: dep.RedistributeLegacy, response: SUCCESS },
      { method: 'get', path: '/document/{documentId}/download', summary: "The document's first file (use /envelope/item/{envelopeItemId}/download)", query: dep.DownloadQuery, response: 'pdf', errors: [409] },
      { method: 'get', path: '/document/{documentId}/download-beta', summary: "Where to download the document's first file", query: dep.DownloadQuery, response: { description: 'The download link', schema: { type: 'object', properties: { downloadUrl: { type: 'string' }, filename: { type: 'string' }, contentType: { type: 'string' } } } } },
      { method: 'get', path: '/document/attachment', summary: 'List attachments (use GET /envelope/attachment)', query: P.attachmentQuery, response: { description: 'The attachments', schema: { type: 'object', properties: { data: { type: 'array', items: ref('Attachment') } } } } },
      { method: 'post', path: '/document/attachment/create', summary: 'Attach a link (use /envelope/attachment/create)', body: P.attachmentCreate, response: { description: 'The new attachment', schema: { type: 'object', properties: { id: { type: 'string' } } } } },
      { method: 'post', path: '/document/attachment/update', summary: 'Change a link (use /envelope/attachment/update)', body: P.attachmentUpdate, response: SUCCESS },
      { method: 'post', path: '/document/attachment/delete', summary: 'Delete a link (use /envelope/attachment/delete)', body: P.attachmentDelete, response: SUCCESS },
    )
  } else {
    const LINK = { description: "The template's direct link", schema: ref('DirectLink') }
    routes.push(
      { method: 'post', path: '/template/use', summary: 'Generate a document from a template (use /envelope/use)', body: dep.UseLegacy, response: ENVELOPE },
      { method: 'post', path: '/template/direct/create', summary: 'Give a template a public direct link for one recipient (or a new placeholder signer); no replacement yet', body: dep.DirectCreateLegacy, response: LINK },
      { method: 'post', path: '/template/direct/toggle', summary: "Turn a template's direct link on or off; no replacement yet", body: dep.DirectToggleLegacy, response: LINK },
      { method: 'post', path: '/template/direct/delete', summary: "Delete a template's direct link; no replacement yet", body: dep.DirectDeleteLegacy, response: SUCCESS },
    )
  }
  return routes.map((r) => ({ ...r, tag, deprecated: true }))
}

export const DEPRECATED_ROUTES: RouteDoc[] = [...kindRoutes('document'), ...kindRoutes('template')]
