import { useId, useState, type FormEvent } from 'react'
import { signPath } from '../../../../../src/protocol/index.js'
import { v2 } from '../api.js'
import { ct, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import { Field } from '../parts.js'
import type { AuditLogEntry, Envelope, EnvelopeRecipient } from './types.js'

/** What the panel runs through the page: one action at a time, a notice when done, then a reload. */
export type RunAction = (fn: () => Promise<unknown>, done?: string) => void

/**
 * Each recipient as a sender follows them: who, in which role and turn, how they get the document,
 * what they must prove, where they stand (with when, and a rejection's reason), and, while the
 * document waits for them, their signing link, a new request, and a corrected name or address.
 */
export function RecipientsPanel(props: { env: Envelope; audit: AuditLogEntry[]; canSeeLinks: boolean; busy: boolean; run: RunAction }) {
  const { env } = props
  const linkReasonId = useId()
  return (
    <section className="card card-pad stack" aria-labelledby="docs-recipients">
      <h2 id="docs-recipients">{ct('documents.recipients')}</h2>
      {env.recipients.length === 0 ? (
        <p className="muted">{ct('documents.noRecipients')}</p>
      ) : (
        <>
          {env.status === 'PENDING' && !props.canSeeLinks && (
            <p className="muted small" id={linkReasonId}>
              {ct('documents.recipient.linkDenied')}
            </p>
          )}
          <ul className="docs-recipients">
            {env.recipients.map((r) => (
              <RecipientCard key={r.id} {...props} r={r} linkReasonId={linkReasonId} />
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

type CardProps = Parameters<typeof RecipientsPanel>[0] & { r: EnvelopeRecipient; linkReasonId: string }

function RecipientCard({ env, audit, canSeeLinks, busy, run, r, linkReasonId }: CardProps) {
  const [correcting, setCorrecting] = useState(false)
  const headingId = useId()
  const sequential = env.documentMeta.signingOrder === 'SEQUENTIAL'
  const acts = r.role !== 'CC'
  // While the document waits, those who act and have not are the ones a sender can still reach.
  const open = env.status === 'PENDING' && acts && r.signingStatus === 'NOT_SIGNED'
  const turnCome = !sequential || !waitingFor(env, r)

  return (
    <li className="docs-recipient" aria-labelledby={headingId}>
      <div className="docs-recipient-head">
        <h3 id={headingId} className="docs-recipient-name">
          {/* A purged document keeps its recipients without their name and address. */}
          {r.name || r.email || <span className="muted">{ct('documents.recipient.redacted')}</span>}
        </h3>
        {r.name && <span className="muted small docs-recipient-email">{r.email || ct('documents.recipient.noAddress')}</span>}
      </div>
      <dl className="docs-facts">
        <RecipientFacts env={env} r={r} />
        <div className="docs-facts-wide">
          <dt>{ct('documents.recipient.status')}</dt>
          <dd>
            {statusText(env, r, audit, turnCome)}
            {r.signingStatus === 'REJECTED' && r.rejectionReason && (
              <blockquote className="docs-reason">{ct('documents.recipient.reason', { reason: r.rejectionReason })}</blockquote>
            )}
          </dd>
        </div>
      </dl>
      {open && (
        <div className="team-actions" role="group" aria-label={ct('documents.recipient.actions', { name: r.name || r.email })}>
          <button
            className="btn btn-sm btn-secondary"
            type="button"
            disabled={!canSeeLinks}
            aria-describedby={canSeeLinks ? undefined : linkReasonId}
            onClick={() =>
              run(() => navigator.clipboard.writeText(location.origin + signPath('page', r.token!)), ct('documents.recipient.linkCopied', { name: r.name || r.email }))
            }
          >
            {ct('documents.recipient.copyLink')}
          </button>
          <button
            className="btn btn-sm btn-secondary"
            type="button"
            disabled={busy || !turnCome}
            aria-describedby={turnCome ? undefined : `${headingId}-turn`}
            onClick={() => run(() => v2('/envelope/redistribute', { body: { envelopeId: env.id, recipients: [r.id] } }), ct('documents.recipient.resent', { email: r.email }))}
          >
            {ct('documents.recipient.resend')}
          </button>
          <button className="btn btn-sm btn-secondary" type="button" aria-expanded={correcting} onClick={() => setCorrecting(!correcting)}>
            {ct('documents.recipient.correct')}
          </button>
          {!turnCome && (
            <span className="muted small" id={`${headingId}-turn`}>
              {ct('documents.recipient.notTurn')}
            </span>
          )}
        </div>
      )}
      {open && correcting && (
        <CorrectForm env={env} r={r} busy={busy} run={run} onDone={() => setCorrecting(false)} canSeeLinks={canSeeLinks} linkReasonId={linkReasonId} />
      )}
    </li>
  )
}

/**
 * Who a recipient is to the document, as terms of a `<dl>`: role, turn (sequential signing only),
 * delivery and what they must prove. Their card here and the review before sending show them.
 */
export function RecipientFacts({ env, r }: { env: Envelope; r: EnvelopeRecipient }) {
  return (
    <>
      <div>
        <dt>{ct('documents.role')}</dt>
        <dd>{ct(`documents.role.${r.role}` as ConsoleKey)}</dd>
      </div>
      {env.documentMeta.signingOrder === 'SEQUENTIAL' && (
        <div>
          <dt>{ct('documents.recipient.order')}</dt>
          <dd>{r.signingOrder ?? '—'}</dd>
        </div>
      )}
      <div>
        <dt>{ct('documents.recipient.delivery')}</dt>
        <dd>{env.documentMeta.distributionMethod === 'NONE' ? ct('documents.recipient.delivery.NONE') : ct('documents.recipient.delivery.EMAIL')}</dd>
      </div>
      <div>
        <dt>{ct('documents.recipient.access')}</dt>
        <dd>{authText(r.authOptions?.accessAuth, env.authOptions?.globalAccessAuth)}</dd>
      </div>
      <div>
        <dt>{ct('documents.recipient.action')}</dt>
        <dd>{authText(r.authOptions?.actionAuth, env.authOptions?.globalActionAuth)}</dd>
      </div>
    </>
  )
}

/**
 * A name or e-mail put right before the recipient acts; a new address means a new link, so only
 * those who may see the links change it (the API refuses others: 403 NOT_CREATOR).
 */
function CorrectForm(props: { env: Envelope; r: EnvelopeRecipient; busy: boolean; run: RunAction; onDone: () => void; canSeeLinks: boolean; linkReasonId: string }) {
  const { env, r, busy, run, onDone } = props
  const [name, setName] = useState(r.name)
  const [email, setEmail] = useState(r.email)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const readdressed = email.trim().toLowerCase() !== r.email
    run(
      async () => {
        await v2('/envelope/recipient/update-many', { body: { envelopeId: env.id, data: [{ id: r.id, name: name.trim(), email: email.trim() }] } })
        onDone()
      },
      readdressed ? ct('documents.recipient.readdressed', { email: email.trim().toLowerCase() }) : ct('documents.recipient.corrected'),
    )
  }
  return (
    <form className="docs-correct stack-sm" onSubmit={submit}>
      <p className="muted small">{ct('documents.recipient.correctHint')}</p>
      <Field label={ct('documents.recipient.name')} value={name} onChange={setName} autoComplete="off" />
      <Field
        label={ct('documents.recipient.email')}
        type="email"
        value={email}
        onChange={setEmail}
        autoComplete="off"
        required
        readOnly={!props.canSeeLinks}
        describedBy={props.canSeeLinks ? undefined : props.linkReasonId}
      />
      <div className="team-actions">
        <button className="btn btn-sm btn-primary" type="submit" disabled={busy}>
          {ct('documents.recipient.save')}
        </button>
        <button className="btn btn-sm btn-secondary" type="button" onClick={onDone}>
          {ct('documents.recipient.discard')}
        </button>
      </div>
    </form>
  )
}

/** In sequential order: someone before `r` who acts has not completed yet. */
function waitingFor(env: Envelope, r: EnvelopeRecipient): boolean {
  const mine = r.signingOrder ?? 0
  return env.recipients.some((x) => x.id !== r.id && x.role !== 'CC' && x.signingStatus !== 'SIGNED' && (x.signingOrder ?? 0) < mine)
}

/** What the recipient must prove: their own methods, else the envelope's; an explicit "none" lifts the envelope's. */
function authText(own: unknown[] | null | undefined, inherited: string[] | undefined): string {
  const list = (own ?? []) as string[]
  const names = (methods: string[]) => methods.map((m) => ct(`documents.auth.${m}` as ConsoleKey)).join(', ')
  if (list.includes('EXPLICIT_NONE')) return ct('documents.recipient.auth.lifted')
  if (list.length) return ct('documents.recipient.auth.own', { methods: names(list) })
  if (inherited?.length) return ct('documents.recipient.auth.inherited', { methods: names(inherited) })
  return ct('documents.recipient.auth.none')
}

/** The latest entry of `type` about recipient `r` (the log is newest first). */
function lastAbout(audit: AuditLogEntry[], r: EnvelopeRecipient, type: string): AuditLogEntry | undefined {
  return audit.find((a) => a.type === type && (a.recipientId === r.id || (a.data as { recipientId?: number } | null)?.recipientId === r.id))
}

function statusText(env: Envelope, r: EnvelopeRecipient, audit: AuditLogEntry[], turnCome: boolean): string {
  if (r.signingStatus === 'SIGNED') {
    // What they did, by their role; a copy's recipient only gets one.
    const did = r.role === 'CC' ? 'documents.progress.signed' : (`documents.recipient.did.${r.role}` as ConsoleKey)
    return ct(did, { when: formatDateTime(r.signedAt) })
  }
  if (r.signingStatus === 'REJECTED') return ct('documents.recipient.rejected', { when: formatDateTime(lastAbout(audit, r, 'DOCUMENT_RECIPIENT_REJECTED')?.createdAt ?? r.signedAt) })
  if (env.status === 'DRAFT' || r.sendStatus !== 'SENT') return ct('documents.progress.notSent')
  if (r.role === 'CC') return ct('documents.recipient.ccLater')
  if (!turnCome) return ct('documents.recipient.waiting')
  if (r.readStatus === 'OPENED') return ct('documents.recipient.opened', { when: formatDateTime(lastAbout(audit, r, 'DOCUMENT_OPENED')?.createdAt) })
  const sent = lastAbout(audit, r, 'EMAIL_SENT')?.createdAt ?? audit.find((a) => a.type === 'DOCUMENT_SENT')?.createdAt
  return ct('documents.recipient.sent', { when: formatDateTime(sent) })
}
