/**
 * Rows as the database returns them and their mappers to the API's shapes, for the rows that
 * several domain modules read: a leaf, so envelope/lookup.ts and the operations all import it.
 */
import type { AttachmentAnswer, DirectLinkAnswer, EnvelopeAnswer, FieldAnswer, ItemAnswer, RecipientAnswer } from '../../contract/answers.js'
import { iso } from '../../db/index.js'
import { DEFAULT_DOCUMENT_META, type DocumentMeta } from '../envelope/document-meta.js'
import { secondaryId } from './ids.js'
import type { EnvelopeStatus, EnvelopeType } from './status.js'

export interface DirectLinkRow {
  id: string
  envelope_id: string
  token: string
  enabled: boolean
  recipient_id: number
  created_at: Date | string
}

/** The link as the API shows it (the deployed clients' TemplateDirectLink shape). */
export const toDirectLink = (l: DirectLinkRow, templateNumber: number): DirectLinkAnswer => ({
  id: l.id,
  envelopeId: l.envelope_id,
  templateId: templateNumber,
  token: l.token,
  createdAt: iso(l.created_at)!,
  enabled: l.enabled,
  directTemplateRecipientId: l.recipient_id,
})
export type DirectLink = DirectLinkAnswer

/** Database rows (snake_case) and the API resources they become (src/protocol/api.ts, documented in docs/api-notes.md). */
export interface EnvelopeRow {
  id: string
  team_id: string
  type: EnvelopeType
  secondary_number: number
  internal_version: number
  /** The template a document was made from; its number, when loaded with the envelope. */
  template_id?: string | null
  template_number?: number | null
  status: EnvelopeStatus
  source: string
  visibility: string
  template_type: string
  external_id: string | null
  title: string
  document_meta: DocumentMeta
  /** The sender chose document_meta.language (else it is the default, and the signing page speaks the signer's). */
  language_chosen: boolean
  created_at: Date | string
  updated_at: Date | string
  completed_at: Date | string | null
  /** When its files went and its personal data was redacted (domain/retention/retention.ts). */
  purged_at?: Date | string | null
  deleted_at: Date | string | null
  /** The member who made it in the console; null when made through a token or a link. */
  created_by: string | null
  /** Envelope-wide recipient authentication (domain/recipient/auth.ts); null: none. */
  auth_options: { globalAccessAuth: string[]; globalActionAuth: string[] } | null
}

export interface ItemRow {
  id: string
  envelope_id: string
  title: string
  item_order: number
  document_data_id: string
  page_count: number
}

export interface RecipientRow {
  id: number
  envelope_id: string
  email: string
  name: string
  role: string
  token: string
  read_status: string
  signing_status: string
  send_status: string
  signing_order: number | null
  signed_at: Date | string | null
  rejection_reason: string | null
  document_deleted_at: Date | string | null
  expires_at: Date | string | null
  expiration_notified_at: Date | string | null
  auth_options: { accessAuth: string[]; actionAuth: string[] } | null
}

export interface FieldRow {
  id: number
  envelope_id: string
  envelope_item_id: string
  recipient_id: number
  type: string
  page: number
  position_x: number
  position_y: number
  width: number
  height: number
  field_meta: Record<string, unknown> | null
  inserted: boolean
  custom_text: string | null
}

/** The owning team as an envelope resource names it (teams.number: migration 4). */
export interface TeamInfo {
  id: string
  number: number
  name: string
  email: string | null
}

export interface AttachmentRow {
  id: string
  envelope_id: string
  type: string
  label: string
  data: string
}

export const toItem = (r: ItemRow): ItemAnswer => ({
  id: r.id,
  envelopeId: r.envelope_id,
  title: r.title,
  order: r.item_order,
  documentDataId: r.document_data_id,
  pageCount: r.page_count,
})

/**
 * How an answer shows a recipient's signing token: as stored, or withheld from a caller who may not
 * hold it. Required of every mapper that shows a recipient, so no answer forgets to choose
 * (domain/recipient/link-holders.ts decides which).
 */
export type TokenView = (token: string) => string

export const toRecipient = (r: RecipientRow, e: Pick<EnvelopeRow, 'type' | 'secondary_number'>, view: TokenView): RecipientAnswer => ({
  id: r.id,
  envelopeId: r.envelope_id,
  documentId: e.type === 'DOCUMENT' ? e.secondary_number : null,
  templateId: e.type === 'TEMPLATE' ? e.secondary_number : null,
  email: r.email,
  name: r.name,
  // The columns hold only these values (their checks: db/migrations).
  role: r.role as RecipientAnswer['role'],
  token: view(r.token),
  readStatus: r.read_status as RecipientAnswer['readStatus'],
  signingStatus: r.signing_status as RecipientAnswer['signingStatus'],
  sendStatus: r.send_status as RecipientAnswer['sendStatus'],
  signingOrder: r.signing_order,
  signedAt: iso(r.signed_at),
  rejectionReason: r.rejection_reason,
  documentDeletedAt: iso(r.document_deleted_at),
  expired: null,
  expiresAt: iso(r.expires_at),
  expirationNotifiedAt: iso(r.expiration_notified_at),
  authOptions: r.auth_options ?? { accessAuth: [], actionAuth: [] },
})

/** fieldMeta's `type` as the deployed clients read it: they refuse a fieldMeta without one. */
const META_TYPES: Record<string, string> = { FREE_SIGNATURE: 'signature' }

/** A stored fieldMeta as answered: as given, with `type` (the field's, lower case) when it has none. */
const answeredMeta = (r: FieldRow): FieldAnswer['fieldMeta'] =>
  r.field_meta && typeof r.field_meta === 'object' && !('type' in r.field_meta) ? { type: META_TYPES[r.type] ?? r.type.toLowerCase(), ...r.field_meta } : r.field_meta

export const toField = (r: FieldRow): FieldAnswer => ({
  id: r.id,
  envelopeId: r.envelope_id,
  envelopeItemId: r.envelope_item_id,
  recipientId: r.recipient_id,
  type: r.type as FieldAnswer['type'],
  page: r.page,
  positionX: r.position_x,
  positionY: r.position_y,
  width: r.width,
  height: r.height,
  fieldMeta: answeredMeta(r),
  inserted: r.inserted,
  customText: r.custom_text ?? '',
  /** The deployed clients require a string secondary id on fields; ours is derived from the id. */
  secondaryId: `field_${r.id}`,
})

export const toAttachment = (r: AttachmentRow): AttachmentAnswer => ({ id: r.id, type: r.type as AttachmentAnswer['type'], label: r.label, data: r.data })

/**
 * The attributes the deployed clients' models require that this host has no richer value for
 * (docs/api-notes.md, "Compatibility with the deployed clients"). The team stands in for the user:
 * API tokens belong to a team, not to a person.
 */
function clientCompat(e: EnvelopeRow, team: TeamInfo | null | undefined, link: DirectLinkRow | null | undefined) {
  const number = team?.number ?? 0
  return {
    authOptions: { globalAccessAuth: e.auth_options?.globalAccessAuth ?? [], globalActionAuth: e.auth_options?.globalActionAuth ?? [] },
    formValues: null as Record<string, string | number | boolean> | null,
    publicTitle: '',
    publicDescription: '',
    userId: number,
    teamId: number,
    folderId: null as string | null,
    templateId: e.template_number ?? null,
    directLink: link ? toDirectLink(link, e.secondary_number) : null,
    team: { id: number, url: team?.id ?? e.team_id },
    user: { id: number, name: team?.name ?? '', email: team?.email ?? '' },
  }
}

export function toEnvelope(e: EnvelopeRow, items: ItemRow[], recipients: RecipientRow[], view: TokenView, fields?: FieldRow[], team?: TeamInfo | null, link?: DirectLinkRow | null): EnvelopeAnswer {
  return {
    id: e.id,
    secondaryId: secondaryId(e.type, e.secondary_number),
    internalVersion: e.internal_version,
    type: e.type,
    status: e.status,
    source: e.source as EnvelopeAnswer['source'],
    visibility: e.visibility,
    templateType: e.template_type,
    externalId: e.external_id,
    title: e.title,
    createdAt: iso(e.created_at)!,
    updatedAt: iso(e.updated_at)!,
    completedAt: iso(e.completed_at),
    deletedAt: iso(e.deleted_at),
    // Only on a purged envelope: its files are gone (downloads answer 410), its metadata stays.
    ...(e.purged_at ? { purgedAt: iso(e.purged_at)! } : {}),
    documentMeta: { ...DEFAULT_DOCUMENT_META, ...e.document_meta, id: e.id, emailId: null, emailReplyTo: null },
    recipients: recipients.map((r) => toRecipient(r, e, view)),
    envelopeItems: items.map(toItem),
    ...(fields ? { fields: fields.map(toField) } : {}),
    ...clientCompat(e, team, link),
  }
}
export type Envelope = EnvelopeAnswer
