import { useEffect, useId, useRef } from 'react'
import { ct } from '../i18n/index.js'
import { useModal } from '../modal.js'
import { DeadlinesSection, MailSection, PeopleSection } from './SendReviewParts.js'
import type { Envelope } from './types.js'
import { useSend } from './useSend.js'
import { useSendPreview } from './useSendPreview.js'
import './send-review.css'

/**
 * The review before sending (docs/envelope-page.md): who receives the document and how (role,
 * turn, delivery, what they must prove), the e-mail each will get as the service renders it
 * (`POST /api/console/documents/{id}/send-preview`), its subject and message editable, the links'
 * expiry and the reminders; one Send sends it with the subject and message shown. A refused send
 * sends nothing and says what to fix, naming the recipients concerned.
 */
export function SendReview(props: { env: Envelope; onCancel: () => void; onSent: () => void }) {
  const { env } = props
  const meta = env.documentMeta
  const ref = useRef<HTMLDialogElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const alert = useRef<HTMLDivElement>(null)
  const ids = { title: useId(), intro: useId(), people: useId(), mail: useId(), preview: useId(), deadlines: useId(), shown: useId() }
  useModal(ref, props.onCancel, () => heading.current)
  const mail = useSendPreview(env)
  const { sending, refusal, send } = useSend(env, mail.change, props.onSent)

  useEffect(() => {
    if (refusal) alert.current?.focus()
  }, [refusal])

  const people = [...env.recipients].sort((a, b) => (meta.signingOrder === 'SEQUENTIAL' ? (a.signingOrder ?? 0) - (b.signingOrder ?? 0) : 0) || a.id - b.id)
  const mailed = mail.preview ? mail.preview.mailed : meta.distributionMethod !== 'NONE'

  return (
    <dialog
      ref={ref}
      className="dialog send-review"
      aria-labelledby={ids.title}
      aria-describedby={ids.intro}
      onMouseDown={(e) => e.target === e.currentTarget && props.onCancel()}
    >
      <div className="dialog-box">
        <header className="dialog-head">
          <h2 ref={heading} id={ids.title} className="dialog-title" tabIndex={-1}>
            {ct('send.title', { title: env.title })}
          </h2>
        </header>
        <div className="dialog-body">
          <p id={ids.intro} className="muted">
            {ct('send.intro')}
          </p>
          {refusal && (
            <div ref={alert} className="alert alert-error" role="alert" tabIndex={-1}>
              <strong>{ct('send.refused')}</strong> {refusal.text}
            </div>
          )}
          <PeopleSection env={env} people={people} refusal={refusal} id={ids.people} />
          <MailSection env={env} people={people} mailed={mailed} mail={mail} ids={ids} />
          <DeadlinesSection meta={meta} mailed={mailed} id={ids.deadlines} />
        </div>
        <footer className="dialog-foot">
          <button className="btn btn-secondary" type="button" onClick={() => props.onCancel()}>
            {ct('shell.cancel')}
          </button>
          <button className="btn btn-primary" type="button" disabled={sending} onClick={() => void send()}>
            {ct('send.confirm')}
          </button>
        </footer>
      </div>
    </dialog>
  )
}
