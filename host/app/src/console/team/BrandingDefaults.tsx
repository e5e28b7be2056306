import { useId, useState, type FormEvent } from 'react'
import type { BrandingChange, TeamBranding } from '../../../../shared/console-contract.js'
import { DATE_FORMATS } from '../../../../shared/date-formats.js'
import { DOCUMENT_LANGUAGES } from '../../../../shared/languages.js'
import { ct, type ConsoleKey } from '../i18n/index.js'
import { Field } from '../parts.js'

const ACCESS = ['ACCOUNT', 'TWO_FACTOR_AUTH'] as const
const ACTION = ['ACCOUNT', 'PASSKEY', 'TWO_FACTOR_AUTH', 'PASSWORD'] as const

/** The time zones the browser knows, offered while typing (any IANA name the service accepts may be typed). */
const TIME_ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []

/**
 * The team's e-mail sender and defaults, and what a new document starts with where its creator
 * sets nothing (docs/branding.md). Each card saves on its own; empty means the service's own.
 */
export function BrandingDefaults(props: { branding: TeamBranding; admin: boolean; busy: boolean; onSave: (change: BrandingChange) => void }) {
  const { branding: b, admin } = props
  const ids = useId()
  const [senderName, setSenderName] = useState(b.senderName ?? '')
  const [replyTo, setReplyTo] = useState(b.replyTo ?? '')
  const [subject, setSubject] = useState(b.emailSubject ?? '')
  const [message, setMessage] = useState(b.emailMessage ?? '')
  const [timezone, setTimezone] = useState(b.timezone ?? '')
  const [dateFormat, setDateFormat] = useState(b.dateFormat ?? '')
  const [language, setLanguage] = useState(b.language ?? '')
  const [access, setAccess] = useState<TeamBranding['defaultAccessAuth']>(b.defaultAccessAuth)
  const [action, setAction] = useState<TeamBranding['defaultActionAuth']>(b.defaultActionAuth)

  const saveMail = (e: FormEvent) => {
    e.preventDefault()
    props.onSave({ senderName, replyTo, emailSubject: subject, emailMessage: message })
  }
  const saveDefaults = (e: FormEvent) => {
    e.preventDefault()
    props.onSave({ timezone, dateFormat: dateFormat || null, language: language || null, defaultAccessAuth: access, defaultActionAuth: action })
  }
  const toggle = <T extends string>(list: T[], value: T) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value])

  return (
    <>
      <form className="card card-pad stack" onSubmit={saveMail} aria-labelledby={`${ids}-mail`} data-testid="branding-mail">
        <h2 id={`${ids}-mail`}>{ct('branding.mail.title')}</h2>
        <p className="muted">{ct('branding.mail.help')}</p>
        <Field label={ct('branding.mail.sender')} value={senderName} onChange={setSenderName} readOnly={!admin} hint={ct('branding.mail.senderHint')} />
        <Field label={ct('branding.mail.replyTo')} type="email" value={replyTo} onChange={setReplyTo} readOnly={!admin} hint={ct('branding.mail.replyToHint')} />
        <Field label={ct('branding.mail.subject')} value={subject} onChange={setSubject} readOnly={!admin} hint={ct('branding.mail.defaultsHint')} />
        <label className="form-field">
          <span className="label">{ct('branding.mail.message')}</span>
          <textarea className="input" rows={4} maxLength={5000} value={message} readOnly={!admin} onChange={(e) => setMessage(e.target.value)} />
        </label>
        {admin && <Save busy={props.busy} />}
      </form>

      <form className="card card-pad stack" onSubmit={saveDefaults} aria-labelledby={`${ids}-defaults`} data-testid="branding-defaults">
        <h2 id={`${ids}-defaults`}>{ct('branding.defaults.title')}</h2>
        <p className="muted">{ct('branding.defaults.help')}</p>
        <div className="form-field">
          <label className="label" htmlFor={`${ids}-tz`}>{ct('branding.defaults.timezone')}</label>
          <input id={`${ids}-tz`} className="input" dir="ltr" list={`${ids}-zones`} value={timezone} readOnly={!admin} spellCheck={false} aria-describedby={`${ids}-tz-hint`}
            onChange={(e) => setTimezone(e.target.value)} />
          <datalist id={`${ids}-zones`}>
            {TIME_ZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <span className="muted small" id={`${ids}-tz-hint`}>{ct('branding.defaults.timezoneHint')}</span>
        </div>
        <Choice label={ct('branding.defaults.dateFormat')} value={dateFormat} onChange={setDateFormat} disabled={!admin}
          options={DATE_FORMATS.map((f) => [f, f])} />
        <Choice label={ct('branding.defaults.language')} value={language} onChange={setLanguage} disabled={!admin}
          options={DOCUMENT_LANGUAGES.map((l) => [l.code, l.name])} />
        <fieldset className="team-events">
          <legend className="label">{ct('branding.defaults.access')}</legend>
          {ACCESS.map((m) => (
            <label key={m} className="choice">
              <input type="checkbox" checked={access.includes(m)} disabled={!admin} onChange={() => setAccess(toggle(access, m))} />
              <span>{ct(`branding.auth.${m}` as ConsoleKey)}</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="team-events">
          <legend className="label">{ct('branding.defaults.action')}</legend>
          {ACTION.map((m) => (
            <label key={m} className="choice">
              <input type="checkbox" checked={action.includes(m)} disabled={!admin} onChange={() => setAction(toggle(action, m))} />
              <span>{ct(`branding.auth.${m}` as ConsoleKey)}</span>
            </label>
          ))}
        </fieldset>
        {admin && <Save busy={props.busy} />}
      </form>
    </>
  )
}

/** A select whose first option is the service's own default (stored as none). */
function Choice(props: { label: string; value: string; onChange: (v: string) => void; disabled: boolean; options: [string, string][] }) {
  const id = useId()
  return (
    <div className="form-field">
      <label className="label" htmlFor={id}>{props.label}</label>
      <select id={id} className="input" value={props.value} disabled={props.disabled} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{ct('branding.defaults.serviceDefault')}</option>
        {props.options.map(([value, name]) => (
          <option key={value} value={value}>
            {name}
          </option>
        ))}
      </select>
    </div>
  )
}

function Save({ busy }: { busy: boolean }) {
  return (
    <div>
      <button className="btn btn-primary" type="submit" disabled={busy}>
        {ct('team.save')}
      </button>
    </div>
  )
}
