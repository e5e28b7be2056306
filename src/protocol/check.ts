// Shape checks shared by both kinds of messages (not exported from the package).
export const str = (v: unknown) => typeof v === 'string'
export const id = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0
