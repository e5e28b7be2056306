/**
 * Consent to sign electronically (docs/consent.md): a team's disclosure, versioned, and each
 * recipient's consent to it, recorded in the audit trail (RECIPIENT_CONSENT_GIVEN) before they may
 * complete. Version 0 is the default disclosure, whose words are the server's
 * (consent/disclosure-text.ts) in the page's language; the door that records a consent passes the
 * default text the page showed.
 */
import { createHash } from 'node:crypto'
import { actingUser, type Principal } from '../../auth/principal.js'
import type { Db, Queryable } from '../../db/index.js'
import { ApiError } from '../../errors.js'
import { recordActivity } from '../../people/activity.js'
import { audit, recipientActor, type Client } from '../evidence/audit.js'
import { consentBinding } from './proof-binding.js'
import type { EnvelopeRow, RecipientRow } from '../common/rows.js'

/** The longest disclosure a team may set. */
export const DISCLOSURE_MAX = 20_000

/** A team's disclosure as it stands: text null is the default one (version 0, or a team that went back to it). */
export interface Disclosure {
  version: number
  text: string | null
  /** The SHA-256 (hex) of a team's own text; null for the default, whose hash depends on the language shown. */
  sha256: string | null
  createdAt: string | null
}

/** What a recipient's consent recorded. */
export interface ConsentGiven {
  disclosureVersion: number
  disclosureHash: string
  at: string
}

export const disclosureHash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

export async function currentDisclosure(db: Queryable, teamId: string): Promise<Disclosure> {
  const [row] = await db.query<{ version: number; text: string | null; sha256: string | null; created_at: Date }>(
    'select version, text, sha256, created_at from consent_disclosures where team_id = $1 order by version desc limit 1',
    [teamId],
  )
  if (!row) return { version: 0, text: null, sha256: null, createdAt: null }
  return { version: row.version, text: row.text, sha256: row.sha256, createdAt: row.created_at.toISOString() }
}

/**
 * Sets the principal's team's disclosure (null or blank: the default again), as a new version,
 * recorded in the team's activity. Setting the text it already has changes nothing.
 */
export async function setDisclosure(db: Db, p: Principal, text: string | null): Promise<Disclosure> {
  const wanted = text?.trim() ? text.trim() : null
  if (wanted && wanted.length > DISCLOSURE_MAX) throw new ApiError(400, 'INVALID_REQUEST', `the disclosure is at most ${DISCLOSURE_MAX} characters`)
  return db.transaction(async (tx) => {
    // One change at a time per team: the versions follow each other without a gap or a clash.
    await tx.query('select id from teams where id = $1 for update', [p.teamId])
    const now = await currentDisclosure(tx, p.teamId)
    if (now.text === wanted) return now
    const version = now.version + 1
    await tx.query('insert into consent_disclosures (team_id, version, text, sha256) values ($1, $2, $3, $4)', [
      p.teamId,
      version,
      wanted,
      wanted ? disclosureHash(wanted) : null,
    ])
    await recordActivity(tx, { teamId: p.teamId, userId: actingUser(p), action: 'team.updated', details: { consentDisclosureVersion: version } })
    return currentDisclosure(tx, p.teamId)
  })
}

/**
 * The recipient's consent, or null before they gave it. A consent is bound to the recipient's
 * address and link when given (domain/signing/proof-binding.ts): one given before either changed (a
 * correction, a template edit, a signer naming the next) was another person's and does not count.
 */
export async function consentOf(db: Queryable, envelopeId: string, r: Pick<RecipientRow, 'id' | 'email' | 'token'>): Promise<ConsentGiven | null> {
  const [row] = await db.query<{ data: { disclosureVersion: number; disclosureHash: string }; created_at: Date }>(
    `select c.data, c.created_at from audit_logs c
     where c.envelope_id = $1 and c.recipient_id = $2 and c.type = 'RECIPIENT_CONSENT_GIVEN' and c.data->>'binding' = $3
     order by c.id limit 1`,
    [envelopeId, r.id, consentBinding(r)],
  )
  return row ? { disclosureVersion: row.data.disclosureVersion, disclosureHash: row.data.disclosureHash, at: row.created_at.toISOString() } : null
}

/** What a signing page asks before the recipient acts: the disclosure to show, and whether they already agreed. */
export async function consentState(db: Queryable, e: Pick<EnvelopeRow, 'id' | 'team_id'>, r: Pick<RecipientRow, 'id' | 'email' | 'token'> | null) {
  const given = r ? await consentOf(db, e.id, r) : null
  const { version, text, sha256 } = await currentDisclosure(db, e.team_id)
  return { given: given !== null, ...(given ? { consent: given } : {}), disclosure: { version, text, sha256 } }
}

/** What the recipient agreed to: the version shown, and the default text shown when it is version 0 (or the default again). */
export interface ConsentInput {
  version: number
  /** The default disclosure in the language the page showed it. */
  defaultText: string
  /** The SHA-256 of the text the page showed, when it says: a consent to other words is refused. */
  shownHash?: string
}

/**
 * Records the recipient's consent to the team's current disclosure, once: RECIPIENT_CONSENT_GIVEN
 * with the version and the hash of the text shown. A version that is not the current one is
 * refused (the page shows the new text and asks again).
 */
export async function giveConsent(tx: Queryable, e: EnvelopeRow, r: RecipientRow, client: Client, input: ConsentInput): Promise<ConsentGiven> {
  const before = await consentOf(tx, e.id, r)
  if (before) return before
  const current = await currentDisclosure(tx, e.team_id)
  if (input.version !== current.version) {
    throw new ApiError(409, 'DISCLOSURE_CHANGED', `the disclosure is now version ${current.version}, not ${input.version}: show it and ask again`)
  }
  const hash = current.text !== null ? current.sha256! : disclosureHash(input.defaultText)
  if (input.shownHash !== undefined && input.shownHash !== hash) {
    throw new ApiError(409, 'DISCLOSURE_CHANGED', 'the disclosure shown is not the current text: show it and ask again')
  }
  await audit(tx, e, 'RECIPIENT_CONSENT_GIVEN', recipientActor(r, client), {
    recipientId: r.id,
    disclosureVersion: current.version,
    disclosureHash: hash,
    binding: consentBinding(r),
  })
  return (await consentOf(tx, e.id, r))!
}

/** Refuses an action of a recipient who has not consented to sign electronically. */
export async function requireConsent(tx: Queryable, e: Pick<EnvelopeRow, 'id'>, r: Pick<RecipientRow, 'id' | 'email' | 'token'>): Promise<void> {
  if (!(await consentOf(tx, e.id, r))) {
    throw new ApiError(403, 'CONSENT_REQUIRED', 'the recipient has not consented to sign electronically: record their consent first (POST /api/signing/consent)')
  }
}
