/** The one retry policy of the queue: exponential backoff with jitter, a bounded number of attempts. */
export interface RetryPolicy {
  /** Attempts in all, the first included; after the last failure the job ends as failed. */
  maxAttempts: number
  /** Delay before the second attempt; each later one is `factor` times longer, up to maxDelayMs. */
  baseDelayMs: number
  factor: number
  maxDelayMs: number
}

/**
 * How long to wait after failed attempt `attempt` (1-based): the exponential step with "equal
 * jitter" (half fixed, half random), so receivers that failed together do not retry together.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, random = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** (attempt - 1))
  return Math.round(step / 2 + (random() * step) / 2)
}
