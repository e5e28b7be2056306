import { createHash } from 'node:crypto'
import type { Queryable } from '../../db/index.js'

/**
 * The audit log's hash chain, recomputed here from the stored values rather than trusted from the
 * database's own functions (migration 023 writes it; docs/sealing.md, "The audit log").
 */

/** How PostgreSQL writes the redacted `data` marker ({"redacted": true}) as text. */
const REDACTED_DATA_TEXT = '{"redacted": true}'

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

/** A field's hash: SHA-256 of the entry's salt and the value; an absent value has none. */
export const auditFieldHash = (salt: string, value: string | null): string | null => (value === null ? null : sha256(salt + value))

interface ChainRow {
  id: string
  envelope_id: string
  team_id: string
  type: string
  created: string
  recipient_id: string | null
  salt: string
  data_text: string
  data_hash: string
  name: string | null
  name_hash: string | null
  email: string | null
  email_hash: string | null
  ip_address: string | null
  ip_address_hash: string | null
  user_agent: string | null
  user_agent_hash: string | null
  prev_hash: string | null
  hash: string
}

/** An entry's hash: SHA-256 of the JSON array of its chained fields, in this order. */
export const auditEntryHash = (r: Omit<ChainRow, 'data_text' | 'name' | 'email' | 'ip_address' | 'user_agent' | 'salt' | 'hash'>): string =>
  sha256(
    JSON.stringify([
      'audit-chain/1',
      r.prev_hash,
      r.id,
      r.envelope_id,
      r.team_id,
      r.type,
      r.created,
      r.recipient_id,
      r.data_hash,
      r.name_hash,
      r.email_hash,
      r.ip_address_hash,
      r.user_agent_hash,
    ]),
  )

export type AuditChainCheck =
  /** `redacted`: how many entries had personal values redacted by the envelope's purge. */
  | { ok: true; envelopeId: string; entries: number; head: string | null; redacted: number }
  | { ok: false; envelopeId: string; entries: number; broken: { id: string; reason: string } }

/** A column a redaction empties (its hash stays). */
export type RedactedField = 'data' | 'name' | 'email' | 'ip_address' | 'user_agent'

/** Each hashed column of an entry: its name, value and hash. */
const hashedFields = (r: ChainRow): [RedactedField, string | null, string | null][] => [
  ['data', r.data_text, r.data_hash],
  ['name', r.name, r.name_hash],
  ['email', r.email, r.email_hash],
  ['ip_address', r.ip_address, r.ip_address_hash],
  ['user_agent', r.user_agent, r.user_agent_hash],
]

/** The redacted columns of one entry: a value removed with its hash kept, or `data` replaced by the marker. */
function redactedFields(r: ChainRow): RedactedField[] {
  return hashedFields(r)
    .filter(([name, value, hash]) => hash !== null && (value === null || (name === 'data' && value === REDACTED_DATA_TEXT && auditFieldHash(r.salt, value) !== hash)))
    .map(([name]) => name)
}

/**
 * Why one entry does not hold: a value that no longer matches its hash, a redaction (a value
 * removed with its hash kept, or `data` replaced by the redaction marker) of an envelope that
 * was not purged (only a purge redacts, domain/retention/retention.ts), or a hash that no longer matches
 * the entry or its place.
 */
function flaw(r: ChainRow, prev: string | null, purged: boolean): string | null {
  const redacted = redactedFields(r)
  if (redacted.length && !purged) return `${redacted.join(', ')} redacted although the envelope was not purged`
  for (const [name, value, hash] of hashedFields(r)) {
    if (redacted.includes(name)) continue
    if (auditFieldHash(r.salt, value) !== hash) return `${name} does not match its hash`
  }
  if (r.prev_hash !== prev) return 'does not follow the entry before it'
  if (auditEntryHash(r) !== r.hash) return 'does not match its hash'
  return null
}

/** An envelope's chain checked, with the columns redacted in each entry (by entry id) that has any. */
export async function readAuditChain(db: Queryable, envelopeId: string): Promise<{ check: AuditChainCheck; redactions: Map<string, RedactedField[]> }> {
  const rows = await db.query<ChainRow>(
    `select id::text as id, envelope_id, team_id, type, recipient_id::text as recipient_id, salt, data::text as data_text, data_hash,
       name, name_hash, email, email_hash, ip_address, ip_address_hash, user_agent, user_agent_hash, prev_hash, hash,
       to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created
     from audit_logs a where envelope_id = $1 order by a.id`,
    [envelopeId],
  )
  const [envelope] = await db.query('select 1 from envelopes where id = $1 and purged_at is not null', [envelopeId])
  const redactions = new Map<string, RedactedField[]>()
  for (const r of rows) {
    const fields = redactedFields(r)
    if (fields.length) redactions.set(r.id, fields)
  }
  let prev: string | null = null
  for (const r of rows) {
    const reason = flaw(r, prev, !!envelope)
    if (reason) return { check: { ok: false, envelopeId, entries: rows.length, broken: { id: r.id, reason } }, redactions }
    prev = r.hash
  }
  return { check: { ok: true, envelopeId, entries: rows.length, head: prev, redacted: redactions.size }, redactions }
}

/** Recomputes an envelope's chain, oldest first: the first entry that does not hold, or the head. */
export async function checkAuditChain(db: Queryable, envelopeId: string): Promise<AuditChainCheck> {
  return (await readAuditChain(db, envelopeId)).check
}

/** The hash of an envelope's newest entry (null before any): what the certificate names. */
export async function auditChainHead(db: Queryable, envelopeId: string): Promise<string | null> {
  const [row] = await db.query<{ hash: string }>('select hash from audit_logs where envelope_id = $1 order by id desc limit 1', [envelopeId])
  return row?.hash ?? null
}

/** Every envelope that has an audit log. */
export async function auditedEnvelopes(db: Queryable): Promise<string[]> {
  return (await db.query<{ envelope_id: string }>('select distinct envelope_id from audit_logs order by envelope_id')).map((r) => r.envelope_id)
}

/** The check of one envelope's chain, or of every envelope's (what `audit check` prints). */
export async function checkAuditChains(db: Queryable, envelopeId?: string): Promise<AuditChainCheck[]> {
  const checks: AuditChainCheck[] = []
  for (const id of envelopeId ? [envelopeId] : await auditedEnvelopes(db)) checks.push(await checkAuditChain(db, id))
  return checks
}
