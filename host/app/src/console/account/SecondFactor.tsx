import { useEffect, useState, type FormEvent } from 'react'
import { consoleApi, setCsrfToken } from '../api.js'
import { ct } from '../i18n/index.js'
import { passkeyAssertion, passkeysSupported } from './passkey.js'
import { AuthCard, ErrorAlert, Field, useAction } from './parts.js'

/** After the password (or an e-mailed link) when two-factor is on: a code from the app, a recovery code, or a passkey. */
export function SecondFactor({ onDone }: { onDone: () => void }) {
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp')
  const [code, setCode] = useState('')
  const [ready, setReady] = useState(false)
  const { busy, error, run } = useAction()

  // The half-open session's anti-forgery token comes with /me, as the full one's does.
  useEffect(() => {
    void consoleApi('/me')
      .then((me) => me.csrfToken && setCsrfToken(me.csrfToken))
      .finally(() => setReady(true))
  }, [])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await consoleApi(`/auth/second-factor/${mode}`, { body: { code } })
      onDone()
    })
  }
  const withPasskey = () =>
    void run(async () => {
      await passkeyAssertion('second-factor')
      onDone()
    })
  const cancel = () =>
    void run(async () => {
      await consoleApi('/auth/sign-out', { body: {} })
      location.assign('/console')
    })
  const switchMode = () => {
    setMode(mode === 'totp' ? 'recovery' : 'totp')
    setCode('')
  }

  return (
    <AuthCard id="second-factor-title" title={ct('account.second.title')} links={false}>
      <form className="stack" onSubmit={submit}>
        <p className="muted">{ct(mode === 'totp' ? 'account.second.totpIntro' : 'account.second.recoveryIntro')}</p>
        <ErrorAlert error={error} />
        <Field
          key={mode}
          label={ct(mode === 'totp' ? 'account.second.code' : 'account.second.recoveryCode')}
          value={code}
          onChange={setCode}
          autoComplete="one-time-code"
          inputMode={mode === 'totp' ? 'numeric' : 'text'}
          required
          autoFocus
        />
        <button className="btn btn-primary" type="submit" disabled={busy || !ready}>
          {busy ? ct('account.working') : ct('account.second.submit')}
        </button>
      </form>
      <div className="account-actions">
        <button className="btn btn-secondary btn-sm" type="button" onClick={switchMode}>
          {ct(mode === 'totp' ? 'account.second.useRecovery' : 'account.second.useTotp')}
        </button>
        {passkeysSupported() && (
          <button className="btn btn-secondary btn-sm" type="button" onClick={withPasskey} disabled={busy || !ready}>
            {ct('account.second.usePasskey')}
          </button>
        )}
        <button className="btn btn-secondary btn-sm" type="button" onClick={cancel} disabled={busy}>
          {ct('account.second.cancel')}
        </button>
      </div>
    </AuthCard>
  )
}
