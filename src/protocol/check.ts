// Shape checks shared by both kinds of messages (not exported from the package).
export const str = (v: unknown) => typeof v === 'string'
// isSafeInteger is false for anything but a number.
export const id = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0
