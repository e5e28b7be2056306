import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { DocumentList, Member } from '../../../../shared/console-contract.js'
import { consoleApi } from '../api.js'
import { ct } from '../i18n/index.js'
import { useMe } from '../me.js'
import { ErrorAlert, messageOf } from '../parts.js'
import { navigate, useSearch } from '../router.js'
import { EnvelopeTable, KEYS, ListFilters, STATUSES, StatusTabs, type ListKey } from './EnvelopeListParts.js'
import { NewEnvelope, NewEnvelopeButton } from './NewEnvelope.js'

const PER_PAGE = 20

/**
 * `/console/documents` and `/console/templates`: the team's envelopes the member may see, searched,
 * filtered, sorted and paged. Every choice lives in the address (`?status=PENDING&page=2`), so the
 * back button, a reload and a shared link all show the same list.
 */
export function EnvelopeList({ type }: { type: 'DOCUMENT' | 'TEMPLATE' }) {
  const { me } = useMe()
  const base = type === 'DOCUMENT' ? '/console/documents' : '/console/templates'
  const url = useSearch()
  const get = (k: ListKey) => url.get(k) ?? ''
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
  const hrefWith = (changes: Partial<Record<ListKey, string>>) => {
    const next = new URLSearchParams()
    for (const k of KEYS) {
      const v = k in changes ? changes[k] : k === 'page' ? '' : get(k)
      if (v && !(k === 'page' && v === '1') && !(k === 'sort' && v === 'created')) next.set(k, v)
    }
    const search = next.toString()
    return `${base}${search ? `?${search}` : ''}`
  }
  const go = (changes: Partial<Record<ListKey, string>>) => navigate(hrefWith(changes))
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
      {type === 'DOCUMENT' && <StatusTabs status={status} data={data} total={total} hrefWith={hrefWith} />}
      <ListFilters typed={typed} onType={setTyped} onSearch={search} get={get} go={go} members={members} filtered={filtered} onClear={() => navigate(base)} />
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
          <EnvelopeTable type={type} base={base} data={data} page={page} go={go} />
        </>
      )}
    </div>
  )
}
