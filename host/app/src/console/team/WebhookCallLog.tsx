import { useCallback, useEffect, useState, type RefObject } from 'react'
import type { LoggedCall as Call } from '../../../../shared/console-contract.js'
import { consoleApi, v2 } from '../api.js'
import { ct, formatDateTime } from '../i18n/index.js'
import { ErrorAlert, Notice, TableHead, useAction } from '../parts.js'

/** Stops a log's reads and resolves once the read under way has ended. */
export type LogControl = { stop: () => Promise<void> }

/**
 * One webhook's deliveries, newest first, refreshed every few seconds while open. `control` lets
 * the page stop the reads before it deletes the webhook, so no read asks about a webhook that is
 * gone (a 404 the browser would report).
 */
export function CallLog({ webhookId, control }: { webhookId: string; control?: RefObject<LogControl | null> }) {
  const [calls, setCalls] = useState<Call[] | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const action = useAction()
  const load = useCallback(async () => setCalls((await consoleApi(`/webhooks/${webhookId}/calls?perPage=20`)).data), [webhookId])
  useEffect(() => {
    let stopped = false
    let reading: Promise<void> = Promise.resolve()
    const read = () => {
      if (!stopped) reading = load().catch(() => {})
    }
    const timer = setInterval(read, 3000)
    const stop = () => {
      stopped = true
      clearInterval(timer)
    }
    read()
    if (control)
      control.current = {
        stop: async () => {
          stop()
          await reading
        },
      }
    return () => {
      stop()
      if (control) control.current = null
    }
  }, [load, control])
  if (!calls) return <p role="status">{ct('shell.loading')}</p>
  const resend = (c: Call) =>
    void action.run(async () => {
      await v2(`/webhook/call/${c.id}/resend`, { body: {} })
      setNotice(ct('team.webhooks.resent'))
      await load()
    })
  return (
    <div className="stack-sm">
      <ErrorAlert error={action.error} />
      {notice && <Notice>{notice}</Notice>}
      {calls.length === 0 ? (
        <p className="muted">{ct('team.webhooks.noCalls')}</p>
      ) : (
        <table className="console-table" aria-label={ct('team.webhooks.calls')}>
          <TableHead
            columns={[ct('team.webhooks.when'), ct('team.webhooks.event'), ct('team.webhooks.document'), ct('team.webhooks.status'), ct('team.webhooks.detail')]}
            actions
          />
          <tbody>
            {calls.map((c) => (
              <tr key={c.id}>
                <td>{formatDateTime(c.createdAt)}</td>
                <td data-label={ct('team.webhooks.event')}>{c.event}</td>
                <td data-label={ct('team.webhooks.document')}>
                  {c.document ? (
                    <a href={`/console/${c.document.type === 'TEMPLATE' ? 'templates' : 'documents'}/${encodeURIComponent(c.document.id)}`}>
                      {c.document.title || ct('team.webhooks.untitled')}
                    </a>
                  ) : (
                    <span className="muted">{ct('team.webhooks.noDocument')}</span>
                  )}
                </td>
                <td data-label={ct('team.webhooks.status')}>
                  <span className="badge">{c.responseStatus ?? ct('team.webhooks.noAnswer')}</span>{' '}
                  <span className="muted small">{ct('team.webhooks.duration', { ms: String(c.durationMs) })}</span>
                  {c.responseExcerpt && <div className="muted small team-excerpt">{c.responseExcerpt.slice(0, 120)}</div>}
                </td>
                <td data-label={ct('team.webhooks.detail')}>
                  <details>
                    <summary>{ct('team.webhooks.requestResponse')}</summary>
                    <h4 className="label">{ct('team.webhooks.headers')}</h4>
                    <dl className="team-headers">
                      {c.requestHeaders.map((h) => (
                        <div key={h.name}>
                          <dt>{h.name}</dt>
                          <dd>{h.value ?? <em className="muted">{ct('team.webhooks.hidden')}</em>}</dd>
                        </div>
                      ))}
                    </dl>
                    <h4 className="label">{ct('team.webhooks.requestBody')}</h4>
                    {/* Scrolls when long: reachable by keyboard. */}
                    <pre className="team-pre" tabIndex={0} aria-label={ct('team.webhooks.requestBody')}>
                      {JSON.stringify(c.requestBody, null, 2)}
                    </pre>
                    <h4 className="label">{ct('team.webhooks.responseBody')}</h4>
                    <pre className="team-pre" tabIndex={0} aria-label={ct('team.webhooks.responseBody')}>
                      {c.responseExcerpt}
                    </pre>
                  </details>
                </td>
                <td>
                  <button className="btn btn-sm btn-secondary" type="button" disabled={action.busy} onClick={() => resend(c)}>
                    {ct('team.webhooks.resend')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
