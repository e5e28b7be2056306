import { useState, type FormEvent } from 'react'
import type { Field } from '../../../../../src/protocol/index.js'
import { ApiFailure, v2, v2Form } from '../api.js'
import { ct, type ConsoleKey } from '../i18n/index.js'
import { ErrorAlert, Notice, useAction } from '../parts.js'
import { navigate } from '../router.js'
import { PrefillFields, prefillEntries, type PrefillValues } from './PrefillFields.js'
import { numberOf, type Envelope } from './types.js'

/**
 * A template's own tools: make a document from it (its recipients filled in, its fillable fields
 * given values ahead, kept as a draft or sent at once), and its public direct link.
 */
export function TemplateTools({ template, onChanged }: { template: Envelope & { fields?: Field[] }; onChanged: () => Promise<void> }) {
  // A role ("Client": no address on the template) asks for its person; a fixed recipient comes filled in.
  const [people, setPeople] = useState(() => template.recipients.map((r) => ({ id: r.id, email: r.email, name: r.email ? r.name : '', role: r.role, label: r.email ? null : r.name })))
  const [values, setValues] = useState<PrefillValues>({})
  const [sendNow, setSendNow] = useState(false)
  /** The host's refusals by field id and by recipient id, shown under each. */
  const [fieldErrors, setFieldErrors] = useState<Record<number, string>>({})
  const [personErrors, setPersonErrors] = useState<Record<number, string>>({})
  const [copied, setCopied] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const action = useAction()
  const link = template.directLink
  const url = link ? `${location.origin}/d/${link.token}` : null

  const use = (e: FormEvent) => {
    e.preventDefault()
    const prefillFields = prefillEntries(template.fields ?? [], values)
    void action.run(async () => {
      setFieldErrors({})
      setPersonErrors({})
      const form = new FormData()
      form.set('payload', JSON.stringify({ envelopeId: template.id, recipients: people.map(({ id, email, name }) => ({ id, email, name })), prefillFields, distributeDocument: sendNow }))
      try {
        const made = await v2Form<{ id: string }>('/envelope/use', form)
        navigate(`/console/documents/${made.id}`)
      } catch (err) {
        // An issue of a prefilled value or of a recipient goes under its own field.
        // An issue's path comes dotted ("payload.prefillFields.1.value").
        const issues = (err instanceof ApiFailure ? (err.issues ?? []) : []).map((i) => ({ path: (Array.isArray(i.path) ? i.path : String(i.path ?? '').split('.')).map(String), message: i.message }))
        const at = (list: string, ids: number[]) =>
          Object.fromEntries(issues.filter((i) => i.path[0] === 'payload' && i.path[1] === list && ids[Number(i.path[2])] !== undefined).map((i) => [ids[Number(i.path[2])]!, i.message]))
        const byField = at('prefillFields', prefillFields.map((f) => f.id))
        const byPerson = at('recipients', people.map((p) => p.id))
        setFieldErrors(byField)
        setPersonErrors(byPerson)
        if (Object.keys(byField).length + Object.keys(byPerson).length) throw new Error(ct('templates.refused'))
        throw err
      }
    })
  }
  const direct = (path: string, body: object, done: string) =>
    void action.run(async () => {
      await v2(path, { body: { templateId: numberOf(template), ...body } })
      setNotice(done)
      await onChanged()
    })
  const copy = async () => {
    if (!url) return
    await navigator.clipboard.writeText(url)
    setCopied(true)
  }

  return (
    <>
      <ErrorAlert error={action.error} />
      {notice && <Notice>{notice}</Notice>}
      <form className="card card-pad stack" onSubmit={use} aria-labelledby="tpl-use">
        <h2 id="tpl-use">{ct('templates.use')}</h2>
        {people.length === 0 && <p className="muted">{ct('templates.useNoRecipients')}</p>}
        {people.map((p, i) => (
          <fieldset key={p.id} className="team-inline docs-person">
            <legend className="label">
              {p.label
                ? ct('templates.roleN', { label: p.label, role: ct(`documents.role.${p.role}` as ConsoleKey) })
                : ct('templates.recipientN', { n: i + 1, role: ct(`documents.role.${p.role}` as ConsoleKey) })}
            </legend>
            {p.label !== null && <p className="muted small docs-person-help">{ct('templates.roleHelp')}</p>}
            <label className="form-field">
              <span className="label">{ct('templates.name')}</span>
              <input className="input" required={p.label !== null} value={p.name} onChange={(e) => setPeople(people.map((x) => (x.id === p.id ? { ...x, name: e.target.value } : x)))} />
            </label>
            <label className="form-field">
              <span className="label">{ct('templates.email')}</span>
              <input
                className="input"
                type="email"
                required
                value={p.email}
                aria-invalid={personErrors[p.id] ? true : undefined}
                aria-describedby={personErrors[p.id] ? `tpl-person-${p.id}-error` : undefined}
                onChange={(e) => setPeople(people.map((x) => (x.id === p.id ? { ...x, email: e.target.value } : x)))}
              />
            </label>
            {personErrors[p.id] && (
              <span id={`tpl-person-${p.id}-error`} className="docs-prefill-error small">
                {personErrors[p.id]}
              </span>
            )}
          </fieldset>
        ))}
        <PrefillFields fields={template.fields ?? []} recipients={template.recipients} values={values} errors={fieldErrors} onChange={(id, v) => setValues({ ...values, [id]: v })} />
        <fieldset className="docs-prefill-choices">
          <legend className="label">{ct('templates.after')}</legend>
          <label className="docs-prefill-choice">
            <input type="radio" name="tpl-after" checked={!sendNow} onChange={() => setSendNow(false)} />
            {ct('templates.asDraft')}
          </label>
          <label className="docs-prefill-choice">
            <input type="radio" name="tpl-after" checked={sendNow} onChange={() => setSendNow(true)} />
            {ct('templates.sendNow')}
          </label>
        </fieldset>
        <div>
          <button className="btn btn-primary" type="submit" disabled={action.busy}>
            {sendNow ? ct('templates.useSend') : ct('templates.useSubmit')}
          </button>
        </div>
      </form>
      <section className="card card-pad stack" aria-labelledby="tpl-direct">
        <h2 id="tpl-direct">{ct('templates.direct')}</h2>
        <p className="muted">{ct('templates.directHelp')}</p>
        {url && link ? (
          <>
            <code className="team-token" data-testid="direct-link">
              {url}
            </code>
            <p>{link.enabled ? ct('templates.directOn') : ct('templates.directOff')}</p>
            <div className="team-actions">
              <button className="btn btn-secondary" type="button" onClick={() => void copy()}>
                {copied ? ct('team.tokens.copied') : ct('templates.copyLink')}
              </button>
              <button
                className="btn btn-secondary"
                type="button"
                disabled={action.busy}
                onClick={() => direct('/template/direct/toggle', { enabled: !link.enabled }, link.enabled ? ct('templates.directDisabled') : ct('templates.directEnabled'))}
              >
                {link.enabled ? ct('templates.disable') : ct('templates.enable')}
              </button>
            </div>
          </>
        ) : (
          <div>
            <button className="btn btn-secondary" type="button" disabled={action.busy} onClick={() => direct('/template/direct/create', {}, ct('templates.directEnabled'))}>
              {ct('templates.createLink')}
            </button>
          </div>
        )}
      </section>
    </>
  )
}
