import type { SigningState } from '../../../../src/protocol/index.js'
import type { EnvelopeRow, RecipientRow } from '../common/rows.js'

/** Recipients who must act for a document to complete: everyone but CC. */
export const mustAct = (r: Pick<RecipientRow, 'role'>) => r.role !== 'CC'

/** Signing order: by signingOrder (unset last), then by when they were added. */
export function inSigningOrder<R extends Pick<RecipientRow, 'id' | 'signing_order'>>(list: R[]): R[] {
  return [...list].sort((a, b) => (a.signing_order ?? Infinity) - (b.signing_order ?? Infinity) || a.id - b.id)
}

/**
 * Who has still to act before `r`: nobody in PARALLEL order; in SEQUENTIAL order everyone ahead
 * of `r` who must act and has not completed. CC recipients never hold anyone up.
 */
export function waitingBefore(e: Pick<EnvelopeRow, 'document_meta'>, all: RecipientRow[], r: RecipientRow): RecipientRow[] {
  if (e.document_meta.signingOrder !== 'SEQUENTIAL') return []
  const ordered = inSigningOrder(all)
  return ordered.slice(0, ordered.findIndex((x) => x.id === r.id)).filter((x) => mustAct(x) && x.signing_status !== 'SIGNED')
}

/** The next recipient after `r` who still has to act (sequential order), for allowDictateNextSigner. */
export function nextAfter(all: RecipientRow[], r: RecipientRow): RecipientRow | null {
  const ordered = inSigningOrder(all)
  return ordered.slice(ordered.findIndex((x) => x.id === r.id) + 1).find((x) => mustAct(x) && x.signing_status === 'NOT_SIGNED') ?? null
}

/** What recipient `r`'s link shows now. */
export function signingState(e: EnvelopeRow, all: RecipientRow[], r: RecipientRow, now = new Date()): SigningState {
  if (e.status === 'DRAFT' || r.send_status !== 'SENT') return 'NOT_SENT'
  if (e.status === 'CANCELLED') return 'CANCELLED'
  if (e.status === 'REJECTED' || r.signing_status === 'REJECTED') return 'REJECTED'
  if (e.status === 'COMPLETED') return 'COMPLETED'
  if (r.signing_status === 'SIGNED') return 'ALREADY_COMPLETED'
  if (r.expiration_notified_at || (r.expires_at && new Date(r.expires_at) <= now)) return 'EXPIRED'
  // A CC recipient may look at any time: there is nothing for them to wait for.
  if (mustAct(r) && waitingBefore(e, all, r).length) return 'NOT_YOUR_TURN'
  return 'READY'
}
