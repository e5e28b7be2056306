import type { Queryable } from '../db/index.js'

/** The things a team's activity log records (who created or revoked a token, changed a webhook, invited...). */
export type TeamAction =
  | 'token.created'
  | 'token.revoked'
  | 'webhook.created'
  | 'webhook.updated'
  | 'webhook.deleted'
  | 'member.invited'
  | 'member.invitation_revoked'
  | 'member.joined'
  | 'member.role_changed'
  | 'member.removed'
  | 'team.updated'

/** One entry of the team's activity log, in the transaction of the change it records. */
export async function recordActivity(
  tx: Queryable,
  o: { teamId: string; userId: string | null; action: TeamAction; target?: string | null; details?: object },
): Promise<void> {
  await tx.query('insert into team_activity (team_id, user_id, action, target, details) values ($1, $2, $3, $4, $5)', [
    o.teamId,
    o.userId,
    o.action,
    o.target ?? null,
    JSON.stringify(o.details ?? {}),
  ])
}

/** Who did it, in words: a member by name, an API token by name (when no member stands behind it), or the operator (command line, admin). */
export type ActivityActor = { kind: 'member'; name: string; email: string } | { kind: 'token'; name: string } | { kind: 'operator' }

/** One field that changed: its old and new value as shown (lists joined, booleans as on/off). */
export interface ActivityChange {
  field: string
  from: string | null
  to: string | null
}

export interface Described {
  actor: ActivityActor
  /** What the action was done to, in words: a person's name and address, a token's or team's name, a URL. */
  subject: string | null
  changes: ActivityChange[]
}

interface Entry {
  action: string
  target: string | null
  details: Record<string, unknown>
  by: { userId: string; email: string; name: string } | null
}

const shown = (v: unknown): string | null => (v === undefined || v === null ? null : Array.isArray(v) ? v.join(', ') : typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v))
const person = (u: { name: string; email: string }) => (u.name ? `${u.name} (${u.email})` : u.email)

/**
 * The log's entries in words: names for the user ids and tokens they hold (a token or member gone
 * since is named by what the entry kept), and each change as old → new.
 */
export async function describeActivity<E extends Entry>(db: Queryable, teamId: string, entries: E[]): Promise<(E & Described)[]> {
  const userIds = [...new Set(entries.flatMap((e) => (e.target?.startsWith('user_') ? [e.target] : [])))]
  const tokenIds = [...new Set(entries.flatMap((e) => [e.details.byToken, e.action.startsWith('token.') ? e.target : null].filter((x): x is string => typeof x === 'string')))]
  const hookIds = [...new Set(entries.flatMap((e) => (e.action.startsWith('webhook.') && e.target ? [e.target] : [])))]
  const users = new Map(
    (userIds.length ? await db.query<{ id: string; name: string; email: string }>('select id, name, email from users where id = any($1::text[])', [userIds]) : []).map((u) => [u.id, u]),
  )
  const tokens = new Map(
    (tokenIds.length ? await db.query<{ id: string; name: string }>('select id, name from api_tokens where id = any($1::text[]) and team_id = $2', [tokenIds, teamId]) : []).map((t) => [t.id, t.name]),
  )
  const hooks = new Map(
    (hookIds.length ? await db.query<{ id: string; url: string }>('select id, url from webhooks where id = any($1::text[]) and team_id = $2', [hookIds, teamId]) : []).map((h) => [h.id, h.url]),
  )
  return entries.map((e) => {
    const d = e.details
    const byToken = typeof d.byToken === 'string' ? d.byToken : null
    const actor: ActivityActor = e.by
      ? { kind: 'member', name: e.by.name, email: e.by.email }
      : byToken
        ? { kind: 'token', name: tokens.get(byToken) ?? byToken }
        : { kind: 'operator' }
    const target = e.target
    // Joining names the person already (as who did it): no subject beside.
    const subject = !target || (e.action === 'member.joined' && e.by && target === e.by.email)
      ? null
      : target.startsWith('user_')
        ? users.has(target) ? person(users.get(target)!) : typeof d.email === 'string' ? d.email : null
        : e.action.startsWith('token.')
          ? `“${typeof d.name === 'string' ? d.name : (tokens.get(target) ?? '')}”`
          : e.action.startsWith('webhook.')
            ? (typeof d.url === 'string' ? d.url : (hooks.get(target) ?? null))
            : target
    const from = (d.from ?? {}) as Record<string, unknown>
    const changes: ActivityChange[] = []
    if (e.action === 'member.role_changed') changes.push({ field: 'role', from: shown(d.from), to: shown(d.to) })
    else if (e.action === 'webhook.updated' || e.action === 'team.updated') {
      for (const [field, value] of Object.entries(d)) {
        if (field === 'from' || field === 'byToken' || field === 'created') continue
        // Kept as it was: not a change.
        if (field in from && shown(from[field]) === shown(value)) continue
        changes.push({ field, from: shown(from[field]), to: shown(value) })
      }
    } else if (typeof d.role === 'string') changes.push({ field: 'role', from: null, to: d.role })
    return { ...e, actor, subject, changes }
  })
}
