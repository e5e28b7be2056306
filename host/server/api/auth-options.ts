import { ApiError, issue, type ApiIssue } from '../errors.js'

/**
 * Recipient authentication (the deployed service's `accessAuth` / `actionAuth` per recipient,
 * `globalAccessAuth` / `globalActionAuth` per envelope, bare or inside `authOptions`) is not built
 * yet. A sender who asks for a verified signer must hear so rather than get an unverified one:
 * any request body that asks for a method is refused, on every door (API v2, its deprecated
 * routes, v1), wherever in the body it is. Asking for nothing passes: absent, null, [] or only
 * `EXPLICIT_NONE` (the deployed clients' "no authentication").
 */
const AUTH_KEYS = new Set(['accessAuth', 'actionAuth', 'globalAccessAuth', 'globalActionAuth'])

/** Free JSON of the customer's own (field settings, form values): their keys are not ours. */
const FREE_KEYS = new Set(['fieldMeta', 'formValues'])

const asksNothing = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.every((m) => m === 'EXPLICIT_NONE'))

export function refuseAuthOptions(body: unknown, prefix: (string | number)[] = []): void {
  const found: ApiIssue[] = []
  const walk = (v: unknown, path: (string | number)[]) => {
    if (typeof v !== 'object' || v === null || path.length > 64) return
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, [...path, i]))
    for (const [k, x] of Object.entries(v)) {
      if (AUTH_KEYS.has(k) && !asksNothing(x)) found.push(issue([...path, k], `${k} ${JSON.stringify(x)}: recipient authentication is not supported`))
      else if (!FREE_KEYS.has(k)) walk(x, [...path, k])
    }
  }
  walk(body, prefix)
  if (found.length) {
    throw new ApiError(
      400,
      'AUTH_METHOD_NOT_SUPPORTED',
      `recipient authentication is not supported by this service yet: ${found[0]!.path} asks for ${found[0]!.message.split(':')[0]!.split(' ').slice(1).join(' ')}; send no method (or [] / ["EXPLICIT_NONE"])`,
      found,
    )
  }
}

/**
 * An entry without its authentication keys, for the strict schemas: by the time a schema sees
 * the body, refuseAuthOptions has made sure they ask for nothing.
 */
export function withoutAuthKeys(entry: unknown): unknown {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry
  return Object.fromEntries(Object.entries(entry).filter(([k]) => !AUTH_KEYS.has(k) && k !== 'authOptions'))
}
