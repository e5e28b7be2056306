import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { EVENT_NAMES } from '../../../../../src/protocol/events.js'
import type { Webhook } from '../../../../../src/protocol/api.js'
import type { LoggedCall as Call } from '../../../../shared/console-contract.js'
import { ConfirmDialog } from '../ConfirmDialog.js'
import { consoleApi, v2 } from '../api.js'
import { ct, formatDateTime } from '../i18n/index.js'
import { atLeast, useMe } from '../me.js'
import { ErrorAlert, Field, Notice, TableHead, messageOf, useAction } from '../parts.js'
import { NeedsRole, SettingsLayout } from './SettingsLayout.js'
import { ShownOnce } from './ShownOnce.js'

/** What a confirmation asks about: a new secret and key, a new key alone, or deleting. */
type Asked = 'rotate' | 'rotateKey' | 'delete'
const ASKED = {
  rotate: { title: 'team.webhooks.rotateTitle', confirm: 'team.webhooks.rotate', body: 'team.webhooks.rotateBody' },
  rotateKey: { title: 'team.webhooks.rotateKeyTitle', confirm: 'team.webhooks.rotateKey', body: 'team.webhooks.rotateKeyBody' },
  delete: { title: 'team.webhooks.deleteConfirm', confirm: 'team.webhooks.delete', body: 'team.webhooks.deleteBody' },
} as const

/** What the form for a new webhook starts with, and goes back to after each one added. */
const DEFAULT_EVENTS = ['DOCUMENT_COMPLETED']

/** `/console/settings/webhooks`: where the team's events are delivered, each delivery's log, resend and a test. */
export function Webhooks() {
  const { me } = useMe()
  const allowed = atLeast(me.team?.role, 'MANAGER')
  const [hooks, setHooks] = useState<Webhook[] | null>(null)
  const [open, setOpen] = useState<string | null>(null)
  const [url, setUrl] = useState('')
  const [secret, setSecret] = useState('')
  const [events, setEvents] = useState<string[]>(DEFAULT_EVENTS)
  const [editing, setEditing] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  /** A signing key just made (a webhook added, a secret or key rotated): in that answer only, so shown this once. */
  const [shown, setShown] = useState<{ title: string; key: string } | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  /** The webhook a confirmation is asked about, and for what. */
  const [asking, setAsking] = useState<{ hook: Webhook; what: Asked } | null>(null)
  const action = useAction()

  const load = useCallback(async () => {
    try {
      setHooks((await v2<{ data: Webhook[] }>('/webhook')).data)
    } catch (err) {
      setLoadError(messageOf(err))
    }
  }, [])
  useEffect(() => {
    if (allowed) void load()
  }, [load, allowed, me.team?.teamId])

  if (!allowed) return <SettingsLayout title={ct('team.webhooks.title')}><NeedsRole role="MANAGER" /></SettingsLayout>

  const create = (e: FormEvent) => {
    e.preventDefault()
    void action.run(async () => {
      // Every call is signed with the webhook's own key; the secret header goes only where one was typed.
      const hook = await v2<Webhook>('/webhook/create', { body: { url, events, ...(secret && { secret }), sendSecretHeader: !!secret } })
      setUrl('')
      setSecret('')
      setEvents(DEFAULT_EVENTS)
      setOpen(hook.id)
      setNotice(null)
      setShown({ title: ct('team.webhooks.created', { url: hook.url }), key: hook.signingKey ?? '' })
      await load()
    })
  }
  const rotate = (h: Webhook) => {
    void action.run(async () => {
      const rotated = await v2<Webhook>(`/webhook/${h.id}/rotate-secret`, { body: {} })
      const until = formatDateTime(rotated.previousSecretExpiresAt)
      setNotice(null)
      setShown({ title: ct('team.webhooks.rotated', { url: h.url, secret: rotated.secret, until }), key: rotated.signingKey ?? '' })
      await load()
    })
  }
  const rotateKey = (h: Webhook) => {
    void action.run(async () => {
      const rotated = await v2<Webhook>(`/webhook/${h.id}/rotate-signing-key`, { body: {} })
      setNotice(null)
      setShown({ title: ct('team.webhooks.keyRotated', { url: h.url, until: formatDateTime(rotated.previousSecretExpiresAt) }), key: rotated.signingKey ?? '' })
      await load()
    })
  }
  const run = (fn: () => Promise<unknown>, done?: string) =>
    void action.run(async () => {
      await fn()
      if (done) setNotice(done)
      await load()
    })

  return (
    <SettingsLayout title={ct('team.webhooks.title')}>
      <p className="muted">{ct('team.webhooks.help')}</p>
      <ErrorAlert error={loadError ?? action.error} />
      {notice && <Notice>{notice}</Notice>}
      {asking && (
        <ConfirmDialog
          title={ct(ASKED[asking.what].title, { url: asking.hook.url })}
          confirmLabel={ct(ASKED[asking.what].confirm)}
          danger={asking.what === 'delete'}
          busy={action.busy}
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            const { hook, what } = asking
            setAsking(null)
            if (what === 'rotate') rotate(hook)
            else if (what === 'rotateKey') rotateKey(hook)
            else run(() => v2('/webhook/delete', { body: { id: hook.id } }))
          }}
        >
          <p>{ct(ASKED[asking.what].body)}</p>
        </ConfirmDialog>
      )}
      <section className="card card-pad stack" aria-labelledby="hooks-list">
        <h2 id="hooks-list">{ct('team.webhooks.list')}</h2>
        {!hooks ? (
          <p role="status">{ct('shell.loading')}</p>
        ) : hooks.length === 0 ? (
          <p className="muted">{ct('team.webhooks.none')}</p>
        ) : (
          <ul className="team-list">
            {hooks.map((h) => (
              <li key={h.id} className="stack-sm">
                <div className="team-row">
                  <div>
                    <strong className="team-url">{h.url}</strong>
                    <div className="muted small">{h.events.join(', ')}</div>
                    {h.previousSecretExpiresAt && <div className="muted small">{ct('team.webhooks.rotating', { until: formatDateTime(h.previousSecretExpiresAt) })}</div>}
                    {h.signsWith === 'SECRET' && <div className="muted small">{ct('team.webhooks.signsWithSecret')}</div>}
                  </div>
                  <span className="badge">{h.enabled ? ct('team.webhooks.enabled') : ct('team.webhooks.disabled')}</span>
                </div>
                <div className="team-actions">
                  <button className="btn btn-sm btn-secondary" type="button" aria-expanded={editing === h.id} onClick={() => setEditing(editing === h.id ? null : h.id)}>
                    {ct('team.webhooks.edit')}
                  </button>
                  <button className="btn btn-sm btn-secondary" type="button" aria-expanded={open === h.id} onClick={() => setOpen(open === h.id ? null : h.id)}>
                    {ct('team.webhooks.calls')}
                  </button>
                  <button className="btn btn-sm btn-secondary" type="button" disabled={action.busy} onClick={() => run(() => v2(`/webhook/${h.id}/test`, { body: {} }), ct('team.webhooks.testSent'))}>
                    {ct('team.webhooks.test')}
                  </button>
                  <button className="btn btn-sm btn-secondary" type="button" disabled={action.busy} onClick={() => run(() => v2('/webhook/update', { body: { id: h.id, enabled: !h.enabled } }))}>
                    {h.enabled ? ct('team.webhooks.disable') : ct('team.webhooks.enable')}
                  </button>
                  <button className="btn btn-sm btn-secondary" type="button" disabled={action.busy} onClick={() => setAsking({ hook: h, what: 'rotate' })}>
                    {ct('team.webhooks.rotate')}
                  </button>
                  <button className="btn btn-sm btn-secondary" type="button" disabled={action.busy} onClick={() => setAsking({ hook: h, what: 'rotateKey' })}>
                    {ct('team.webhooks.rotateKey')}
                  </button>
                  <button
                    className="btn btn-sm btn-danger-outline"
                    type="button"
                    disabled={action.busy}
                    onClick={() => setAsking({ hook: h, what: 'delete' })}
                  >
                    {ct('team.webhooks.delete')}
                  </button>
                </div>
                {editing === h.id && (
                  <EditWebhook
                    hook={h}
                    onCancel={() => setEditing(null)}
                    onSaved={(saved) => {
                      setEditing(null)
                      setNotice(ct('team.webhooks.saved', { url: saved.url }))
                      void load()
                    }}
                  />
                )}
                {open === h.id && <CallLog webhookId={h.id} />}
              </li>
            ))}
          </ul>
        )}
      </section>
      {shown && (
        <ShownOnce id="hook-key" title={shown.title} value={shown.key} testId="new-signing-key" onDone={() => setShown(null)}>
          <p>{ct('team.webhooks.keyOnce')}</p>
        </ShownOnce>
      )}
      <form className="card card-pad stack" onSubmit={create} aria-labelledby="hook-new">
        <h2 id="hook-new">{ct('team.webhooks.new')}</h2>
        <Field label={ct('team.webhooks.url')} type="url" value={url} onChange={setUrl} required autoComplete="off" />
        <Field label={ct('team.webhooks.secret')} value={secret} onChange={setSecret} autoComplete="off" hint={ct('team.webhooks.secretHint')} />
        <EventChoices value={events} onChange={setEvents} />
        <div>
          <button className="btn btn-primary" type="submit" disabled={action.busy || events.length === 0}>
            {ct('team.webhooks.create')}
          </button>
        </div>
      </form>
    </SettingsLayout>
  )
}

/** The events a webhook listens to, as checkboxes. */
function EventChoices({ value, onChange }: { value: string[]; onChange: (events: string[]) => void }) {
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
function EditWebhook({ hook, onSaved, onCancel }: { hook: Webhook; onSaved: (h: Webhook) => void; onCancel: () => void }) {
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

/** One webhook's deliveries, newest first, refreshed every few seconds while open. */
function CallLog({ webhookId }: { webhookId: string }) {
  const [calls, setCalls] = useState<Call[] | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const action = useAction()
  const load = useCallback(async () => setCalls((await consoleApi(`/webhooks/${webhookId}/calls?perPage=20`)).data), [webhookId])
  useEffect(() => {
    void load().catch(() => {})
    const timer = setInterval(() => void load().catch(() => {}), 3000)
    return () => clearInterval(timer)
  }, [load])
  if (!calls) return <p role="status">{ct('shell.loading')}</p>
  const resend = (c: Call) =>
    void action.run(async () => {
      await v2(`/webhook/call/${c.id}/resend`, { body: {} })
      setNotice(ct('team.webhooks.resent'))
      await load()
    })
  return (
    <div className="stack-sm">
      <ErrorAlert error={action.error} />
      {notice && <Notice>{notice}</Notice>}
      {calls.length === 0 ? (
        <p className="muted">{ct('team.webhooks.noCalls')}</p>
      ) : (
        <table className="console-table" aria-label={ct('team.webhooks.calls')}>
          <TableHead
            columns={[ct('team.webhooks.when'), ct('team.webhooks.event'), ct('team.webhooks.document'), ct('team.webhooks.status'), ct('team.webhooks.detail')]}
            actions
          />
          <tbody>
            {calls.map((c) => (
              <tr key={c.id}>
                <td>{formatDateTime(c.createdAt)}</td>
                <td data-label={ct('team.webhooks.event')}>{c.event}</td>
                <td data-label={ct('team.webhooks.document')}>
                  {c.document ? (
                    <a href={`/console/${c.document.type === 'TEMPLATE' ? 'templates' : 'documents'}/${encodeURIComponent(c.document.id)}`}>
                      {c.document.title || ct('team.webhooks.untitled')}
                    </a>
                  ) : (
                    <span className="muted">{ct('team.webhooks.noDocument')}</span>
                  )}
                </td>
                <td data-label={ct('team.webhooks.status')}>
                  <span className="badge">{c.responseStatus ?? ct('team.webhooks.noAnswer')}</span>{' '}
                  <span className="muted small">{ct('team.webhooks.duration', { ms: String(c.durationMs) })}</span>
                  {c.responseExcerpt && <div className="muted small team-excerpt">{c.responseExcerpt.slice(0, 120)}</div>}
                </td>
                <td data-label={ct('team.webhooks.detail')}>
                  <details>
                    <summary>{ct('team.webhooks.requestResponse')}</summary>
                    <h4 className="label">{ct('team.webhooks.headers')}</h4>
                    <dl className="team-headers">
                      {c.requestHeaders.map((h) => (
                        <div key={h.name}>
                          <dt>{h.name}</dt>
                          <dd>{h.value ?? <em className="muted">{ct('team.webhooks.hidden')}</em>}</dd>
                        </div>
                      ))}
                    </dl>
                    <h4 className="label">{ct('team.webhooks.requestBody')}</h4>
                    {/* Scrolls when long: reachable by keyboard. */}
                    <pre className="team-pre" tabIndex={0} aria-label={ct('team.webhooks.requestBody')}>
                      {JSON.stringify(c.requestBody, null, 2)}
                    </pre>
                    <h4 className="label">{ct('team.webhooks.responseBody')}</h4>
                    <pre className="team-pre" tabIndex={0} aria-label={ct('team.webhooks.responseBody')}>
                      {c.responseExcerpt}
                    </pre>
                  </details>
                </td>
                <td>
                  <button className="btn btn-sm btn-secondary" type="button" disabled={action.busy} onClick={() => resend(c)}>
                    {ct('team.webhooks.resend')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
