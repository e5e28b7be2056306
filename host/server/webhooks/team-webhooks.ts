/**
 * A team's changes to its webhooks through API v2 (and the console, which calls it with its
 * session): each change of store.ts with its entry in the team's activity log, in one transaction.
 * The door has checked that the caller (`who`) may manage webhooks.
 */
import { actingUser, type Principal } from '../auth/principal.js'
import type { Db, Queryable } from '../db/index.js'
import { recordActivity, type TeamAction } from '../people/activity.js'
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  rotateSigningKey,
  rotateWebhookSecret,
  updateWebhook,
  type Webhook,
  type WebhookCaller,
  type WebhookInput,
  type WebhookWithKey,
} from './store.js'

/** The activity entry of a change; done with a token and no member behind it, the entry names the token. */
function logChange(tx: Queryable, p: Principal, action: TeamAction, target: string, details: object = {}): Promise<void> {
  const userId = actingUser(p)
  return recordActivity(tx, { teamId: p.teamId, userId, action, target, details: { ...details, ...(!userId && { byToken: p.tokenId }) } })
}

export function addTeamWebhook(db: Db, p: Principal, who: WebhookCaller, input: WebhookInput, allowPrivate: boolean): Promise<WebhookWithKey> {
  return db.transaction(async (tx) => {
    const hook = await createWebhook(tx, who, input, allowPrivate)
    await logChange(tx, p, 'webhook.created', hook.id, { url: hook.url, events: hook.events })
    return hook
  })
}

export function changeTeamWebhook(db: Db, p: Principal, who: WebhookCaller, id: string, patch: Partial<WebhookInput>, allowPrivate: boolean): Promise<Webhook> {
  return db.transaction(async (tx) => {
    const before = await getWebhook(tx, who, id)
    const hook = await updateWebhook(tx, who, id, patch, allowPrivate)
    // What changed, old and new, without the secret's value.
    const from = { url: before.url, events: before.events, enabled: before.enabled, sendSecretHeader: before.sendSecretHeader }
    await logChange(tx, p, 'webhook.updated', id, { ...patch, ...(patch.secret !== undefined && { secret: 'changed' }), url: hook.url, from })
    return hook
  })
}

export function removeTeamWebhook(db: Db, p: Principal, who: WebhookCaller, id: string): Promise<void> {
  return db.transaction(async (tx) => {
    await deleteWebhook(tx, who, id)
    await logChange(tx, p, 'webhook.deleted', id)
  })
}

/** What a rotation makes anew (shown in this answer only); the log names what changed, never the values. */
const ROTATIONS = {
  secret: { rotate: rotateWebhookSecret, changed: { secret: 'rotated', signingKey: 'rotated' } },
  signingKey: { rotate: rotateSigningKey, changed: { signingKey: 'rotated' } },
}

export function rotateTeamWebhook(db: Db, p: Principal, who: WebhookCaller, id: string, what: keyof typeof ROTATIONS): Promise<WebhookWithKey> {
  const { rotate, changed } = ROTATIONS[what]
  return db.transaction(async (tx) => {
    const hook = await rotate(tx, who, id)
    await logChange(tx, p, 'webhook.updated', id, changed)
    return hook
  })
}
