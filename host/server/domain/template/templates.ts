/**
 * New envelopes made from existing ones: duplicate (documents and templates) and use (a document
 * from a template, `/envelope/use`). Both copy through copyParts.
 */
import type { Principal } from '../../auth/principal.js'
import type { Db, Queryable } from '../../db/index.js'
import { ApiError, issue, type ApiIssue } from '../../errors.js'
import { emit } from '../../events/index.js'
import type { UploadedPdf } from '../item/files.js'
import { audit, type Actor } from '../evidence/audit.js'
import { insertEnvelope, type LegacyVersion } from '../envelope/envelopes.js'
import { storedValue } from '../field/values.js'
import { insertFields, throwIfIssues } from '../field/fields.js'
import { newId } from '../common/ids.js'
import { insertItems } from '../item/items.js'
import { insertRecipients, type NewRecipient } from '../recipient/recipients.js'
import { assertNotPurged } from '../retention/retention.js'
import { distribute } from '../signing/lifecycle.js'
import { inSigningOrder } from '../signing/turns.js'
import type { AttachmentRow, EnvelopeRow, FieldRow, ItemRow, RecipientRow } from '../common/rows.js'
import { findEnvelope, loadEnvelope } from '../envelope/lookup.js'
import { logicFieldOf } from '../../../shared/field-logic/index.js'

/** A field whose value its formula gives. */
const isComputed = (f: FieldRow) => {
  const { formula } = logicFieldOf({ id: f.id, type: f.type, fieldMeta: f.field_meta })
  return typeof formula === 'string' && formula.trim() !== ''
}

interface CopyOptions {
  recipients: boolean
  fields: boolean
  /** New e-mail and name of source recipients, by their id. */
  recipientChanges?: Map<number, { email?: string | undefined; name?: string | undefined }>
  /** New files for source items, by item id. */
  files?: Map<string, UploadedPdf>
  /** Values filled in ahead of signing, by source field id (stored form). */
  prefill?: Map<number, string>
  /** This source recipient acts first: the copies are numbered 1..n in signing order with it ahead. */
  firstRecipient?: number | undefined
}

interface Copied {
  recipients: RecipientRow[]
  /** Copy's recipient id by source recipient id. */
  recipientIds: Map<number, number>
  /** Copy's field id by source field id. */
  fieldIds: Map<number, number>
}

/** Copies items, attachments, recipients (new tokens, nothing sent or signed) and fields into `toId`. */
async function copyParts(tx: Queryable, from: EnvelopeRow, toId: string, o: CopyOptions): Promise<Copied> {
  const items = await tx.query<ItemRow>('select * from envelope_items where envelope_id = $1 order by item_order, created_at, id', [from.id])
  const itemIds = new Map<string, { id: string; pages: number }>()
  for (const item of items) {
    const file = o.files?.get(item.id)
    if (file) {
      const [row] = await insertItems(tx, toId, [{ ...file, name: item.title }])
      itemIds.set(item.id, { id: row!.id, pages: row!.page_count })
    } else {
      const id = newId.envelopeItem()
      await tx.query(
        `insert into envelope_items (id, envelope_id, title, item_order, document_data_id, page_count) values ($1, $2, $3, $4, $5, $6)`,
        [id, toId, item.title, item.item_order, item.document_data_id, item.page_count],
      )
      itemIds.set(item.id, { id, pages: item.page_count })
    }
  }
  for (const a of await tx.query<AttachmentRow>('select * from attachments where envelope_id = $1 order by created_at, id', [from.id])) {
    await tx.query('insert into attachments (id, envelope_id, type, label, data) values ($1, $2, $3, $4, $5)', [newId.attachment(), toId, a.type, a.label, a.data])
  }
  const fieldIds = new Map<number, number>()
  const recipientIds = new Map<number, number>()
  if (!o.recipients) return { recipients: [], recipientIds, fieldIds }
  const sources = await tx.query<RecipientRow>('select * from recipients where envelope_id = $1 order by id', [from.id])
  const order = o.firstRecipient === undefined ? null : inSigningOrder(sources).sort((a, b) => Number(b.id === o.firstRecipient) - Number(a.id === o.firstRecipient))
  const copies = await insertRecipients(
    tx,
    toId,
    sources.map((r) => ({
      email: o.recipientChanges?.get(r.id)?.email ?? r.email,
      name: o.recipientChanges?.get(r.id)?.name ?? r.name,
      role: r.role as NewRecipient['role'],
      signingOrder: order ? order.indexOf(r) + 1 : r.signing_order,
      authOptions: r.auth_options,
    })),
  )
  sources.forEach((r, i) => recipientIds.set(r.id, copies[i]!.id))
  if (!o.fields) return { recipients: copies, recipientIds, fieldIds }
  const fields = await tx.query<FieldRow>('select * from fields where envelope_id = $1 order by id', [from.id])
  const issues: ApiIssue[] = []
  const copied = fields.filter((f) => {
    const item = itemIds.get(f.envelope_item_id)!
    if (f.page <= item.pages) return true
    issues.push(issue(['files'], `The replacement for item ${f.envelope_item_id} has ${item.pages} page(s); field ${f.id} is on page ${f.page}`))
    return false
  })
  throwIfIssues(issues)
  // A prefilled field is copied inserted, with its value.
  const rows = await insertFields(
    tx,
    toId,
    copied.map((f) => ({
      envelopeItemId: itemIds.get(f.envelope_item_id)!.id,
      recipientId: recipientIds.get(f.recipient_id)!,
      type: f.type,
      page: f.page,
      positionX: f.position_x,
      positionY: f.position_y,
      width: f.width,
      height: f.height,
      fieldMeta: f.field_meta,
      value: o.prefill?.get(f.id),
    })),
  )
  copied.forEach((f, i) => fieldIds.set(f.id, rows[i]!.id))
  return { recipients: copies, recipientIds, fieldIds }
}

/** A copy of a document or template, as a new draft of the same type. */
export function duplicate(
  db: Db,
  p: Principal,
  actor: Actor,
  input: { envelopeId: string; includeRecipients?: boolean | undefined; includeFields?: boolean | undefined },
): Promise<string> {
  return db.transaction(async (tx) => {
    const from = await findEnvelope(tx, p, input.envelopeId)
    // A purged document's files are gone: nothing to copy.
    await assertNotPurged(tx, from.id)
    const recipients = input.includeRecipients ?? true
    const { id } = await insertEnvelope(tx, p, {
      type: from.type,
      source: from.type,
      title: `${from.title} (copy)`.slice(0, 255),
      externalId: from.external_id,
      visibility: from.visibility,
      meta: from.document_meta,
      languageChosen: from.language_chosen,
      authOptions: from.auth_options,
    })
    await copyParts(tx, from, id, { recipients, fields: recipients && (input.includeFields ?? true) })
    await audit(tx, { id, team_id: p.teamId }, 'DOCUMENT_CREATED', actor, {
      title: `${from.title} (copy)`.slice(0, 255),
      source: { type: 'DOCUMENT' },
      type: from.type,
      duplicatedFrom: from.id,
    })
    await emit(tx, p.teamId, from.type === 'DOCUMENT' ? 'DOCUMENT_CREATED' : 'TEMPLATE_CREATED', await loadEnvelope(tx, p, id))
    return id
  })
}

export interface UseInput {
  envelopeId: string
  title?: string | undefined
  externalId?: string | null | undefined
  recipients?: { id: number; email?: string | undefined; name?: string | undefined }[] | undefined
  customDocumentData?: { identifier: string; envelopeItemId: string }[] | undefined
  prefillFields?: { id: number; type: string; label?: string | undefined; placeholder?: string | undefined; value: string | string[] }[] | undefined
  distributeDocument?: boolean | undefined
}

/** A prefilled field's `type` as API v2 names it, and the field type it must be. */
export const PREFILL_TYPES: Record<string, string> = { text: 'TEXT', number: 'NUMBER', checkbox: 'CHECKBOX', radio: 'RADIO', dropdown: 'DROPDOWN', date: 'DATE' }

/**
 * A document from a template: its items (or the uploaded replacements), recipients (with the
 * given e-mails and names), fields (some filled in ahead), settings. DOCUMENT_CREATED and
 * TEMPLATE_USED; sent at once with `distributeDocument`. Writes nothing when anything is wrong.
 */
export async function useTemplate(
  tx: Queryable,
  p: Principal,
  actor: Actor,
  input: UseInput,
  files: UploadedPdf[],
  now: Date,
  options: {
    /** internalVersion 1: the new document is a legacy one (API v1's create-document / generate-document). */
    internalVersion?: LegacyVersion | undefined
    /** TEMPLATE_DIRECT_LINK for a document started from a template's direct link. */
    source?: 'TEMPLATE' | 'TEMPLATE_DIRECT_LINK'
    /** The template recipient who acts first (the direct link's). */
    firstRecipient?: number | undefined
  } = {},
): Promise<{ envelope: EnvelopeRow; recipients: RecipientRow[] } & Pick<Copied, 'recipientIds' | 'fieldIds'>> {
  const template = await findEnvelope(tx, p, input.envelopeId)
  if (template.type !== 'TEMPLATE') throw new ApiError(400, 'NOT_A_TEMPLATE', `${template.id} is a document; only a template can be used`)
  const issues: ApiIssue[] = []

  const sources = await tx.query<RecipientRow>('select id from recipients where envelope_id = $1', [template.id])
  const recipientChanges = new Map<number, { email?: string; name?: string }>()
  for (const [i, r] of (input.recipients ?? []).entries()) {
    if (!sources.some((s) => s.id === r.id)) issues.push(issue(['payload', 'recipients', i, 'id'], `Recipient ${r.id} is not on this template`))
    else recipientChanges.set(r.id, { ...(r.email ? { email: r.email } : {}), ...(r.name !== undefined ? { name: r.name } : {}) })
  }

  const items = await tx.query<ItemRow>('select id from envelope_items where envelope_id = $1', [template.id])
  const replacements = new Map<string, UploadedPdf>()
  for (const [i, d] of (input.customDocumentData ?? []).entries()) {
    const file = files.find((f) => f.name === d.identifier)
    if (!items.some((it) => it.id === d.envelopeItemId)) issues.push(issue(['payload', 'customDocumentData', i, 'envelopeItemId'], `Item ${d.envelopeItemId} is not on this template`))
    else if (!file) issues.push(issue(['payload', 'customDocumentData', i, 'identifier'], `No uploaded file is named ${JSON.stringify(d.identifier)}`))
    else replacements.set(d.envelopeItemId, file)
  }

  const fields = await tx.query<FieldRow>('select * from fields where envelope_id = $1', [template.id])
  const prefill = new Map<number, string>()
  for (const [i, f] of (input.prefillFields ?? []).entries()) {
    const path = ['payload', 'prefillFields', i]
    const field = fields.find((x) => x.id === f.id)
    if (!field) issues.push(issue([...path, 'id'], `Field ${f.id} is not on this template`))
    else if (PREFILL_TYPES[f.type] !== field.type) issues.push(issue([...path, 'type'], `Field ${f.id} is a ${field.type.toLowerCase()} field, not ${f.type}`))
    else if (isComputed(field)) issues.push(issue([...path, 'id'], `Field ${f.id} is computed by its formula: it cannot be filled in ahead`))
    else if (field.type === 'DATE') {
      if (typeof f.value !== 'string' || Number.isNaN(Date.parse(f.value))) issues.push(issue([...path, 'value'], 'Expected a date'))
      else prefill.set(field.id, f.value)
    } else {
      // Checkbox values come as an array; numbers as strings (API v2's prefill fields).
      const stored = storedValue(field, f.value, [...path, 'value'])
      if (typeof stored === 'string') prefill.set(field.id, stored)
      else issues.push(stored)
    }
  }
  throwIfIssues(issues)

  const { id } = await insertEnvelope(tx, p, {
    type: 'DOCUMENT',
    source: options.source ?? 'TEMPLATE',
    title: input.title ?? template.title,
    externalId: input.externalId === undefined ? template.external_id : input.externalId,
    visibility: template.visibility,
    meta: template.document_meta,
    languageChosen: template.language_chosen,
    internalVersion: options.internalVersion,
    templateId: template.id,
    authOptions: template.auth_options,
  })
  const copied = await copyParts(tx, template, id, { recipients: true, fields: true, recipientChanges, files: replacements, prefill, firstRecipient: options.firstRecipient })
  let recipients = copied.recipients
  await audit(tx, { id, team_id: p.teamId }, 'DOCUMENT_CREATED', actor, {
    title: input.title ?? template.title,
    source: { type: options.source ?? 'TEMPLATE', templateId: template.secondary_number },
    templateEnvelopeId: template.id,
  })
  const created = await loadEnvelope(tx, p, id)
  await emit(tx, p.teamId, 'DOCUMENT_CREATED', created, template.secondary_number)
  await emit(tx, p.teamId, 'TEMPLATE_USED', created, template.secondary_number)
  let envelope = await findEnvelope(tx, p, id)
  if (input.distributeDocument) ({ envelope, recipients } = await distribute(tx, p, actor, { envelopeId: id }, now))
  return { envelope, recipients, recipientIds: copied.recipientIds, fieldIds: copied.fieldIds }
}

/** useTemplate, in its own transaction: what the doors call (a direct link's signing runs the step in its own). */
export function documentFromTemplate(
  db: Db,
  p: Principal,
  actor: Actor,
  input: UseInput,
  files: UploadedPdf[],
  now: Date,
  options: Parameters<typeof useTemplate>[6] = {},
): ReturnType<typeof useTemplate> {
  return db.transaction((tx) => useTemplate(tx, p, actor, input, files, now, options))
}
