import type { EnvelopeSummary } from '../../../../../src/protocol/index.js'
import type { EnvelopeSender, Role } from '../../../../shared/console-contract.js'
import { atLeast } from '../me.js'

export type { AuditLogEntry, AuditLogPage, EnvelopePage } from '../../../../../src/protocol/index.js'
export type { EnvelopeSender }

/**
 * API v2's envelope as the console reads it, with the direct link a template may have (its token
 * and whether it is on), and when its files were purged (set only then: its downloads answer 410).
 */
export type Envelope = EnvelopeSummary & { directLink?: { token: string; enabled: boolean } | null; purgedAt?: string | null }
export type EnvelopeRecipient = Envelope['recipients'][number]

/** The legacy number of a document or template (document_12 -> 12), which the deprecated routes take. */
export const numberOf = (e: Pick<Envelope, 'secondaryId'>) => Number(e.secondaryId.split('_').pop())

/**
 * What the member may do with an envelope beyond reading it (docs/envelope-page.md):
 * its creator, managers and admins cancel and delete it and see its recipients' signing links; a
 * member, only on the envelopes they created. The server refuses the rest whatever the page shows.
 */
export function ownerRights(role: Role | undefined, sender: EnvelopeSender | null): { manage: boolean } {
  return { manage: atLeast(role, 'MANAGER') || sender?.mine === true }
}

/** A recipient by name, or by address when they have none. */
export const nameOf = (r: Pick<EnvelopeRecipient, 'name' | 'email'> | undefined) => r?.name || r?.email || ''
