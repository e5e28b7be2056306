import {
  PRESIGN_EXPIRES_IN,
  parsePresignScope,
  presignScope,
  type PresignScope,
  type PresignTokenRequest,
  type PresignTokenResponse,
} from '../protocol/presign.js'
import { connectionOf, type Connection, type ConnectionOptions } from './config.js'
import { InvalidInputError, type Issue } from './errors.js'
import { request, type CallOptions } from './request.js'
import { int, obj, str, type Schema } from './check.js'

export interface PresignOptions extends CallOptions {
  /** Minutes the token lives, an integer 0..10080; default 60. 0 mints an already expired token. */
  expiresIn?: number
  /**
   * Restricts the token to one envelope, document or template:
   * `'envelopeId:envelope_...'`, `'documentId:42'`, `'templateId:7'`, or the same as an object.
   */
  scope?: string | PresignScope
}

export interface CreatePresignTokenOptions extends ConnectionOptions, PresignOptions {}

export interface PresignToken {
  /** Hand this to the browser (the embed components' `presignToken`). */
  token: string
  expiresAt: Date
  /** Seconds. */
  expiresIn: number
}

/**
 * Mints a presign token for one embedded authoring session. Call it from your backend, per user
 * request, after your own authorization. `JSON.stringify` of the result is the wire
 * PresignTokenResponse (`expiresAt` as an ISO string), ready to send to the browser.
 */
export async function createPresignToken(o: CreatePresignTokenOptions): Promise<PresignToken> {
  const issues: Issue[] = []
  const connection = connectionOf(o, issues)
  const body = presignBody(o, issues)
  if (issues.length) throw new InvalidInputError(issues)
  return mint(connection, body, o?.signal)
}

/** The request body for the options, pushing issues for bad values. */
export function presignBody(o: PresignOptions | undefined, issues: Issue[]): PresignTokenRequest {
  const body: PresignTokenRequest = {}
  const { min, max } = PRESIGN_EXPIRES_IN
  const expiresIn: unknown = o?.expiresIn
  if (expiresIn !== undefined) {
    if (!Number.isInteger(expiresIn) || (expiresIn as number) < min || (expiresIn as number) > max) {
      issues.push({ path: 'expiresIn', message: `must be an integer number of minutes, ${min}..${max}` })
    } else body.expiresIn = expiresIn as number
  }
  const scope: unknown = o?.scope
  if (scope !== undefined) {
    const value = typeof scope === 'object' && scope !== null ? presignScope(scope as PresignScope) : scope
    if (typeof value !== 'string' || !parsePresignScope(value)) {
      issues.push({ path: 'scope', message: 'must be envelopeId:envelope_..., documentId:<n> or templateId:<n>' })
    } else body.scope = value
  }
  return body
}

const presignResponse: Schema<PresignTokenResponse> = obj<PresignTokenResponse>({
  token: (v, path, issues) => {
    str(v, path, issues)
    if (v === '') issues.push({ path, message: 'expected a non-empty token' })
  },
  expiresAt: (v, path, issues) => {
    str(v, path, issues)
    if (typeof v === 'string' && Number.isNaN(Date.parse(v))) issues.push({ path, message: 'expected an ISO date-time' })
  },
  expiresIn: (v, path, issues) => {
    int(v, path, issues)
    if (typeof v === 'number' && v < 0) issues.push({ path, message: 'expected seconds >= 0' })
  },
})

export async function mint(c: Connection, body: PresignTokenRequest, signal?: AbortSignal): Promise<PresignToken> {
  const r = await request(c, { method: 'POST', path: '/embedding/create-presign-token', json: body, signal }, presignResponse)
  return { token: r.token, expiresAt: new Date(r.expiresAt), expiresIn: r.expiresIn }
}
