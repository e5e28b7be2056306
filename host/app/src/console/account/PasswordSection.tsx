import { useState, type FormEvent } from 'react'
import { consoleApi } from '../api.js'
import { ct } from '../i18n/index.js'
import { ErrorAlert, Field, NewPasswordField, Notice, useAction } from './parts.js'
import { Section } from './Section.js'

/** A new password needs the current one (when there is one); every other session ends with it. */
export function PasswordSection({ hasPassword, onChanged }: { hasPassword: boolean; onChanged: () => Promise<void> }) {
  const [current, setCurrent] = useState('')
  const [password, setPassword] = useState('')
  const [done, setDone] = useState(false)
  const { busy, error, run } = useAction()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setDone(false)
    void run(async () => {
      await consoleApi('/account/password', { body: { current, password } })
      setCurrent('')
      setPassword('')
      setDone(true)
      await onChanged()
    })
  }
  return (
    <Section id="password-title" title={ct('account.password.title')} intro={ct(hasPassword ? 'account.password.intro' : 'account.password.introNone')}>
      <form className="stack" onSubmit={submit}>
        <ErrorAlert error={error} />
        {done && <Notice>{ct('account.password.changed')}</Notice>}
        {hasPassword && (
          <Field label={ct('account.currentPassword')} type="password" value={current} onChange={setCurrent} autoComplete="current-password" required />
        )}
        <NewPasswordField label={ct('account.newPassword')} value={password} onChange={setPassword} />
        <div>
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {ct('account.password.submit')}
          </button>
        </div>
      </form>
    </Section>
  )
}
