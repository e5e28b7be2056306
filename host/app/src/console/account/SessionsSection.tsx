import type { AccountSession } from '../../../../shared/console-contract.js'
import { consoleApi } from '../api.js'
import { ct, formatDateTime } from '../i18n/index.js'
import { ErrorAlert, useAction } from './parts.js'
import { Section } from './Section.js'

/** Every browser signed in to the account, this one marked; any other can be signed out from here. */
export function SessionsSection({ sessions, onChanged }: { sessions: AccountSession[]; onChanged: () => Promise<void> }) {
  const { busy, error, run } = useAction()
  const revoke = (id: string) =>
    void run(async () => {
      await consoleApi(`/account/sessions/${encodeURIComponent(id)}/revoke`, { body: {} })
      await onChanged()
    })
  const revokeOthers = () =>
    void run(async () => {
      await consoleApi('/account/sessions/revoke-others', { body: {} })
      await onChanged()
    })
  return (
    <Section id="sessions-title" title={ct('account.sessions.title')} intro={ct('account.sessions.intro')}>
      <ErrorAlert error={error} />
      <table className="console-table">
        <thead>
          <tr>
            <th scope="col">{ct('account.sessions.client')}</th>
            <th scope="col">{ct('account.sessions.ip')}</th>
            <th scope="col">{ct('account.sessions.created')}</th>
            <th scope="col">{ct('account.sessions.lastSeen')}</th>
            <th scope="col">
              <span className="sr-only">{ct('account.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td>
                {s.client ?? ct('account.sessions.unknownClient')}{' '}
                {s.current && <span className="badge">{ct('account.sessions.current')}</span>}
              </td>
              <td data-label={ct('account.sessions.ip')}>{s.ip || '—'}</td>
              <td data-label={ct('account.sessions.created')}>{formatDateTime(s.createdAt)}</td>
              <td data-label={ct('account.sessions.lastSeen')}>{formatDateTime(s.lastSeenAt)}</td>
              <td>
                {!s.current && (
                  <button
                    className="btn btn-danger-outline btn-sm"
                    type="button"
                    disabled={busy}
                    onClick={() => revoke(s.id)}
                    aria-label={ct('account.sessions.revokeOne', { client: s.client ?? ct('account.sessions.unknownClient'), date: formatDateTime(s.createdAt) })}
                  >
                    {ct('account.sessions.revoke')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {sessions.length > 1 && (
        <div>
          <button className="btn btn-secondary" type="button" disabled={busy} onClick={revokeOthers}>
            {ct('account.sessions.revokeOthers')}
          </button>
        </div>
      )}
    </Section>
  )
}
