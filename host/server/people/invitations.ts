/**
 * Invitations to a team: one live invitation per address and team (a newer one replaces it, and
 * its e-mailed link), resent with a fresh link, revoked, and accepted through the link, which also
 * proves the address (an account made from it is verified).
 */
import type { KeyObject } from 'node:crypto'
import type { Db, Queryable } from '../db/index.js'
import { ApiError } from '../errors.js'
import { newId } from '../domain/common/ids.js'
import type { MailLanguage } from '../mail/i18n.js'
import { recordActivity } from './activity.js'
import { isEmail, normaliseEmail } from './emails.js'
import { consumeLink, createLink, LINK_TTL_MS, peekLink } from './links.js'
import { sendAccountMail } from './mail.js'
import { addMember } from './members.js'
import type { Role } from './roles.js'
import { createUser, markEmailVerified, userByEmail, userById } from './users.js'

export type { Invitation } from '../../shared/console-contract.js'
import type { Invitation } from '../../shared/console-contract.js'

interface Row {
  id: string
  team_id: string
  email: string
  role: Role
  invited_by: string | null
  created_at: Date
  expires_at: Date
}
const toInvitation = (r: Row & { inviter?: string | null }): Invitation => ({
  id: r.id,
  email: r.email,
  role: r.role,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
  invitedBy: r.inviter ?? null,
})

export async function listInvitations(db: Queryable, teamId: string, now = new Date()): Promise<Invitation[]> {
  const rows = await db.query<Row & { inviter: string | null }>(
    `select i.*, u.email as inviter from team_invitations i left join users u on u.id = i.invited_by
     where i.team_id = $1 and i.accepted_at is null and i.revoked_at is null and i.expires_at > $2 order by i.created_at desc`,
    [teamId, now],
  )
  return rows.map(toInvitation)
}

/** Mails the invitation's link (a new one each time: the older dies). */
async function mailInvitation(tx: Queryable, inv: Row, inviter: string | null, language: MailLanguage, now: Date): Promise<void> {
  const linkId = await createLink(tx, { purpose: 'invite', email: inv.email, invitationId: inv.id, now })
  const [team] = await tx.query<{ name: string }>('select name from teams where id = $1', [inv.team_id])
  await sendAccountMail(tx, { linkId, purpose: 'invite', to: inv.email, language, teamName: team?.name, teamId: inv.team_id, inviter: inviter ?? undefined })
}

const inviterName = async (tx: Queryable, userId: string | null) => {
  const u = userId ? await userById(tx, userId) : null
  return u ? u.name || u.email : null
}

export function invite(
  db: Db,
  o: { teamId: string; email: string; role: Role; by: string | null; language: MailLanguage; now?: Date },
): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const email = normaliseEmail(o.email)
    if (!isEmail(email)) throw new ApiError(400, 'INVALID_REQUEST', 'a valid e-mail address is required')
    const now = o.now ?? new Date()
    const [member] = await tx.query('select 1 from team_members m join users u on u.id = m.user_id where m.team_id = $1 and u.email = $2', [o.teamId, email])
    if (member) throw new ApiError(409, 'ALREADY_MEMBER', `${email} is a member of this team already`)
    // The newer invitation replaces an older one to the same address.
    await tx.query('update team_invitations set revoked_at = $3 where team_id = $1 and email = $2 and accepted_at is null and revoked_at is null', [o.teamId, email, now])
    const [row] = await tx.query<Row>(
      'insert into team_invitations (id, team_id, email, role, invited_by, created_at, expires_at) values ($1, $2, $3, $4, $5, $6, $7) returning *',
      [newId.invitation(), o.teamId, email, o.role, o.by, now, new Date(now.getTime() + LINK_TTL_MS.invite)],
    )
    await mailInvitation(tx, row!, await inviterName(tx, o.by), o.language, now)
    await recordActivity(tx, { teamId: o.teamId, userId: o.by, action: 'member.invited', target: email, details: { role: o.role } })
    return toInvitation(row!)
  })
}

async function liveInvitation(tx: Queryable, teamId: string, id: string, now: Date): Promise<Row> {
  const [row] = await tx.query<Row>(
    'select * from team_invitations where id = $1 and team_id = $2 and accepted_at is null and revoked_at is null and expires_at > $3 for update',
    [id, teamId, now],
  )
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'invitation not found')
  return row
}

/** A fresh link (the older one dies) and a fresh expiry. */
export function resendInvitation(db: Db, o: { teamId: string; id: string; by: string | null; language: MailLanguage; now?: Date }): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const now = o.now ?? new Date()
    await liveInvitation(tx, o.teamId, o.id, now)
    const [row] = await tx.query<Row>('update team_invitations set expires_at = $2 where id = $1 returning *', [o.id, new Date(now.getTime() + LINK_TTL_MS.invite)])
    await mailInvitation(tx, row!, await inviterName(tx, o.by), o.language, now)
    return toInvitation(row!)
  })
}

export function revokeInvitation(db: Db, o: { teamId: string; id: string; by: string | null; now?: Date }): Promise<void> {
  return db.transaction(async (tx) => {
    const now = o.now ?? new Date()
    const row = await liveInvitation(tx, o.teamId, o.id, now)
    await tx.query('update team_invitations set revoked_at = $2 where id = $1', [o.id, now])
    await tx.query(`update account_links set used_at = $2 where invitation_id = $1 and used_at is null`, [o.id, now])
    await recordActivity(tx, { teamId: o.teamId, userId: o.by, action: 'member.invitation_revoked', target: row.email })
  })
}

const invalid = () => new ApiError(400, 'LINK_INVALID', 'this invitation is not valid: it was used, replaced, revoked or has expired')

async function invitationOfLink(tx: Queryable, invitationId: string | null, now: Date): Promise<Row & { team_name: string }> {
  const [row] = invitationId
    ? await tx.query<Row & { team_name: string }>(
        `select i.*, t.name as team_name from team_invitations i join teams t on t.id = i.team_id
         where i.id = $1 and i.accepted_at is null and i.revoked_at is null and i.expires_at > $2`,
        [invitationId, now],
      )
    : []
  if (!row) throw invalid()
  return row
}

/** What accepting the link would do, without using it. */
export async function peekInvitation(db: Queryable, key: KeyObject, value: string, now = new Date()) {
  const link = await peekLink(db, key, value, 'invite', now)
  const inv = await invitationOfLink(db, link.invitationId, now)
  return { teamName: inv.team_name, email: inv.email, role: inv.role, accountExists: (await userByEmail(db, inv.email)) !== null }
}

/**
 * Accepts through the link: as the signed-in account of the invited address, or, when the address
 * has no account, with a new one (verified: the link proved the address). Answers the user who
 * joined and the team.
 */
export function acceptInvitation(
  db: Db,
  key: KeyObject,
  o: { value: string; signedInAs: { id: string; email: string } | null; newAccount?: { name: string; password: string }; now?: Date },
): Promise<{ userId: string; teamId: string; created: boolean }> {
  return db.transaction(async (tx) => {
    const now = o.now ?? new Date()
    const link = await peekLink(tx, key, o.value, 'invite', now)
    const inv = await invitationOfLink(tx, link.invitationId, now)
    let userId: string
    let created = false
    if (o.signedInAs) {
      if (o.signedInAs.email !== inv.email) throw new ApiError(403, 'WRONG_ACCOUNT', `this invitation is for ${inv.email}: sign in with that address to accept it`)
      userId = o.signedInAs.id
    } else {
      const existing = await userByEmail(tx, inv.email)
      if (existing) throw new ApiError(401, 'SIGN_IN_FIRST', `${inv.email} has an account: sign in to accept the invitation`)
      if (!o.newAccount) throw new ApiError(400, 'INVALID_REQUEST', 'a name and a password are needed to create the account')
      userId = (await createUser(tx, { email: inv.email, name: o.newAccount.name, password: o.newAccount.password, verified: true })).user.id
      created = true
    }
    await consumeLink(tx, key, o.value, 'invite', now)
    await tx.query('update team_invitations set accepted_at = $2 where id = $1', [inv.id, now])
    await markEmailVerified(tx, userId)
    await addMember(tx, { teamId: inv.team_id, userId, role: inv.role })
    await recordActivity(tx, { teamId: inv.team_id, userId, action: 'member.joined', target: inv.email, details: { role: inv.role } })
    return { userId, teamId: inv.team_id, created }
  })
}
