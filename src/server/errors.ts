/** Every error this entry throws. Match with `instanceof`, or on `name` across bundle copies. */

export interface Issue {
  message: string
  /** Dotted path of the offending value, e.g. `payload.recipients.0.email`. */
  path?: string
}

/** Base class of every error thrown by `envelope-embed/server`. */
export class EnvelopeEmbedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
  // Literal names, not constructor names, so they survive minification.
  override name = 'EnvelopeEmbedError'
}

/** Bad arguments, caught before any request is made (base URL, API key, expiresIn, scope, ...). */
export class InvalidInputError extends EnvelopeEmbedError {
  override name = 'InvalidInputError'
  readonly issues: Issue[]
  constructor(issues: Issue[]) {
    super(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '))
    this.issues = issues
  }
}

/** The API answered with a non-2xx status. Carries the API's error body `{message, code, issues?}`. */
export class ApiError extends EnvelopeEmbedError {
  override name = 'ApiError'
  readonly status: number
  /** The API's code, e.g. `INVALID_API_TOKEN`, `NOT_FOUND`; `HTTP_<status>` when the body had none. */
  readonly code: string
  readonly issues: Issue[]
  constructor(status: number, code: string, message: string, issues: Issue[] = []) {
    super(message)
    this.status = status
    this.code = code
    this.issues = issues
  }
}

/** The request never got an HTTP answer: DNS, refused connection, reset, TLS. `cause` holds the original. */
export class NetworkError extends EnvelopeEmbedError {
  override name = 'NetworkError'
  constructor(url: string, cause: unknown) {
    super(`request to ${url} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}

/** No complete answer within `timeoutMs`. */
export class TimeoutError extends EnvelopeEmbedError {
  override name = 'TimeoutError'
  readonly timeoutMs: number
  constructor(url: string, timeoutMs: number) {
    super(`request to ${url} timed out after ${timeoutMs} ms`)
    this.timeoutMs = timeoutMs
  }
}

/** A 2xx answer whose body is not what the API promises (not JSON, or the wrong shape). */
export class InvalidResponseError extends EnvelopeEmbedError {
  override name = 'InvalidResponseError'
  readonly status: number
  readonly issues: Issue[]
  constructor(status: number, issues: Issue[]) {
    super(`unexpected response from the API: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`)
    this.status = status
    this.issues = issues
  }
}

/**
 * Why a webhook was refused. The first two mean "not from the service": answer 401 without detail.
 * The others come after a matching secret: the sender is trusted but the body is not understood.
 */
export type WebhookErrorReason =
  | 'MISSING_SECRET_HEADER'
  | 'SECRET_MISMATCH'
  | 'UNREADABLE_BODY'
  | 'INVALID_JSON'
  | 'UNKNOWN_EVENT'
  | 'MALFORMED_PAYLOAD'
  | 'MISSING_SIGNATURE'
  | 'SIGNATURE_MISMATCH'
  | 'STALE_TIMESTAMP'
  | 'REPLAYED'

const WEBHOOK_STATUS: Record<WebhookErrorReason, number> = {
  MISSING_SECRET_HEADER: 401,
  SECRET_MISMATCH: 401,
  UNREADABLE_BODY: 400,
  INVALID_JSON: 400,
  UNKNOWN_EVENT: 400,
  MALFORMED_PAYLOAD: 400,
  MISSING_SIGNATURE: 401,
  SIGNATURE_MISMATCH: 401,
  STALE_TIMESTAMP: 401,
  REPLAYED: 409,
}

/** A webhook request that must not be processed. `status` is the answer to give the sender. */
export class WebhookError extends EnvelopeEmbedError {
  override name = 'WebhookError'
  readonly reason: WebhookErrorReason
  readonly status: number
  readonly issues: Issue[]
  /** The parsed JSON body, for UNKNOWN_EVENT and MALFORMED_PAYLOAD (after the secret matched). */
  readonly body: unknown
  constructor(reason: WebhookErrorReason, message: string, extra: { issues?: Issue[]; body?: unknown } = {}) {
    super(message)
    this.reason = reason
    this.status = WEBHOOK_STATUS[reason]
    this.issues = extra.issues ?? []
    this.body = extra.body
  }
}
