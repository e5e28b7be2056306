import { useCallback, useEffect, useId, useState, type FormEvent } from 'react'
import { v2 } from '../api.js'
import { ct } from '../i18n/index.js'
import { ErrorAlert, Notice, messageOf, useAction } from '../parts.js'
import { SaveButton } from './SaveButton.js'

interface Disclosure {
  version: number
  text: string | null
}

/**
 * The team's disclosure for consent to sign electronically (docs/consent.md): its own text, or
 * empty for the default; saving a change makes a new version. Admins edit it, members read it.
 */
export function ConsentDisclosure({ admin }: { admin: boolean }) {
  const [current, setCurrent] = useState<Disclosure | null>(null)
  const [text, setText] = useState('')
  const [saved, setSaved] = useState(false)
  const [loadError, setLoadError] = useState<string | null>(null)
  const action = useAction()
  const ids = useId()

  const load = useCallback(async () => {
    try {
      const d = await v2<Disclosure>('/team/consent-disclosure')
      setCurrent(d)
      setText(d.text ?? '')
    } catch (err) {
      setLoadError(messageOf(err))
    }
  }, [])
  useEffect(() => void load(), [load])

  const save = (e: FormEvent) => {
    e.preventDefault()
    void action.run(async () => {
      const d = await v2<Disclosure>('/team/consent-disclosure', { body: { text: text.trim() ? text : null } })
      setCurrent(d)
      setText(d.text ?? '')
      setSaved(true)
    })
  }

  return (
    <form className="card card-pad stack" onSubmit={save} aria-labelledby={`${ids}-title`} data-testid="team-consent">
      <h2 id={`${ids}-title`}>{ct('team.consent.title')}</h2>
      <p className="muted">{ct('team.consent.help')}</p>
      <ErrorAlert error={loadError ?? action.error} />
      {saved && <Notice>{ct('team.saved')}</Notice>}
      {current && (
        <p className="muted" data-testid="team-consent-version">
          {ct('team.consent.version', { version: current.version })} {current.text === null && ct('team.consent.default')}
        </p>
      )}
      <label className="form-field">
        <span className="label">{ct('team.consent.label')}</span>
        <textarea
          className="input"
          rows={8}
          maxLength={20000}
          value={text}
          readOnly={!admin}
          aria-describedby={admin ? undefined : `${ids}-why`}
          onChange={(e) => (setText(e.target.value), setSaved(false))}
        />
      </label>
      <SaveButton busy={action.busy} disabled={!current} locked={!admin} reasonId={`${ids}-why`} />
    </form>
  )
}
