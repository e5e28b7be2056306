import { useState, type FormEvent } from 'react'
import { consoleApi } from '../api.js'
import { ct } from '../i18n/index.js'
import { useMe, type Me } from '../me.js'
import { ErrorAlert, Field, Notice, useAction } from './parts.js'
import { Section } from './Section.js'

export function ProfileSection({ user }: { user: Me['user'] }) {
  const { reload } = useMe()
  const [name, setName] = useState(user.name)
  const [saved, setSaved] = useState(false)
  const { busy, error, run } = useAction()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setSaved(false)
    void run(async () => {
      await consoleApi('/account/name', { body: { name } })
      await reload()
      setSaved(true)
    })
  }
  return (
    <Section id="profile-title" title={ct('account.profile.title')}>
      <form className="stack" onSubmit={submit}>
        <ErrorAlert error={error} />
        {saved && <Notice>{ct('account.profile.saved')}</Notice>}
        <Field label={ct('account.name')} value={name} onChange={setName} autoComplete="name" />
        <Field
          label={ct('account.email')}
          type="email"
          value={user.email}
          onChange={() => {}}
          readOnly
          hint={user.emailVerified ? ct('account.profile.verified') : ct('account.profile.unverified')}
        />
        <div>
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {ct('account.save')}
          </button>
        </div>
      </form>
    </Section>
  )
}
