/** A team's webhook endpoints, their delivery log, and the deliveries an event causes. */
import { iso, type Db, type Queryable } from '../db/index.js'
import { defaultTeamId } from '../domain/teams.js'
import { ApiError, notFound } from '../errors.js'
import type { EventName } from '../events/index.js'
import { newId } from '../domain/ids.js'
import { enqueue, JOBS_CHANNEL } from '../jobs/queue.js'
import { urlRefusal } from './addresses.js'

interface WebhookRow {
  id: string
  team_id: string
  url: string
  events: string[]
  secret: string
  enabled: boolean
  created_at: Date
  updated_at: Date
}

export const toWebhook = (w: WebhookRow) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  secret: w.secret,
  enabled: w.enabled,
  createdAt: iso(w.created_at)!,
  updatedAt: iso(w.updated_at)!,
})
export type Webhook = ReturnType<typeof toWebhook>

export interface WebhookInput {
  url: string
  events: EventName[]
  secret?: string | undefined
  enabled?: boolean | undefined
}

async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  const refusal = await urlRefusal(url, allowPrivate)
  if (refusal) throw new ApiError(400, 'WEBHOOK_URL_NOT_ALLOWED', `the webhook URL cannot be used: ${refusal}`, [{ path: 'url', message: refusal }])
}

export async function createWebhook(tx: Queryable, teamId: string, input: WebhookInput, allowPrivate: boolean): Promise<Webhook> {
  await checkUrl(input.url, allowPrivate)
  const [row] = await tx.query<WebhookRow>(
    'insert into webhooks (id, team_id, url, events, secret, enabled) values ($1, $2, $3, $4, $5, $6) returning *',
    [newId.webhook(), teamId, input.url, [...new Set(input.events)], input.secret ?? '', input.enabled ?? true],
  )
  return toWebhook(row!)
}

async function findRow(db: Queryable, teamId: string, id: string, lock = false): Promise<WebhookRow> {
  const [row] = await db.query<WebhookRow>(`select * from webhooks where id = $1 and team_id = $2${lock ? ' for update' : ''}`, [id, teamId])
  if (!row) throw notFound('webhook')
  return row
}

export const getWebhook = async (db: Queryable, teamId: string, id: string) => toWebhook(await findRow(db, teamId, id))

export async function listWebhooks(db: Queryable, teamId: string): Promise<Webhook[]> {
  return (await db.query<WebhookRow>('select * from webhooks where team_id = $1 order by created_at, id', [teamId])).map(toWebhook)
}

export async function updateWebhook(tx: Queryable, teamId: string, id: string, patch: Partial<WebhookInput>, allowPrivate: boolean): Promise<Webhook> {
  const row = await findRow(tx, teamId, id, true)
  if (patch.url !== undefined) await checkUrl(patch.url, allowPrivate)
  const [updated] = await tx.query<WebhookRow>(
    'update webhooks set url = $2, events = $3, secret = $4, enabled = $5, updated_at = now() where id = $1 returning *',
    [id, patch.url ?? row.url, patch.events ? [...new Set(patch.events)] : row.events, patch.secret ?? row.secret, patch.enabled ?? row.enabled],
  )
  return toWebhook(updated!)
}

export async function deleteWebhook(tx: Queryable, teamId: string, id: string): Promise<void> {
  await findRow(tx, teamId, id, true)
  await tx.query('delete from webhooks where id = $1', [id])
}

/** The event in the outbox and one delivery job per enabled webhook of the team listening to it, in the event's transaction. */
export async function recordEvent(tx: Queryable, teamId: string, event: EventName, envelopeId: string, payload: string): Promise<void> {
  // The event and its deliveries in one statement (one round trip fewer per event).
  const [row] = await tx.query<{ jobs: number }>(
    `with ev as (insert into events (team_id, event, envelope_id, payload) values ($1, $2, $3, $4) returning id),
     queued as (
       insert into jobs (kind, payload, ordering_key)
       select 'webhook', jsonb_build_object('webhookId', w.id, 'eventId', ev.id), 'webhook:' || w.id || ':' || $3::text
       from webhooks w, ev where w.team_id = $1 and w.enabled and $2 = any (w.events)
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
export async function sendTestEvent(tx: Queryable, teamId: string, id: string): Promise<void> {
  const hook = await findRow(tx, teamId, id)
  const [ev] = await tx.query<{ id: number }>(
    `insert into events (team_id, event, envelope_id, payload) values ($1, $2, '', $3) returning id`,
    [teamId, hook.events[0], JSON.stringify({ test: true, message: 'A test event sent from the team console' })],
  )
  await enqueue(tx, { kind: 'webhook', payload: { webhookId: id, eventId: ev!.id, resent: true } })
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

export type WebhookCall = ReturnType<typeof toCall>

const toCall = (c: CallRow) => ({
  id: c.id,
  webhookId: c.webhook_id,
  eventId: c.event_id,
  event: c.event,
  attempt: c.attempt,
  url: c.url,
  requestBody: JSON.parse(c.request_body) as unknown,
  responseStatus: c.response_status,
  responseBody: c.response_body,
  error: c.error,
  durationMs: c.duration_ms,
  createdAt: iso(c.created_at)!,
})

/** The delivery log of one webhook, newest first. */
export async function webhookCalls(db: Queryable, teamId: string, id: string, o: { page: number; perPage: number }) {
  await findRow(db, teamId, id)
  const [{ count }] = (await db.query<{ count: number }>('select count(*)::int as count from webhook_calls where webhook_id = $1', [id])) as [
    { count: number },
  ]
  const rows = await db.query<CallRow>(
    'select * from webhook_calls where webhook_id = $1 order by created_at desc, id desc limit $2 offset $3',
    [id, o.perPage, (o.page - 1) * o.perPage],
  )
  return { data: rows.map(toCall), count, currentPage: o.page, perPage: o.perPage, totalPages: Math.ceil(count / o.perPage) }
}

/** Sends a logged call's event again to its webhook, outside the envelope's order (it is a repeat). */
export async function resendCall(tx: Queryable, teamId: string, callId: string): Promise<void> {
  const [call] = await tx.query<{ webhook_id: string; event_id: number }>(
    'select c.webhook_id, c.event_id from webhook_calls c join webhooks w on w.id = c.webhook_id where c.id = $1 and w.team_id = $2',
    [callId, teamId],
  )
  if (!call) throw notFound('webhook call')
  await enqueue(tx, { kind: 'webhook', payload: { webhookId: call.webhook_id, eventId: call.event_id, resent: true } })
}

/** The operator's webhook commands (CLI and admin endpoints): on a team, the default one when none is named. */
export function webhookOps(db: Db, allowPrivate: boolean) {
  const team = async (teamId?: string) => teamId ?? (await defaultTeamId(db))
  return {
    createWebhook: async (o: { teamId?: string | undefined; url: string; events: EventName[]; secret?: string | undefined }) => {
      const teamId = await team(o.teamId)
      return db.transaction((tx) => createWebhook(tx, teamId, o, allowPrivate))
    },
    listWebhooks: async (teamId?: string) => listWebhooks(db, await team(teamId)),
    webhookCalls: async (id: string, teamId?: string) => (await webhookCalls(db, await team(teamId), id, { page: 1, perPage: 50 })).data,
  }
}
