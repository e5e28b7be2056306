import type { Queryable } from '../db/index.js'
import type { Envelope } from '../domain/common/rows.js'
import { recordEvent } from '../webhooks/store.js'

import { EVENT_NAMES, type EventName } from '../../../src/protocol/index.js'
export { EVENT_NAMES, type EventName }

/** Events whose payload is the full one; the others carry the reduced payload. */
const FULL_PAYLOAD = new Set<EventName>(['DOCUMENT_CREATED', 'DOCUMENT_SENT', 'DOCUMENT_COMPLETED', 'DOCUMENT_CANCELLED'])
const TEMPLATE_EVENTS = new Set<EventName>(['TEMPLATE_CREATED', 'TEMPLATE_UPDATED', 'TEMPLATE_DELETED'])

/** The webhook `payload` for an envelope: the full one or the reduced one, by event (docs/delivery.md, "Webhooks"). */
export function eventPayload(event: EventName, e: Envelope, templateId: number | null = null) {
  const legacyId = Number(e.secondaryId.slice(e.secondaryId.indexOf('_') + 1))
  const recipients = e.recipients
  const reduced = { id: legacyId, envelopeId: e.id, status: e.status, title: e.title, source: e.source, recipients }
  if (event === 'TEMPLATE_USED') return { ...reduced, templateId: templateId ?? e.templateId }
  if (!FULL_PAYLOAD.has(event) && !TEMPLATE_EVENTS.has(event)) return reduced
  return {
    ...reduced,
    externalId: e.externalId,
    userId: e.userId,
    authOptions: null,
    formValues: null,
    visibility: e.visibility,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    completedAt: e.completedAt,
    deletedAt: e.deletedAt,
    teamId: e.teamId,
    templateId: TEMPLATE_EVENTS.has(event) ? null : (templateId ?? e.templateId),
    documentMeta: e.documentMeta,
    Recipient: recipients,
  }
}

/**
 * Records an event in the outbox, and a delivery job for each webhook listening to it, inside the
 * caller's transaction, so an event and its deliveries exist exactly when its change was committed.
 */
export async function emit(tx: Queryable, teamId: string, event: EventName, e: Envelope, templateId: number | null = null): Promise<void> {
  await recordEvent(tx, teamId, event, e.id, JSON.stringify(eventPayload(event, e, templateId)))
}

/** The event announcing a change of an envelope's settings, recipients or fields, if its type has one. */
export const updatedEvent = (type: string): EventName | null => (type === 'TEMPLATE' ? 'TEMPLATE_UPDATED' : null)
