import { useState, type FormEvent } from 'react'
import { EVENT_NAMES } from '../../../../../src/protocol/events.js'
import type { Webhook } from '../../../../../src/protocol/api.js'
import { v2 } from '../api.js'
import { ct } from '../i18n/index.js'
import { ErrorAlert, Field, useAction } from '../parts.js'

/** The events a webhook listens to, as checkboxes. */
export function EventChoices({ value, onChange }: { value: string[]; onChange: (events: string[]) => void }) {
  const toggle = (name: string) => onChange(value.includes(name) ? value.filter((x) => x !== name) : [...value, name])
  return (
    <fieldset className="team-events">
      <legend className="label">{ct('team.webhooks.events')}</legend>
      {EVENT_NAMES.map((name) => (
        <label key={name} className="choice">
          <input type="checkbox" checked={value.includes(name)} onChange={() => toggle(name)} />
          <span>{name}</span>
        </label>
      ))}
    </fieldset>
  )
}

/** A webhook's address, events, on/off and secret header, changed in place (its secret and key have their own buttons). */
export function EditWebhook({ hook, onSaved, onCancel }: { hook: Webhook; onSaved: (h: Webhook) => void; onCancel: () => void }) {
  const [url, setUrl] = useState(hook.url)
  const [events, setEvents] = useState<string[]>(hook.events)
  const [enabled, setEnabled] = useState(hook.enabled)
  const [sendSecretHeader, setSendSecretHeader] = useState(hook.sendSecretHeader ?? true)
  const action = useAction()
  const titleId = `hook-edit-${hook.id}`
  const save = (e: FormEvent) => {
    e.preventDefault()
    void action.run(async () => onSaved(await v2<Webhook>('/webhook/update', { body: { id: hook.id, url, events, enabled, sendSecretHeader } })))
  }
  return (
    <form className="card card-pad stack" onSubmit={save} aria-labelledby={titleId}>
      <h3 id={titleId}>{ct('team.webhooks.editTitle', { url: hook.url })}</h3>
      <ErrorAlert error={action.error} />
      <Field label={ct('team.webhooks.url')} type="url" value={url} onChange={setUrl} required autoComplete="off" />
      <EventChoices value={events} onChange={setEvents} />
      <label className="choice">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <span>{ct('team.webhooks.enabledLabel')}</span>
      </label>
      <label className="choice">
        <input type="checkbox" checked={sendSecretHeader} onChange={(e) => setSendSecretHeader(e.currentTarget.checked)} />
        <span>{ct('team.webhooks.sendSecretHeader')}</span>
      </label>
      <div className="team-actions">
        <button className="btn btn-primary" type="submit" disabled={action.busy || events.length === 0}>
          {ct('team.webhooks.save')}
        </button>
        <button className="btn btn-secondary" type="button" onClick={onCancel}>
          {ct('team.webhooks.cancel')}
        </button>
      </div>
    </form>
  )
}
