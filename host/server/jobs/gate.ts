/** Runs at most `n` of the functions given to it at once; the others wait their turn, in order. */
export function gate(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  return async (fn) => {
    if (running < n) running++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await fn()
    } finally {
      // The turn passes to the next waiting, or frees up.
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}
