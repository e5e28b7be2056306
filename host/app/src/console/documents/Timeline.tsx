import { useMemo, type ReactNode } from 'react'
import { recordSteps, type RecordStep } from '../../../../shared/record-steps.js'
import { ct, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import type { AuditLogEntry, EnvelopeRecipient } from './types.js'

/**
 * The document's audit trail, newest first: what happened, who did it, and what changed. What an
 * entry records of a recipient (a mail to an address corrected since, a code sent, a check passed
 * or failed, a lock, consent, a correction) is read as the certificate and the evidence summary
 * read it (host/shared/record-steps.ts), and said under the entry.
 */
export function Timeline({ audit, recipients }: { audit: AuditLogEntry[]; recipients: EnvelopeRecipient[] }) {
  const steps = useMemo(() => {
    const byEntry = new Map<AuditLogEntry, RecordStep<AuditLogEntry>[]>()
    for (const s of recordSteps([...audit].reverse())) byEntry.set(s.entry, [...(byEntry.get(s.entry) ?? []), s])
    return byEntry
  }, [audit])
  const nameOf = (id: number) => {
    const r = recipients.find((x) => x.id === id)
    return r?.name || r?.email || `#${id}`
  }
  return (
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
                {what(a, steps.get(a) ?? [])}
                {(a.name || a.email) && <span className="muted"> · {a.name || a.email}</span>}
                <Facts steps={steps.get(a) ?? []} nameOf={nameOf} />
                <Detail entry={a} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** The entry's type in words; a message says which one it was, an approver's or viewer's completion what they did. */
function what(a: AuditLogEntry, steps: RecordStep<AuditLogEntry>[]): string {
  const role = a.data?.recipientRole
  if (a.type === 'DOCUMENT_RECIPIENT_COMPLETED' && (role === 'APPROVER' || role === 'VIEWER' || role === 'ASSISTANT')) return ct(`documents.audit.completed.${role}`)
  const mail = steps.map((s) => s.step).find((s) => s.kind === 'EMAIL_SENT')
  if (mail?.email === 'REMINDER') return ct('documents.audit.REMINDER')
  if (mail?.email === 'COMPLETED') return ct('documents.audit.COMPLETED_EMAIL')
  const key = `documents.audit.${a.type}` as ConsoleKey
  return ct(key) === key ? a.type : ct(key)
}

/**
 * The words of `key` with each value in its own direction (a Latin address or sentence in a Hebrew
 * line keeps its punctuation at its end).
 */
function said(key: ConsoleKey, values: Record<string, string>): ReactNode {
  const marked = ct(key, Object.fromEntries(Object.keys(values).map((k) => [k, `\u0000${k}\u0000`])))
  return marked.split('\u0000').map((part, i) => (i % 2 ? <bdi key={i}>{values[part]}</bdi> : part))
}

const methodWords = (m: string | null) => {
  const key = `documents.fact.method.${m}` as ConsoleKey
  return m && ct(key) !== key ? ct(key) : (m ?? ct('documents.audit.none'))
}
const purposeKey = (p: string | null): 'access' | 'action' | 'account' => (p === 'action' || p === 'account' ? p : 'access')

/** What the entry records of a recipient beyond its type, one line each; a correction as old -> new. */
function Facts({ steps, nameOf }: { steps: RecordStep<AuditLogEntry>[]; nameOf: (id: number) => string }) {
  const lines: ReactNode[] = []
  const changes: Change[] = []
  const sentTo = (s: { to: string | null; correctedTo?: string }) => {
    if (s.to && s.correctedTo) lines.push(said('documents.fact.corrected', { to: s.to, corrected: s.correctedTo }))
  }
  for (const { step: s, recipientId } of steps) {
    switch (s.kind) {
      case 'LINK_CREATED':
        lines.push(said('documents.fact.linkCreated', { name: nameOf(recipientId) }))
        break
      case 'EMAIL_SENT':
        sentTo(s)
        break
      case 'CODE_SENT':
        lines.push(ct(`documents.fact.purpose.${purposeKey(s.purpose)}`))
        sentTo(s)
        break
      case 'VERIFIED':
        lines.push(ct(`documents.fact.verified.${s.stage}`, { method: methodWords(s.method) }))
        break
      case 'VERIFICATION_FAILED':
        lines.push(ct(`documents.fact.failed.${purposeKey(s.stage)}`, { method: methodWords(s.method) }))
        break
      case 'LOCKED':
        if (s.until) lines.push(ct('documents.fact.until', { when: formatDateTime(s.until) }))
        break
      case 'CONSENTED':
        // A purged document's entries keep no values: nothing to say beyond the entry's type.
        if (s.disclosureHash) lines.push(ct('documents.fact.consent', { version: String(s.disclosureVersion ?? '—'), hash: s.disclosureHash.slice(0, 16) }))
        break
      case 'CORRECTED':
        changes.push(...s.changes.map((c) => ({ label: ct(`documents.audit.change.${c.field}`), from: c.from, to: c.to })))
        break
    }
  }
  if (!lines.length && !changes.length) return null
  return (
    <>
      {lines.length > 0 && (
        <ul className="team-changes docs-steps">
          {lines.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      )}
      <Changes changes={changes} />
    </>
  )
}

interface Change {
  label?: string
  from?: unknown
  to?: unknown
}

/** The META changes whose values read as words; the others are named only. */
const SHOWN_VALUES = ['SUBJECT', 'MESSAGE', 'TIMEZONE', 'DATE_FORMAT', 'REDIRECT_URL']
const META_NAMES = [...SHOWN_VALUES, 'EMAIL_SETTINGS']

/** What the entry's data says changed: old -> new values, or a reason. Nothing for the others. */
function Detail({ entry }: { entry: AuditLogEntry }) {
  const d = (entry.data ?? {}) as Record<string, unknown>
  if (typeof d.reason === 'string' && d.reason && (entry.type === 'DOCUMENT_CANCELLED' || entry.type === 'DOCUMENT_RECIPIENT_REJECTED')) {
    return <blockquote className="docs-reason">{said('documents.recipient.reason', { reason: d.reason })}</blockquote>
  }
  return <Changes changes={changesOf(entry.type, d)} />
}

function changesOf(type: string, d: Record<string, unknown>): Change[] {
  const list = Array.isArray(d.changes) ? (d.changes as { type?: string; from?: unknown; to?: unknown }[]) : []
  switch (type) {
    case 'DOCUMENT_TITLE_UPDATED':
    case 'DOCUMENT_EXTERNAL_ID_UPDATED':
      return [{ from: d.from, to: d.to }]
    case 'DOCUMENT_VISIBILITY_UPDATED':
      return [{ from: visibility(d.from), to: visibility(d.to) }]
    case 'DOCUMENT_META_UPDATED': {
      const named = list
        .filter((c) => META_NAMES.includes(String(c.type)))
        .map((c) => ({ label: ct(`documents.audit.change.${c.type}` as ConsoleKey), ...(SHOWN_VALUES.includes(String(c.type)) && { from: c.from, to: c.to }) }))
      const others = d.otherChanges && typeof d.otherChanges === 'object' && Object.keys(d.otherChanges).length > 0
      return [...named, ...(others ? [{ label: ct('documents.audit.otherSettings') }] : [])]
    }
    default:
      return []
  }
}

const visibility = (v: unknown) => (typeof v === 'string' ? ct(`documents.visibility.${v}` as ConsoleKey) : v)

function Changes({ changes }: { changes: Change[] }) {
  if (!changes.length) return null
  return (
    <ul className="team-changes docs-changes">
      {changes.map((c, i) => (
        <li key={i}>
          {c.label}
          {c.label && 'to' in c && ': '}
          {'to' in c && (
            <>
              <del>{valueText(c.from)}</del> {ct('documents.audit.arrow')} <ins>{valueText(c.to)}</ins>
            </>
          )}
        </li>
      ))}
    </ul>
  )
}

/** A value as it reads in a line: a long message cut short, nothing said as "none". */
function valueText(v: unknown): ReactNode {
  if (v === null || v === undefined || v === '') return <em>{ct('documents.audit.none')}</em>
  const text = typeof v === 'string' ? v : JSON.stringify(v)
  return <bdi>{text.length > 80 ? `${text.slice(0, 79)}…` : text}</bdi>
}
