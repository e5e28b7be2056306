import { useCallback, useEffect, useState } from 'react'
import type { Webhook } from '../../../../../src/protocol/api.js'
import { v2 } from '../api.js'
import { ct, formatDateTime } from '../i18n/index.js'
import { messageOf, useAction } from '../parts.js'

/**
 * The team's webhooks and what is done to them, one action at a time: read when the member may
 * (again on a team switch and after each change), a notice when one is done, and a signing key
 * just made (a webhook added, a secret or key rotated), which that answer alone carries, so it is
 * kept in `shown` to be shown this once.
 */
export function useWebhooks(allowed: boolean, teamId: string | undefined) {
  const [hooks, setHooks] = useState<Webhook[] | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [shown, setShown] = useState<{ title: string; key: string } | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const action = useAction()

  const load = useCallback(async () => {
    try {
      setHooks((await v2<{ data: Webhook[] }>('/webhook')).data)
    } catch (err) {
      setLoadError(messageOf(err))
    }
  }, [])
  useEffect(() => {
    if (allowed) void load()
  }, [load, allowed, teamId])

  const create = (body: { url: string; events: string[]; secret: string }, onCreated: (hook: Webhook) => void) => {
    const { url, events, secret } = body
    void action.run(async () => {
      // Every call is signed with the webhook's own key; the secret header goes only where one was typed.
      const hook = await v2<Webhook>('/webhook/create', { body: { url, events, ...(secret && { secret }), sendSecretHeader: !!secret } })
      onCreated(hook)
      setNotice(null)
      setShown({ title: ct('team.webhooks.created', { url: hook.url }), key: hook.signingKey ?? '' })
      await load()
    })
  }
  const rotate = (h: Webhook) => {
    void action.run(async () => {
      const rotated = await v2<Webhook>(`/webhook/${h.id}/rotate-secret`, { body: {} })
      const until = formatDateTime(rotated.previousSecretExpiresAt)
      setNotice(null)
      setShown({ title: ct('team.webhooks.rotated', { url: h.url, secret: rotated.secret, until }), key: rotated.signingKey ?? '' })
      await load()
    })
  }
  const rotateKey = (h: Webhook) => {
    void action.run(async () => {
      const rotated = await v2<Webhook>(`/webhook/${h.id}/rotate-signing-key`, { body: {} })
      setNotice(null)
      setShown({ title: ct('team.webhooks.keyRotated', { url: h.url, until: formatDateTime(rotated.previousSecretExpiresAt) }), key: rotated.signingKey ?? '' })
      await load()
    })
  }
  const run = (fn: () => Promise<unknown>, done?: string) =>
    void action.run(async () => {
      await fn()
      if (done) setNotice(done)
      await load()
    })

  return { hooks, loadError, notice, setNotice, shown, setShown, action, load, create, rotate, rotateKey, run }
}
