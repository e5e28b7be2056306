import { useCallback, useEffect, useState, type FormEvent } from 'react'
import type { TeamToken, TokenExpiry } from '../../../../shared/console-contract.js'
import { ConfirmDialog } from '../ConfirmDialog.js'
import { consoleApi } from '../api.js'
import { ct, formatDateTime } from '../i18n/index.js'
import { atLeast, useMe } from '../me.js'
import { ErrorAlert, Field, TableHead, messageOf, useAction } from '../parts.js'
import { NeedsRole, SettingsLayout } from './SettingsLayout.js'
import { ShownOnce } from './ShownOnce.js'

/** The expiry choices API v2 offers for tokens (as host/server/auth/api-tokens.ts). */
const EXPIRIES: TokenExpiry[] = ['7d', '1m', '3m', '6m', '12m', 'never']

/** `/console/settings/tokens`: the team's API tokens; a new one's value is shown once. */
export function Tokens() {
  const { me } = useMe()
  const [tokens, setTokens] = useState<TeamToken[] | null>(null)
  const [name, setName] = useState('')
  const [expires, setExpires] = useState<TokenExpiry>('3m')
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  /** The token a revocation is asked about. */
  const [revoking, setRevoking] = useState<TeamToken | null>(null)
  const action = useAction()
  const allowed = atLeast(me.team?.role, 'MANAGER')

  const load = useCallback(async () => {
    try {
      setTokens((await consoleApi('/team/tokens')).data)
    } catch (err) {
      setLoadError(messageOf(err))
    }
  }, [])
  useEffect(() => {
    if (allowed) void load()
  }, [load, allowed, me.team?.teamId])

  if (!allowed) return <SettingsLayout title={ct('team.tokens.title')}><NeedsRole role="MANAGER" /></SettingsLayout>

  const create = (e: FormEvent) => {
    e.preventDefault()
    void action.run(async () => {
      const t = await consoleApi('/team/tokens', { body: { name, expires } })
      setCreated({ name, token: t.token })
      setName('')
      await load()
    })
  }
  return (
    <SettingsLayout title={ct('team.tokens.title')}>
      <p className="muted">{ct('team.tokens.help')}</p>
      <ErrorAlert error={loadError ?? action.error} />
      {revoking && (
        <ConfirmDialog
          title={ct('team.tokens.revokeTitle', { name: revoking.name })}
          confirmLabel={ct('team.tokens.revoke')}
          danger
          busy={action.busy}
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const { id } = revoking
            setRevoking(null)
            void action.run(async () => {
              await consoleApi('/team/tokens/revoke', { body: { id } })
              await load()
            })
          }}
        >
          <p>{ct('team.tokens.revokeBody')}</p>
        </ConfirmDialog>
      )}
      {created && (
        <ShownOnce id="token-created" title={ct('team.tokens.created', { name: created.name })} value={created.token} testId="new-token" onDone={() => setCreated(null)}>
          <p>{ct('team.tokens.once')}</p>
        </ShownOnce>
      )}
      <form className="card card-pad stack" onSubmit={create} aria-labelledby="token-new">
        <h2 id="token-new">{ct('team.tokens.new')}</h2>
        <div className="team-inline">
          <Field label={ct('team.tokens.name')} value={name} onChange={setName} required autoComplete="off" />
          <label className="form-field">
            <span className="label">{ct('team.tokens.expires')}</span>
            <select className="input" value={expires} onChange={(e) => setExpires(e.target.value as TokenExpiry)}>
              {EXPIRIES.map((x) => (
                <option key={x} value={x}>
                  {ct(`team.tokens.expiry.${x}`)}
                </option>
              ))}
            </select>
          </label>
          <button className="btn btn-primary" type="submit" disabled={action.busy}>
            {ct('team.tokens.create')}
          </button>
        </div>
      </form>
      <section className="card card-pad stack" aria-labelledby="tokens-list">
        <h2 id="tokens-list">{ct('team.tokens.list')}</h2>
        {!tokens ? (
          <p role="status">{ct('shell.loading')}</p>
        ) : tokens.length === 0 ? (
          <p className="muted">{ct('team.tokens.none')}</p>
        ) : (
          <table className="console-table">
            <TableHead columns={[ct('team.tokens.name'), ct('team.tokens.createdAt'), ct('team.tokens.expires'), ct('team.tokens.lastUsed')]} actions />
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id}>
                  <td>
                    <strong>{t.name}</strong>
                    {t.createdBy && <div className="muted small">{t.createdBy}</div>}
                  </td>
                  <td data-label={ct('team.tokens.createdAt')}>{formatDateTime(t.createdAt)}</td>
                  <td data-label={ct('team.tokens.expires')}>
                    {t.expiresAt ? formatDateTime(t.expiresAt) : ct('team.tokens.expiry.never')}
                    {t.expired && <span className="badge"> {ct('team.tokens.expired')}</span>}
                  </td>
                  <td data-label={ct('team.tokens.lastUsed')}>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : ct('team.tokens.never')}</td>
                  <td>
                    <button
                      className="btn btn-sm btn-danger-outline"
                      type="button"
                      disabled={action.busy}
                      aria-label={ct('team.tokens.revokeNamed', { name: t.name })}
                      onClick={() => setRevoking(t)}
                    >
                      {ct('team.tokens.revoke')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </SettingsLayout>
  )
}
