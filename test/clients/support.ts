import { it } from 'vitest'

/** The SDK's response validation error, with its model's complaints spelled out (path: message). */
export function explain(err: unknown): unknown {
  if (!(err instanceof Error) || err.name !== 'ResponseValidationError') return err
  const issues = ((err.cause as { issues?: { path: (string | number)[]; message: string }[] })?.issues ?? [])
    .map((i) => `${i.path.join('.')}: ${i.message}`)
  return new Error(`${err.message}\n  ${issues.join('\n  ')}`, { cause: err })
}

/** One SDK call of a lifecycle; fails with what the SDK's model rejected. */
export function step(name: string, fn: () => Promise<void>) {
  it(name, async () => {
    try {
      await fn()
    } catch (err) {
      throw explain(err)
    }
  })
}
