/** Where the queue, reminders and deadlines read the time: the wall clock, or one a test drives. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** The wall clock moved forward by however much a test advanced it: time passes without sleeping. */
export function drivenClock(): Clock & { advance(ms: number): void; set(at: Date): void } {
  let offset = 0
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => void (offset += ms),
    set: (at) => void (offset = at.getTime() - Date.now()),
  }
}
