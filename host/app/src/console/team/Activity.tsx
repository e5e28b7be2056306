import { useEffect, useState } from 'react'
import type { ActivityPage } from '../../../../shared/console-contract.js'
import { consoleApi } from '../api.js'
import { ct, formatDateTime, type ConsoleKey } from '../i18n/index.js'
import { atLeast, useMe } from '../me.js'
import { ErrorAlert, Pager, messageOf } from '../parts.js'
import { NeedsRole, SettingsLayout } from './SettingsLayout.js'

/** `/console/settings/activity`: who changed what in the team's settings, newest first. */
export function Activity() {
  const { me } = useMe()
  const allowed = atLeast(me.team?.role, 'MANAGER')
  const [page, setPage] = useState(1)
  const [data, setData] = useState<ActivityPage | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (allowed) consoleApi(`/team/activity?page=${page}&perPage=25`).then(setData, (e) => setError(messageOf(e)))
  }, [page, allowed, me.team?.teamId])
  if (!allowed) return <SettingsLayout title={ct('team.activity.title')}><NeedsRole role="MANAGER" /></SettingsLayout>
  return (
    <SettingsLayout title={ct('team.activity.title')}>
      <ErrorAlert error={error} />
      {!data ? (
        <p role="status">{ct('shell.loading')}</p>
      ) : data.data.length === 0 ? (
        <p className="muted">{ct('team.activity.none')}</p>
      ) : (
        <ol className="team-timeline">
          {data.data.map((e) => (
            <li key={e.id}>
              <time dateTime={e.createdAt} className="muted small">
                {formatDateTime(e.createdAt)}
              </time>
              <div>
                <strong>{e.by ? e.by.name || e.by.email : ct('team.activity.token')}</strong> {ct(`team.activity.${e.action}` as ConsoleKey)}
                {e.target && <span className="muted"> · {String(e.details.name ?? e.details.url ?? e.target)}</span>}
              </div>
            </li>
          ))}
        </ol>
      )}
      {data && <Pager page={page} pages={data.totalPages} label={ct('team.activity.pages')} onPage={setPage} />}
    </SettingsLayout>
  )
}
