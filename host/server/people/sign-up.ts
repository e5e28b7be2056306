import type { HostConfig } from '../config.js'
import type { Db, Queryable } from '../db/index.js'
import { ApiError } from '../errors.js'
import type { MailLanguage } from '../mail/i18n.js'
import { isEmail, normaliseEmail } from './emails.js'
import { createLink } from './links.js'
import { sendAccountMail } from './mail.js'
import { hashPassword, passwordProblem } from './passwords.js'
import { createUser, userByEmail } from './users.js'

/**
 * Who may make an account: anyone with SIGNUP=open, and otherwise an address with a live
 * invitation. Being first on an instance gives nothing: the first administrator is made by the
 * operator (`user create --admin`, or `npm start`'s demo admin).
 */
export async function signUpAllowed(db: Queryable, config: Pick<HostConfig, 'signup'>, email: string, now: Date): Promise<boolean> {
  if (config.signup === 'open') return true
  const rows = await db.query('select 1 from team_invitations where email = $1 and revoked_at is null and accepted_at is null and expires_at > $2 limit 1', [
    normaliseEmail(email),
    now,
  ])
  return rows.length > 0
}

/**
 * Signs up, or, when the address has an account already, mails that account a sign-in link
 * instead: the answer is the same either way, so sign-up never tells who has an account.
 */
export function signUp(
  db: Db,
  config: Pick<HostConfig, 'signup'>,
  o: { email: string; name: string; password: string; language: MailLanguage; now: Date },
): Promise<void> {
  return db.transaction(async (tx) => {
    // Bad input is refused the same way whether or not the address has an account.
    const problem = !isEmail(normaliseEmail(o.email)) ? 'a valid e-mail address is required' : passwordProblem(o.password)
    if (problem) throw new ApiError(400, 'INVALID_REQUEST', problem)
    if (!(await signUpAllowed(tx, config, o.email, o.now))) {
      throw new ApiError(403, 'SIGNUP_CLOSED', 'this service takes new accounts by invitation only: ask a team admin to invite you')
    }
    const existing = await userByEmail(tx, o.email)
    if (existing) {
      // The same work as a new account (the password hash), so time does not tell either.
      await hashPassword(o.password)
      const linkId = await createLink(tx, { purpose: 'signin', email: existing.email, userId: existing.id, now: o.now })
      await sendAccountMail(tx, { linkId, purpose: 'signin', to: existing.email, language: o.language })
      return
    }
    const { user } = await createUser(tx, { email: o.email, name: o.name, password: o.password })
    const linkId = await createLink(tx, { purpose: 'verify', email: user.email, userId: user.id, now: o.now })
    await sendAccountMail(tx, { linkId, purpose: 'verify', to: user.email, language: o.language })
  })
}
