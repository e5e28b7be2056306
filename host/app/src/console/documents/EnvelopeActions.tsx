import { useId, useState } from 'react'
import { ConfirmDialog } from '../ConfirmDialog.js'
import { v2 } from '../api.js'
import { ct } from '../i18n/index.js'
import type { useAction } from '../parts.js'
import { navigate } from '../router.js'
import type { RunAction } from './RecipientsPanel.js'
import { SendReview } from './SendReview.js'
import type { Envelope } from './types.js'

/** The page's one action at a time: the actions that leave the page (duplicate, delete) run through it directly. */
type Action = ReturnType<typeof useAction>

/** The dialog the page has open: cancelling or deleting, asked first; sending, reviewed first. */
export type Asking = 'cancel' | 'delete' | 'send' | null

/** What can be done with the envelope, as buttons; a button the member cannot use says why beside it. */
export function EnvelopeActions(props: {
  env: Envelope
  /** Where the envelope is listed: its duplicate opens below it. */
  list: string
  action: Action
  run: RunAction
  manage: boolean
  purgedReason: string | null
  editing: boolean
  onEditing: (editing: boolean) => void
  onReview: () => void
  onAsk: (asking: 'cancel' | 'delete') => void
}) {
  const { env, list, action, run, manage, purgedReason, editing } = props
  const waiting = env.recipients.filter((r) => r.signingStatus === 'NOT_SIGNED' && r.role !== 'CC')
  // The reasons a button is off, said beside the buttons and tied to them (aria-describedby).
  const manageReason = manage ? null : ct('documents.role.ownOnly')
  return (
    <section className="card card-pad stack" aria-labelledby="docs-actions">
      <h2 id="docs-actions">{ct('documents.actions')}</h2>
      <div className="team-actions">
        {env.status === 'DRAFT' && (
          <>
            <button className="btn btn-secondary" type="button" onClick={() => props.onEditing(!editing)} aria-expanded={editing}>
              {editing ? ct('documents.closeEditor') : ct('documents.edit')}
            </button>
            {env.type === 'DOCUMENT' && (
              <button className="btn btn-primary" type="button" disabled={action.busy} aria-haspopup="dialog" onClick={props.onReview}>
                {ct('documents.send')}
              </button>
            )}
          </>
        )}
        {env.status === 'PENDING' && waiting.length > 0 && (
          <button
            className="btn btn-secondary"
            type="button"
            disabled={action.busy}
            onClick={() => run(() => v2('/envelope/redistribute', { body: { envelopeId: env.id, recipients: waiting.map((r) => r.id) } }), ct('documents.resent'))}
          >
            {ct('documents.resend')}
          </button>
        )}
        {env.status === 'PENDING' && (
          <AskButton label={ct('documents.cancel')} disabled={action.busy || !manage} why={manageReason ? 'docs-manage-reason' : null} onClick={() => props.onAsk('cancel')} />
        )}
        <button
          className="btn btn-secondary"
          type="button"
          disabled={action.busy || !!purgedReason}
          aria-describedby={purgedReason ? 'docs-purged-reason' : undefined}
          onClick={() =>
            void action.run(async () => {
              const copy = await v2<{ id: string }>('/envelope/duplicate', { body: { envelopeId: env.id } })
              navigate(`${list}/${copy.id}`)
            })
          }
        >
          {ct('documents.duplicate')}
        </button>
        <AskButton label={ct('documents.delete')} disabled={action.busy || !manage} why={manageReason ? 'docs-manage-reason' : null} onClick={() => props.onAsk('delete')} />
      </div>
      {manageReason && (
        <p className="muted small" id="docs-manage-reason">
          {manageReason}
        </p>
      )}
      {purgedReason && (
        <p className="muted small" id="docs-purged-reason">
          {purgedReason}
        </p>
      )}
    </section>
  )
}

/** Cancel or delete: asks first; off, with `why` naming the reason beside it, for a member who may not. */
function AskButton(props: { label: string; disabled: boolean; why: string | null; onClick: () => void }) {
  return (
    <button className="btn btn-danger-outline" type="button" disabled={props.disabled} aria-describedby={props.why ?? undefined} onClick={props.onClick}>
      {props.label}
    </button>
  )
}

/** The dialog an action opened, if any: the review before sending, or the question before cancelling or deleting. */
export function EnvelopeDialogs(props: {
  asking: Asking
  env: Envelope
  list: string
  action: Action
  run: RunAction
  onClose: () => void
  onSent: () => void
}) {
  const { asking, env, list, action, run, onClose } = props
  if (asking === 'send') return <SendReview env={env} onCancel={onClose} onSent={props.onSent} />
  if (asking === 'cancel')
    return (
      <CancelDialog
        env={env}
        busy={action.busy}
        onCancel={onClose}
        onConfirm={(reason) => {
          onClose()
          run(() => v2('/envelope/cancel', { body: { envelopeId: env.id, ...(reason && { reason }) } }), ct('documents.cancelled'))
        }}
      />
    )
  if (asking === 'delete')
    return (
      <ConfirmDialog
        title={ct('documents.deleteConfirm', { title: env.title })}
        confirmLabel={ct('documents.delete')}
        danger
        busy={action.busy}
        onCancel={onClose}
        onConfirm={() => {
          onClose()
          void action.run(async () => {
            await v2('/envelope/delete', { body: { envelopeId: env.id } })
            navigate(list)
          })
        }}
      >
        <p>{ct(env.status === 'PENDING' ? 'documents.deleteBody.pending' : env.status === 'DRAFT' ? 'documents.deleteBody.hard' : 'documents.deleteBody.soft')}</p>
      </ConfirmDialog>
    )
  return null
}

/** Cancelling a sent document: what it means, and a reason for the audit log and the recipients' e-mail. */
function CancelDialog(props: { env: Envelope; busy: boolean; onConfirm: (reason: string) => void; onCancel: () => void }) {
  const [reason, setReason] = useState('')
  const id = useId()
  return (
    <ConfirmDialog
      title={ct('documents.cancelTitle', { title: props.env.title })}
      confirmLabel={ct('documents.cancelConfirmButton')}
      cancelLabel={ct('documents.cancelKeep')}
      danger
      busy={props.busy}
      onCancel={props.onCancel}
      onConfirm={() => props.onConfirm(reason.trim())}
    >
      <p>{ct('documents.cancelBody')}</p>
      <div className="form-field">
        <label className="label" htmlFor={id}>
          {ct('documents.cancelReason')}
        </label>
        <textarea id={id} className="input" rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} aria-describedby={`${id}-hint`} />
        <span className="muted small" id={`${id}-hint`}>
          {ct('documents.cancelReasonHint')}
        </span>
      </div>
    </ConfirmDialog>
  )
}
