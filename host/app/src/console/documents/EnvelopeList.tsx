import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { DocumentList, Member } from '../../../../shared/console-contract.js'
import { consoleApi } from '../api.js'
import { ct, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import { useMe } from '../me.js'
import { ErrorAlert, messageOf } from '../parts.js'
import { linkProps, navigate, useSearch } from '../router.js'
import { NewEnvelope, NewEnvelopeButton } from './NewEnvelope.js'

const STATUSES = ['DRAFT', 'PENDING', 'COMPLETED', 'REJECTED', 'CANCELLED'] as const
const PERIODS = ['7d', '30d', '90d', '12m'] as const
const SORTS = ['created', 'title', 'updated'] as const
const PER_PAGE = 20
/** What the list's address may carry; everything else is dropped. */
const KEYS = ['query', 'status', 'period', 'sender', 'owner', 'sort', 'page'] as const

/**
 * `/console/documents` and `/console/templates`: the team's envelopes the member may see, searched,
 * filtered, sorted and paged. Every choice lives in the address (`?status=PENDING&page=2`), so the
 * back button, a reload and a shared link all show the same list.
 */
export function EnvelopeList({ type }: { type: 'DOCUMENT' | 'TEMPLATE' }) {
  const { me } = useMe()
  const base = type === 'DOCUMENT' ? '/console/documents' : '/console/templates'
  const url = useSearch()
  const get = (k: (typeof KEYS)[number]) => url.get(k) ?? ''
  const query = get('query')
  const status = type === 'DOCUMENT' ? get('status') : ''
  const page = Math.max(1, Number(get('page')) || 1)
  const [typed, setTyped] = useState(query)
  const [data, setData] = useState<DocumentList | null>(null)
  const [members, setMembers] = useState<Member[]>([])
  const [error, setError] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  /** The new-envelope form is open (from the header's button or the empty list's). */
  const [creating, setCreating] = useState(false)
  const toggleNew = () => setCreating(!creating)
  useEffect(() => heading.current?.focus(), [type])
  // Back and forward bring their search back into the box.
  useEffect(() => setTyped(query), [query])

  useEffect(() => {
    consoleApi('/team/members').then(
      (m) => setMembers(m.data),
      () => setMembers([]),
    )
  }, [me.team?.teamId])

  const key = KEYS.map((k) => `${k}=${get(k)}`).join('&')
  useEffect(() => {
    const params = new URLSearchParams({ type, perPage: String(PER_PAGE), page: String(page) })
    for (const k of KEYS) if (k !== 'page' && get(k) && (k !== 'status' || type === 'DOCUMENT')) params.set(k, get(k))
    let current = true
    consoleApi(`/documents?${params}` as '/documents').then(
      (d) => current && (setData(d), setError(null)),
      (e) => current && setError(messageOf(e)),
    )
    return () => {
      current = false
    }
  }, [type, key, me.team?.teamId])

  /** A new address for the list: the changes over the current choices, back to page 1 unless a page is given. */
  const hrefWith = (changes: Partial<Record<(typeof KEYS)[number], string>>) => {
    const next = new URLSearchParams()
    for (const k of KEYS) {
      const v = k in changes ? changes[k] : k === 'page' ? '' : get(k)
      if (v && !(k === 'page' && v === '1') && !(k === 'sort' && v === 'created')) next.set(k, v)
    }
    const search = next.toString()
    return `${base}${search ? `?${search}` : ''}`
  }
  const go = (changes: Partial<Record<(typeof KEYS)[number], string>>) => navigate(hrefWith(changes))
  const search = (e: FormEvent) => {
    e.preventDefault()
    go({ query: typed.trim() })
  }
  const title = type === 'DOCUMENT' ? ct('documents.title') : ct('templates.title')
  const filtered = !!(query || status || get('period') || get('sender') || get('owner'))
  const total = data ? STATUSES.reduce((n, s) => n + data.statusCounts[s], 0) : 0
  const from = data && data.count ? (data.page - 1) * data.perPage + 1 : 0
  const to = data ? Math.min(data.count, data.page * data.perPage) : 0

  return (
    <div className="stack">
      <div className="docs-list-head">
        <h1 ref={heading} tabIndex={-1} className="docs-title">
          {title}
        </h1>
        <NewEnvelopeButton type={type} open={creating} onToggle={toggleNew} controls="docs-new" />
      </div>
      {creating && <NewEnvelope type={type} id="docs-new" onClose={() => (setCreating(false), heading.current?.focus())} />}
      {type === 'DOCUMENT' && (
        <nav className="docs-tabs" aria-label={ct('documents.status')}>
          {(['', ...STATUSES] as const).map((s) => (
            <a
              key={s || 'all'}
              className="docs-tab"
              aria-current={status === s ? 'page' : undefined}
              {...linkProps(hrefWith({ status: s }))}
            >
              {s ? ct(`documents.status.${s}`) : ct('documents.status.all')}{' '}
              <span className="docs-tab-count">{data ? (s ? data.statusCounts[s] : total) : '…'}</span>
            </a>
          ))}
        </nav>
      )}
      <form className="docs-filters" role="search" onSubmit={search}>
        <label className="form-field docs-search">
          <span className="label">{ct('documents.search')}</span>
          <input className="input" type="search" name="query" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={ct('documents.searchHint')} />
        </label>
        <button className="btn btn-primary" type="submit">
          {ct('documents.searchButton')}
        </button>
      </form>
      <div className="docs-filters">
        <label className="form-field">
          <span className="label">{ct('documents.period')}</span>
          <select className="input" name="period" value={get('period')} onChange={(e) => go({ period: e.target.value })}>
            <option value="">{ct('documents.period.any')}</option>
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                {ct(`documents.period.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="form-field">
          <span className="label">{ct('documents.sender')}</span>
          <select className="input" name="sender" value={get('sender')} onChange={(e) => go({ sender: e.target.value })}>
            <option value="">{ct('documents.sender.any')}</option>
            {members.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.name || m.email}
              </option>
            ))}
          </select>
        </label>
        <label className="form-field">
          <span className="label">{ct('documents.owner')}</span>
          <select className="input" name="owner" value={get('owner')} onChange={(e) => go({ owner: e.target.value })}>
            <option value="">{ct('documents.owner.any')}</option>
            <option value="me">{ct('documents.owner.me')}</option>
            <option value="api">{ct('documents.owner.api')}</option>
          </select>
        </label>
        <label className="form-field">
          <span className="label">{ct('documents.sort')}</span>
          <select className="input" name="sort" value={get('sort') || 'created'} onChange={(e) => go({ sort: e.target.value })}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {ct(`documents.sort.${s}`)}
              </option>
            ))}
          </select>
        </label>
        {filtered && (
          <button className="btn btn-secondary" type="button" onClick={() => navigate(base)}>
            {ct('documents.clear')}
          </button>
        )}
      </div>
      <ErrorAlert error={error} />
      {!data ? (
        <p role="status">{ct('shell.loading')}</p>
      ) : data.data.length === 0 ? (
        <div className="stack">
          <p className="empty">{filtered ? ct('documents.noMatch') : type === 'DOCUMENT' ? ct('documents.none') : ct('templates.none')}</p>
          {!filtered && !creating && (
            <div>
              <NewEnvelopeButton type={type} open={creating} onToggle={toggleNew} controls="docs-new" />
            </div>
          )}
        </div>
      ) : (
        <>
          <p className="muted small" role="status">
            {ct('documents.range', { from, to, count: data.count })}
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
          {data.totalPages > 1 && (
            <nav className="docs-pager" aria-label={ct('documents.pages')}>
              <button className="btn btn-sm btn-secondary" type="button" disabled={page <= 1} onClick={() => go({ page: String(page - 1) })}>
                {ct('documents.previous')}
              </button>
              <span className="muted small">{ct('documents.pageOf', { page, pages: data.totalPages })}</span>
              <button className="btn btn-sm btn-secondary" type="button" disabled={page >= data.totalPages} onClick={() => go({ page: String(page + 1) })}>
                {ct('documents.next')}
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  )
}
