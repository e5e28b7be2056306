/**
 * What an account's e-mailed links do once used (console/account-auth-routes.ts), each in one
 * transaction: confirming the address, setting a new password, signing in; and mailing a reset or
 * sign-in link to an address that has an account. A refused link or password writes nothing: the
 * link stays good for another try.
 */
import type { KeyObject } from 'node:crypto'
import { revokeOtherSessions } from '../auth/sessions.js'
import type { Db } from '../db/index.js'
import { ApiError } from '../errors.js'
import type { MailLanguage } from '../mail/i18n.js'
import { consumeLink, createLink } from './links.js'
import { sendAccountMail } from './mail.js'
import { clearFailures } from './throttle.js'
import { markEmailVerified, setPassword, userByEmail } from './users.js'

const notValid = () => new ApiError(400, 'LINK_INVALID', 'this link is not valid')

/** Mails a reset or sign-in link when the address has an account; nothing otherwise. */
export async function mailAccountLink(db: Db, o: { email: string; purpose: 'reset' | 'signin'; language: MailLanguage; now: Date }): Promise<void> {
  const user = await userByEmail(db, o.email)
  if (!user) return
  await db.transaction(async (tx) => {
    const linkId = await createLink(tx, { purpose: o.purpose, email: user.email, userId: user.id, now: o.now })
    await sendAccountMail(tx, { linkId, purpose: o.purpose, to: user.email, language: o.language })
  })
}

/** The sign-up's link used by `userId` (who proved the password the sign-up chose): the address is confirmed. */
export function confirmAddress(db: Db, key: KeyObject, o: { link: string; userId: string; now: Date }): Promise<void> {
  return db.transaction(async (tx) => {
    await consumeLink(tx, key, o.link, 'verify', o.now)
    await markEmailVerified(tx, o.userId, { keepPassword: true })
  })
}

/** A reset link used: the new password set, and whoever knew the old one signed out everywhere. The account's id. */
export function resetPassword(db: Db, key: KeyObject, o: { link: string; password: string; now: Date }): Promise<string> {
  return db.transaction(async (tx) => {
    const l = await consumeLink(tx, key, o.link, 'reset', o.now)
    if (!l.userId) throw notValid()
    // A refused password throws before the transaction ends: the link stays good for another try.
    await markEmailVerified(tx, l.userId)
    await setPassword(tx, l.userId, o.password)
    await revokeOtherSessions(tx, l.userId, null)
    await clearFailures(tx, l.email)
    return l.userId
  })
}

/** A sign-in link used: it proves the address. The account's id. */
export function useSignInLink(db: Db, key: KeyObject, o: { link: string; now: Date }): Promise<string> {
  return db.transaction(async (tx) => {
    const l = await consumeLink(tx, key, o.link, 'signin', o.now)
    if (!l.userId) throw notValid()
    // A password set before the address was proven was set by someone who never proved it: it goes.
    await markEmailVerified(tx, l.userId)
    return l.userId
  })
}
