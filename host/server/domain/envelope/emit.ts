// Apart from signing/lifecycle.ts so that evidence/completion.ts, which lifecycle.ts schedules, can emit too.
import type { Principal } from '../../auth/principal.js'
import type { Queryable } from '../../db/index.js'
import { emit, type EventName } from '../../events/index.js'
import type { EnvelopeRow } from '../common/rows.js'
import { loadEnvelope } from './lookup.js'

/** Acting for the envelope's team where no token is involved (a recipient's action). */
export const teamPrincipal = (teamId: string): Principal => ({ kind: 'api', teamId, plan: 'enterprise', tokenId: 'system' })

/** Emits `event` with the envelope as the API shows it now. */
export async function emitFor(tx: Queryable, e: EnvelopeRow, event: EventName): Promise<void> {
  await emit(tx, e.team_id, event, await loadEnvelope(tx, teamPrincipal(e.team_id), e.id))
}
