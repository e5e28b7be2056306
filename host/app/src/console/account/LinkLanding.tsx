import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { Passkey } from '../../../../shared/console-contract.js'
import { consoleApi, setCsrfToken } from '../api.js'
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
  if (purpose === 'verify') return <Verify value={value} />
  if (purpose === 'signin') return <UseLink value={value} />
  return <Failed message={ct('account.link.missing')} />
}

/**
 * Confirming the address: the link, and the password chosen at sign-up (whoever typed the address
 * there chose it; the one who holds the mailbox must know it too).
 */
function Verify({ value }: { value: string }) {
  const [password, setPassword] = useState('')
  const { busy, error, run } = useAction()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await consoleApi('/auth/verify', { body: { link: value, password } })
      location.assign('/console')
    })
  }
  return (
    <AuthCard id="link-title" title={ct('account.link.verifying')} links={false}>
      <form className="stack" onSubmit={submit}>
        <p className="muted">{ct('account.link.verifyIntro')}</p>
        <ErrorAlert error={error} />
        <Field label={ct('account.password')} type="password" autoComplete="current-password" value={password} onChange={setPassword} autoFocus required />
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {busy ? ct('account.working') : ct('account.link.verifyButton')}
        </button>
      </form>
    </AuthCard>
  )
}

/** A sign-in link needs nothing more from the person: post the value, open the console. */
function UseLink({ value }: { value: string }) {
  const [error, setError] = useState<string | null>(null)
  const started = useRef(false)
  useEffect(() => {
    if (started.current) return
    started.current = true
    consoleApi('/auth/link/complete', { body: { link: value } })
      .then(() => location.assign('/console'))
      .catch((err) => setError(messageOf(err)))
  }, [value])
  if (error) return <Failed message={error} />
  return (
    <AuthCard id="link-title" title={ct('account.link.signingIn')} links={false}>
      <p role="status">{ct('account.working')}</p>
    </AuthCard>
  )
}

function ResetPassword({ value }: { value: string }) {
  const [password, setPassword] = useState('')
  const [passkeys, setPasskeys] = useState<{ list: Passkey[]; canRemove: boolean } | null>(null)
  const { busy, error, run } = useAction()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      const done = await consoleApi('/auth/reset/complete', { body: { link: value, password } })
      // Passkeys outlive a password: the owner sees them all, and removes any that is not theirs.
      if (done.passkeys.length) setPasskeys({ list: done.passkeys, canRemove: !done.secondFactorDue })
      else location.assign('/console')
    })
  }
  const remove = (p: Passkey) =>
    void run(async () => {
      const me = await consoleApi('/me')
      if (me.csrfToken) setCsrfToken(me.csrfToken)
      await consoleApi(`/account/passkeys/${encodeURIComponent(p.id)}`, { method: 'DELETE' })
      setPasskeys((k) => k && { ...k, list: k.list.filter((x) => x.id !== p.id) })
    })
  if (passkeys) {
    return (
      <AuthCard id="reset-passkeys-title" title={ct('account.reset.passkeysTitle')} links={false}>
        <div className="stack">
          <p className="muted">{ct(passkeys.canRemove ? 'account.reset.passkeysIntro' : 'account.reset.passkeysLater')}</p>
          <ErrorAlert error={error} />
          <ul className="account-list">
            {passkeys.list.map((p) => (
              <li key={p.id}>
                <span>{p.name}</span>
                {passkeys.canRemove && (
                  <button className="btn btn-danger-outline btn-sm" type="button" disabled={busy} onClick={() => remove(p)}>
                    {ct('account.passkeys.remove')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          <button className="btn btn-primary" type="button" onClick={() => location.assign('/console')}>
            {ct('account.reset.continue')}
          </button>
        </div>
      </AuthCard>
    )
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
