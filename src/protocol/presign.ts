/** Presign tokens (docs/protocol.md, "Presign tokens"). */

export interface PresignTokenRequest {
  /** Minutes, 0..10080; default 60. */
  expiresIn?: number
  /** Restricts the token to one resource; see `presignScope`. */
  scope?: string
}

export interface PresignTokenResponse {
  token: string
  /** ISO 8601 date-time. */
  expiresAt: string
  /** Seconds. */
  expiresIn: number
}

export const PRESIGN_EXPIRES_IN = { min: 0, max: 10080, default: 60 } as const

export type PresignScope =
  | { kind: 'envelopeId'; id: string }
  | { kind: 'documentId'; id: number }
  | { kind: 'templateId'; id: number }

/** `envelopeId:envelope_...`, `documentId:42`, `templateId:7`. */
export function presignScope(scope: PresignScope): string {
  return `${scope.kind}:${scope.id}`
}

/** Inverse of presignScope; null for anything malformed. */
export function parsePresignScope(value: string): PresignScope | null {
  const m = /^(envelopeId|documentId|templateId):(.+)$/.exec(value)
  if (!m) return null
  if (m[1] === 'envelopeId') return /^envelope_\w+$/.test(m[2]!) ? { kind: 'envelopeId', id: m[2]! } : null
  return /^[1-9]\d{0,15}$/.test(m[2]!) ? { kind: m[1] as 'documentId' | 'templateId', id: Number(m[2]) } : null
}
