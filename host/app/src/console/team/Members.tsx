import { useCallback, useEffect, useId, useState, type FormEvent } from 'react'
import type { Invitation, Member } from '../../../../shared/console-contract.js'
import { consoleApi } from '../api.js'
import { ConfirmDialog } from '../ConfirmDialog.js'
import { consoleLanguage, ct, formatDate, formatDateTime } from '../i18n/index.js'
import { atLeast, useMe, type Role } from '../me.js'
import { ErrorAlert, Field, Notice, PersonCell, TableHead, messageOf, useAction } from '../parts.js'
import { navigate } from '../router.js'
import { SettingsLayout } from './SettingsLayout.js'

const ROLES: Role[] = ['MEMBER', 'MANAGER', 'ADMIN']

/** A change that waits for the person's confirmation in a dialog. */
type Pending = { kind: 'role'; member: Member; to: Role } | { kind: 'remove'; member: Member } | { kind: 'leave' }

const nameOf = (m: Member) => m.name || m.email

/** `/console/settings/members`: who is in the team, with which role; invitations (admins). */
export function Members() {
  const { me, reload } = useMe()
  const admin = atLeast(me.team?.role, 'ADMIN')
  const manager = atLeast(me.team?.role, 'MANAGER')
  const [members, setMembers] = useState<Member[] | null>(null)
  const [invitations, setInvitations] = useState<Invitation[]>([])
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('MEMBER')
  const [notice, setNotice] = useState<string | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [pending, setPending] = useState<Pending | null>(null)
  const action = useAction()
  // Why the controls an admin has are disabled or absent for the others.
  const why = useId()
  const inviteWhy = admin ? undefined : `${why}-invite`
  // A refusal (the last admin leaving) shows at the top of the page: bring it into view.
  useEffect(() => {
    if (action.error) document.querySelector('.team-section .alert-error')?.scrollIntoView({ block: 'nearest' })
  }, [action.error])

  const load = useCallback(async () => {
    try {
      setMembers((await consoleApi('/team/members')).data)
      if (manager) setInvitations((await consoleApi('/team/invitations')).data)
    } catch (err) {
      setLoadError(messageOf(err))
    }
  }, [manager])
  useEffect(() => void load(), [load, me.team?.teamId])

  const invite = (e: FormEvent) => {
    e.preventDefault()
    void action.run(async () => {
      await consoleApi('/team/invitations', { body: { email, role, language: consoleLanguage() } })
      setNotice(ct('team.members.invited', { email }))
      setEmail('')
      await load()
    })
  }
  const act = (send: () => Promise<unknown>, done?: string) =>
    void action.run(async () => {
      setNotice(null)
      await send()
      if (done) setNotice(done)
      await load()
    })
  /** Runs the confirmed change; the dialog closes either way, and a refusal shows on the page. */
  const confirmed = () => {
    const p = pending
    setPending(null)
    if (!p) return
    if (p.kind === 'role') {
      act(() => consoleApi('/team/members/role', { body: { userId: p.member.userId, role: p.to } }), ct('team.members.roleChanged', { who: nameOf(p.member), role: ct(`team.role.${p.to}`) }))
    } else if (p.kind === 'remove') {
      act(() => consoleApi('/team/members/remove', { body: { userId: p.member.userId } }), ct('team.members.removed', { who: nameOf(p.member) }))
    } else {
      void action.run(async () => {
        setNotice(null)
        await consoleApi('/team/members/remove', { body: { userId: me.user.id } })
        await reload()
        navigate('/console/documents')
      })
    }
  }

  return (
    <SettingsLayout title={ct('team.members.title')}>
      <ErrorAlert error={loadError ?? action.error} />
      {notice && <Notice>{notice}</Notice>}
      {pending && <PendingDialog pending={pending} team={me.team?.teamName ?? ''} busy={action.busy} onConfirm={confirmed} onCancel={() => setPending(null)} />}
      {/* Shown to everyone: below ADMIN it is disabled, with the reason. */}
      <form className="card card-pad stack" onSubmit={invite} aria-labelledby="invite-title">
        <h2 id="invite-title">{ct('team.members.invite')}</h2>
        {!admin && (
          <p className="muted" id={inviteWhy}>
            {ct('team.members.adminOnly')}
          </p>
        )}
        <fieldset className="team-fieldset" disabled={!admin}>
          <div className="team-inline">
            <Field label={ct('team.members.email')} type="email" value={email} onChange={setEmail} required autoComplete="off" describedBy={inviteWhy} />
            <label className="form-field">
              <span className="label">{ct('team.members.role')}</span>
              <select className="input" value={role} onChange={(e) => setRole(e.target.value as Role)} aria-describedby={inviteWhy}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ct(`team.role.${r}`)}
                  </option>
                ))}
              </select>
            </label>
            <button className="btn btn-primary" type="submit" disabled={action.busy} aria-describedby={inviteWhy}>
              {ct('team.members.send')}
            </button>
          </div>
        </fieldset>
      </form>
      <section className="card card-pad stack" aria-labelledby="members-title">
        <h2 id="members-title">{ct('team.members.list')}</h2>
        {!admin && <p className="muted">{ct('team.members.adminOnlyList')}</p>}
        {!members ? (
          <p role="status">{ct('shell.loading')}</p>
        ) : (
          <table className="console-table">
            <TableHead columns={[ct('team.members.person'), ct('team.members.role'), ct('team.members.joined')]} actions />
            <tbody>
              {members.map((m) => (
                <MemberRow key={m.userId} member={m} admin={admin} self={m.userId === me.user.id} busy={action.busy} onPending={setPending} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      {manager && (
        <section className="card card-pad stack" aria-labelledby="invitations-title">
          <h2 id="invitations-title">{ct('team.invitations.title')}</h2>
          {!admin && invitations.length > 0 && (
            <p className="muted" id={`${why}-invitations`}>
              {ct('team.invitations.adminOnly')}
            </p>
          )}
          {invitations.length === 0 ? (
            <p className="muted">{ct('team.invitations.none')}</p>
          ) : (
            <table className="console-table">
              <TableHead columns={[ct('team.members.email'), ct('team.members.role'), ct('team.invitations.expires')]} actions />
              <tbody>
                {invitations.map((i) => (
                  <InvitationRow
                    key={i.id}
                    invitation={i}
                    admin={admin}
                    busy={action.busy}
                    describedBy={admin ? undefined : `${why}-invitations`}
                    onResend={() => act(() => consoleApi('/team/invitations/resend', { body: { id: i.id, language: consoleLanguage() } }), ct('team.invitations.resent', { email: i.email }))}
                    onRevoke={() => act(() => consoleApi('/team/invitations/revoke', { body: { id: i.id } }))}
                  />
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </SettingsLayout>
  )
}

/** One member: their role (a choice for an admin, confirmed before it changes), when they joined, and leave or remove. */
function MemberRow(props: { member: Member; admin: boolean; self: boolean; busy: boolean; onPending: (p: Pending) => void }) {
  const { member: m, admin, self, busy, onPending } = props
  return (
    <tr>
      <PersonCell name={m.name} email={m.email} />
      <td data-label={ct('team.members.role')}>
        {admin && !self ? (
          <select
            className="input"
            aria-label={ct('team.members.roleOf', { who: nameOf(m) })}
            value={m.role}
            disabled={busy}
            // Nothing changes until the dialog is confirmed: the list keeps the current role meanwhile.
            onChange={(e) => onPending({ kind: 'role', member: m, to: e.target.value as Role })}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ct(`team.role.${r}`)}
              </option>
            ))}
          </select>
        ) : (
          <span className="badge">{ct(`team.role.${m.role}`)}</span>
        )}
      </td>
      <td data-label={ct('team.members.joined')}>{formatDate(m.joinedAt)}</td>
      <td>
        {self ? (
          <button className="btn btn-sm btn-danger-outline" type="button" onClick={() => onPending({ kind: 'leave' })} disabled={busy}>
            {ct('team.members.leave')}
          </button>
        ) : (
          admin && (
            <button
              className="btn btn-sm btn-danger-outline"
              type="button"
              disabled={busy}
              aria-label={ct('team.members.removeNamed', { who: nameOf(m) })}
              onClick={() => onPending({ kind: 'remove', member: m })}
            >
              {ct('team.members.remove')}
            </button>
          )
        )}
      </td>
    </tr>
  )
}

/** One invitation not yet taken: its address, role and end, with resend and revoke (an admin's). */
function InvitationRow(props: { invitation: Invitation; admin: boolean; busy: boolean; describedBy: string | undefined; onResend: () => void; onRevoke: () => void }) {
  const { invitation: i, admin, busy } = props
  return (
    <tr>
      <td>{i.email}</td>
      <td data-label={ct('team.members.role')}>{ct(`team.role.${i.role}`)}</td>
      <td data-label={ct('team.invitations.expires')}>{formatDateTime(i.expiresAt)}</td>
      <td>
        <div className="team-actions">
          <button className="btn btn-sm btn-secondary" type="button" disabled={busy || !admin} aria-describedby={props.describedBy} onClick={props.onResend}>
            {ct('team.invitations.resend')}
          </button>
          <button className="btn btn-sm btn-danger-outline" type="button" disabled={busy || !admin} aria-describedby={props.describedBy} onClick={props.onRevoke}>
            {ct('team.invitations.revoke')}
          </button>
        </div>
      </td>
    </tr>
  )
}

/** The question before a change: who, and what changes (a role from -> to, removal, leaving). */
function PendingDialog(props: { pending: Pending; team: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const p = props.pending
  const common = { busy: props.busy, onConfirm: props.onConfirm, onCancel: props.onCancel }
  if (p.kind === 'role') {
    const words = { who: nameOf(p.member), from: ct(`team.role.${p.member.role}`), to: ct(`team.role.${p.to}`) }
    return (
      <ConfirmDialog title={ct('team.members.roleTitle', { who: words.who })} confirmLabel={ct('team.members.roleConfirm', { role: words.to })} {...common}>
        <p>{ct('team.members.roleQuestion', words)}</p>
        <p className="muted">{ct(`team.members.roleMeans.${p.to}`)}</p>
      </ConfirmDialog>
    )
  }
  if (p.kind === 'remove') {
    return (
      <ConfirmDialog title={ct('team.members.removeTitle', { who: nameOf(p.member) })} confirmLabel={ct('team.members.remove')} danger {...common}>
        <p>{ct('team.members.removeConfirm', { who: p.member.email })}</p>
      </ConfirmDialog>
    )
  }
  return (
    <ConfirmDialog title={ct('team.members.leaveTitle', { team: props.team })} confirmLabel={ct('team.members.leave')} danger {...common}>
      <p>{ct('team.members.leaveConfirm', { team: props.team })}</p>
    </ConfirmDialog>
  )
}
