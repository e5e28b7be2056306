import { useCallback, useEffect, useRef, useState } from 'react'
import { download, v2 } from '../api.js'
import { ct, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import { ErrorAlert, Notice, PersonCell, TableHead, messageOf, useAction } from '../parts.js'
import { linkProps, navigate } from '../router.js'
import { Editor } from './Editor.js'
import { TemplateTools } from './TemplateTools.js'
import type { AuditLogEntry, AuditLogPage, Envelope } from './types.js'

/** `/console/documents/:id` and `/console/templates/:id`: one envelope, its people, its trail, its files and what can be done with it. */
export function EnvelopePage({ id }: { id: string }) {
  const [env, setEnv] = useState<Envelope | null>(null)
  const [audit, setAudit] = useState<AuditLogEntry[]>([])
  const [loadError, setLoadError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  // `?edit=1`: just created in the console, the editor opens at once for its recipients and fields.
  const [editing, setEditing] = useState(() => new URLSearchParams(location.search).get('edit') === '1')
  const action = useAction()
  const heading = useRef<HTMLHeadingElement>(null)
  /** Saves the open editor's work; set while the editor is open. */
  const saveEditor = useRef<(() => Promise<boolean>) | null>(null)

  const load = useCallback(async () => {
    try {
      const e = await v2<Envelope>(`/envelope/${encodeURIComponent(id)}`)
      setEnv(e)
      setAudit((await v2<AuditLogPage>(`/envelope/${encodeURIComponent(id)}/audit-log?perPage=100&orderByDirection=desc&include=all`)).data)
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
  // What is sent is what the person sees: the open editor saves first; what it cannot save stops the send.
  const send = async () => {
    if (saveEditor.current && !(await saveEditor.current())) throw new Error(ct('documents.sendUnsaved'))
    await v2('/envelope/distribute', { body: { envelopeId: env.id } })
  }
  const waiting = env.recipients.filter((r) => r.signingStatus === 'NOT_SIGNED' && r.role !== 'CC')
  const file = (itemId: string, version: 'original' | 'signed', title: string) =>
    run(() => download(`/envelope/item/${itemId}/download?version=${version}`, `${title}.pdf`))

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
      </p>
      <ErrorAlert error={action.error} />
      {notice && <Notice>{notice}</Notice>}

      <section className="card card-pad stack" aria-labelledby="docs-actions">
        <h2 id="docs-actions">{ct('documents.actions')}</h2>
        <div className="team-actions">
          {env.status === 'DRAFT' && (
            <>
              <button className="btn btn-secondary" type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
                {editing ? ct('documents.closeEditor') : ct('documents.edit')}
              </button>
              {env.type === 'DOCUMENT' && (
                <button className="btn btn-primary" type="button" disabled={action.busy} onClick={() => run(send, ct('documents.sent'))}>
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
              disabled={action.busy}
              onClick={() => confirm(ct('documents.cancelConfirm')) && run(() => v2('/envelope/cancel', { body: { envelopeId: env.id } }), ct('documents.cancelled'))}
            >
              {ct('documents.cancel')}
            </button>
          )}
          <button
            className="btn btn-secondary"
            type="button"
            disabled={action.busy}
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
            disabled={action.busy}
            onClick={() =>
              confirm(ct('documents.deleteConfirm', { title: env.title })) &&
              void action.run(async () => {
                await v2('/envelope/delete', { body: { envelopeId: env.id } })
                navigate(list)
              })
            }
          >
            {ct('documents.delete')}
          </button>
        </div>
      </section>

      {/* Reloaded once sent: the editor then shows the envelope as sent, with nothing to save. */}
      {editing && <Editor key={env.status} envelopeId={env.id} onSaved={() => void load()} saver={saveEditor} />}
      {env.type === 'TEMPLATE' && <TemplateTools template={env} onChanged={load} />}

      <section className="card card-pad stack" aria-labelledby="docs-files">
        <h2 id="docs-files">{ct('documents.files')}</h2>
        <ul className="docs-files">
          {env.envelopeItems.map((item) => (
            <li key={item.id}>
              <span>{item.title}</span>
              <span className="team-actions">
                <button className="btn btn-sm btn-secondary" type="button" onClick={() => file(item.id, 'original', item.title)}>
                  {ct('documents.original')}
                </button>
                {env.status === 'COMPLETED' && (
                  <button className="btn btn-sm btn-primary" type="button" onClick={() => file(item.id, 'signed', item.title)}>
                    {ct('documents.signed')}
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
        {env.type === 'DOCUMENT' && env.status !== 'DRAFT' && (
          <div className="team-actions">
            {env.status === 'COMPLETED' && (
              <button className="btn btn-sm btn-secondary" type="button" onClick={() => run(() => download(`/envelope/${env.id}/certificate/download`, `${env.title} - certificate.pdf`))}>
                {ct('documents.certificate')}
              </button>
            )}
            <button className="btn btn-sm btn-secondary" type="button" onClick={() => run(() => download(`/envelope/${env.id}/audit-log/download`, `${env.title} - audit log.pdf`))}>
              {ct('documents.auditPdf')}
            </button>
          </div>
        )}
      </section>

      <section className="card card-pad stack" aria-labelledby="docs-recipients">
        <h2 id="docs-recipients">{ct('documents.recipients')}</h2>
        {env.recipients.length === 0 ? (
          <p className="muted">{ct('documents.noRecipients')}</p>
        ) : (
          <table className="console-table">
            <TableHead columns={[ct('documents.person'), ct('documents.role'), ct('documents.progress')]} />
            <tbody>
              {env.recipients.map((r) => (
                <tr key={r.id}>
                  <PersonCell name={r.name} email={r.email} />
                  <td data-label={ct('documents.role')}>{ct(`documents.role.${r.role}` as ConsoleKey)}</td>
                  <td data-label={ct('documents.progress')}>{progressOf(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {env.type === 'DOCUMENT' && (
        <section className="card card-pad stack" aria-labelledby="docs-timeline">
          <h2 id="docs-timeline">{ct('documents.timeline')}</h2>
          {audit.length === 0 ? (
            <p className="muted">{ct('documents.noEvents')}</p>
          ) : (
            <ol className="team-timeline">
              {audit.map((a) => (
                <li key={a.id}>
                  <time dateTime={a.createdAt} className="muted small">
                    {formatDateTime(a.createdAt)}
                  </time>
                  <div>
                    {ct(`documents.audit.${a.type}` as ConsoleKey) === `documents.audit.${a.type}` ? a.type : ct(`documents.audit.${a.type}` as ConsoleKey)}
                    {(a.name || a.email) && <span className="muted"> · {a.name || a.email}</span>}
                  </div>
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
    </article>
  )
}

function progressOf(r: Envelope['recipients'][number]): string {
  if (r.signingStatus === 'SIGNED') return ct('documents.progress.signed', { when: formatDateTime(r.signedAt) })
  if (r.signingStatus === 'REJECTED') return ct('documents.progress.rejected')
  if (r.readStatus === 'OPENED') return ct('documents.progress.opened')
  if (r.sendStatus === 'SENT') return ct('documents.progress.sent')
  return ct('documents.progress.notSent')
}
