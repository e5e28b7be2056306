/**
 * The rules a JSON body is parsed under (parseJsonText) and the byte scan that refuses costly
 * shapes before parsing (jsonShapeRefusal): plain functions, run on the request loop for small
 * bodies and in a heavy-work thread for large ones (api/json-text.ts decides where).
 */
/** Deepest nesting a JSON body may have (the API's own shapes nest 5 deep; fieldMeta is free JSON). */
export const MAX_JSON_DEPTH = 64
/** Bodies up to this size are parsed where they arrive: under a millisecond, whatever they hold. */
export const PARSE_ON_LOOP_MAX = 8 * 1024
/** Most values (strings, numbers, objects...) a body parsed in a thread may hold. */
export const MAX_JSON_VALUES = 100_000
/** Most keys of one object of a body parsed in a thread. */
export const MAX_JSON_KEYS = 1_000

/** Escapes JSON text needs to hold a string PostgreSQL cannot store: NUL, or a lone UTF-16 surrogate. */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i
/** A NUL or an unpaired surrogate: what PostgreSQL's text refuses (search-text.ts uses it too). */
export const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export type ParsedJson = { value: unknown } | { error: string }

/**
 * JSON as the API takes it: parsed, at most MAX_JSON_DEPTH deep, and without strings that text
 * and jsonb columns refuse (NUL, unpaired surrogates), so such input is a 400 here rather than a
 * database error later. The walk runs only when the text could break a rule (or `counted`, for a
 * thread's bodies), keeping small bodies on the fast path. A refusal comes back as its reason.
 */
export function parseJsonText(text: string, counted = false): ParsedJson {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { error: 'not valid JSON' }
  }
  const strings = UNSTORABLE_ESCAPE.test(text)
  if (!strings && !counted && text.length <= 2 * MAX_JSON_DEPTH) return { value }
  const bad = (s: string) => strings && UNSTORABLE.test(s)
  let values = 0
  const walk = (v: unknown, depth: number): string | null => {
    if (counted && ++values > MAX_JSON_VALUES) return `more than ${MAX_JSON_VALUES} values`
    if (typeof v === 'string') return bad(v) ? 'a string holds a NUL character or an unpaired surrogate' : null
    if (typeof v !== 'object' || v === null) return null
    if (depth >= MAX_JSON_DEPTH) return `nested deeper than ${MAX_JSON_DEPTH} levels`
    if (Array.isArray(v)) {
      for (const x of v) {
        const why = walk(x, depth + 1)
        if (why) return why
      }
      return null
    }
    const entries = Object.entries(v)
    if (counted && entries.length > MAX_JSON_KEYS) return `an object with more than ${MAX_JSON_KEYS} keys`
    for (const [k, x] of entries) {
      const why = bad(k) ? 'a key holds a NUL character or an unpaired surrogate' : walk(x, depth + 1)
      if (why) return why
    }
    return null
  }
  const why = walk(value, 0)
  return why ? { error: why } : { value }
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COLON = 0x3a
const COMMA = 0x2c

/**
 * Why a JSON text's shape is refused, read from its bytes without parsing them: nested deeper than
 * MAX_JSON_DEPTH, an object with more than MAX_JSON_KEYS keys, or about more than MAX_JSON_VALUES
 * values (its separators and containers); null when none (the text may still not be JSON).
 */
export function jsonShapeRefusal(bytes: Uint8Array): string | null {
  // Keys of each open container; -1 for an array.
  const keys: number[] = []
  let values = 1
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!
    if (inString) {
      if (b === BACKSLASH) i++
      else if (b === QUOTE) inString = false
      continue
    }
    if (b === QUOTE) inString = true
    else if (b === 0x7b || b === 0x5b) {
      if (keys.length >= MAX_JSON_DEPTH) return `nested deeper than ${MAX_JSON_DEPTH} levels`
      keys.push(b === 0x7b ? 0 : -1)
      values++
    } else if (b === 0x7d || b === 0x5d) keys.pop()
    else if (b === COLON && keys.length && keys[keys.length - 1]! >= 0) {
      if (++keys[keys.length - 1]! > MAX_JSON_KEYS) return `an object with more than ${MAX_JSON_KEYS} keys`
    } else if (b === COMMA && ++values > MAX_JSON_VALUES) return `more than ${MAX_JSON_VALUES} values`
  }
  return null
}

