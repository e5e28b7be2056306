import { ApiError } from '../../errors.js'

export const PLANS = ['free', 'individual', 'team', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

/** Documents a free team may create per calendar month (UTC). */
export const FREE_PLAN_DOCUMENTS_PER_MONTH = 5

export function assertEmbeddingAllowed(plan: string): void {
  if (plan !== 'enterprise') {
    throw new ApiError(403, 'PLAN_REQUIRED', `embedded authoring (presign tokens) requires the enterprise plan; this team is on the ${plan} plan`)
  }
}

/** The month a document counts against (UTC), as team_usage.month holds it. */
export const usageMonth = (now = new Date()) => now.toISOString().slice(0, 7)

/**
 * Refuses the document beyond the free plan's monthly limit, given the team's count for the month
 * with it included (insertEnvelope counts it in the statement that writes the envelope; a refusal
 * rolls both back).
 */
export function assertWithinPlan(plan: string, documents: number, month: string): void {
  if (plan === 'free' && documents > FREE_PLAN_DOCUMENTS_PER_MONTH) {
    throw new ApiError(
      403,
      'PLAN_LIMIT_REACHED',
      `the free plan allows ${FREE_PLAN_DOCUMENTS_PER_MONTH} documents per calendar month (UTC) and this team has reached it for ${month}; upgrade the plan or wait for next month`,
    )
  }
}
