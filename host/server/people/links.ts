import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto'
import { ApiError } from '../errors.js'
import type { Queryable } from '../db/index.js'
import { newId } from '../domain/common/ids.js'
import { normaliseEmail } from './emails.js'

/**
 * The links the service sends by e-mail: verify an address, reset a password, sign in, accept an
 * invitation. A link's value is `<row id>.<HMAC of the id under the host's key>`: the database
 * (and the mail job's payload) holds the id only, so neither can be replayed from a dump. Each
 * link is single-use, expires, and a newer link of the same purpose for the same address
 * invalidates the older ones.
 */
export const LINK_PURPOSES = ['verify', 'reset', 'signin', 'invite'] as const
export type LinkPurpose = (typeof LINK_PURPOSES)[number]

/** How long each kind of link stays good. */
export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  verify: 24 * 3600_000,
  reset: 3600_000,
  signin: 15 * 60_000,
  invite: 7 * 24 * 3600_000,
}

export interface AccountLink {
  id: string
  purpose: LinkPurpose
  email: string
  userId: string | null
  invitationId: string | null
}

const mac = (key: KeyObject, id: string) => createHmac('sha256', key).update(`account-link:${id}`).digest('base64url')

export const linkValue = (key: KeyObject, id: string): string => `${id}.${mac(key, id)}`

/** The row id a value names when its MAC is right; null otherwise. */
function idOf(key: KeyObject, value: string): string | null {
  const dot = value.lastIndexOf('.')
  if (dot <= 0 || value.length > 200) return null
  const id = value.slice(0, dot)
  const want = Buffer.from(mac(key, id))
  const got = Buffer.from(value.slice(dot + 1))
  return want.length === got.length && timingSafeEqual(want, got) ? id : null
}

export async function createLink(
  tx: Queryable,
  o: { purpose: LinkPurpose; email: string; userId?: string | null; invitationId?: string | null; now?: Date },
): Promise<string> {
  const email = normaliseEmail(o.email)
  const now = o.now ?? new Date()
  await tx.query(`update account_links set used_at = $3 where purpose = $1 and email = $2 and used_at is null`, [o.purpose, email, now])
  const id = newId.accountLink()
  await tx.query('insert into account_links (id, purpose, email, user_id, invitation_id, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7)', [
    id,
    o.purpose,
    email,
    o.userId ?? null,
    o.invitationId ?? null,
    now,
    new Date(now.getTime() + LINK_TTL_MS[o.purpose]),
  ])
  return id
}

const INVALID = () => new ApiError(400, 'LINK_INVALID', 'this link is not valid: it was used, replaced by a newer one, or has expired')

interface LinkRow {
  id: string
  purpose: LinkPurpose
  email: string
  user_id: string | null
  invitation_id: string | null
}
const toLink = (r: LinkRow): AccountLink => ({ id: r.id, purpose: r.purpose, email: r.email, userId: r.user_id, invitationId: r.invitation_id })

/** The live link a value names, without using it (to show what accepting it would do); 400 LINK_INVALID otherwise. */
export async function peekLink(db: Queryable, key: KeyObject, value: string, purpose: LinkPurpose, now = new Date()): Promise<AccountLink> {
  const id = idOf(key, value)
  const [row] = id
    ? await db.query<LinkRow>('select * from account_links where id = $1 and purpose = $2 and used_at is null and expires_at > $3', [id, purpose, now])
    : []
  if (!row) throw INVALID()
  return toLink(row)
}

/** Uses a link once: the first caller gets it, every later one 400 LINK_INVALID. */
export async function consumeLink(tx: Queryable, key: KeyObject, value: string, purpose: LinkPurpose, now = new Date()): Promise<AccountLink> {
  const id = idOf(key, value)
  const [row] = id
    ? await tx.query<LinkRow>(
        'update account_links set used_at = $3 where id = $1 and purpose = $2 and used_at is null and expires_at > $3 returning *',
        [id, purpose, now],
      )
    : []
  if (!row) throw INVALID()
  return toLink(row)
}
