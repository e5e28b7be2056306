import { ApiError } from '../page/api.js'
import { t } from '../i18n/index.js'

/** Codes that mean the session changed under the page: show its new state. */
export const STALE = new Set(['INVALID_STATUS_TRANSITION', 'NOT_YOUR_TURN', 'ALREADY_COMPLETED', 'ALREADY_SIGNED', 'COMPLETED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'NOT_SENT', 'CONFLICT'])

/** What the service said when completing or rejecting failed, for the dialog's error line. */
export function apiMessage(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 0) return t('sign.error.NETWORK')
    const detail = e.issues.map((i) => i.message).filter(Boolean)
    return detail.length ? `${e.message} (${detail.join('; ')})` : e.message
  }
  return t('sign.error.INTERNAL')
}
