import { useId, useState } from 'react'
import { consoleLanguage, ct } from '../i18n/index.js'
import { RecipientFacts } from './RecipientsPanel.js'
import { nameOf, type Envelope, type EnvelopeRecipient } from './types.js'
import type { Refusal } from './useSend.js'
import type { SendPreviewState } from './useSendPreview.js'

/** Who receives the document, in signing order when the order is sequential, each marked when the refused send names them. */
export function PeopleSection(props: { env: Envelope; people: EnvelopeRecipient[]; refusal: Refusal | null; id: string }) {
  const { env, refusal, id } = props
  return (
    <section className="stack-sm" aria-labelledby={id}>
      <h3 id={id} className="send-heading">
        {ct('send.recipients')}
      </h3>
      <p className="muted small">{ct(env.documentMeta.signingOrder === 'SEQUENTIAL' ? 'send.order.SEQUENTIAL' : 'send.order.PARALLEL')}</p>
      <ul className="send-people">
        {props.people.map((r) => (
          <Person key={r.id} env={env} r={r} problem={refusal?.recipients.has(r.id) ? refusal.row : null} />
        ))}
      </ul>
      {env.recipients.some((r) => r.role === 'CC') && <p className="muted small">{ct('send.ccNote')}</p>}
    </section>
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
 * The e-mail: its From and Reply-To, the subject and message to edit, and beside them the request
 * as the chosen recipient will receive it; only a note when nothing is mailed.
 */
export function MailSection(props: {
  env: Envelope
  people: EnvelopeRecipient[]
  mailed: boolean
  mail: SendPreviewState
  ids: { mail: string; preview: string; shown: string }
}) {
  const { env, people, mailed, ids } = props
  const { preview, previewError, pending } = props.mail
  const meta = env.documentMeta
  const [shownId, setShownId] = useState<number | null>(null)
  const mails = preview?.mails ?? []
  const shown = mails.find((m) => m.recipientId === shownId) ?? mails.find((m) => m.recipientId === people.find((r) => r.role !== 'CC')?.id) ?? mails[0]
  const shownName = (id: number) => nameOf(env.recipients.find((r) => r.id === id))
  return (
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
            <Editable label={ct('send.subject')} hint={ct('send.subjectHint')} value={props.mail.subject} onChange={props.mail.setSubject} maxLength={255} />
            <Editable label={ct('send.message')} hint={ct('send.messageHint')} value={props.mail.message} onChange={props.mail.setMessage} maxLength={5000} rows={5} />
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

/** When the links expire and when reminders go (none when nothing is mailed). */
export function DeadlinesSection({ meta, mailed, id }: { meta: Meta; mailed: boolean; id: string }) {
  return (
    <section className="stack-sm" aria-labelledby={id}>
      <h3 id={id} className="send-heading">
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
  )
}

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
