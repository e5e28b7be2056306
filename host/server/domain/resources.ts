import { memberOf, type Principal } from '../auth/principal.js'
import { toDirectLink, type DirectLinkRow } from './rows.js'
import { iso, type Queryable } from '../db/index.js'
import { ApiError, badRequest, issue, notFound } from '../errors.js'
import { DEFAULT_DOCUMENT_META, type DocumentMeta } from './document-meta.js'
import { secondaryId } from './ids.js'
import type { EnvelopeStatus, EnvelopeType } from './status.js'
import { visibilitiesFor, type Visibility } from '../people/roles.js'

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
  created_at: Date | string
  updated_at: Date | string
  completed_at: Date | string | null
  deleted_at: Date | string | null
  /** The member who made it in the console; null when made through a token or a link. */
  created_by: string | null
  /** Envelope-wide recipient authentication (domain/recipient-auth.ts); null: none. */
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

export const toItem = (r: ItemRow) => ({
  id: r.id,
  envelopeId: r.envelope_id,
  title: r.title,
  order: r.item_order,
  documentDataId: r.document_data_id,
  pageCount: r.page_count,
})

export const toRecipient = (r: RecipientRow, e: Pick<EnvelopeRow, 'type' | 'secondary_number'>) => ({
  id: r.id,
  envelopeId: r.envelope_id,
  documentId: e.type === 'DOCUMENT' ? e.secondary_number : null,
  templateId: e.type === 'TEMPLATE' ? e.secondary_number : null,
  email: r.email,
  name: r.name,
  role: r.role,
  token: r.token,
  readStatus: r.read_status,
  signingStatus: r.signing_status,
  sendStatus: r.send_status,
  signingOrder: r.signing_order,
  signedAt: iso(r.signed_at),
  rejectionReason: r.rejection_reason,
  documentDeletedAt: iso(r.document_deleted_at),
  expired: null,
  expiresAt: iso(r.expires_at),
  expirationNotifiedAt: iso(r.expiration_notified_at),
  authOptions: r.auth_options ?? { accessAuth: [], actionAuth: [] },
})

export const toField = (r: FieldRow) => ({
  id: r.id,
  envelopeId: r.envelope_id,
  envelopeItemId: r.envelope_item_id,
  recipientId: r.recipient_id,
  type: r.type,
  page: r.page,
  positionX: r.position_x,
  positionY: r.position_y,
  width: r.width,
  height: r.height,
  fieldMeta: r.field_meta,
  inserted: r.inserted,
  customText: r.custom_text ?? '',
  /** The deployed clients require a string secondary id on fields; ours is derived from the id. */
  secondaryId: `field_${r.id}`,
})

export const toAttachment = (r: AttachmentRow) => ({ id: r.id, type: r.type, label: r.label, data: r.data })

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

export function toEnvelope(e: EnvelopeRow, items: ItemRow[], recipients: RecipientRow[], fields?: FieldRow[], team?: TeamInfo | null, link?: DirectLinkRow | null) {
  return {
    id: e.id,
    secondaryId: secondaryId(e.type, e.secondary_number),
    internalVersion: e.internal_version,
    type: e.type,
    status: e.status,
    source: e.source,
    visibility: e.visibility,
    templateType: e.template_type,
    externalId: e.external_id,
    title: e.title,
    createdAt: iso(e.created_at)!,
    updatedAt: iso(e.updated_at)!,
    completedAt: iso(e.completed_at),
    deletedAt: iso(e.deleted_at),
    documentMeta: { ...DEFAULT_DOCUMENT_META, ...e.document_meta, id: e.id, emailId: null, emailReplyTo: null },
    recipients: recipients.map((r) => toRecipient(r, e)),
    envelopeItems: items.map(toItem),
    ...(fields ? { fields: fields.map(toField) } : {}),
    ...clientCompat(e, team, link),
  }
}
export type Envelope = ReturnType<typeof toEnvelope>

/**
 * SQL condition (on alias `e`) for the envelopes this principal may see: its team's live ones,
 * within the visibility its member's role reaches (the console member, or the member who made the
 * token, presign tokens included), and for a scoped presign token only the one in its scope.
 * Pushes its parameters onto `params`.
 */
export function visibleTo(p: Principal, params: unknown[]): string {
  params.push(p.teamId)
  let sql = `e.team_id = $${params.length} and e.deleted_at is null`
  const member = memberOf(p)
  if (member) {
    params.push(member.userId)
    sql += ` and (e.created_by = $${params.length} or e.visibility in (${visibilitiesFor(member.role).map((v) => `'${v}'`).join(', ')}))`
  }
  if (p.kind === 'presign' && p.scope) {
    params.push(p.scope.id)
    if (p.scope.kind === 'envelopeId') sql += ` and e.id = $${params.length}`
    else sql += ` and e.type = '${p.scope.kind === 'documentId' ? 'DOCUMENT' : 'TEMPLATE'}' and e.secondary_number = $${params.length}`
  }
  return sql
}

/** The envelope row, locked for the rest of the transaction when `lock`; 404 when not visible. */
export async function findEnvelope(db: Queryable, p: Principal, id: string, lock = false): Promise<EnvelopeRow> {
  const params: unknown[] = [id]
  const [row] = await db.query<EnvelopeRow>(
    `select e.* from envelopes e where e.id = $1 and ${visibleTo(p, params)}${lock ? ' for update' : ''}`,
    params,
  )
  if (!row) throw notFound('envelope')
  return row
}

const CHILDREN = `
  coalesce((select json_agg(i order by i.item_order, i.created_at, i.id) from envelope_items i where i.envelope_id = e.id), '[]') as items,
  coalesce((select json_agg(r order by r.id) from recipients r where r.envelope_id = e.id), '[]') as recipients,
  (select json_build_object('id', t.id, 'number', t.number, 'name', t.name, 'email', t.email) from teams t where t.id = e.team_id) as team,
  (select row_to_json(l) from template_direct_links l where l.envelope_id = e.id) as direct_link,
  (select t.secondary_number from envelopes t where t.id = e.template_id) as template_number`
const FIELDS = `,
  coalesce((select json_agg(f order by f.id) from fields f where f.envelope_id = e.id), '[]') as fields`

type Loaded = EnvelopeRow & { items: ItemRow[]; recipients: RecipientRow[]; fields?: FieldRow[]; team: TeamInfo | null; direct_link: DirectLinkRow | null }
const assemble = (r: Loaded) => toEnvelope(r, r.items, r.recipients, r.fields, r.team, r.direct_link)

/** Full resources (items, recipients, and fields when `withFields`) matching `where` on alias e. */
export async function loadEnvelopes(
  db: Queryable,
  p: Principal,
  where: string,
  params: unknown[],
  o: { withFields: boolean; tail?: string },
): Promise<Envelope[]> {
  const all = [...params]
  const sql = `select e.*, ${CHILDREN}${o.withFields ? FIELDS : ''} from envelopes e
    where ${visibleTo(p, all)}${where ? ` and ${where}` : ''} ${o.tail ?? ''}`
  return (await db.query<Loaded>(sql, all)).map(assemble)
}

export async function loadEnvelope(db: Queryable, p: Principal, id: string): Promise<Envelope> {
  const [env] = await loadEnvelopes(db, p, 'e.id = $1', [id], { withFields: true })
  if (!env) throw notFound('envelope')
  return env
}

/** An envelope as GET /envelope/{id} serves it, with what the visibility rule needs. */
export interface CachedEnvelope {
  id: string
  teamId: string
  type: EnvelopeType
  number: number
  visibility: string
  createdBy: string | null
  json: string
}

/** visibleTo, for an envelope already in hand. */
export function canSee(p: Principal, e: Pick<CachedEnvelope, 'id' | 'teamId' | 'type' | 'number' | 'visibility' | 'createdBy'>): boolean {
  if (e.teamId !== p.teamId) return false
  const member = memberOf(p)
  if (member && e.createdBy !== member.userId && !visibilitiesFor(member.role).includes(e.visibility as Visibility)) return false
  if (p.kind !== 'presign' || !p.scope) return true
  if (p.scope.kind === 'envelopeId') return e.id === p.scope.id
  return e.type === (p.scope.kind === 'documentId' ? 'DOCUMENT' : 'TEMPLATE') && e.number === p.scope.id
}

/** The live envelope with this id, whoever owns it (callers check canSee). */
export async function loadForCache(db: Queryable, id: string): Promise<CachedEnvelope | null> {
  const [r] = await db.query<Loaded>(`select e.*, ${CHILDREN}${FIELDS} from envelopes e where e.id = $1 and e.deleted_at is null`, [id])
  if (!r) return null
  return {
    id: r.id,
    teamId: r.team_id,
    type: r.type,
    number: r.secondary_number,
    visibility: r.visibility,
    createdBy: r.created_by,
    json: JSON.stringify(assemble(r)),
  }
}

/** The envelope owning a child row (item, recipient, field, attachment), checked like findEnvelope. */
export async function findParent(
  db: Queryable,
  p: Principal,
  table: 'envelope_items' | 'recipients' | 'fields' | 'attachments',
  id: string | number,
  what: string,
  lock = false,
): Promise<EnvelopeRow> {
  const [row] = await db.query<{ envelope_id: string }>(`select envelope_id from ${table} where id = $1`, [id])
  if (!row) throw notFound(what)
  try {
    return await findEnvelope(db, p, row.envelope_id, lock)
  } catch (err) {
    // Name what was asked for, not its envelope.
    throw err instanceof ApiError && err.status === 404 ? notFound(what) : err
  }
}

/** One page of the envelopes this principal sees (newest first, fields only when asked), and how many there are. */
export async function listEnvelopes(
  db: Queryable,
  p: Principal,
  q: {
    type?: EnvelopeType | undefined
    query?: string | undefined
    status?: EnvelopeStatus | undefined
    page: number
    perPage: number
    internalVersion?: number | undefined
    withFields?: boolean
  },
): Promise<{ data: Envelope[]; count: number }> {
  const params: unknown[] = []
  // LIKE's own characters in what was typed match themselves.
  const pattern = q.query ? `%${q.query.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null
  const conditions = [
    ...(q.type ? [`e.type = $${params.push(q.type)}`] : []),
    ...(q.status ? [`e.status = $${params.push(q.status)}`] : []),
    ...(pattern
      ? [
          `(e.title ilike $${params.push(pattern)} or exists (select 1 from recipients r where r.envelope_id = e.id and (r.email ilike $${params.length} or r.name ilike $${params.length})))`,
        ]
      : []),
    ...(q.internalVersion ? [`e.internal_version = $${params.push(q.internalVersion)}`] : []),
  ]
  const where = conditions.join(' and ')
  const count = await countEnvelopes(db, p, q, pattern !== null, where, params)
  const data = await loadEnvelopes(db, p, where, params, {
    withFields: q.withFields ?? false,
    tail: `order by e.created_at desc, e.id desc limit ${q.perPage} offset ${(q.page - 1) * q.perPage}`,
  })
  return { data, count }
}

/**
 * The list's total. A token sees every live envelope of its team: by type and version that total
 * is kept as envelopes are written (migration 13), so it costs the same however many there are.
 * Anything narrower (a search, a status, a member's visibility, a member's token, a scoped presign token) counts
 * the rows, with the list's own conditions.
 */
async function countEnvelopes(
  db: Queryable,
  p: Principal,
  q: { type?: EnvelopeType | undefined; status?: EnvelopeStatus | undefined; internalVersion?: number | undefined },
  searched: boolean,
  where: string,
  params: unknown[],
): Promise<number> {
  const whole = (p.kind === 'api' || (p.kind === 'presign' && !p.scope)) && !memberOf(p) && !searched && !q.status
  if (whole) {
    const kept: unknown[] = [p.teamId]
    const [row] = await db.query<{ count: number }>(
      `select coalesce(sum(n), 0)::int as count from envelope_counts where team_id = $1
       ${q.type ? `and type = $${kept.push(q.type)}` : ''} ${q.internalVersion ? `and internal_version = $${kept.push(q.internalVersion)}` : ''}`,
      kept,
    )
    return row!.count
  }
  const all = [...params]
  const cond = visibleTo(p, all)
  const [row] = await db.query<{ count: number }>(`select count(*)::int as count from envelopes e where ${cond}${where ? ` and ${where}` : ''}`, all)
  return row!.count
}

/** Envelopes by envelope id or by legacy number (documentId / templateId), in the order asked; unseen ones left out. */
export async function getManyEnvelopes(
  db: Queryable,
  p: Principal,
  ids: { type: 'documentId' | 'templateId' | 'envelopeId'; ids: (string | number)[] },
): Promise<Envelope[]> {
  const wrong = ids.ids.findIndex((v) => (ids.type === 'envelopeId' ? typeof v !== 'string' : typeof v !== 'number'))
  if (wrong >= 0) {
    throw badRequest(`ids.ids must all be ${ids.type === 'envelopeId' ? 'strings' : 'numbers'}`, [
      issue(['ids', 'ids', wrong], ids.type === 'envelopeId' ? 'Expected an envelope id' : 'Expected a number'),
    ])
  }
  if (!ids.ids.length) return []
  const where =
    ids.type === 'envelopeId'
      ? 'e.id = any($1::text[])'
      : `e.type = '${ids.type === 'documentId' ? 'DOCUMENT' : 'TEMPLATE'}' and e.secondary_number = any($1::int[])`
  const found = await loadEnvelopes(db, p, where, [ids.ids], { withFields: true })
  // In the order asked for.
  const key = (e: Envelope) => (ids.type === 'envelopeId' ? e.id : Number(e.secondaryId.split('_')[1]))
  const byKey = new Map<string | number, Envelope>(found.map((e) => [key(e), e]))
  return ids.ids.flatMap((k) => byKey.get(k) ?? [])
}

/** The live envelope of this type with this legacy number (documentId / templateId); 404 when not visible. */
export async function findByNumber(db: Queryable, p: Principal, type: EnvelopeType, n: number): Promise<EnvelopeRow> {
  const params: unknown[] = [type, n]
  const [row] = await db.query<EnvelopeRow>(
    `select e.* from envelopes e where e.type = $1 and e.secondary_number = $2 and ${visibleTo(p, params)}`,
    params,
  )
  if (!row) throw notFound(type === 'DOCUMENT' ? 'document' : 'template')
  return row
}
