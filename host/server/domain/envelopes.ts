import type { Principal } from '../auth/principal.js'
import type { Queryable } from '../db/index.js'
import { DEFAULT_DOCUMENT_META, type DocumentMeta } from './document-meta.js'
import { newId } from './ids.js'
import { countDocument } from './plans.js'
import type { EnvelopeType } from './status.js'

export interface NewEnvelope {
  type: EnvelopeType
  source: 'DOCUMENT' | 'TEMPLATE' | 'TEMPLATE_DIRECT_LINK'
  title: string
  externalId?: string | null | undefined
  visibility?: string | undefined
  meta?: Partial<DocumentMeta> | undefined
}

/**
 * A new DRAFT envelope row: counts a document against the plan, takes the team's next legacy
 * number for its type (no gaps: a refused creation rolls the number back with it). Its parts are
 * the caller's to add.
 */
export async function insertEnvelope(tx: Queryable, p: Principal, e: NewEnvelope): Promise<string> {
  if (e.type === 'DOCUMENT') await countDocument(tx, p.teamId, p.plan)
  const [counter] = await tx.query<{ value: number }>(
    `insert into team_counters (team_id, kind, value) values ($1, $2, 1)
     on conflict (team_id, kind) do update set value = team_counters.value + 1 returning value`,
    [p.teamId, e.type],
  )
  const id = newId.envelope()
  await tx.query(
    `insert into envelopes (id, team_id, type, secondary_number, status, source, visibility, template_type, external_id, title, document_meta)
     values ($1, $2, $3, $4, 'DRAFT', $5, $6, 'PRIVATE', $7, $8, $9)`,
    [
      id,
      p.teamId,
      e.type,
      counter!.value,
      e.source,
      e.visibility ?? 'EVERYONE',
      e.externalId ?? null,
      e.title,
      JSON.stringify({ ...DEFAULT_DOCUMENT_META, ...e.meta }),
    ],
  )
  return id
}
