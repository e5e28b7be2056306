import { useRef, useState, type FormEvent } from 'react'
import type { Webhook } from '../../../../../src/protocol/api.js'
import { ConfirmDialog } from '../ConfirmDialog.js'
import { v2 } from '../api.js'
import { ct } from '../i18n/index.js'
import { atLeast, useMe } from '../me.js'
import { ErrorAlert, Field, Notice } from '../parts.js'
import { EventChoices } from './EditWebhook.js'
import { NeedsRole, SettingsLayout } from './SettingsLayout.js'
import { ShownOnce } from './ShownOnce.js'
import type { LogControl } from './WebhookCallLog.js'
import { WebhookItem, type Asked } from './WebhookItem.js'
import { useWebhooks } from './useWebhooks.js'

/** What each confirmation says and its button does. */
const ASKED = {
  rotate: { title: 'team.webhooks.rotateTitle', confirm: 'team.webhooks.rotate', body: 'team.webhooks.rotateBody' },
  rotateKey: { title: 'team.webhooks.rotateKeyTitle', confirm: 'team.webhooks.rotateKey', body: 'team.webhooks.rotateKeyBody' },
  delete: { title: 'team.webhooks.deleteConfirm', confirm: 'team.webhooks.delete', body: 'team.webhooks.deleteBody' },
} as const satisfies Record<Asked, unknown>

/** What the form for a new webhook starts with, and goes back to after each one added. */
const DEFAULT_EVENTS = ['DOCUMENT_COMPLETED']

/** `/console/settings/webhooks`: where the team's events are delivered, each delivery's log, resend and a test. */
export function Webhooks() {
  const { me } = useMe()
  const allowed = atLeast(me.team?.role, 'MANAGER')
  const { hooks, loadError, notice, setNotice, shown, setShown, action, load, create, rotate, rotateKey, run } = useWebhooks(allowed, me.team?.teamId)
  /** The webhook whose deliveries are open, and the one being edited. */
  const [open, setOpen] = useState<string | null>(null)
  const [editing, setEditing] = useState<string | null>(null)
  const [url, setUrl] = useState('')
  const [secret, setSecret] = useState('')
  const [events, setEvents] = useState<string[]>(DEFAULT_EVENTS)
  /** The webhook a confirmation is asked about, and for what. */
  const [asking, setAsking] = useState<{ hook: Webhook; what: Asked } | null>(null)
  /** The open deliveries' reads, stopped before their webhook is deleted. */
  const log = useRef<LogControl | null>(null)

  if (!allowed) return <SettingsLayout title={ct('team.webhooks.title')}><NeedsRole role="MANAGER" /></SettingsLayout>

  const submit = (e: FormEvent) => {
    e.preventDefault()
    create({ url, events, secret }, (hook) => {
      setUrl('')
      setSecret('')
      setEvents(DEFAULT_EVENTS)
      setOpen(hook.id)
    })
  }

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
            else
              run(async () => {
                if (open === hook.id) await log.current?.stop()
                await v2('/webhook/delete', { body: { id: hook.id } })
              })
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
              <WebhookItem
                key={h.id}
                hook={h}
                busy={action.busy}
                editing={editing === h.id}
                open={open === h.id}
                onEditing={() => setEditing(editing === h.id ? null : h.id)}
                onOpen={() => setOpen(open === h.id ? null : h.id)}
                run={run}
                log={log}
                onAsk={(what) => setAsking({ hook: h, what })}
                onEditCancel={() => setEditing(null)}
                onSaved={(saved) => {
                  setEditing(null)
                  setNotice(ct('team.webhooks.saved', { url: saved.url }))
                  void load()
                }}
              />
            ))}
          </ul>
        )}
      </section>
      {shown && (
        <ShownOnce id="hook-key" title={shown.title} value={shown.key} testId="new-signing-key" onDone={() => setShown(null)}>
          <p>{ct('team.webhooks.keyOnce')}</p>
        </ShownOnce>
      )}
      <form className="card card-pad stack" onSubmit={submit} aria-labelledby="hook-new">
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
