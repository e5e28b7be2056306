import { memberOf, type Principal } from '../../auth/principal.js'
import type { Queryable } from '../../db/index.js'
import { ApiError, badRequest, issue, notFound } from '../../errors.js'
import { secondaryId } from '../common/ids.js'
import type { EnvelopeStatus, EnvelopeType } from '../common/status.js'
import { visibilitiesFor, type Visibility } from '../../people/roles.js'
import { toEnvelope, type DirectLinkRow, type Envelope, type EnvelopeRow, type FieldRow, type ItemRow, type RecipientRow, type TeamInfo, type TokenView } from '../common/rows.js'
import { mayHoldLinks, SHOWN, tokenView, WITHHELD } from '../recipient/link-holders.js'

// Reading envelopes as a principal may see them: one by id, number or parent, a list with its
// filters and counts, and the cached answer. The rows and their mappers are common/rows.ts's.

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
const assemble = (r: Loaded, view: TokenView) => toEnvelope(r, r.items, r.recipients, view, r.fields, r.team, r.direct_link)

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
  return (await db.query<Loaded>(sql, all)).map((r) => assemble(r, tokenView(p, r)))
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
  /** The same with the recipients' tokens withheld (recipient/link-holders.ts), for who may not hold them. */
  withheldJson: string
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

/** The cached answer `p` may have (canSee checked first): with the tokens only for who may hold them. */
export const cachedAnswer = (p: Principal, e: CachedEnvelope): string => (mayHoldLinks(p, { created_by: e.createdBy }) ? e.json : e.withheldJson)

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
    json: JSON.stringify(assemble(r, SHOWN)),
    withheldJson: JSON.stringify(assemble(r, WITHHELD)),
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

/**
 * The words of a search as the envelopes' `search` column holds them (migration 26): what lies
 * between ASCII spaces and punctuation, lowercased in ASCII only, as the database does it.
 */
export function searchWords(text: string): string[] {
  return text
    .replace(/[A-Z]+/g, (w) => w.toLowerCase())
    .split(/[\t\n\v\f\r !-/:-@[-`{-~]+/)
    .filter(Boolean)
}

/**
 * A search (`query`) as an SQL condition on alias e: every word of it among the envelope's words
 * (its title, external id, its recipients' names and e-mail addresses), the last one as a prefix
 * unless the search ends with a space or punctuation ("signer5@" is the whole word signer5). An
 * envelope id finds that envelope. A search with no word at all (only punctuation) matches those
 * characters anywhere in the title or a recipient's name or e-mail, unindexed.
 */
export function searchCondition(query: string, teamId: string, params: unknown[]): string {
  const words = searchWords(query)
  if (!words.length) {
    const pattern = `%${query.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
    return `(e.title ilike $${params.push(pattern)} or exists (select 1 from recipients r where r.envelope_id = e.id and (r.email ilike $${params.length} or r.name ilike $${params.length})))`
  }
  const open = !/[\t\n\v\f\r !-/:-@[-`{-~]$/.test(query)
  const tsquery = words.map((w, i) => `'${w.replace(/['\\]/g, (ch) => `\\${ch}`)}'${open && i === words.length - 1 ? ':*' : ''}`).join(' & ')
  const byText = `e.id = any(array(select envelope_search_ids($${params.push(teamId)}, $${params.push(tsquery)}::tsquery)))`
  return /^envelope_[a-z0-9]+$/.test(query) ? `(${byText} or e.id = $${params.push(query)})` : byText
}

/** What a list may be narrowed by: API v2's filters, and the console's (period, sender, owner, sort). */
export interface ListFilters {
  type?: EnvelopeType | undefined
  query?: string | undefined
  status?: EnvelopeStatus | undefined
  internalVersion?: number | undefined
  /** Created at or after this time. */
  createdAfter?: Date | undefined
  /** Created by this console member (a user id); null: created with an API token. */
  createdBy?: string | null | undefined
}

/** The list's SQL conditions on alias e (visibility apart); `status: false` leaves the status out. */
function listConditions(p: Principal, q: ListFilters, params: unknown[], o: { status?: boolean } = {}): string {
  return [
    ...(q.type ? [`e.type = $${params.push(q.type)}`] : []),
    ...(q.status && o.status !== false ? [`e.status = $${params.push(q.status)}`] : []),
    ...(q.query ? [searchCondition(q.query, p.teamId, params)] : []),
    ...(q.internalVersion ? [`e.internal_version = $${params.push(q.internalVersion)}`] : []),
    ...(q.createdAfter ? [`e.created_at >= $${params.push(q.createdAfter.toISOString())}`] : []),
    ...(q.createdBy === null ? ['e.created_by is null'] : q.createdBy ? [`e.created_by = $${params.push(q.createdBy)}`] : []),
  ].join(' and ')
}

/** The orders a list may take; `created` (newest first) is the API's. */
export const LIST_SORTS = ['created', 'title', 'updated'] as const
export type ListSort = (typeof LIST_SORTS)[number]

/** One page of the envelopes this principal sees (newest first unless sorted otherwise, fields only when asked), and how many there are. */
export async function listEnvelopes(
  db: Queryable,
  p: Principal,
  q: ListFilters & {
    page: number
    perPage: number
    withFields?: boolean
    sort?: ListSort | undefined
    direction?: 'asc' | 'desc' | undefined
  },
): Promise<{ data: Envelope[]; count: number }> {
  const params: unknown[] = []
  const where = listConditions(p, q, params)
  const count = await countEnvelopes(db, p, q, where, params)
  const dir = q.direction === 'asc' ? 'asc' : 'desc'
  // A search sorts its matches, read through the search index. Walking the team's list in order
  // until a page matches would cost the whole team for a rare word, and the planner cannot tell a
  // rare prefix from a common one; the added zero interval keeps it off that walk.
  const order =
    q.sort === 'title'
      ? `e.title ${dir}, e.id ${dir}`
      : q.sort === 'updated'
        ? `e.updated_at ${dir}, e.id ${dir}`
        : `e.created_at${q.query ? ` + interval '0 s'` : ''} ${dir}, e.id ${dir}`
  const data = await loadEnvelopes(db, p, where, params, {
    withFields: q.withFields ?? false,
    tail: `order by ${order} limit ${q.perPage} offset ${(q.page - 1) * q.perPage}`,
  })
  return { data, count }
}

const noCounts = (): Record<EnvelopeStatus, number> => ({ DRAFT: 0, PENDING: 0, COMPLETED: 0, REJECTED: 0, CANCELLED: 0 })

/**
 * The principal's envelopes by status from the totals kept as envelopes are written (migration 26),
 * when the filters are only a type and version: the visibilities its role reaches, plus a member's
 * own envelopes beyond them. Null when the rows must be counted (a search, a period, a creator, a
 * scoped presign token).
 */
async function keptStatusCounts(db: Queryable, p: Principal, q: ListFilters): Promise<Record<EnvelopeStatus, number> | null> {
  if (q.query || q.createdAfter || q.createdBy !== undefined || (p.kind === 'presign' && p.scope)) return null
  const params: unknown[] = [p.teamId]
  const type = q.type ? `$${params.push(q.type)}` : null
  const version = q.internalVersion ? `$${params.push(q.internalVersion)}` : null
  const on = (alias: string) => `${type ? ` and ${alias}type = ${type}` : ''}${version ? ` and ${alias}internal_version = ${version}` : ''}`
  const member = memberOf(p)
  let sql = `select status, sum(n)::int as n from envelope_status_counts where team_id = $1${on('')}`
  if (member) {
    const reach = `$${params.push(visibilitiesFor(member.role))}::text[]`
    sql += ` and visibility = any(${reach}) group by status
      union all
      select e.status, count(*)::int as n from envelopes e
      where e.team_id = $1 and e.deleted_at is null and e.created_by = $${params.push(member.userId)} and not (e.visibility = any(${reach}))${on('e.')}
      group by e.status`
  } else sql += ' group by status'
  const counts = noCounts()
  for (const r of await db.query<{ status: EnvelopeStatus; n: number }>(sql, params)) counts[r.status] = (counts[r.status] ?? 0) + r.n
  return counts
}

/** How many envelopes of each status this principal sees with these filters (the status itself left out), in one query. */
export async function countByStatus(db: Queryable, p: Principal, q: ListFilters): Promise<Record<EnvelopeStatus, number>> {
  const kept = await keptStatusCounts(db, p, q)
  if (kept) return kept
  const params: unknown[] = []
  const where = listConditions(p, q, params, { status: false })
  const cond = visibleTo(p, params)
  const rows = await db.query<{ status: EnvelopeStatus; n: number }>(
    `select e.status, count(*)::int as n from envelopes e where ${cond}${where ? ` and ${where}` : ''} group by e.status`,
    params,
  )
  const counts = noCounts()
  for (const r of rows) counts[r.status] = r.n
  return counts
}

/**
 * The list's total. A token sees every live envelope of its team: by type and version that total
 * is kept as envelopes are written (migration 13), so it costs the same however many there are.
 * A status or a member's visibility (a console member, a member's token) reads the totals kept by
 * status and visibility (migration 26), with a member's own envelopes beyond their role counted.
 * Anything narrower (a search, a period or creator, a scoped presign token) counts the rows, with
 * the list's own conditions.
 */
async function countEnvelopes(db: Queryable, p: Principal, q: ListFilters, where: string, params: unknown[]): Promise<number> {
  const narrowed = q.query || q.status || q.createdAfter || q.createdBy !== undefined
  const whole = (p.kind === 'api' || (p.kind === 'presign' && !p.scope)) && !memberOf(p) && !narrowed
  if (whole) {
    const kept: unknown[] = [p.teamId]
    const [row] = await db.query<{ count: number }>(
      `select coalesce(sum(n), 0)::int as count from envelope_counts where team_id = $1
       ${q.type ? `and type = $${kept.push(q.type)}` : ''} ${q.internalVersion ? `and internal_version = $${kept.push(q.internalVersion)}` : ''}`,
      kept,
    )
    return row!.count
  }
  // A member, or a status: the kept totals by status and visibility.
  const kept = await keptStatusCounts(db, p, q)
  if (kept) return q.status ? kept[q.status] : Object.values(kept).reduce((a, b) => a + b, 0)
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
