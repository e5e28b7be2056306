import { useEffect, useRef, useState } from 'react'
import { ct, formatDate, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import { useMe } from '../me.js'
import { ErrorAlert, Notice, useAction } from '../parts.js'
import { linkProps } from '../router.js'
import { BulkSend } from './BulkSend.js'
import { Downloads } from './Downloads.js'
import { Editor } from './Editor.js'
import { EnvelopeActions, EnvelopeDialogs, type Asking } from './EnvelopeActions.js'
import { PagePreviews } from './PagePreviews.js'
import { RecipientsPanel } from './RecipientsPanel.js'
import { TemplateTools } from './TemplateTools.js'
import { Timeline } from './Timeline.js'
import { ownerRights } from './types.js'
import { useEnvelope } from './useEnvelope.js'

/** `/console/documents/:id` and `/console/templates/:id`: one envelope, its people, its trail, its files and what can be done with it. */
export function EnvelopePage({ id }: { id: string }) {
  const { env, audit, sender, loadError, load } = useEnvelope(id)
  const { me } = useMe()
  const [notice, setNotice] = useState<string | null>(null)
  const [asking, setAsking] = useState<Asking>(null)
  // `?edit=1`: just created in the console, the editor opens at once for its recipients and fields.
  const [editing, setEditing] = useState(() => new URLSearchParams(location.search).get('edit') === '1')
  const action = useAction()
  const heading = useRef<HTMLHeadingElement>(null)
  /** Saves the open editor's work; set while the editor is open. */
  const saveEditor = useRef<(() => Promise<boolean>) | null>(null)
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
  // What the actions and the dialogs they open both act on, and through.
  const acting = { env, list, action, run }
  const { manage } = ownerRights(me.team?.role, sender)
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
      <EnvelopeDialogs
        {...acting}
        asking={asking}
        onClose={() => setAsking(null)}
        onSent={() => {
          setAsking(null)
          setNotice(ct('documents.sent'))
          void load()
        }}
      />

      <EnvelopeActions
        {...acting}
        manage={manage}
        purgedReason={purgedReason}
        editing={editing}
        onEditing={setEditing}
        onReview={review}
        onAsk={setAsking}
      />

      {/* Reloaded once sent: the editor then shows the envelope as sent, with nothing to save. */}
      {editing && <Editor key={env.status} envelopeId={env.id} onSaved={() => void load()} saver={saveEditor} />}
      {/* Each starts over whenever a save changed the template's recipients, so it shows them at once
          (keys told apart: siblings with one key, as two with no recipients would have, are mixed up). */}
      {env.type === 'TEMPLATE' && <TemplateTools key={`use ${env.recipients.map((r) => `${r.id}:${r.role}:${r.name}:${r.email}`).join('|')}`} template={env} onChanged={load} />}
      {env.type === 'TEMPLATE' && <BulkSend key={`bulk ${env.recipients.map((r) => `${r.id}:${r.name}:${r.email}`).join('|')}`} template={env} />}

      <RecipientsPanel env={env} audit={audit} canSeeLinks={manage} busy={action.busy} run={run} />
      <Downloads env={env} purgedReason={purgedReason} run={run} onPurged={() => void load()} />
      <PagePreviews env={env} />

      {env.type === 'DOCUMENT' && <Timeline audit={audit} recipients={env.recipients} />}
    </article>
  )
}
