import type { Principal } from '../auth/principal.js'
import { CHANNELS } from '../cache.js'
import type { Queryable } from '../db/index.js'
import { emit, updatedEvent } from '../events/index.js'
import { touch } from './fields.js'
import { loadEnvelope, type EnvelopeRow } from './resources.js'

/** After any change to an envelope or its parts: bump updatedAt and emit its type's update event. */
export async function recordChange(tx: Queryable, p: Principal, e: EnvelopeRow): Promise<void> {
  await touch(tx, e.id)
  await tx.notify(CHANNELS.envelopes, e.id)
  const event = updatedEvent(e.type)
  if (event) await emit(tx, e.team_id, event, await loadEnvelope(tx, p, e.id))
}
