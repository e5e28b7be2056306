import type { FormEvent } from 'react'
import type { DocumentList, Member } from '../../../../shared/console-contract.js'
import { ct, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import { linkProps } from '../router.js'

/** What the list's address may carry; everything else is dropped. */
export const KEYS = ['query', 'status', 'period', 'sender', 'owner', 'sort', 'page'] as const
export type ListKey = (typeof KEYS)[number]
export const STATUSES = ['DRAFT', 'PENDING', 'COMPLETED', 'REJECTED', 'CANCELLED'] as const
const PERIODS = ['7d', '30d', '90d', '12m'] as const
const SORTS = ['created', 'title', 'updated'] as const

type Changes = Partial<Record<ListKey, string>>

/** The documents' statuses as tabs, each with its count. */
export function StatusTabs(props: { status: string; data: DocumentList | null; total: number; hrefWith: (changes: Changes) => string }) {
  const { status, data, total, hrefWith } = props
  return (
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
  )
}

/** The search box and the filters (period, sender, owner, sort), each choice a new address. */
export function ListFilters(props: {
  typed: string
  onType: (text: string) => void
  onSearch: (e: FormEvent) => void
  get: (key: ListKey) => string
  go: (changes: Changes) => void
  members: Member[]
  filtered: boolean
  onClear: () => void
}) {
  const { typed, get, go, members, filtered } = props
  return (
    <>
      <form className="docs-filters" role="search" onSubmit={props.onSearch}>
        <label className="form-field docs-search">
          <span className="label">{ct('documents.search')}</span>
          <input className="input" type="search" name="query" value={typed} onChange={(e) => props.onType(e.target.value)} placeholder={ct('documents.searchHint')} />
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
          <button className="btn btn-secondary" type="button" onClick={props.onClear}>
            {ct('documents.clear')}
          </button>
        )}
      </div>
    </>
  )
}

/** One page of the list, and the pager when there are more. */
export function EnvelopeTable(props: { type: 'DOCUMENT' | 'TEMPLATE'; base: string; data: DocumentList; page: number; go: (changes: Changes) => void }) {
  const { type, base, data, page, go } = props
  return (
    <>
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
  )
}
