import { useCallback, useEffect, useState, type FormEvent } from 'react'
import type { Invitation, Member } from '../../../../shared/console-contract.js'
import { consoleApi } from '../api.js'
import { consoleLanguage, ct, formatDate, formatDateTime } from '../i18n/index.js'
import { atLeast, useMe, type Role } from '../me.js'
import { ErrorAlert, Field, Notice, PersonCell, TableHead, messageOf, useAction } from '../parts.js'
import { navigate } from '../router.js'
import { SettingsLayout } from './SettingsLayout.js'

const ROLES: Role[] = ['MEMBER', 'MANAGER', 'ADMIN']

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
  const action = useAction()

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
      await send()
      if (done) setNotice(done)
      await load()
    })
  const leave = () => {
    if (!confirm(ct('team.members.leaveConfirm', { team: me.team?.teamName ?? '' }))) return
    void action.run(async () => {
      await consoleApi('/team/members/remove', { body: { userId: me.user.id } })
      await reload()
      navigate('/console/documents')
    })
  }

  return (
    <SettingsLayout title={ct('team.members.title')}>
      <ErrorAlert error={loadError ?? action.error} />
      {notice && <Notice>{notice}</Notice>}
      {admin && (
        <form className="card card-pad stack" onSubmit={invite} aria-labelledby="invite-title">
          <h2 id="invite-title">{ct('team.members.invite')}</h2>
          <div className="team-inline">
            <Field label={ct('team.members.email')} type="email" value={email} onChange={setEmail} required autoComplete="off" />
            <label className="form-field">
              <span className="label">{ct('team.members.role')}</span>
              <select className="input" value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ct(`team.role.${r}`)}
                  </option>
                ))}
              </select>
            </label>
            <button className="btn btn-primary" type="submit" disabled={action.busy}>
              {ct('team.members.send')}
            </button>
          </div>
        </form>
      )}
      <section className="card card-pad stack" aria-labelledby="members-title">
        <h2 id="members-title">{ct('team.members.list')}</h2>
        {!members ? (
          <p role="status">{ct('shell.loading')}</p>
        ) : (
          <table className="console-table">
            <TableHead columns={[ct('team.members.person'), ct('team.members.role'), ct('team.members.joined')]} actions />
            <tbody>
              {members.map((m) => (
                <tr key={m.userId}>
                  <PersonCell name={m.name} email={m.email} />
                  <td data-label={ct('team.members.role')}>
                    {admin && m.userId !== me.user.id ? (
                      <select
                        className="input"
                        aria-label={ct('team.members.roleOf', { who: m.name || m.email })}
                        value={m.role}
                        onChange={(e) => act(() => consoleApi('/team/members/role', { body: { userId: m.userId, role: e.target.value as Role } }))}
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
                    {m.userId === me.user.id ? (
                      <button className="btn btn-sm btn-danger-outline" type="button" onClick={leave} disabled={action.busy}>
                        {ct('team.members.leave')}
                      </button>
                    ) : (
                      admin && (
                        <button
                          className="btn btn-sm btn-danger-outline"
                          type="button"
                          disabled={action.busy}
                          onClick={() => confirm(ct('team.members.removeConfirm', { who: m.email })) && act(() => consoleApi('/team/members/remove', { body: { userId: m.userId } }))}
                        >
                          {ct('team.members.remove')}
                        </button>
                      )
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {manager && (
        <section className="card card-pad stack" aria-labelledby="invitations-title">
          <h2 id="invitations-title">{ct('team.invitations.title')}</h2>
          {invitations.length === 0 ? (
            <p className="muted">{ct('team.invitations.none')}</p>
          ) : (
            <table className="console-table">
              <TableHead columns={[ct('team.members.email'), ct('team.members.role'), ct('team.invitations.expires')]} actions />
              <tbody>
                {invitations.map((i) => (
                  <tr key={i.id}>
                    <td>{i.email}</td>
                    <td data-label={ct('team.members.role')}>{ct(`team.role.${i.role}`)}</td>
                    <td data-label={ct('team.invitations.expires')}>{formatDateTime(i.expiresAt)}</td>
                    <td>
                      {admin && (
                        <div className="team-actions">
                          <button className="btn btn-sm btn-secondary" type="button" disabled={action.busy} onClick={() => act(() => consoleApi('/team/invitations/resend', { body: { id: i.id, language: consoleLanguage() } }), ct('team.invitations.resent', { email: i.email }))}>
                            {ct('team.invitations.resend')}
                          </button>
                          <button className="btn btn-sm btn-danger-outline" type="button" disabled={action.busy} onClick={() => act(() => consoleApi('/team/invitations/revoke', { body: { id: i.id } }))}>
                            {ct('team.invitations.revoke')}
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </SettingsLayout>
  )
}
