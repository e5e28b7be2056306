import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { ConfirmDialog } from '../ConfirmDialog.js'
import { consoleApi, v2 } from '../api.js'
import { ct, formatDate, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import { useMe } from '../me.js'
import { ErrorAlert, Notice, messageOf, useAction } from '../parts.js'
import { linkProps, navigate } from '../router.js'
import { Downloads } from './Downloads.js'
import { Editor } from './Editor.js'
import { PagePreviews } from './PagePreviews.js'
import { RecipientsPanel } from './RecipientsPanel.js'
import { SendReview } from './SendReview.js'
import { TemplateTools } from './TemplateTools.js'
import { Timeline } from './Timeline.js'
import { ownerRights, type AuditLogEntry, type AuditLogPage, type Envelope, type EnvelopeSender } from './types.js'

/** `/console/documents/:id` and `/console/templates/:id`: one envelope, its people, its trail, its files and what can be done with it. */
export function EnvelopePage({ id }: { id: string }) {
  const [env, setEnv] = useState<Envelope | null>(null)
  const [audit, setAudit] = useState<AuditLogEntry[]>([])
  const [sender, setSender] = useState<EnvelopeSender | null>(null)
  const { me } = useMe()
  const [loadError, setLoadError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  /** Cancelling or deleting, asked first; sending, reviewed first. */
  const [asking, setAsking] = useState<'cancel' | 'delete' | 'send' | null>(null)
  // `?edit=1`: just created in the console, the editor opens at once for its recipients and fields.
  const [editing, setEditing] = useState(() => new URLSearchParams(location.search).get('edit') === '1')
  const action = useAction()
  const heading = useRef<HTMLHeadingElement>(null)
  /** Saves the open editor's work; set while the editor is open. */
  const saveEditor = useRef<(() => Promise<boolean>) | null>(null)

  const load = useCallback(async () => {
    try {
      const e = await v2<Envelope>(`/envelope/${encodeURIComponent(id)}`)
      const [log, by] = await Promise.all([
        v2<AuditLogPage>(`/envelope/${encodeURIComponent(id)}/audit-log?perPage=100&orderByDirection=desc&include=all`),
        // Who made it only decides which buttons the page offers: without it, the member's role alone does.
        consoleApi(`/documents/${encodeURIComponent(id)}/sender`).catch(() => null),
      ])
      setEnv(e)
      setAudit(log.data)
      setSender(by)
    } catch (err) {
      setLoadError(messageOf(err))
    }
  }, [id])
  useEffect(() => void load(), [load])
  useEffect(() => {
    if (env) heading.current?.focus()
  }, [env?.id])

  if (loadError) return <ErrorAlert error={loadError} />
  if (!env) return <p role="status">{ct('shell.loading')}</p>

  const list = env.type === 'DOCUMENT' ? '/console/documents' : '/console/templates'
  const run = (fn: () => Promise<unknown>, done?: string) =>
    void action.run(async () => {
      await fn()
      if (done) setNotice(done)
      await load()
    })
  // What is sent is what the person sees: the open editor saves first (what it cannot save stops the
  // send), then the review shows the envelope as saved.
  const review = () =>
    void action.run(async () => {
      if (saveEditor.current && !(await saveEditor.current())) throw new Error(ct('documents.sendUnsaved'))
      await load()
      setAsking('send')
    })
  const waiting = env.recipients.filter((r) => r.signingStatus === 'NOT_SIGNED' && r.role !== 'CC')
  const { manage } = ownerRights(me.team?.role, sender)
  // The reasons a button is off, said beside the buttons and tied to them (aria-describedby).
  const manageReason = manage ? null : ct('documents.role.ownOnly')
  const purgedReason = env.purgedAt ? ct('documents.download.purged', { when: formatDate(env.purgedAt) }) : null

  return (
    <article className="stack docs-page">
      <a className="small" {...linkProps(list)}>
        ← {env.type === 'DOCUMENT' ? ct('documents.back') : ct('templates.back')}
      </a>
      <header className="docs-header">
        <h1 ref={heading} tabIndex={-1} className="docs-title">
          {env.title}
        </h1>
        <span className={`badge docs-status docs-status-${env.status.toLowerCase()}`}>{ct(`documents.status.${env.status}` as ConsoleKey)}</span>
      </header>
      <p className="muted small">
        {ct('documents.meta', { created: formatDateTime(env.createdAt), visibility: ct(`documents.visibility.${env.visibility}` as ConsoleKey) })}
        {env.completedAt && ` · ${ct('documents.completedAt', { when: formatDateTime(env.completedAt) })}`}
        {sender && ` · ${sender.createdBy ? ct('documents.by', { name: sender.createdBy.name || sender.createdBy.email }) : ct('documents.byApi')}`}
      </p>
      <ErrorAlert error={action.error} />
      {notice && <Notice>{notice}</Notice>}
      {asking === 'send' && (
        <SendReview
          env={env}
          onCancel={() => setAsking(null)}
          onSent={() => {
            setAsking(null)
            setNotice(ct('documents.sent'))
            void load()
          }}
        />
      )}
      {asking === 'cancel' && (
        <CancelDialog
          env={env}
          busy={action.busy}
          onCancel={() => setAsking(null)}
          onConfirm={(reason) => {
            setAsking(null)
            run(() => v2('/envelope/cancel', { body: { envelopeId: env.id, ...(reason && { reason }) } }), ct('documents.cancelled'))
          }}
        />
      )}
      {asking === 'delete' && (
        <ConfirmDialog
          title={ct('documents.deleteConfirm', { title: env.title })}
          confirmLabel={ct('documents.delete')}
          danger
          busy={action.busy}
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null)
            void action.run(async () => {
              await v2('/envelope/delete', { body: { envelopeId: env.id } })
              navigate(list)
            })
          }}
        >
          <p>{ct(env.status === 'PENDING' ? 'documents.deleteBody.pending' : env.status === 'DRAFT' ? 'documents.deleteBody.hard' : 'documents.deleteBody.soft')}</p>
        </ConfirmDialog>
      )}

      <section className="card card-pad stack" aria-labelledby="docs-actions">
        <h2 id="docs-actions">{ct('documents.actions')}</h2>
        <div className="team-actions">
          {env.status === 'DRAFT' && (
            <>
              <button className="btn btn-secondary" type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
                {editing ? ct('documents.closeEditor') : ct('documents.edit')}
              </button>
              {env.type === 'DOCUMENT' && (
                <button className="btn btn-primary" type="button" disabled={action.busy} aria-haspopup="dialog" onClick={review}>
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
            <button
              className="btn btn-danger-outline"
              type="button"
              disabled={action.busy || !manage}
              aria-describedby={manageReason ? 'docs-manage-reason' : undefined}
              onClick={() => setAsking('cancel')}
            >
              {ct('documents.cancel')}
            </button>
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
          <button
            className="btn btn-danger-outline"
            type="button"
            disabled={action.busy || !manage}
            aria-describedby={manageReason ? 'docs-manage-reason' : undefined}
            onClick={() => setAsking('delete')}
          >
            {ct('documents.delete')}
          </button>
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

      {/* Reloaded once sent: the editor then shows the envelope as sent, with nothing to save. */}
      {editing && <Editor key={env.status} envelopeId={env.id} onSaved={() => void load()} saver={saveEditor} />}
      {/* Starts over whenever a save changed the template's recipients, so the box shows them at once. */}
      {env.type === 'TEMPLATE' && <TemplateTools key={env.recipients.map((r) => `${r.id}:${r.role}:${r.name}:${r.email}`).join('|')} template={env} onChanged={load} />}

      <RecipientsPanel env={env} audit={audit} canSeeLinks={manage} busy={action.busy} run={run} />
      <Downloads env={env} purgedReason={purgedReason} run={run} onPurged={() => void load()} />
      <PagePreviews env={env} />

      {env.type === 'DOCUMENT' && <Timeline audit={audit} recipients={env.recipients} />}
    </article>
  )
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
