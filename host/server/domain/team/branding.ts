/**
 * A team's branding and document defaults (docs/branding.md): its logo, brand colour and e-mail
 * sender, and the settings a new envelope gets where its request leaves them unset. Read by the
 * envelope create operation (insertEnvelope), the signing session, and the mail job; changed by
 * a team admin in the console. Every rule about what may be stored is here.
 */
import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { TeamBranding } from '../../../shared/console-contract.js'
import { DATE_FORMATS } from '../../../shared/date-formats.js'
import { DOCUMENT_LANGUAGES } from '../../../shared/languages.js'
import { normalizeHex } from '../../../shared/brand-colour.js'
import { addressShape, SENDER_NAME_RULE } from '../../../shared/sender-name.js'
import { actingUser, type Principal } from '../../auth/principal.js'
import type { Db, Queryable } from '../../db/index.js'
import { ApiError, issue } from '../../errors.js'
import { checkLogo, LogoRefused, type Logo, type LogoType } from '../../images/logo.js'
import { recordActivity } from '../../people/activity.js'
import { runHeavy } from '../../workers/heavy.js'
import type { DocumentMeta } from '../envelope/document-meta.js'
import { ACCESS_METHODS, type EnvelopeAuth } from '../recipient/auth.js'

export const GLOBAL_ACTION_METHODS = ['ACCOUNT', 'PASSKEY', 'TWO_FACTOR_AUTH', 'PASSWORD'] as const

/** Where the logo is served: by its SHA-256, so a new logo is a new address and each may be kept for good. */
export const logoPath = (sha256: string) => `/branding/logo/${sha256}`

/** A team's branding as the console shows it: the console contract's type, declared once. */
export type { TeamBranding }

/** Control characters and line breaks: never in a header (sender name, subject). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/

export const isTimeZone = (tz: string): boolean => {
  // IANA names only (letters first): Intl also takes offsets such as "+01:00", which are not zones.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

/** Empty text is no setting: null. */
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((s) => (s === undefined ? undefined : s === null || !s.trim() ? null : s.trim()))

const oneLine = (max: number, what: string) =>
  optionalText(max).refine((s) => !s || !CONTROL.test(s), `${what} is one line: no line breaks or control characters`)

/** What an admin changes: a key left out stays as it is, null (or empty text) clears it. */
export const BrandingPatch = z
  .object({
    brandColor: z
      .string()
      .max(20)
      .nullish()
      .refine((s) => s === undefined || s === null || s.trim() === '' || normalizeHex(s) !== null, 'Expected a colour as #rrggbb, such as #1d4ed8')
      .transform((s) => (s === undefined ? undefined : s === null || !s.trim() ? null : normalizeHex(s))),
    senderName: oneLine(100, 'The sender name')
      .refine((s) => !s || !/[<>"\\]/.test(s), 'The sender name may not contain < > " or \\')
      .refine((s) => !s || addressShape(s) === null, SENDER_NAME_RULE),
    replyTo: z
      .union([z.email().max(254), z.literal(''), z.null()])
      .optional()
      .transform((s) => (s === undefined ? undefined : s || null)),
    emailSubject: oneLine(255, 'The subject'),
    emailMessage: optionalText(5000),
    timezone: optionalText(100).refine((s) => !s || isTimeZone(s), 'Expected an IANA time zone, such as Europe/Berlin'),
    dateFormat: z.enum(DATE_FORMATS).nullish(),
    language: z.enum(DOCUMENT_LANGUAGES.map((l) => l.code) as [string, ...string[]]).nullish(),
    defaultAccessAuth: z.array(z.enum(ACCESS_METHODS)).max(ACCESS_METHODS.length).nullish(),
    defaultActionAuth: z.array(z.enum(GLOBAL_ACTION_METHODS)).max(GLOBAL_ACTION_METHODS.length).nullish(),
  })
  .strict()
export type BrandingPatch = z.output<typeof BrandingPatch>

interface Row {
  logo_type: LogoType | null
  logo_sha256: string | null
  logo_width: number | null
  logo_height: number | null
  logo_bytes: number | null
  brand_color: string | null
  sender_name: string | null
  reply_to: string | null
  email_subject: string | null
  email_message: string | null
  timezone: string | null
  date_format: string | null
  language: string | null
  access_auth: TeamBranding['defaultAccessAuth'] | null
  action_auth: TeamBranding['defaultActionAuth'] | null
  updated_at: Date | null
}

const COLUMNS = `logo_type, logo_sha256, logo_width, logo_height, octet_length(logo) as logo_bytes, brand_color, sender_name, reply_to,
  email_subject, email_message, timezone, date_format, language, access_auth, action_auth, updated_at`

async function brandingRow(db: Queryable, teamId: string): Promise<Row | null> {
  const [row] = await db.query<Row>(`select ${COLUMNS} from team_branding where team_id = $1`, [teamId])
  return row ?? null
}

function toBranding(row: Row | null): TeamBranding {
  return {
    logo:
      row?.logo_sha256 && row.logo_type
        ? { url: logoPath(row.logo_sha256), type: row.logo_type, width: row.logo_width!, height: row.logo_height!, bytes: Number(row.logo_bytes) }
        : null,
    brandColor: row?.brand_color ?? null,
    senderName: row?.sender_name ?? null,
    replyTo: row?.reply_to ?? null,
    emailSubject: row?.email_subject ?? null,
    emailMessage: row?.email_message ?? null,
    timezone: row?.timezone ?? null,
    dateFormat: row?.date_format ?? null,
    language: row?.language ?? null,
    defaultAccessAuth: row?.access_auth ?? [],
    defaultActionAuth: row?.action_auth ?? [],
    updatedAt: row?.updated_at ? row.updated_at.toISOString() : null,
  }
}

export const teamBranding = async (db: Queryable, teamId: string): Promise<TeamBranding> => toBranding(await brandingRow(db, teamId))

const FIELDS: Record<Exclude<keyof BrandingPatch, 'defaultAccessAuth' | 'defaultActionAuth'>, string> = {
  brandColor: 'brand_color',
  senderName: 'sender_name',
  replyTo: 'reply_to',
  emailSubject: 'email_subject',
  emailMessage: 'email_message',
  timezone: 'timezone',
  dateFormat: 'date_format',
  language: 'language',
}

/** Changes the principal's team's branding and defaults (recorded in its activity); the branding after. */
export async function updateBranding(db: Db, p: Principal, patch: BrandingPatch): Promise<TeamBranding> {
  const sets: [string, unknown][] = []
  for (const [key, column] of Object.entries(FIELDS) as [keyof typeof FIELDS, string][]) {
    if (patch[key] !== undefined) sets.push([column, patch[key]])
  }
  if (patch.defaultAccessAuth !== undefined) sets.push(['access_auth', patch.defaultAccessAuth?.length ? JSON.stringify([...new Set(patch.defaultAccessAuth)]) : null])
  if (patch.defaultActionAuth !== undefined) sets.push(['action_auth', patch.defaultActionAuth?.length ? JSON.stringify([...new Set(patch.defaultActionAuth)]) : null])
  return db.transaction(async (tx) => {
    if (sets.length) {
      await tx.query(
        `insert into team_branding (team_id, ${sets.map(([c]) => c).join(', ')}) values ($1, ${sets.map((_, i) => `$${i + 2}`).join(', ')})
         on conflict (team_id) do update set ${sets.map(([c]) => `${c} = excluded.${c}`).join(', ')}, updated_at = now()`,
        [p.teamId, ...sets.map(([, v]) => v)],
      )
      // Long texts are named, not copied, in the activity log.
      const details = Object.fromEntries(
        Object.entries(patch)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, k === 'emailMessage' && v !== null ? '…' : Array.isArray(v) ? v.join(', ') : v]),
      )
      await recordActivity(tx, { teamId: p.teamId, userId: actingUser(p), action: 'team.updated', details })
    }
    return teamBranding(tx, p.teamId)
  })
}

const refusal = (code: LogoRefused['code'], message: string) => new ApiError(400, code, message, [issue(['image'], message)])

/**
 * Sets the team's logo from the bytes sent, checked and normalised by images/logo.ts: size, type
 * and declared pixels here, the decoding of a PNG in a heavy-work thread. 400 saying why when refused.
 */
export async function setLogo(db: Db, p: Principal, bytes: Uint8Array): Promise<TeamBranding> {
  let logo: Logo
  try {
    const checked = checkLogo(bytes)
    if (checked.type === 'image/jpeg') logo = { bytes, ...checked }
    else {
      // A thread that died or overran on it refuses the image; a full queue (503) stays what it is.
      const done = await runHeavy('logo', { bytes }, { failure: (why) => new Error(why) }).catch((err: Error) => {
        if (err instanceof ApiError) throw err
        return { refused: { code: 'INVALID_IMAGE' as const, message: err.message } }
      })
      if ('refused' in done) throw refusal(done.refused.code, done.refused.message)
      logo = { ...done.logo, bytes: new Uint8Array(done.logo.bytes) }
    }
  } catch (err) {
    if (err instanceof LogoRefused) throw refusal(err.code, err.message)
    throw err
  }
  const sha256 = createHash('sha256').update(logo.bytes).digest('hex')
  return db.transaction(async (tx) => {
    await tx.query(
      `insert into team_branding (team_id, logo, logo_type, logo_sha256, logo_width, logo_height) values ($1, $2, $3, $4, $5, $6)
       on conflict (team_id) do update set logo = $2, logo_type = $3, logo_sha256 = $4, logo_width = $5, logo_height = $6, updated_at = now()`,
      [p.teamId, logo.bytes, logo.type, sha256, logo.width, logo.height],
    )
    await recordActivity(tx, { teamId: p.teamId, userId: actingUser(p), action: 'team.updated', details: { logo: `${logo.type} ${logo.width} x ${logo.height}` } })
    return teamBranding(tx, p.teamId)
  })
}

export async function removeLogo(db: Db, p: Principal): Promise<TeamBranding> {
  return db.transaction(async (tx) => {
    const [had] = await tx.query(
      'update team_branding set logo = null, logo_type = null, logo_sha256 = null, logo_width = null, logo_height = null, updated_at = now() where team_id = $1 and logo is not null returning team_id',
      [p.teamId],
    )
    if (had) await recordActivity(tx, { teamId: p.teamId, userId: actingUser(p), action: 'team.updated', details: { logo: null } })
    return teamBranding(tx, p.teamId)
  })
}

/** A logo by its address (any team's: logos are public once set); null when no team has it now. */
export async function logoFile(db: Queryable, sha256: string): Promise<{ bytes: Uint8Array; type: LogoType } | null> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) return null
  const [row] = await db.query<{ logo: Uint8Array; logo_type: LogoType }>('select logo, logo_type from team_branding where logo_sha256 = $1 limit 1', [sha256])
  return row ? { bytes: row.logo, type: row.logo_type } : null
}

/** What a new envelope of the team starts with where its request leaves a setting unset. */
export interface EnvelopeDefaults {
  meta: Partial<Pick<DocumentMeta, 'subject' | 'message' | 'timezone' | 'dateFormat' | 'language'>>
  auth: EnvelopeAuth | undefined
}

export async function envelopeDefaults(db: Queryable, teamId: string): Promise<EnvelopeDefaults> {
  const [row] = await db.query<Pick<Row, 'email_subject' | 'email_message' | 'timezone' | 'date_format' | 'language' | 'access_auth' | 'action_auth'>>(
    'select email_subject, email_message, timezone, date_format, language, access_auth, action_auth from team_branding where team_id = $1',
    [teamId],
  )
  if (!row) return { meta: {}, auth: undefined }
  const meta: EnvelopeDefaults['meta'] = {}
  if (row.email_subject) meta.subject = row.email_subject
  if (row.email_message) meta.message = row.email_message
  if (row.timezone) meta.timezone = row.timezone
  if (row.date_format) meta.dateFormat = row.date_format
  if (row.language) meta.language = row.language
  const auth = row.access_auth?.length || row.action_auth?.length ? { globalAccessAuth: row.access_auth ?? [], globalActionAuth: row.action_auth ?? [] } : undefined
  return { meta, auth }
}

/**
 * The settings an envelope is stored with: the service's defaults, then the team's, then what the
 * request gives. A subject or message given as null counts as none given (the team's is used).
 */
export function withTeamDefaults(given: Partial<DocumentMeta> | undefined, team: EnvelopeDefaults['meta']): Partial<DocumentMeta> {
  const own = Object.entries(given ?? {}).filter(([k, v]) => v !== undefined && !(v === null && (k === 'subject' || k === 'message')))
  return { ...team, ...Object.fromEntries(own) }
}

/** What the signing pages draw with: the logo's address, the colour, and the name the logo stands for. */
export interface PageBranding {
  logoUrl: string | null
  color: string | null
  name: string
}

export async function pageBranding(db: Queryable, teamId: string): Promise<PageBranding | null> {
  const [row] = await db.query<{ logo_sha256: string | null; brand_color: string | null; sender_name: string | null; name: string }>(
    'select b.logo_sha256, b.brand_color, b.sender_name, t.name from team_branding b join teams t on t.id = b.team_id where b.team_id = $1',
    [teamId],
  )
  if (!row || (!row.logo_sha256 && !row.brand_color)) return null
  return { logoUrl: row.logo_sha256 ? logoPath(row.logo_sha256) : null, color: row.brand_color, name: row.sender_name ?? row.name }
}

/** What an e-mail of the team carries: the From name, the Reply-To, the colour, and the logo's bytes for an inline attachment. */
export interface MailBranding {
  senderName: string | null
  replyTo: string | null
  color: string | null
  logo: { bytes: Uint8Array; type: LogoType; sha256: string } | null
}

export async function mailBranding(db: Queryable, teamId: string): Promise<MailBranding | null> {
  const [row] = await db.query<{ sender_name: string | null; reply_to: string | null; brand_color: string | null; logo: Uint8Array | null; logo_type: LogoType | null; logo_sha256: string | null }>(
    'select sender_name, reply_to, brand_color, logo, logo_type, logo_sha256 from team_branding where team_id = $1',
    [teamId],
  )
  if (!row) return null
  return {
    senderName: row.sender_name,
    replyTo: row.reply_to,
    color: row.brand_color,
    logo: row.logo && row.logo_type && row.logo_sha256 ? { bytes: row.logo, type: row.logo_type, sha256: row.logo_sha256 } : null,
  }
}
