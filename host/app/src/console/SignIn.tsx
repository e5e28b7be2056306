import { useState, type FormEvent } from 'react'
import { consoleApi } from './api.js'
import { ct } from './i18n/index.js'
import { passkeyAssertion, passkeysSupported } from './account/passkey.js'
import { messageOf, OtherWaysIn } from './account/parts.js'

/** E-mail and password; what follows (a second factor, the console) is the shell's to show. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await consoleApi('/auth/sign-in', { body: { email, password } })
      onSignedIn()
    } catch (err) {
      setError(messageOf(err))
    } finally {
      setBusy(false)
    }
  }

  // A passkey names its account: no address to type.
  const withPasskey = async () => {
    setBusy(true)
    setError(null)
    try {
      await passkeyAssertion('sign-in')
      onSignedIn()
    } catch (err) {
      setError(messageOf(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <main className="console-auth" id="content">
      <form className="card card-pad stack" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">{ct('signIn.title')}</h1>
        {error && (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        )}
        <label className="form-field">
          <span className="label">{ct('signIn.email')}</span>
          <input className="input" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="form-field">
          <span className="label">{ct('signIn.password')}</span>
          <input className="input" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {busy ? ct('signIn.working') : ct('signIn.submit')}
        </button>
        {passkeysSupported() && (
          <>
            <p className="account-divider">{ct('account.or')}</p>
            <button className="btn btn-secondary" type="button" disabled={busy} onClick={() => void withPasskey()}>
              {ct('account.passkeySignIn')}
            </button>
          </>
        )}
      </form>
      <OtherWaysIn except="/console" />
    </main>
  )
}
