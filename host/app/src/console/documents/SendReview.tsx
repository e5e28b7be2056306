import { useEffect, useId, useRef, useState } from 'react'
import type { SendPreview } from '../../../../shared/console-contract.js'
import { ApiFailure, consoleApi, v2 } from '../api.js'
import { consoleLanguage, ct } from '../i18n/index.js'
import { useModal } from '../modal.js'
import { messageOf } from '../parts.js'
import { RecipientFacts } from './RecipientsPanel.js'
import type { Envelope, EnvelopeRecipient } from './types.js'
import './send-review.css'

/** How long typing rests before the preview is asked for again. */
const PREVIEW_DELAY_MS = 300

/** What the send refused (or will refuse): its words, the recipients it names, and what their rows say. */
interface Refusal {
  text: string
  recipients: Set<number>
  row: string
}

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
  const [subject, setSubject] = useState(meta.subject ?? '')
  const [message, setMessage] = useState(meta.message ?? '')
  const [preview, setPreview] = useState<SendPreview | null>(null)
  const [previewError, setPreviewError] = useState<string | null>(null)
  const [pending, setPending] = useState(true)
  const [shownId, setShownId] = useState<number | null>(null)
  const [sending, setSending] = useState(false)
  // A role with no person yet is said before Send is pressed: the send would be refused.
  const [refusal, setRefusal] = useState<Refusal | null>(() => unaddressed(env))
  useModal(ref, props.onCancel, () => heading.current)

  // What is sent is what the preview shows: a blank subject or message is the standard one.
  const change = { subject: subject.trim() || null, message: message.trim() ? message : null }
  const first = useRef(true)
  useEffect(() => {
    let live = true
    setPending(true)
    const timer = setTimeout(
      () =>
        consoleApi(`/documents/${encodeURIComponent(env.id)}/send-preview`, { body: change }).then(
          (p) => live && (setPreview(p), setPreviewError(null), setPending(false)),
          (e) => live && (setPreviewError(messageOf(e)), setPending(false)),
        ),
      first.current ? 0 : PREVIEW_DELAY_MS,
    )
    first.current = false
    return () => {
      live = false
      clearTimeout(timer)
    }
    // `change` is made from these.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [env.id, change.subject, change.message])

  useEffect(() => {
    if (refusal) alert.current?.focus()
  }, [refusal])

  const people = [...env.recipients].sort((a, b) => (meta.signingOrder === 'SEQUENTIAL' ? (a.signingOrder ?? 0) - (b.signingOrder ?? 0) : 0) || a.id - b.id)
  const mails = preview?.mails ?? []
  const shown = mails.find((m) => m.recipientId === shownId) ?? mails.find((m) => m.recipientId === people.find((r) => r.role !== 'CC')?.id) ?? mails[0]
  const shownName = (id: number) => nameOf(env.recipients.find((r) => r.id === id))
  const mailed = preview ? preview.mailed : meta.distributionMethod !== 'NONE'

  const send = async () => {
    setSending(true)
    setRefusal(null)
    try {
      // Only what the review changed goes with the send (and into its audit entry).
      const edited = {
        ...(change.subject !== (meta.subject ?? null) && { subject: change.subject }),
        ...(change.message !== (meta.message ?? null) && { message: change.message }),
      }
      await v2('/envelope/distribute', { body: { envelopeId: env.id, ...(Object.keys(edited).length && { meta: edited }) } })
      props.onSent()
    } catch (err) {
      setRefusal(refusalOf(err, env))
    } finally {
      setSending(false)
    }
  }

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

          <section className="stack-sm" aria-labelledby={ids.people}>
            <h3 id={ids.people} className="send-heading">
              {ct('send.recipients')}
            </h3>
            <p className="muted small">{ct(meta.signingOrder === 'SEQUENTIAL' ? 'send.order.SEQUENTIAL' : 'send.order.PARALLEL')}</p>
            <ul className="send-people">
              {people.map((r) => (
                <Person key={r.id} env={env} r={r} problem={refusal?.recipients.has(r.id) ? refusal.row : null} />
              ))}
            </ul>
            {env.recipients.some((r) => r.role === 'CC') && <p className="muted small">{ct('send.ccNote')}</p>}
          </section>

          <section className="stack-sm" aria-labelledby={ids.mail}>
            <h3 id={ids.mail} className="send-heading">
              {ct('send.mail')}
            </h3>
            {!mailed ? (
              <p>{ct('send.noMail')}</p>
            ) : (
              <div className="send-mail-grid">
                <div className="stack-sm">
                  {preview && (
                    <dl className="docs-facts">
                      {/* Addresses read left to right, whichever way the console reads. */}
                      {[
                        [ct('send.from'), preview.from],
                        [ct('send.replyTo'), preview.replyTo],
                      ].map(
                        ([label, value]) =>
                          value && (
                            <div key={label} className="docs-facts-wide">
                              <dt>{label}</dt>
                              <dd>
                                <bdi dir="ltr">{value}</bdi>
                              </dd>
                            </div>
                          ),
                      )}
                    </dl>
                  )}
                  <Editable label={ct('send.subject')} hint={ct('send.subjectHint')} value={subject} onChange={setSubject} maxLength={255} />
                  <Editable label={ct('send.message')} hint={ct('send.messageHint')} value={message} onChange={setMessage} maxLength={5000} rows={5} />
                  {previewError && <p className="alert alert-error">{previewError}</p>}
                </div>
                <div className="stack-sm send-mail-side">
                  {mails.length > 1 && shown && (
                    <div className="form-field">
                      <label className="label" htmlFor={ids.shown}>
                        {ct('send.previewFor')}
                      </label>
                      <select id={ids.shown} className="input" value={shown.recipientId} onChange={(e) => setShownId(Number(e.target.value))}>
                        {people
                          .filter((r) => mails.some((m) => m.recipientId === r.id))
                          .map((r) => (
                            <option key={r.id} value={r.id}>
                              {nameOf(r)}
                            </option>
                          ))}
                      </select>
                    </div>
                  )}
                  {shown ? (
                    <figure className="send-mail" aria-labelledby={ids.preview} aria-busy={pending} data-testid="send-preview">
                      <figcaption id={ids.preview} className="send-mail-caption">
                        {ct('send.preview', { name: shownName(shown.recipientId) })}
                      </figcaption>
                      <p className="send-mail-subject">
                        <span className="muted">{ct('send.subject')}</span>{' '}
                        <strong lang={meta.language} dir="auto">
                          {shown.subject}
                        </strong>
                      </p>
                      <p className="send-mail-text" lang={meta.language} dir="auto">
                        {shown.text}
                      </p>
                    </figure>
                  ) : (
                    pending && (
                      <p className="muted" role="status">
                        {ct('send.previewLoading')}
                      </p>
                    )
                  )}
                </div>
              </div>
            )}
          </section>

          <section className="stack-sm" aria-labelledby={ids.deadlines}>
            <h3 id={ids.deadlines} className="send-heading">
              {ct('send.deadlines')}
            </h3>
            <dl className="docs-facts">
              <div className="docs-facts-wide">
                <dt>{ct('send.expiry')}</dt>
                <dd>{expiryText(meta.envelopeExpirationPeriod)}</dd>
              </div>
              <div className="docs-facts-wide">
                <dt>{ct('send.reminders')}</dt>
                <dd>{mailed ? remindersText(meta.reminderSettings) : ct('send.reminders.none')}</dd>
              </div>
            </dl>
          </section>
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

/** One recipient as the review lists them, marked when the refused send names them. */
function Person({ env, r, problem }: { env: Envelope; r: EnvelopeRecipient; problem: string | null }) {
  const id = useId()
  return (
    <li className="send-person" aria-labelledby={id} data-testid="send-person">
      <div className="docs-recipient-head">
        <strong id={id}>{nameOf(r)}</strong>
        {r.name && <span className="muted small">{r.email || ct('documents.recipient.noAddress')}</span>}
      </div>
      <dl className="docs-facts">
        <RecipientFacts env={env} r={r} />
      </dl>
      {problem && <p className="send-missing">{problem}</p>}
    </li>
  )
}

/**
 * The subject (one line) or the message (`rows`): written in the document's language, whichever way
 * the console reads; its hint describes it.
 */
function Editable(props: { label: string; hint: string; value: string; onChange: (v: string) => void; maxLength: number; rows?: number }) {
  const id = useId()
  const field = { id, className: 'input', value: props.value, maxLength: props.maxLength, dir: 'auto', 'aria-describedby': `${id}-hint` }
  return (
    <div className="form-field">
      <label className="label" htmlFor={id}>
        {props.label}
      </label>
      {props.rows ? (
        <textarea {...field} rows={props.rows} onChange={(e) => props.onChange(e.target.value)} />
      ) : (
        <input {...field} onChange={(e) => props.onChange(e.target.value)} />
      )}
      <span className="muted small" id={`${id}-hint`}>
        {props.hint}
      </span>
    </div>
  )
}

const nameOf = (r: Pick<EnvelopeRecipient, 'name' | 'email'> | undefined) => r?.name || r?.email || ''

type Meta = Envelope['documentMeta']

/** "3 days", "2 weeks" in the console's language. */
const periodText = (p: { unit: string; amount: number }) => new Intl.NumberFormat(consoleLanguage(), { style: 'unit', unit: p.unit, unitDisplay: 'long' }).format(p.amount)
const periodOf = <P extends { unit: string; amount: number } | { disabled: true }>(p: P | null | undefined) => (p && !('disabled' in p) ? (p as Extract<P, { unit: string }>) : null)

function expiryText(period: Meta['envelopeExpirationPeriod']): string {
  const p = periodOf(period)
  return p ? ct('send.expiry.after', { period: periodText(p) }) : ct('send.expiry.never')
}

function remindersText(settings: Meta['reminderSettings']): string {
  const after = periodOf(settings?.sendAfter)
  const every = periodOf(settings?.repeatEvery)
  if (!after) return ct('send.reminders.none')
  return every ? ct('send.reminders.repeat', { after: periodText(after), every: periodText(every) }) : ct('send.reminders.once', { after: periodText(after) })
}

/**
 * A refused send in the reader's words. A signer without a signature field is named: the refusal's
 * issues point at `recipients.{i}`, the envelope's recipients in the order they were added.
 */
/** The refusal that names `named`, in the console's words. */
function naming(named: EnvelopeRecipient[], text: 'send.noSignature' | 'send.noAddress', row: 'send.noSignatureRow' | 'send.noAddressRow'): Refusal {
  const names = new Intl.ListFormat(consoleLanguage(), { type: 'conjunction' }).format(named.map(nameOf))
  return { text: ct(text, { names }), recipients: new Set(named.map((r) => r.id)), row: ct(row) }
}

/** Roles with no person yet (a document made from a template), which sending refuses. */
function unaddressed(env: Envelope): Refusal | null {
  const roles = env.recipients.filter((r) => !r.email)
  return roles.length ? naming(roles, 'send.noAddress', 'send.noAddressRow') : null
}

const REFUSAL_WORDS = {
  MISSING_SIGNATURE_FIELD: ['send.noSignature', 'send.noSignatureRow'],
  RECIPIENT_WITHOUT_ADDRESS: ['send.noAddress', 'send.noAddressRow'],
} as const

function refusalOf(err: unknown, env: Envelope): Refusal {
  const words = err instanceof ApiFailure ? REFUSAL_WORDS[err.code as keyof typeof REFUSAL_WORDS] : undefined
  if (err instanceof ApiFailure && words) {
    // Issue paths are `recipients.N` (or `recipients.N.email`), N counting the recipients in the order they were added.
    const added = [...env.recipients].sort((a, b) => a.id - b.id)
    const named = (err.issues ?? []).flatMap((i) => {
      const at = /^recipients\.(\d+)(?:\.email)?$/.exec(Array.isArray(i.path) ? i.path.join('.') : String(i.path))
      const r = at ? added[Number(at[1])] : undefined
      return r ? [r] : []
    })
    if (named.length) return naming(named, words[0], words[1])
  }
  return { text: messageOf(err), recipients: new Set(), row: '' }
}
