import { ApiError } from '../errors.js'
import type { Queryable } from '../db/index.js'

export const PLANS = ['free', 'individual', 'team', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

/** Documents a free team may create per calendar month (UTC). */
export const FREE_PLAN_DOCUMENTS_PER_MONTH = 5

export function assertEmbeddingAllowed(plan: string): void {
  if (plan !== 'enterprise') {
    throw new ApiError(403, 'PLAN_REQUIRED', `embedded authoring (presign tokens) requires the enterprise plan; this team is on the ${plan} plan`)
  }
}

/** Counts one more document for the team this month; refuses the one beyond the free plan's limit. */
export async function countDocument(tx: Queryable, teamId: string, plan: string, now = new Date()): Promise<void> {
  const month = now.toISOString().slice(0, 7)
  const [row] = await tx.query<{ documents: number }>(
    `insert into team_usage (team_id, month, documents) values ($1, $2, 1)
     on conflict (team_id, month) do update set documents = team_usage.documents + 1
     returning documents`,
    [teamId, month],
  )
  if (plan === 'free' && row!.documents > FREE_PLAN_DOCUMENTS_PER_MONTH) {
    throw new ApiError(
      403,
      'PLAN_LIMIT_REACHED',
      `the free plan allows ${FREE_PLAN_DOCUMENTS_PER_MONTH} documents per calendar month (UTC) and this team has reached it for ${month}; upgrade the plan or wait for next month`,
    )
  }
}
