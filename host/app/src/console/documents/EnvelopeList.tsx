import { useEffect, useRef, useState, type FormEvent } from 'react'
import { v2 } from '../api.js'
import { ct, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import { useMe } from '../me.js'
import { ErrorAlert, Pager, messageOf } from '../parts.js'
import { linkProps } from '../router.js'
import type { EnvelopePage } from './types.js'

const STATUSES = ['DRAFT', 'PENDING', 'COMPLETED', 'REJECTED', 'CANCELLED'] as const
const PER_PAGE = 20

/** `/console/documents` and `/console/templates`: the team's envelopes it may see, searched and filtered, a page at a time. */
export function EnvelopeList({ type }: { type: 'DOCUMENT' | 'TEMPLATE' }) {
  const { me } = useMe()
  const base = type === 'DOCUMENT' ? '/console/documents' : '/console/templates'
  const [typed, setTyped] = useState('')
  const [query, setQuery] = useState('')
  const [status, setStatus] = useState('')
  const [page, setPage] = useState(1)
  const [data, setData] = useState<EnvelopePage | null>(null)
  const [error, setError] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [type])

  useEffect(() => {
    const params = new URLSearchParams({ type, page: String(page), perPage: String(PER_PAGE) })
    if (query) params.set('query', query)
    if (status) params.set('status', status)
    let current = true
    v2<EnvelopePage>(`/envelope?${params}`).then(
      (d) => current && (setData(d), setError(null)),
      (e) => current && setError(messageOf(e)),
    )
    return () => {
      current = false
    }
  }, [type, query, status, page, me.team?.teamId])

  const search = (e: FormEvent) => {
    e.preventDefault()
    setPage(1)
    setQuery(typed.trim())
  }
  const title = type === 'DOCUMENT' ? ct('documents.title') : ct('templates.title')

  return (
    <div className="stack">
      <h1 ref={heading} tabIndex={-1} className="docs-title">
        {title}
      </h1>
      <form className="docs-filters" role="search" onSubmit={search}>
        <label className="form-field docs-search">
          <span className="label">{ct('documents.search')}</span>
          <input className="input" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={ct('documents.searchHint')} />
        </label>
        {type === 'DOCUMENT' && (
          <label className="form-field">
            <span className="label">{ct('documents.status')}</span>
            <select
              className="input"
              value={status}
              onChange={(e) => {
                setPage(1)
                setStatus(e.target.value)
              }}
            >
              <option value="">{ct('documents.status.all')}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {ct(`documents.status.${s}`)}
                </option>
              ))}
            </select>
          </label>
        )}
        <button className="btn btn-primary" type="submit">
          {ct('documents.searchButton')}
        </button>
      </form>
      <ErrorAlert error={error} />
      {!data ? (
        <p role="status">{ct('shell.loading')}</p>
      ) : data.data.length === 0 ? (
        <p className="empty">{query || status ? ct('documents.noMatch') : type === 'DOCUMENT' ? ct('documents.none') : ct('templates.none')}</p>
      ) : (
        <>
          <p className="muted small" role="status">
            {ct('documents.count', { count: data.count })}
          </p>
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{ct('documents.col.title')}</th>
                {type === 'DOCUMENT' && <th scope="col">{ct('documents.status')}</th>}
                <th scope="col">{ct('documents.col.recipients')}</th>
                <th scope="col">{ct('documents.col.created')}</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((e) => (
                <tr key={e.id}>
                  <td>
                    <a {...linkProps(`${base}/${e.id}`)}>{e.title}</a>
                  </td>
                  {type === 'DOCUMENT' && (
                    <td data-label={ct('documents.status')}>
                      <span className={`badge docs-status docs-status-${e.status.toLowerCase()}`}>{ct(`documents.status.${e.status}` as ConsoleKey)}</span>
                    </td>
                  )}
                  <td data-label={ct('documents.col.recipients')}>{e.recipients.map((r) => r.name || r.email).join(', ') || '—'}</td>
                  <td data-label={ct('documents.col.created')}>{formatDateTime(e.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pages={data.totalPages} label={ct('documents.pages')} onPage={setPage} />
        </>
      )}
    </div>
  )
}
