import { ApiError } from '../../errors.js'
import { memberOf, type Principal } from '../../auth/principal.js'
import type { UploadedPdf } from '../item/files.js'
import type { RecipientInput } from '../common/inputs.js'
import { CHANNELS } from '../../cache.js'
import { iso, type Db, type Queryable } from '../../db/index.js'
import { badRequest, issue, type ApiIssue } from '../../errors.js'
import { emit } from '../../events/index.js'
import { mailCancelled } from '../../mail/notify.js'
import { audit, type Actor } from '../evidence/audit.js'
import { envelopeDefaults, withTeamDefaults } from '../team/branding.js'
import { recordChange } from './changes.js'
import { DEFAULT_DOCUMENT_META, type DocumentMeta } from './document-meta.js'
import { insertFields, placementIssues, throwIfIssues } from '../field/fields.js'
import { fieldsFromForm } from '../field/form-import.js'
import type { FieldPlacement } from '../common/inputs.js'
import { newId } from '../common/ids.js'
import { assertMayEnd } from './ownership.js'
import { SHOWN } from '../recipient/link-holders.js'
import { insertItems } from '../item/items.js'
import { dropFilesOf, type ItemFileIds } from '../item/files.js'
import { assertWithinPlan, usageMonth } from '../team/plans.js'
import { visibilitiesFor, type Visibility } from '../../people/roles.js'
import { envelopeAuthFrom, envelopeAuthPatch, type EnvelopeAuth, type EnvelopeAuthGiven } from '../recipient/auth.js'
import { insertRecipients } from '../recipient/recipients.js'
import { toEnvelope, type Envelope, type EnvelopeRow, type TeamInfo } from '../common/rows.js'
import { findEnvelope, loadEnvelope } from './lookup.js'
import { assertEditable, deletionKind, type EnvelopeType } from '../common/status.js'
import { checkLogic } from '../field/logic.js'

export interface NewEnvelope {
  type: EnvelopeType
  source: 'DOCUMENT' | 'TEMPLATE' | 'TEMPLATE_DIRECT_LINK'
  title: string
  externalId?: string | null | undefined
  visibility?: string | undefined
  meta?: Partial<DocumentMeta> | undefined
  /** 1 marks a legacy document or template (made by the deprecated v2 create routes or API v1); default 2. */
  internalVersion?: LegacyVersion | undefined
  /** The template a document is made from (its envelope id). */
  templateId?: string | undefined
  /** Envelope-wide recipient authentication; none when absent. */
  authOptions?: EnvelopeAuth | EnvelopeRow['auth_options'] | undefined
  /** A copy's: whether its source's language was chosen; else whether `meta` or the team's defaults name one. */
  languageChosen?: boolean | undefined
}

/** The envelope's methods as stored: null when it asks for none. */
function storedEnvelopeAuth(auth: NewEnvelope['authOptions']): string | null {
  return auth && (auth.globalAccessAuth.length || auth.globalActionAuth.length) ? JSON.stringify(auth) : null
}

/** envelopes.internal_version: 1 for legacy documents and templates (the only ones API v1 serves), 2 otherwise. */
export type LegacyVersion = 1 | 2

/** A new envelope row with what its resource shows beside the row (see toEnvelope). */
export type InsertedEnvelope = EnvelopeRow & { team: TeamInfo | null }

/**
 * A new DRAFT envelope row: counts a document against the plan, takes the team's next legacy
 * number for its type (no gaps: a refused creation rolls the number back with it). Its parts are
 * the caller's to add. One statement does all three and answers the row with its team and
 * template number, so the caller can build the resource without reading it back.
 */
export async function insertEnvelope(tx: Queryable, p: Principal, e: NewEnvelope): Promise<InsertedEnvelope> {
  assertMayGrant(p, e.visibility)
  // The team's defaults (domain/team/branding.ts) fill what the request leaves unset, for every door.
  const team = await envelopeDefaults(tx, p.teamId)
  const month = usageMonth()
  const meta = withTeamDefaults(e.meta, team.meta)
  const [row] = await tx.query<InsertedEnvelope & { documents: number | null }>(
    `with usage as (
       insert into team_usage (team_id, month, documents) select $2, $11, 1 where $3::text = 'DOCUMENT'
       on conflict (team_id, month) do update set documents = team_usage.documents + 1 returning documents),
     counter as (
       insert into team_counters (team_id, kind, value) values ($2, $3, 1)
       on conflict (team_id, kind) do update set value = team_counters.value + 1 returning value),
     inserted as (
       insert into envelopes (id, team_id, type, secondary_number, status, source, visibility, template_type, external_id, title, document_meta, internal_version, template_id, created_by, auth_options, language_chosen)
       select $1, $2, $3, counter.value, 'DRAFT', $4, $5, 'PRIVATE', $6, $7, $8, $9, $10, $12, $13::jsonb, $14 from counter returning *)
     select inserted.*, (select documents from usage) as documents,
       (select json_build_object('id', t.id, 'number', t.number, 'name', t.name, 'email', t.email) from teams t where t.id = inserted.team_id) as team,
       (select t.secondary_number from envelopes t where t.id = inserted.template_id) as template_number
     from inserted`,
    [
      newId.envelope(),
      p.teamId,
      e.type,
      e.source,
      e.visibility ?? 'EVERYONE',
      e.externalId ?? null,
      e.title,
      JSON.stringify({ ...DEFAULT_DOCUMENT_META, ...meta }),
      e.internalVersion ?? 2,
      e.templateId ?? null,
      month,
      memberOf(p)?.userId ?? null,
      storedEnvelopeAuth(e.authOptions ?? team.auth),
      e.languageChosen ?? meta.language !== undefined,
    ],
  )
  const { documents, ...inserted } = row!
  if (e.type === 'DOCUMENT') assertWithinPlan(p.plan, documents!, month)
  return inserted
}

/**
 * A console member, or a token a member made, may not hide an envelope above the member's own role
 * (a MEMBER setting ADMIN would make a document only admins and they themselves see, which is not
 * the member's to decide). The operator's tokens act for the whole team and may set any visibility.
 */
function assertMayGrant(p: Principal, visibility: string | undefined): void {
  const member = memberOf(p)
  if (!member || !visibility) return
  if (!visibilitiesFor(member.role).includes(visibility as Visibility)) {
    throw new ApiError(403, 'VISIBILITY_NOT_ALLOWED', `a ${member.role} may not set visibility ${visibility}: it is above their own role`)
  }
}

// ---- operations on whole envelopes (every door: API v2, the deprecated route maps) ----------

export interface CreateFieldInput extends Omit<FieldPlacement, 'recipientId' | 'envelopeItemId'> {
  /** The file the field is on: its index among the uploaded files, or its file name (default 0). */
  identifier?: number | string | undefined
}

export type CreateEnvelopeInput = EnvelopeAuthGiven & {
  type: EnvelopeType
  title?: string | undefined
  externalId?: string | null | undefined
  visibility?: string | undefined
  meta?: Partial<DocumentMeta> | undefined
  recipients?: (RecipientInput & { fields?: CreateFieldInput[] | undefined })[] | undefined
  /** Every file's own form fields become fields of this recipient (its index in `recipients`). */
  importFormFields?: { recipient: number } | undefined
}

/**
 * A new envelope from uploaded PDFs, with its recipients and their fields (each field on the
 * file its `identifier` names). Checks everything before writing; DOCUMENT_CREATED or
 * TEMPLATE_CREATED. Issue paths are under `payload`.
 */
export function createEnvelope(
  db: Db,
  p: Principal,
  actor: Actor,
  payload: CreateEnvelopeInput,
  files: UploadedPdf[],
  /** internalVersion 1: a legacy document or template (the deprecated create routes, API v1). */
  options: { internalVersion?: LegacyVersion | undefined } = {},
): Promise<string> {
  return db.transaction(async (tx) => {
    if (!files.length) throw badRequest('at least one PDF is required in the files parts', [issue(['files'], 'At least one file is required')])
    // Resolve each field's file before writing anything.
    const issues: ApiIssue[] = []
    const pending: { recipient: number; field: Omit<FieldPlacement, 'recipientId' | 'envelopeItemId'>; file: number; path?: (string | number)[] }[] = []
    for (const [ri, rec] of (payload.recipients ?? []).entries()) {
      for (const [fi, f] of (rec.fields ?? []).entries()) {
        const path = ['payload', 'recipients', ri, 'fields', fi]
        const id = f.identifier ?? 0
        const file = typeof id === 'number' ? (id < files.length ? id : -1) : files.findIndex((x) => x.name === id)
        if (file < 0) {
          issues.push(issue([...path, 'identifier'], `No uploaded file matches identifier ${JSON.stringify(id)}`))
          continue
        }
        const pseudoItems = [{ id: String(file), page_count: files[file]!.pageCount }]
        issues.push(...placementIssues({ ...f, recipientId: 0, envelopeItemId: String(file) }, path, pseudoItems, null))
        const { identifier: _i, ...placement } = f
        pending.push({ recipient: ri, field: placement, file, path })
      }
    }
    const formOwner = payload.importFormFields?.recipient
    if (formOwner !== undefined) {
      if (formOwner >= (payload.recipients?.length ?? 0)) issues.push(issue(['payload', 'importFormFields', 'recipient'], 'No recipient at this index: form fields need a recipient to fill them'))
      else files.forEach((f, file) => pending.push(...fieldsFromForm(f).map((field) => ({ recipient: formOwner, field, file }))))
    }
    throwIfIssues(issues)
    // Conditions and formulas checked before anything is written (a pending field's id: its index).
    checkLogic(
      pending.map((f, n) => ({ id: n, type: f.field.type, fieldMeta: f.field.fieldMeta })),
      (n) => pending[n]!.path,
    )

    const envelope = await insertEnvelope(tx, p, {
      type: payload.type,
      source: payload.type,
      title: payload.title ?? files[0]!.name.replace(/\.pdf$/i, '').slice(0, 255),
      externalId: payload.externalId,
      visibility: payload.visibility,
      meta: payload.meta,
      internalVersion: options.internalVersion,
      authOptions: envelopeAuthFrom(payload),
    })
    const id = envelope.id
    const items = await insertItems(tx, id, files, true)
    const recipients = await insertRecipients(tx, id, payload.recipients ?? [])
    const fields = await insertFields(
      tx,
      id,
      pending.map((f) => ({ ...f.field, recipientId: recipients[f.recipient]!.id, envelopeItemId: items[f.file]!.id })),
    )
    // Built from the rows just written, as loadEnvelope would read them back.
    // For the event: the team keeps the tokens; each delivery withholds them from who may not hold them.
    const created = toEnvelope(envelope, items, recipients, SHOWN, fields, envelope.team, null)
    await emit(tx, p.teamId, payload.type === 'DOCUMENT' ? 'DOCUMENT_CREATED' : 'TEMPLATE_CREATED', created)
    await audit(tx, { id, team_id: p.teamId }, 'DOCUMENT_CREATED', actor, { title: created.title, source: { type: 'DOCUMENT' }, type: payload.type })
    return id
  })
}

export interface UpdateEnvelopeInput {
  envelopeId: string
  data?: ({ title?: string | undefined; externalId?: string | null | undefined; visibility?: string | undefined } & EnvelopeAuthGiven) | undefined
  meta?: Partial<DocumentMeta> | undefined
}

/** A draft's title, external id, visibility and settings; the envelope as it is now. */
export function updateEnvelope(db: Db, p: Principal, actor: Actor, input: UpdateEnvelopeInput): Promise<Envelope> {
  return db.transaction(async (tx) => {
    const e = await findEnvelope(tx, p, input.envelopeId, true)
    assertEditable(e)
    const d = input.data ?? {}
    assertMayGrant(p, d.visibility)
    const auth = envelopeAuthPatch(d)
    await tx.query(
      `update envelopes set title = coalesce($2, title), visibility = coalesce($3, visibility),
         external_id = case when $4 then $5 else external_id end, document_meta = $6, language_chosen = language_chosen or $9,
         auth_options = case when $7 then coalesce(auth_options, '{"globalAccessAuth": [], "globalActionAuth": []}'::jsonb) || $8::jsonb else auth_options end
       where id = $1`,
      [
        e.id,
        d.title ?? null,
        d.visibility ?? null,
        d.externalId !== undefined,
        d.externalId ?? null,
        JSON.stringify({ ...DEFAULT_DOCUMENT_META, ...e.document_meta, ...input.meta }),
        auth !== undefined,
        JSON.stringify(auth ?? {}),
        input.meta?.language !== undefined,
      ],
    )
    await recordChange(tx, p, e)
    await auditUpdate(tx, e, actor, input)
    return loadEnvelope(tx, p, e.id)
  })
}

/**
 * Deletes an envelope: a draft for good, a sent one kept (soft) with its recipients told. The
 * envelope as it was (API v1 answers with it).
 */
export function deleteEnvelope(db: Db, p: Principal, actor: Actor, envelopeId: string): Promise<Envelope> {
  return db.transaction(async (tx) => {
    const e = await findEnvelope(tx, p, envelopeId, true)
    assertMayEnd(p, e, 'delete')
    const snapshot = await loadEnvelope(tx, p, e.id)
    const before = { ...snapshot }
    // Recipients of a sent document hear that it is gone.
    if (e.status === 'PENDING') await mailCancelled(tx, e.id)
    if (deletionKind(e.status) === 'hard') {
      // Its items go with it, and their files unless something else names them.
      const items = await tx.query<ItemFileIds>('select document_data_id, signed_document_data_id from envelope_items where envelope_id = $1', [e.id])
      await tx.query('delete from envelopes where id = $1', [e.id])
      await dropFilesOf(tx, items)
    } else {
      const [row] = await tx.query<{ deleted_at: Date }>(
        'update envelopes set deleted_at = now(), updated_at = now() where id = $1 returning deleted_at',
        [e.id],
      )
      snapshot.deletedAt = iso(row!.deleted_at)
    }
    await tx.notify(CHANNELS.envelopes, e.id)
    await audit(tx, e, 'DOCUMENT_DELETED', actor, { type: deletionKind(e.status) === 'hard' ? 'HARD' : 'SOFT' })
    await emit(tx, e.team_id, e.type === 'DOCUMENT' ? 'DOCUMENT_CANCELLED' : 'TEMPLATE_DELETED', snapshot)
    return before
  })
}

/** The deployed service's names for the documentMeta keys its audit log records changes of. */
const META_CHANGES: Record<string, string> = {
  subject: 'SUBJECT',
  message: 'MESSAGE',
  timezone: 'TIMEZONE',
  dateFormat: 'DATE_FORMAT',
  redirectUrl: 'REDIRECT_URL',
  emailSettings: 'EMAIL_SETTINGS',
}
const text = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v))

/** One entry per kind of change, as the deployed service records them: title, external id, visibility, settings. */
async function auditUpdate(tx: Queryable, e: EnvelopeRow, actor: Actor, input: UpdateEnvelopeInput): Promise<void> {
  const d = input.data ?? {}
  const changed = (from: unknown, to: unknown) => to !== undefined && text(from) !== text(to)
  if (changed(e.title, d.title)) await audit(tx, e, 'DOCUMENT_TITLE_UPDATED', actor, { from: e.title, to: d.title })
  if (changed(e.external_id, d.externalId)) await audit(tx, e, 'DOCUMENT_EXTERNAL_ID_UPDATED', actor, { from: e.external_id, to: d.externalId ?? null })
  if (changed(e.visibility, d.visibility)) await audit(tx, e, 'DOCUMENT_VISIBILITY_UPDATED', actor, { from: e.visibility, to: d.visibility })
  const before: Record<string, unknown> = { ...DEFAULT_DOCUMENT_META, ...e.document_meta }
  const keys = Object.entries(input.meta ?? {}).filter(([k, v]) => changed(before[k], v))
  if (!keys.length) return
  const changes = keys.filter(([k]) => k in META_CHANGES).map(([k, v]) => ({ type: META_CHANGES[k], from: text(before[k]), to: text(v) }))
  // Settings the deployed service's log has no name for are kept beside its `changes`.
  const other = Object.fromEntries(keys.filter(([k]) => !(k in META_CHANGES)).map(([k, v]) => [k, { from: before[k], to: v }]))
  await audit(tx, e, 'DOCUMENT_META_UPDATED', actor, { changes, ...(Object.keys(other).length ? { otherChanges: other } : {}) })
}
