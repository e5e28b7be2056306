import { useEffect, useState, type FormEvent } from 'react'
import { consoleApi, onFreshProofRequired } from '../api.js'
import { ct } from '../i18n/index.js'
import { ErrorAlert, Field, useAction } from './parts.js'

/** A code of the authenticator app (six digits) or a recovery code (four groups of four); else a password. */
const looksLikeCode = (s: string) => /^\s*\d{3}\s*\d{3}\s*$/.test(s) || /^\s*[a-z2-7]{4}(-?[a-z2-7]{4}){3}\s*$/i.test(s)

/**
 * Asks for the password (or a code) again when a change needs a recent proof (adding a passkey,
 * setting up two-factor, new recovery codes): POST /account/confirm, then the change goes on.
 */
export function ConfirmIdentity() {
  const [pending, setPending] = useState<((ok: boolean) => void) | null>(null)
  const [secret, setSecret] = useState('')
  const { busy, error, run } = useAction()
  useEffect(() => onFreshProofRequired(() => new Promise<boolean>((resolve) => setPending(() => resolve))), [])
  if (!pending) return null
  const close = (ok: boolean) => {
    pending(ok)
    setPending(null)
    setSecret('')
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await consoleApi('/account/confirm', { body: looksLikeCode(secret) ? { code: secret.trim() } : { password: secret } })
      close(true)
    })
  }
  return (
    <div className="card card-pad stack" role="dialog" aria-modal="true" aria-labelledby="confirm-identity-title">
      <h2 id="confirm-identity-title">{ct('account.confirm.title')}</h2>
      <form className="stack" onSubmit={submit}>
        <p className="muted">{ct('account.confirm.intro')}</p>
        <ErrorAlert error={error} />
        <Field label={ct('account.confirm.secret')} type="password" autoComplete="current-password" value={secret} onChange={setSecret} autoFocus required />
        <div className="account-inline">
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {busy ? ct('account.working') : ct('account.confirm.submit')}
          </button>
          <button className="btn btn-secondary" type="button" onClick={() => close(false)}>
            {ct('account.cancel')}
          </button>
        </div>
      </form>
    </div>
  )
}
