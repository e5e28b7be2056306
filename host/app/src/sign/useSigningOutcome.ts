import { useCallback } from 'react'
import type { DirectSigningResult, SignedData, SigningResult } from '../../../../src/protocol/index.js'
import type { Api } from '../page/api.js'
import type { SignLaunch } from '../page/boot.js'
import { post } from '../page/bridge.js'
import { GRANT_HEADER } from './auth-info.js'
import { loadSigningSession, safeRedirect, signedData, signingApi, type SigningSession } from './session.js'
import type { SigningView } from './useSigningView.js'

/** What became of a document in a multi-sign frame. */
export interface Outcome {
  action: 'document-completed' | 'document-rejected'
  data: SignedData
  reason?: string
}

/** How long the done screen stays before a redirect, so the recipient sees that it worked. */
export const REDIRECT_DELAY = 2000

/**
 * The end of signing: the parent (and a multi-sign list) hears of a completed or rejected document,
 * the view turns to its done or rejected screen, and a completed one redirects if the sender asked.
 */
export function useSigningOutcome(api: Api, launch: SignLaunch, multi: { onOutcome: (o: Outcome) => void } | undefined, setView: (view: SigningView) => void) {
  const completed = useCallback(
    (session: SigningSession, result: SigningResult | DirectSigningResult) => {
      const redirectUrl = safeRedirect(result.redirectUrl ?? session.envelope.documentMeta.redirectUrl)
      // The parent hears of it before anything navigates away.
      if ('token' in result) {
        // A direct link made a document: the visitor goes on as its recipient, with their own token.
        const { status: _s, redirectUrl: _r, grant, ...data } = result as DirectSigningResult & { grant?: string }
        post({ action: 'document-completed', data })
        const own = signingApi(result.token)
        // The document made keeps the link's access check: the one just passed holds for it.
        if (grant) own.setHeader(GRANT_HEADER, grant)
        const done = (s: SigningSession) => setView({ kind: 'done', api: own, session: s, result, redirectUrl })
        loadSigningSession(own).then(done, () => done(session))
      } else {
        const data = signedData(launch, session)
        post({ action: 'document-completed', data })
        multi?.onOutcome({ action: 'document-completed', data })
        setView({ kind: 'done', api, session, result, redirectUrl })
      }
      if (redirectUrl && !multi) setTimeout(() => navigate(redirectUrl, launch.embedded), REDIRECT_DELAY)
    },
    [api, launch, multi],
  )

  const rejected = useCallback(
    (session: SigningSession, reason: string) => {
      const data = signedData(launch, session)
      post({ action: 'document-rejected', data: { ...data, reason } })
      multi?.onOutcome({ action: 'document-rejected', data, reason })
      setView({ kind: 'rejected', session, reason })
    },
    [launch, multi],
  )

  return { completed, rejected }
}

/** Embeds move their own frame (the customer's page stays); the standalone page moves the whole tab. */
function navigate(url: string, embedded: boolean) {
  if (!embedded) {
    try {
      if (window.top && window.top !== window) {
        window.top.location.assign(url)
        return
      }
    } catch {
      /* a cross-origin top that may not be navigated: move this window instead */
    }
  }
  window.location.assign(url)
}
