import { useCallback, useEffect, useRef, useState } from 'react'
import { STATE_MOMENTS, type SigningResult } from '../../../../src/protocol/index.js'
import { ApiError, type Api } from '../page/api.js'
import type { SignLaunch } from '../page/boot.js'
import { post } from '../page/bridge.js'
import { loadLanguage, t } from '../i18n/index.js'
import { applyBrand } from '../page/theme.js'
import { loadAuthInfo, type AuthInfo } from './auth-info.js'
import { useDownloadOffer } from './commands.js'
import { startLanguage } from './LanguagePicker.js'
import { embedCode, loadFailure, loadSigningSession, type LoadFailure, type SigningSession } from './session.js'

/** The screen the signing page shows. */
export type SigningView =
  | { kind: 'loading' }
  | { kind: 'failure'; failure: LoadFailure }
  | { kind: 'auth'; info: AuthInfo }
  | { kind: 'session'; session: SigningSession }
  | { kind: 'done'; api: Api; session: SigningSession; result: SigningResult; redirectUrl: string | null }
  | { kind: 'rejected'; session: SigningSession; reason: string }

/**
 * The recipient's session, loaded into the view: the first load uses the session the page started
 * fetching at boot (`first`), and `load` asks again (a retry, a passed access check, a stale state).
 */
export function useSigningView(api: Api, launch: SignLaunch, first: Promise<SigningSession>) {
  const [view, setView] = useState<SigningView>({ kind: 'loading' })
  const pending = useRef<Promise<SigningSession> | null>(first)
  const announced = useRef(false)

  const load = useCallback(() => {
    const promise = pending.current ?? loadSigningSession(api)
    pending.current = null
    setView({ kind: 'loading' })
    promise.then(
      async (session) => {
        await loadLanguage(startLanguage(launch.options.language, { language: session.envelope.documentMeta.language, languageChosen: session.envelope.languageChosen }))
        applyBrand(session.branding?.color, launch.options)
        document.title = t('sign.pageTitle', { title: session.envelope.title })
        setView({ kind: 'session', session })
        if (!announced.current) {
          announced.current = true
          // The first view is recorded; the page does not wait for it.
          api.post('/open', {}).catch(() => {})
        }
      },
      async (e: unknown) => {
        // The sender asked for an access check: its steps first, then the document.
        if (e instanceof ApiError && e.code === 'AUTH_REQUIRED' && !launch.direct) {
          const info = await loadAuthInfo(api).catch(() => null)
          if (info) {
            await loadLanguage(startLanguage(launch.options.language, info))
            return setView({ kind: 'auth', info })
          }
        }
        const failure = loadFailure(e)
        setView({ kind: 'failure', failure })
        const message = e instanceof Error ? e.message : String(e)
        post({ action: 'document-error', data: message })
        post({ type: 'embed-error', code: embedCode(failure), message })
      },
    )
  }, [api, launch])
  useEffect(load, [load])

  return { view, setView, load }
}

/**
 * What the parent hears of the view and may ask of it: ready, the state's moment, and the files to
 * download. `multi`: one document of a multi-sign list, whose list tells of its documents itself.
 */
export function useViewAnnouncements(view: SigningView, api: Api, multi: boolean) {
  // Ready once a session is on screen, whatever its state.
  const shown = view.kind === 'session'
  const readyPosted = useRef(false)
  useEffect(() => {
    if (!shown || readyPosted.current || multi) return
    readyPosted.current = true
    // embed-ready first: it tells the parent the commands this page answers before it counts as ready.
    post({ type: 'embed-ready' })
    post({ action: 'document-ready' })
  }, [shown])

  // After ready: a state that is a moment of its own (waiting for someone's turn, an expired
  // link) is told each time the page shows it.
  const moment = view.kind === 'session' ? STATE_MOMENTS[view.session.state] : undefined
  useEffect(() => {
    if (moment && !multi) post({ action: moment, data: null })
  }, [view])

  // The parent's download command gets what this screen offers to download, and nothing where it
  // offers nothing (a purged document's files are gone).
  useDownloadOffer(
    view.kind === 'done'
      ? { api: view.api, session: view.session, version: view.result.status === 'COMPLETED' ? 'signed' : 'original' }
      : view.kind === 'session' && !view.session.envelope.purgedAt && (view.session.state === 'READY' || view.session.state === 'COMPLETED')
        ? { api, session: view.session, version: view.session.state === 'READY' ? 'original' : 'signed' }
        : null,
  )
}
