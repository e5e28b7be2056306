import type { EnvelopeSummary } from '../../../../../src/protocol/index.js'

export type { AuditLogEntry, AuditLogPage, EnvelopePage } from '../../../../../src/protocol/index.js'

/** API v2's envelope as the console reads it, with the direct link a template may have (its token and whether it is on). */
export type Envelope = EnvelopeSummary & { directLink?: { token: string; enabled: boolean } | null }

/** The legacy number of a document or template (document_12 -> 12), which the deprecated routes take. */
export const numberOf = (e: Pick<Envelope, 'secondaryId'>) => Number(e.secondaryId.split('_').pop())
