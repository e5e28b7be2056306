import { useEffect, useRef, useState, type FormEvent } from 'react'
import { consoleApi } from '../api.js'
import { ct } from '../i18n/index.js'
import { AuthCard, ErrorAlert, Field, NewPasswordField, messageOf, useAction } from './parts.js'

/**
 * Where an e-mailed link lands: `/console/link/<purpose>#<value>`. The value is read from the
 * fragment (which no server or Referer sees) and taken out of the address bar at once, so it is
 * neither in the history nor shown over a shoulder.
 */
export function LinkLanding({ purpose }: { purpose: string }) {
  const [value] = useState(() => {
    try {
      return decodeURIComponent(location.hash.slice(1))
    } catch {
      return '' // a mangled link: shown as incomplete
    }
  })
  useEffect(() => {
    if (purpose === 'invite') {
      // Invitations are the team screens' to accept: hand the value on in the fragment.
      history.replaceState(null, '', `/console/invitation#${encodeURIComponent(value)}`)
      dispatchEvent(new PopStateEvent('popstate'))
    } else if (location.hash) history.replaceState(null, '', location.pathname)
  }, [purpose, value])

  if (purpose === 'invite') return null
  if (!value) return <Failed message={ct('account.link.missing')} />
  if (purpose === 'reset') return <ResetPassword value={value} />
  if (purpose === 'verify' || purpose === 'signin') return <UseLink value={value} purpose={purpose} />
  return <Failed message={ct('account.link.missing')} />
}

/** Verification and sign-in links need nothing more from the person: post the value, open the console. */
function UseLink({ value, purpose }: { value: string; purpose: 'verify' | 'signin' }) {
  const [error, setError] = useState<string | null>(null)
  const started = useRef(false)
  useEffect(() => {
    if (started.current) return
    started.current = true
    consoleApi(purpose === 'verify' ? '/auth/verify' : '/auth/link/complete', { body: { link: value } })
      .then(() => location.assign('/console'))
      .catch((err) => setError(messageOf(err)))
  }, [value, purpose])
  if (error) return <Failed message={error} />
  return (
    <AuthCard id="link-title" title={ct(purpose === 'verify' ? 'account.link.verifying' : 'account.link.signingIn')} links={false}>
      <p role="status">{ct('account.working')}</p>
    </AuthCard>
  )
}

function ResetPassword({ value }: { value: string }) {
  const [password, setPassword] = useState('')
  const { busy, error, run } = useAction()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await consoleApi('/auth/reset/complete', { body: { link: value, password } })
      location.assign('/console')
    })
  }
  return (
    <AuthCard id="new-password-title" title={ct('account.reset.newTitle')} links={false}>
      <form className="stack" onSubmit={submit}>
        <p className="muted">{ct('account.reset.newIntro')}</p>
        <ErrorAlert error={error} />
        <NewPasswordField label={ct('account.newPassword')} value={password} onChange={setPassword} autoFocus />
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {busy ? ct('account.working') : ct('account.reset.save')}
        </button>
      </form>
    </AuthCard>
  )
}

function Failed({ message }: { message: string }) {
  return (
    <AuthCard id="link-title" title={ct('account.link.failedTitle')}>
      <ErrorAlert error={message} />
    </AuthCard>
  )
}
