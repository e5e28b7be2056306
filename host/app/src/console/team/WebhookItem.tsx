import type { RefObject } from 'react'
import type { Webhook } from '../../../../../src/protocol/api.js'
import { v2 } from '../api.js'
import { ct, formatDateTime } from '../i18n/index.js'
import { EditWebhook } from './EditWebhook.js'
import { CallLog, type LogControl } from './WebhookCallLog.js'

/** What a confirmation asks about: a new secret and key, a new key alone, or deleting. */
export type Asked = 'rotate' | 'rotateKey' | 'delete'

/**
 * One webhook in the list: its address, events and state, its buttons, and below them its editor
 * or its deliveries when opened (one webhook's at a time, so the page keeps which).
 */
export function WebhookItem(props: {
  hook: Webhook
  busy: boolean
  editing: boolean
  open: boolean
  onEditing: () => void
  onOpen: () => void
  /** Runs a change through the page, then reads the list again; `done` is the notice. */
  run: (fn: () => Promise<unknown>, done?: string) => void
  onAsk: (what: Asked) => void
  onEditCancel: () => void
  onSaved: (saved: Webhook) => void
  /** Set while the deliveries are open: stops their reads. */
  log: RefObject<LogControl | null>
}) {
  const { hook: h, busy, editing, open, run, onAsk } = props
  return (
    <li className="stack-sm">
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
        <button className="btn btn-sm btn-secondary" type="button" aria-expanded={editing} onClick={props.onEditing}>
          {ct('team.webhooks.edit')}
        </button>
        <button className="btn btn-sm btn-secondary" type="button" aria-expanded={open} onClick={props.onOpen}>
          {ct('team.webhooks.calls')}
        </button>
        <button className="btn btn-sm btn-secondary" type="button" disabled={busy} onClick={() => run(() => v2(`/webhook/${h.id}/test`, { body: {} }), ct('team.webhooks.testSent'))}>
          {ct('team.webhooks.test')}
        </button>
        <button className="btn btn-sm btn-secondary" type="button" disabled={busy} onClick={() => run(() => v2('/webhook/update', { body: { id: h.id, enabled: !h.enabled } }))}>
          {h.enabled ? ct('team.webhooks.disable') : ct('team.webhooks.enable')}
        </button>
        <button className="btn btn-sm btn-secondary" type="button" disabled={busy} onClick={() => onAsk('rotate')}>
          {ct('team.webhooks.rotate')}
        </button>
        <button className="btn btn-sm btn-secondary" type="button" disabled={busy} onClick={() => onAsk('rotateKey')}>
          {ct('team.webhooks.rotateKey')}
        </button>
        <button
          className="btn btn-sm btn-danger-outline"
          type="button"
          disabled={busy}
          onClick={() => onAsk('delete')}
        >
          {ct('team.webhooks.delete')}
        </button>
      </div>
      {editing && <EditWebhook hook={h} onCancel={props.onEditCancel} onSaved={props.onSaved} />}
      {open && <CallLog webhookId={h.id} control={props.log} />}
    </li>
  )
}
