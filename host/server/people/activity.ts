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
