import type { ReactNode } from 'react'
import { ct, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import type { AuditLogEntry } from './types.js'

/** The document's audit trail, newest first: what happened, who did it, and what changed. */
export function Timeline({ audit }: { audit: AuditLogEntry[] }) {
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
                {what(a)}
                {(a.name || a.email) && <span className="muted"> · {a.name || a.email}</span>}
                <Detail entry={a} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** The entry's type in words; an approver's or viewer's completion says what they did. */
function what(a: AuditLogEntry): string {
  const role = a.data?.recipientRole
  if (a.type === 'DOCUMENT_RECIPIENT_COMPLETED' && (role === 'APPROVER' || role === 'VIEWER' || role === 'ASSISTANT')) return ct(`documents.audit.completed.${role}`)
  const key = `documents.audit.${a.type}` as ConsoleKey
  return ct(key) === key ? a.type : ct(key)
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
    // The reason in its own direction (a Latin sentence in a Hebrew page keeps its full stop at its end).
    const [before, after] = ct('documents.recipient.reason', { reason: '\u0000' }).split('\u0000')
    return (
      <blockquote className="docs-reason">
        {before}
        <bdi>{d.reason}</bdi>
        {after}
      </blockquote>
    )
  }
  return <Changes changes={changesOf(entry.type, d)} />
}

function changesOf(type: string, d: Record<string, unknown>): Change[] {
  const list = Array.isArray(d.changes) ? (d.changes as { type?: string; from?: unknown; to?: unknown }[]) : []
  switch (type) {
    case 'RECIPIENT_UPDATED':
      return list.filter((c) => c.type === 'NAME' || c.type === 'EMAIL').map((c) => ({ label: ct(`documents.audit.change.${c.type as 'NAME' | 'EMAIL'}`), from: c.from, to: c.to }))
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
