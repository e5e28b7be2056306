import type { Queryable } from '../db/index.js'
import { createLink } from './links.js'
import { sendAccountMail } from './mail.js'
import { addMember } from './members.js'
import type { Role } from './roles.js'
import { createUser, userByEmail } from './users.js'

/**
 * The way in for whoever runs the instance (`npm start`, `npm run host -- user create` without a
 * password): the account of `email` (created verified when missing), a member of `teamId` with
 * `role`, and a one-time sign-in link sent by e-mail (the local mailbox without SMTP). Nothing
 * that opens the console is printed.
 */
export async function mailOperatorSignIn(
  tx: Queryable,
  o: { email: string; name?: string; teamId?: string; role?: Role },
): Promise<{ userId: string; created: boolean }> {
  const existing = await userByEmail(tx, o.email)
  const user = existing ?? (await createUser(tx, { email: o.email, name: o.name, verified: true })).user
  if (o.teamId) await addMember(tx, { teamId: o.teamId, userId: user.id, role: o.role ?? 'ADMIN' })
  const linkId = await createLink(tx, { purpose: 'signin', email: user.email, userId: user.id })
  await sendAccountMail(tx, { linkId, purpose: 'signin', to: user.email, language: 'en' })
  return { userId: user.id, created: !existing }
}
