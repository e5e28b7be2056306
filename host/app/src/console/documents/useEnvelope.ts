import { useCallback, useEffect, useState } from 'react'
import { consoleApi, v2 } from '../api.js'
import { messageOf } from '../parts.js'
import type { AuditLogEntry, AuditLogPage, Envelope, EnvelopeSender } from './types.js'

/**
 * One envelope as its page shows it: the envelope, its audit log and who made it, read when `id`
 * changes and again after every action (`load`); a failed read in `loadError`.
 */
export function useEnvelope(id: string) {
  const [env, setEnv] = useState<Envelope | null>(null)
  const [audit, setAudit] = useState<AuditLogEntry[]>([])
  const [sender, setSender] = useState<EnvelopeSender | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      const e = await v2<Envelope>(`/envelope/${encodeURIComponent(id)}`)
      const [log, by] = await Promise.all([
        v2<AuditLogPage>(`/envelope/${encodeURIComponent(id)}/audit-log?perPage=100&orderByDirection=desc&include=all`),
        // Who made it only decides which buttons the page offers: without it, the member's role alone does.
        consoleApi(`/documents/${encodeURIComponent(id)}/sender`).catch(() => null),
      ])
      setEnv(e)
      setAudit(log.data)
      setSender(by)
    } catch (err) {
      setLoadError(messageOf(err))
    }
  }, [id])
  useEffect(() => void load(), [load])

  return { env, audit, sender, loadError, load }
}
