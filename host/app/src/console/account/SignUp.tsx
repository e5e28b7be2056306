import { useState, type FormEvent } from 'react'
import { consoleApi } from '../api.js'
import { consoleLanguage, ct } from '../i18n/index.js'
import { AuthCard, ErrorAlert, Field, NewPasswordField, Notice, useAction } from './parts.js'

/** A new account: the server mails a link to confirm the address (or a sign-in link, when it has an account already). */
export function SignUp() {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [sent, setSent] = useState(false)
  const { busy, error, run } = useAction()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await consoleApi('/auth/sign-up', { body: { name, email, password, language: consoleLanguage() } })
      setSent(true)
    })
  }

  return (
    <AuthCard id="sign-up-title" title={ct('account.signUp.title')}>
      {sent ? (
        <Notice>{ct('account.signUp.sent', { email })}</Notice>
      ) : (
        <form className="stack" onSubmit={submit}>
          <ErrorAlert error={error} />
          <Field label={ct('account.name')} value={name} onChange={setName} autoComplete="name" />
          <Field label={ct('account.email')} type="email" value={email} onChange={setEmail} autoComplete="email" required />
          <NewPasswordField label={ct('account.password')} value={password} onChange={setPassword} />
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {busy ? ct('account.working') : ct('account.signUp.submit')}
          </button>
        </form>
      )}
    </AuthCard>
  )
}
