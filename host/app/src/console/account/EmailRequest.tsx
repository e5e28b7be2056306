import { useState, type FormEvent } from 'react'
import { consoleApi } from '../api.js'
import { consoleLanguage, ct } from '../i18n/index.js'
import { AuthCard, ErrorAlert, Field, Notice, useAction } from './parts.js'

/**
 * Asks for a link by e-mail: to reset the password, or to sign in without one. The answer is the
 * same whether or not the address has an account, and so is what this screen says.
 */
export function EmailRequest({ purpose }: { purpose: 'reset' | 'signin' }) {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState(false)
  const { busy, error, run } = useAction()
  const words = purpose === 'reset' ? 'account.reset' : 'account.emailLink'

  const submit = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await consoleApi(purpose === 'reset' ? '/auth/reset' : '/auth/link', { body: { email, language: consoleLanguage() } })
      setSent(true)
    })
  }

  return (
    <AuthCard id={`${purpose}-title`} title={ct(`${words}.title`)}>
      {sent ? (
        <Notice>{ct(`${words}.sent`, { email })}</Notice>
      ) : (
        <form className="stack" onSubmit={submit}>
          <p className="muted">{ct(`${words}.intro`)}</p>
          <ErrorAlert error={error} />
          <Field label={ct('account.email')} type="email" value={email} onChange={setEmail} autoComplete="email" required />
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {busy ? ct('account.working') : ct(`${words}.submit`)}
          </button>
        </form>
      )}
    </AuthCard>
  )
}
