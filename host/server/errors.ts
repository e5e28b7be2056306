import type { ZodError } from 'zod'

export interface ApiIssue {
  message: string
  path?: string
}

/** The one error type of the API; rendered as `{message, code, issues?}` with `status`. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 408 | 409 | 410 | 413 | 429 | 500 | 503,
    readonly code: string,
    message: string,
    readonly issues?: ApiIssue[],
    /** Headers of the answer (Retry-After of a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }

  toJSON(): { message: string; code: string; issues?: ApiIssue[] } {
    return this.issues ? { message: this.message, code: this.code, issues: this.issues } : { message: this.message, code: this.code }
  }
}

/** A recipient or direct-link token that names nothing: counted by the caller's address, as a bad API token is. */
export class UnknownLinkError extends ApiError {
  constructor(message: string) {
    super(404, 'NOT_FOUND', message)
  }
}

export const badRequest = (message: string, issues?: ApiIssue[]) => new ApiError(400, 'INVALID_REQUEST', message, issues)
export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} not found`)
export const forbidden = (message: string) => new ApiError(403, 'FORBIDDEN', message)

/** One issue of a request, addressed by its dotted path (e.g. `recipients.0.email`). */
export const issue = (path: (string | number)[], message: string): ApiIssue => ({ message, path: path.join('.') })

export function fromZod(error: ZodError, prefix: (string | number)[] = []): ApiError {
  const issues = error.issues.map((i) => issue([...prefix, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], i.message))
  const first = issues[0]!
  return badRequest(`invalid request: ${first.path ? `${first.path}: ` : ''}${first.message}`, issues)
}
