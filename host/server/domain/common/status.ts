import { ApiError } from '../../errors.js'

/** Envelope status machine (docs/api-notes.md, "Sending and signing"). */
export const ENVELOPE_STATUSES = ['DRAFT', 'PENDING', 'COMPLETED', 'REJECTED', 'CANCELLED'] as const
export type EnvelopeStatus = (typeof ENVELOPE_STATUSES)[number]
export type EnvelopeType = 'DOCUMENT' | 'TEMPLATE'

/** What can happen to an envelope after creation (which always yields DRAFT). */
export type EnvelopeAction = 'distribute' | 'complete' | 'reject' | 'cancel'

const TRANSITIONS: Record<EnvelopeStatus, Partial<Record<EnvelopeAction, EnvelopeStatus>>> = {
  DRAFT: { distribute: 'PENDING' },
  PENDING: { complete: 'COMPLETED', reject: 'REJECTED', cancel: 'CANCELLED' },
  COMPLETED: {},
  REJECTED: {},
  CANCELLED: {},
}

/** The status after `action`, or 400 INVALID_STATUS_TRANSITION. Templates stay DRAFT for ever. */
export function nextStatus(type: EnvelopeType, from: EnvelopeStatus, action: EnvelopeAction): EnvelopeStatus {
  const to = type === 'DOCUMENT' ? TRANSITIONS[from][action] : undefined
  if (!to) throw new ApiError(400, 'INVALID_STATUS_TRANSITION', `cannot ${action} a ${type.toLowerCase()} in status ${from}`)
  return to
}

/** Only drafts (and templates, always drafts) may change; a sent document is frozen. */
export function assertEditable(e: { type: EnvelopeType; status: EnvelopeStatus }): void {
  if (e.type === 'DOCUMENT' && e.status !== 'DRAFT') {
    throw new ApiError(400, 'ENVELOPE_NOT_EDITABLE', `a document in status ${e.status} can no longer be changed`)
  }
}

/**
 * Drafts and pending documents are removed; documents that reached an end state are kept for the
 * record with deletedAt set (and disappear from the API).
 */
export function deletionKind(status: EnvelopeStatus): 'hard' | 'soft' {
  return status === 'DRAFT' || status === 'PENDING' ? 'hard' : 'soft'
}
