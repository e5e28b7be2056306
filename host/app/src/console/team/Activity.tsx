import { useEffect, useState } from 'react'
import type { ActivityPage, ActivityWords } from '../../../../shared/console-contract.js'
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
                <strong>{actorName(e.actor)}</strong> {ct(`team.activity.${e.action}` as ConsoleKey)}
                {e.subject && <> <strong className="team-subject">{e.subject}</strong></>}
                {e.changes.length > 0 && (
                  <ul className="team-changes">
                    {e.changes.map((ch) => (
                      <li key={ch.field}>
                        {fieldName(ch.field)}: {ch.from !== null && <><del>{valueOf(ch.field, ch.from)}</del> → </>}
                        <ins>{ch.to === null ? '—' : valueOf(ch.field, ch.to)}</ins>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
      {data && <Pager page={page} pages={data.totalPages} label={ct('team.activity.pages')} onPage={setPage} />}
    </SettingsLayout>
  )
}

const FIELDS = ['role', 'url', 'events', 'enabled', 'secret', 'signingKey', 'sendSecretHeader', 'name', 'expires'] as const

/** Who did it, in words. */
function actorName(a: ActivityWords['actor']): string {
  if (a.kind === 'member') return a.name ? `${a.name} (${a.email})` : a.email
  if (a.kind === 'token') return ct('team.activity.byToken', { name: a.name })
  return ct('team.activity.operator')
}

const fieldName = (field: string) => ((FIELDS as readonly string[]).includes(field) ? ct(`team.activity.field.${field}` as ConsoleKey) : field)

/** A value as a person reads it: roles by their name, on/off in words. */
function valueOf(field: string, value: string): string {
  if (field === 'role' && ['ADMIN', 'MANAGER', 'MEMBER'].includes(value)) return ct(`team.role.${value}` as ConsoleKey)
  // The secret's and the signing key's values are never kept: only that they were replaced.
  if (field === 'secret' || field === 'signingKey') return ct('team.activity.secretChanged')
  if (value === 'on' || value === 'off') return ct(value === 'on' ? 'team.activity.on' : 'team.activity.off')
  return value
}
