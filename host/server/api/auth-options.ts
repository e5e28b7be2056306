import { ApiError, issue, type ApiIssue } from '../errors.js'

/**
 * Recipient authentication (the deployed service's `accessAuth` / `actionAuth` per recipient,
 * `globalAccessAuth` / `globalActionAuth` per envelope, bare or inside `authOptions`) is taken
 * where a route says so (`accepted`: the paths its schema reads them at; domain/recipient/auth.ts
 * enforces them). Anywhere else a sender who asks for a verified signer must hear that this door
 * does not take it rather than get an unverified one: such a body is refused. Asking for nothing
 * passes everywhere: absent, null, [] or only `EXPLICIT_NONE`.
 */
const AUTH_KEYS = new Set(['accessAuth', 'actionAuth', 'globalAccessAuth', 'globalActionAuth'])

/** Free JSON of the customer's own (field settings, form values): their keys are not ours. */
const FREE_KEYS = new Set(['fieldMeta', 'formValues'])

const asksNothing = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.every((m) => m === 'EXPLICIT_NONE'))

/** Where the routes that take recipient authentication read it (paths as issue paths, dot-joined). */
export const AUTH_AT = {
  envelopeCreate: /^payload\.((globalAccessAuth|globalActionAuth|authOptions)|recipients\.\d+\.(accessAuth|actionAuth|authOptions))$/,
  envelopeUpdate: /^data\.(globalAccessAuth|globalActionAuth|authOptions)$/,
  recipients: /^data\.\d+\.(accessAuth|actionAuth|authOptions)$/,
  /** The deprecated routes' `recipient` and `recipients`, and API v1's recipient bodies. */
  legacyRecipient: /^recipient\.(accessAuth|actionAuth|authOptions)$/,
  legacyRecipients: /^recipients\.\d+\.(accessAuth|actionAuth|authOptions)$/,
  v1Recipient: /^(accessAuth|actionAuth|authOptions)$/,
}

export function refuseAuthOptions(body: unknown, prefix: (string | number)[] = [], accepted?: RegExp): void {
  const found: ApiIssue[] = []
  const walk = (v: unknown, path: (string | number)[]) => {
    if (typeof v !== 'object' || v === null || path.length > 64) return
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, [...path, i]))
    for (const [k, x] of Object.entries(v)) {
      if ((AUTH_KEYS.has(k) || k === 'authOptions') && accepted?.test([...path, k].join('.'))) continue
      if (AUTH_KEYS.has(k) && !asksNothing(x)) found.push(issue([...path, k], `${k} ${JSON.stringify(x)}: recipient authentication is not taken on this route`))
      else if (!FREE_KEYS.has(k)) walk(x, [...path, k])
    }
  }
  walk(body, prefix)
  if (found.length) {
    throw new ApiError(
      400,
      'AUTH_METHOD_NOT_SUPPORTED',
      `recipient authentication is not taken on this route: ${found[0]!.path} asks for ${found[0]!.message.split(':')[0]!.split(' ').slice(1).join(' ')}; send no method (or [] / ["EXPLICIT_NONE"])`,
      found,
    )
  }
}
