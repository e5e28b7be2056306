/** A team's webhook endpoints, their delivery log, and the deliveries an event causes. */
import type { WebhookAnswer, WebhookCallAnswer } from '../contract/answers.js'
import { iso, type Db, type Queryable } from '../db/index.js'
import { defaultTeamId } from '../domain/team/teams.js'
import { ApiError, notFound } from '../errors.js'
import type { EventName } from '../../../src/protocol/index.js'
import { newId } from '../domain/common/ids.js'
import { enqueue, JOBS_CHANNEL } from '../jobs/enqueue.js'
import { urlRefusal } from './addresses.js'
import type { Bound } from '../auth/api-tokens.js'
import { ROLES, roleReachesSql } from '../people/roles.js'
import { newWebhookSecret, replacedBy, replacedSignsUntil, SECRET_GRACE_MS, signsWith, type SigningColumns } from './signing-keys.js'

/**
 * Who manages a team's webhooks: the team, through a member (console session or a member's token)
 * or not (the operator's tokens and CLI: `member` null). A webhook records its maker and their role
 * as its ceiling; a member manages only webhooks whose ceiling their role reaches (an operator's
 * webhook counts as ADMIN's), so a MANAGER can neither read an admin's webhook, its calls (the
 * payloads they carried) nor point it elsewhere.
 */
export interface WebhookCaller {
  teamId: string
  member: Bound | null
}

/** SQL: webhook `w` is one this caller may manage; pushes its parameters onto `params`. */
function manages(who: WebhookCaller, params: unknown[]): string {
  if (!who.member) return 'true'
  params.push(ROLES.slice(0, ROLES.indexOf(who.member.role) + 1))
  return `coalesce(w.role_ceiling, 'ADMIN') = any($${params.length}::text[])`
}

/**
 * SQL: webhook \`w\` may be told about the envelope whose id is the SQL expression \`envelopeId\`: an
 * operator's webhook about any; a member's only while its maker is in the team and, at the weaker
 * of their role now and the webhook's ceiling, sees the envelope (its visibility, or they made it).
 * An event names no envelope (a test event) when the id matches none.
 */
export function receives(envelopeId: string): string {
  return `(w.role_ceiling is null or exists (
    select 1 from team_members m where m.team_id = w.team_id and m.user_id = w.created_by
      and not exists (
        select 1 from envelopes env where env.id = ${envelopeId} and env.created_by is distinct from m.user_id
          and not (${roleReachesSql('m.role', 'env.visibility')} and ${roleReachesSql('w.role_ceiling', 'env.visibility')}))))`
}

interface WebhookRow extends SigningColumns {
  id: string
  team_id: string
  created_by: string | null
  role_ceiling: string | null
  url: string
  events: string[]
  send_secret_header: boolean
  enabled: boolean
  created_at: Date
  updated_at: Date
}

export const toWebhook = (w: WebhookRow): WebhookAnswer => ({
  id: w.id,
  url: w.url,
  events: w.events,
  secret: w.secret,
  /** Whether calls carry the secret as X-Service-Secret (off for receivers that check the signature only). */
  sendSecretHeader: w.send_secret_header,
  /** What signs the calls: the webhook's own key, its secret (made before signing keys), or nothing. */
  signsWith: signsWith(w),
  /** Until when what signed before the last rotation still signs the calls beside the current key (null: no rotation under way). */
  previousSecretExpiresAt: iso(replacedSignsUntil(w)),
  enabled: w.enabled,
  createdAt: iso(w.created_at)!,
  updatedAt: iso(w.updated_at)!,
})
export type Webhook = WebhookAnswer
/** The answers that show a signing key, once: the webhook's creation and a rotation. */
export type WebhookWithKey = Webhook & { signingKey: string }
const withKey = (w: WebhookRow): WebhookWithKey => ({ ...toWebhook(w), signingKey: w.signing_key! })

export interface WebhookInput {
  url: string
  events: EventName[]
  secret?: string | undefined
  sendSecretHeader?: boolean | undefined
  enabled?: boolean | undefined
}

/** A secret travels in the X-Service-Secret header: visible ASCII only, or no call could carry it. */
export const SECRET_CHARACTERS = /^[\x21-\x7e]*$/
export const SECRET_RULE = 'a secret is made of visible ASCII characters (no spaces): it is sent in an HTTP header'

function checkSecret(secret: string | undefined): void {
  if (secret !== undefined && !SECRET_CHARACTERS.test(secret)) throw new ApiError(400, 'INVALID_REQUEST', SECRET_RULE, [{ path: 'secret', message: SECRET_RULE }])
}

async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  const refusal = await urlRefusal(url, allowPrivate)
  if (refusal) throw new ApiError(400, 'WEBHOOK_URL_NOT_ALLOWED', `the webhook URL cannot be used: ${refusal}`, [{ path: 'url', message: refusal }])
}

export { SECRET_GRACE_MS, newWebhookSecret }

/** Webhooks one team may have: each event is one delivery per webhook, so this bounds what one event costs. */
export const MAX_WEBHOOKS_PER_TEAM = 20

/** A new webhook, with its own generated signing key (shown in this answer only). */
export async function createWebhook(tx: Queryable, who: WebhookCaller, input: WebhookInput, allowPrivate: boolean): Promise<WebhookWithKey> {
  checkSecret(input.secret)
  await checkUrl(input.url, allowPrivate)
  // The team's row locked: creations at once count each other.
  const [{ n }] = (await tx.query<{ n: number }>(
    'select count(w.id)::int as n from (select id from teams where id = $1 for update) t left join webhooks w on w.team_id = t.id',
    [who.teamId],
  )) as [{ n: number }]
  if (n >= MAX_WEBHOOKS_PER_TEAM) throw new ApiError(403, 'WEBHOOK_LIMIT_REACHED', `a team may have ${MAX_WEBHOOKS_PER_TEAM} webhooks; delete one to add another`)
  const [row] = await tx.query<WebhookRow>(
    `insert into webhooks (id, team_id, url, events, secret, enabled, created_by, role_ceiling, signing_key, send_secret_header)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *`,
    [
      newId.webhook(),
      who.teamId,
      input.url,
      [...new Set(input.events)],
      input.secret ?? '',
      input.enabled ?? true,
      who.member?.userId ?? null,
      who.member?.role ?? null,
      newWebhookSecret(),
      input.sendSecretHeader ?? true,
    ],
  )
  return withKey(row!)
}

async function findRow(db: Queryable, who: WebhookCaller, id: string, lock = false): Promise<WebhookRow> {
  const params: unknown[] = [id, who.teamId]
  const [row] = await db.query<WebhookRow>(`select * from webhooks w where w.id = $1 and w.team_id = $2 and ${manages(who, params)}${lock ? ' for update' : ''}`, params)
  if (!row) throw notFound('webhook')
  return row
}

export const getWebhook = async (db: Queryable, who: WebhookCaller, id: string) => toWebhook(await findRow(db, who, id))

export async function listWebhooks(db: Queryable, who: WebhookCaller): Promise<Webhook[]> {
  const params: unknown[] = [who.teamId]
  return (await db.query<WebhookRow>(`select * from webhooks w where w.team_id = $1 and ${manages(who, params)} order by w.created_at, w.id`, params)).map(toWebhook)
}

export async function updateWebhook(tx: Queryable, who: WebhookCaller, id: string, patch: Partial<WebhookInput>, allowPrivate: boolean): Promise<Webhook> {
  checkSecret(patch.secret)
  const row = await findRow(tx, who, id, true)
  if (patch.url !== undefined) await checkUrl(patch.url, allowPrivate)
  const [updated] = await tx.query<WebhookRow>(
    'update webhooks set url = $2, events = $3, enabled = $4, send_secret_header = $5, updated_at = now() where id = $1 returning *',
    [id, patch.url ?? row.url, patch.events ? [...new Set(patch.events)] : row.events, patch.enabled ?? row.enabled, patch.sendSecretHeader ?? row.send_secret_header],
  )
  return patch.secret === undefined || patch.secret === row.secret ? toWebhook(updated!) : toWebhook(await setSecret(tx, updated!, patch.secret))
}

/**
 * Gives the webhook a generated secret and a new signing key (both shown in this answer only):
 * what signed until now, its key or the secret of a webhook made before signing keys, keeps
 * signing beside the new key for SECRET_GRACE_MS.
 */
export async function rotateWebhookSecret(tx: Queryable, who: WebhookCaller, id: string): Promise<WebhookWithKey> {
  // The key first: what signed until now is the secret being replaced, on a webhook that signed with it.
  const keyed = await issueKey(tx, await findRow(tx, who, id, true))
  return withKey(await setSecret(tx, keyed, newWebhookSecret()))
}

/**
 * Gives the webhook a new signing key (shown in this answer only) and keeps its secret, so a
 * receiver that checks X-Service-Secret is not affected; what signed until now keeps signing beside
 * the new key for SECRET_GRACE_MS.
 */
export async function rotateSigningKey(tx: Queryable, who: WebhookCaller, id: string): Promise<WebhookWithKey> {
  return withKey(await issueKey(tx, await findRow(tx, who, id, true)))
}

async function issueKey(tx: Queryable, row: WebhookRow): Promise<WebhookRow> {
  const next = replacedBy(row, newWebhookSecret())
  const [updated] = await tx.query<WebhookRow>(
    'update webhooks set signing_key = $2, previous_signing_key = $3, previous_signing_key_until = $4, updated_at = now() where id = $1 returning *',
    [row.id, next.signing_key, next.previous_signing_key, next.previous_signing_key_until],
  )
  return updated!
}

/**
 * A secret replaced. On a webhook made before signing keys, which signs with its secret, the old
 * one (unless empty) signs beside the new one for the grace period; on one with its own key, the
 * secret signs nothing and is simply replaced.
 */
async function setSecret(tx: Queryable, row: WebhookRow, secret: string): Promise<WebhookRow> {
  const previous = row.signing_key !== null || row.secret === '' ? null : row.secret
  const [updated] = await tx.query<WebhookRow>(
    'update webhooks set secret = $2, previous_secret = $3, previous_secret_until = $4, updated_at = now() where id = $1 returning *',
    [row.id, secret, previous, previous === null ? null : new Date(Date.now() + SECRET_GRACE_MS)],
  )
  return updated!
}

export async function deleteWebhook(tx: Queryable, who: WebhookCaller, id: string): Promise<void> {
  await findRow(tx, who, id, true)
  await tx.query('delete from webhooks where id = $1', [id])
}

/**
 * The event in the outbox and one delivery job per enabled webhook of the team listening to it
 * that may be told about the envelope (receives), in the event's transaction.
 */
export async function recordEvent(tx: Queryable, teamId: string, event: EventName, envelopeId: string, payload: string): Promise<void> {
  // The event and its deliveries in one statement (one round trip fewer per event).
  const [row] = await tx.query<{ jobs: number }>(
    `with ev as (insert into events (team_id, event, envelope_id, payload) values ($1, $2, $3, $4) returning id),
     queued as (
       insert into jobs (kind, payload, ordering_key)
       select 'webhook', jsonb_build_object('webhookId', w.id, 'eventId', ev.id), 'webhook:' || w.id || ':' || $3::text
       from webhooks w, ev where w.team_id = $1 and w.enabled and $2 = any (w.events) and ${receives('$3::text')}
       returning id)
     select count(*)::int as jobs from queued`,
    [teamId, event, envelopeId, payload],
  )
  if (row!.jobs) await tx.notify(JOBS_CHANNEL, 'webhook')
}

/**
 * A test delivery to one webhook (from the console's "send test event"): its first event, with a
 * payload that says it is a test, through the same queue, signing and call log as real events.
 */
export function sendTestEvent(db: Db, who: WebhookCaller, id: string): Promise<void> {
  return db.transaction(async (tx) => {
    const hook = await findRow(tx, who, id)
    const [ev] = await tx.query<{ id: number }>(
      `insert into events (team_id, event, envelope_id, payload) values ($1, $2, '', $3) returning id`,
      [who.teamId, hook.events[0], JSON.stringify({ test: true, message: 'A test event sent from the team console' })],
    )
    await enqueue(tx, { kind: 'webhook', payload: { webhookId: id, eventId: ev!.id, resent: true } })
  })
}

interface CallRow {
  id: string
  webhook_id: string
  event_id: number
  event: string
  attempt: number
  url: string
  request_body: string
  response_status: number | null
  response_body: string | null
  error: string | null
  duration_ms: number
  created_at: Date
}

export type WebhookCall = WebhookCallAnswer

const toCall = (c: CallRow): WebhookCallAnswer => ({
  id: c.id,
  webhookId: c.webhook_id,
  eventId: c.event_id,
  event: c.event,
  attempt: c.attempt,
  url: c.url,
  requestBody: JSON.parse(c.request_body),
  responseStatus: c.response_status,
  responseBody: c.response_body,
  error: c.error,
  durationMs: c.duration_ms,
  createdAt: iso(c.created_at)!,
})

/** The delivery log of one webhook, newest first. */
export async function webhookCalls(db: Queryable, who: WebhookCaller, id: string, o: { page: number; perPage: number }) {
  await findRow(db, who, id)
  const [{ count }] = (await db.query<{ count: number }>('select count(*)::int as count from webhook_calls where webhook_id = $1', [id])) as [
    { count: number },
  ]
  const rows = await db.query<CallRow>(
    'select * from webhook_calls where webhook_id = $1 order by created_at desc, id desc limit $2 offset $3',
    [id, o.perPage, (o.page - 1) * o.perPage],
  )
  return { data: rows.map(toCall), count, currentPage: o.page, perPage: o.perPage, totalPages: Math.ceil(count / o.perPage) }
}

/**
 * Sends a logged call's event again to its webhook, outside the envelope's order (it is a repeat),
 * if the webhook may still be told about the envelope.
 */
export function resendCall(db: Db, who: WebhookCaller, callId: string): Promise<void> {
  return db.transaction(async (tx) => {
    const params: unknown[] = [callId, who.teamId]
    const [call] = await tx.query<{ webhook_id: string; event_id: number }>(
      `select c.webhook_id, c.event_id from webhook_calls c join webhooks w on w.id = c.webhook_id join events ev on ev.id = c.event_id
       where c.id = $1 and w.team_id = $2 and ${manages(who, params)} and ${receives('ev.envelope_id')}`,
      params,
    )
    if (!call) throw notFound('webhook call')
    await enqueue(tx, { kind: 'webhook', payload: { webhookId: call.webhook_id, eventId: call.event_id, resent: true } })
  })
}

/** The operator's webhook commands (CLI and admin endpoints): on a team, the default one when none is named. */
export function webhookOps(db: Db, allowPrivate: boolean) {
  const team = async (teamId?: string): Promise<WebhookCaller> => ({ teamId: teamId ?? (await defaultTeamId(db)), member: null })
  return {
    createWebhook: async (o: { teamId?: string | undefined; url: string; events: EventName[]; secret?: string | undefined }) => {
      const who = await team(o.teamId)
      return db.transaction((tx) => createWebhook(tx, who, o, allowPrivate))
    },
    listWebhooks: async (teamId?: string) => listWebhooks(db, await team(teamId)),
    webhookCalls: async (id: string, teamId?: string) => (await webhookCalls(db, await team(teamId), id, { page: 1, perPage: 50 })).data,
  }
}
