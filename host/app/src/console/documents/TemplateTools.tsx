import { useState, type FormEvent } from 'react'
import { v2, v2Form } from '../api.js'
import { ct, type ConsoleKey } from '../i18n/index.js'
import { ErrorAlert, Notice, useAction } from '../parts.js'
import { navigate } from '../router.js'
import { numberOf, type Envelope } from './types.js'

/** A template's own tools: make a document from it (its recipients filled in), and its public direct link. */
export function TemplateTools({ template, onChanged }: { template: Envelope; onChanged: () => Promise<void> }) {
  const [people, setPeople] = useState(() => template.recipients.map((r) => ({ id: r.id, email: r.email, name: r.name, role: r.role })))
  const [copied, setCopied] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const action = useAction()
  const link = template.directLink
  const url = link ? `${location.origin}/d/${link.token}` : null

  const use = (e: FormEvent) => {
    e.preventDefault()
    void action.run(async () => {
      const form = new FormData()
      form.set('payload', JSON.stringify({ envelopeId: template.id, recipients: people.map(({ id, email, name }) => ({ id, email, name })) }))
      const made = await v2Form<{ id: string }>('/envelope/use', form)
      navigate(`/console/documents/${made.id}`)
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
            <legend className="label">{ct('templates.recipientN', { n: i + 1, role: ct(`documents.role.${p.role}` as ConsoleKey) })}</legend>
            <label className="form-field">
              <span className="label">{ct('templates.name')}</span>
              <input className="input" value={p.name} onChange={(e) => setPeople(people.map((x) => (x.id === p.id ? { ...x, name: e.target.value } : x)))} />
            </label>
            <label className="form-field">
              <span className="label">{ct('templates.email')}</span>
              <input className="input" type="email" required value={p.email} onChange={(e) => setPeople(people.map((x) => (x.id === p.id ? { ...x, email: e.target.value } : x)))} />
            </label>
          </fieldset>
        ))}
        <div>
          <button className="btn btn-primary" type="submit" disabled={action.busy}>
            {ct('templates.useSubmit')}
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
