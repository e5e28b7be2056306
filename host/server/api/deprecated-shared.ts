/**
 * What the deprecated v2 route maps share: the legacy kinds (document / template), translating
 * legacy numbers to envelopes, old field names to new ones, and the legacy views of resources.
 * Nothing here decides a rule: every route calls the domain operation its v2 replacement calls.
 */
import { z } from 'zod'
import type { Principal } from '../auth/principal.js'
import type { Queryable } from '../db/index.js'
import { fieldsOfEnvelope } from '../domain/field/lists.js'
import { toField, type Envelope, type EnvelopeRow, type FieldRow } from '../domain/common/rows.js'
import { findByNumber } from '../domain/envelope/lookup.js'
import type { Recipient } from '../domain/recipient/recipients.js'
import type { EnvelopeType } from '../domain/common/status.js'
import { NumericId } from './schemas.js'

export type Kind = 'document' | 'template'
export const TYPE: Record<Kind, EnvelopeType> = { document: 'DOCUMENT', template: 'TEMPLATE' }
/** The body key naming a legacy number: documentId / templateId. */
export const ID_KEY = { document: 'documentId', template: 'templateId' } as const

/** A body's legacy number (`documentId` or `templateId`), validated. */
export const legacyId = (kind: Kind) => z.object({ [ID_KEY[kind]]: NumericId }) as z.ZodObject<Record<string, typeof NumericId>>

/** The envelope of this kind with this legacy number; the other kind's number is 404. */
export const resolve = (db: Queryable, p: Principal, kind: Kind, n: number): Promise<EnvelopeRow> => findByNumber(db, p, TYPE[kind], n)

/** Old field names (`pageNumber`, `pageX`, `pageY`) renamed to the new ones, unless the new one is given. */
const RENAMES: [string, string][] = [
  ['pageNumber', 'page'],
  ['pageX', 'positionX'],
  ['pageY', 'positionY'],
]
export function newFieldNames(entry: unknown): unknown {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry
  const out: Record<string, unknown> = { ...(entry as Record<string, unknown>) }
  for (const [from, to] of RENAMES) {
    if (from in out) {
      if (!(to in out)) out[to] = out[from]
      delete out[from]
    }
  }
  return out
}

const numberOf = (env: Pick<Envelope, 'secondaryId'>) => Number(env.secondaryId.split('_')[1])

/** A field as the legacy routes answer: the v2 field plus its legacy number and old coordinate names. */
export function legacyFieldOf(f: ReturnType<typeof toField>, type: EnvelopeType, n: number) {
  return {
    ...f,
    documentId: type === 'DOCUMENT' ? n : null,
    templateId: type === 'TEMPLATE' ? n : null,
    pageNumber: f.page,
    pageX: f.positionX,
    pageY: f.positionY,
  }
}
export const legacyField = (row: FieldRow, e: Pick<EnvelopeRow, 'type' | 'secondary_number'>) => legacyFieldOf(toField(row), e.type, e.secondary_number)

/**
 * A document or template as the legacy routes answer: the v2 envelope with `id` its legacy
 * number, `envelopeId` its envelope id, `documentId`, `templateId` (a template's own number, a
 * document's template's), and legacy fields.
 */
export function legacyEnvelope(env: Envelope) {
  const n = numberOf(env)
  const { fields, ...rest } = env as Envelope & { fields?: ReturnType<typeof toField>[] }
  return {
    ...rest,
    id: n,
    envelopeId: env.id,
    documentId: env.type === 'DOCUMENT' ? n : null,
    // A document's templateId is the template it was made from (null when none).
    templateId: env.type === 'TEMPLATE' ? n : env.templateId,
    ...(fields ? { fields: fields.map((f) => legacyFieldOf(f, env.type, n)) } : {}),
  }
}

/**
 * Where a document's or template's file is, in the deployed clients' `documentData` shape: this
 * host keeps no storage paths to show, so `data` is the item's download on the API (the signed
 * file once there is one) and `initialData` the original; `S3_PATH` is the one type whose data
 * is a reference rather than the bytes. Legacy documents have one file: the first item.
 */
function legacyDocumentData(env: Envelope) {
  const item = env.envelopeItems[0]
  if (!item) return null
  const url = `/api/v2/envelope/item/${item.id}/download`
  return { type: 'S3_PATH', id: item.documentDataId, data: url, initialData: `${url}?version=original`, envelopeItemId: item.id }
}

/**
 * A document or template as the deprecated v2 routes answer (the deployed SDK's legacy models,
 * docs/api-notes.md "Compatibility with the deployed clients"): the legacy view plus `documentData`
 * (`templateDocumentData`, `templateMeta` and the template's `type` PUBLIC/PRIVATE for templates),
 * no folder, `useLegacyFieldInsertion: false` and the team's name.
 */
export function deprecatedView(env: Envelope) {
  const view = legacyEnvelope(env)
  const data = legacyDocumentData(env)
  const common = { ...view, useLegacyFieldInsertion: false, folder: null, team: { ...view.team, name: view.user.name } }
  if (env.type === 'DOCUMENT') return { ...common, documentDataId: data?.id, documentData: data }
  return {
    ...common,
    type: env.templateType,
    templateDocumentDataId: data?.id,
    templateDocumentData: data,
    templateMeta: { ...env.documentMeta, templateId: view.id },
  }
}

/** Recipients with their fields (legacy views), as the deployed clients' recipient models require. */
export async function recipientsWithFields(db: Queryable, e: Pick<EnvelopeRow, 'id' | 'type' | 'secondary_number'>, rs: Recipient[]) {
  const rows = await fieldsOfEnvelope(db, e.id)
  return rs.map((r) => ({ ...r, fields: rows.filter((f) => f.recipient_id === r.id).map((f) => legacyField(f, e)) }))
}
