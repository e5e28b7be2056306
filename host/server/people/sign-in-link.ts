import { createHmac, createSecretKey, type KeyObject } from 'node:crypto'
import type { Db } from '../db/index.js'
import { ApiError } from '../errors.js'
import type { PresignKey } from '../auth/presign.js'
import { createLink, linkValue, LINK_TTL_MS } from './links.js'
import { linkUrl } from './mail.js'
import { userByEmail } from './users.js'

/** The key of the links sent by e-mail, derived from the presign secret so that neither use can stand in for the other. */
export const accountLinkKey = (presignSecret: PresignKey): KeyObject =>
  createSecretKey(createHmac('sha256', presignSecret.sign).update('account-links').digest())

/**
 * A fresh one-time sign-in link for an existing account, for the operator's terminal
 * (`npm run host -- user link EMAIL`): it replaces the account's earlier sign-in links and is good
 * for 15 minutes. 404 when no account has the address (`user create` makes one).
 */
export function operatorSignInLink(
  db: Db,
  o: { email: string; origin: string; linkKey: KeyObject; now?: Date },
): Promise<{ url: string; email: string; expiresAt: string }> {
  return db.transaction(async (tx) => {
    const user = await userByEmail(tx, o.email)
    if (!user) throw new ApiError(404, 'NOT_FOUND', `no account has the address ${o.email}: make one with \`user create --email ${o.email}\``)
    const now = o.now ?? new Date()
    const id = await createLink(tx, { purpose: 'signin', email: user.email, userId: user.id, now })
    return { url: linkUrl(o.origin, 'signin', linkValue(o.linkKey, id)), email: user.email, expiresAt: new Date(now.getTime() + LINK_TTL_MS.signin).toISOString() }
  })
}

/** The address a person opens on this machine: `localhost` for a loopback or wildcard listener (passkeys refuse an IP address). */
export function personOrigin(hostname: string, port: number): string {
  const host = ['0.0.0.0', '::', '', '127.0.0.1', '::1', 'localhost'].includes(hostname) ? 'localhost' : hostname.includes(':') ? `[${hostname}]` : hostname
  return `http://${host}:${port}`
}
