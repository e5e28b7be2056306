import { useCallback, useEffect, useRef, useState } from 'react'
import { STATE_MOMENTS, type DirectSigningResult, type SignedData, type SigningResult } from '../../../../src/protocol/index.js'
import { ApiError, type Api } from '../page/api.js'
import type { SignLaunch } from '../page/boot.js'
import { post } from '../page/bridge.js'
import { loadLanguage, t, useLanguage } from '../i18n/index.js'
import { applyBrand } from '../page/theme.js'
import { GRANT_HEADER, isAuthFailure, loadAuthInfo, type AccessProof, type ActionProof, type AuthInfo, type DirectAuthInfo, type Prove } from './auth-info.js'
import { AccessGate, ActionAuthDialog } from './AuthSteps.js'
import { useDownloadOffer } from './commands.js'
import { DoneScreen, FailureScreen, Loading, RejectedScreen, StateScreen } from './Screens.js'
import { DirectAuthDialog } from './DirectAuthDialog.js'
import { SignDocument } from './SignDocument.js'
import { startLanguage } from './LanguagePicker.js'
import { embedCode, loadFailure, loadSigningSession, safeRedirect, signedData, signingApi, type LoadFailure, type SigningSession } from './session.js'

type View =
  | { kind: 'loading' }
  | { kind: 'failure'; failure: LoadFailure }
  | { kind: 'auth'; info: AuthInfo }
  | { kind: 'session'; session: SigningSession }
  | { kind: 'done'; api: Api; session: SigningSession; result: SigningResult; redirectUrl: string | null }
  | { kind: 'rejected'; session: SigningSession; reason: string }

/** What became of a document in a multi-sign frame. */
export interface Outcome {
  action: 'document-completed' | 'document-rejected'
  data: SignedData
  reason?: string
}

/** How long the done screen stays before a redirect, so the recipient sees that it worked. */
export const REDIRECT_DELAY = 2000

/**
 * The signing page: loads the recipient's session and shows the screen of its state, tells
 * the parent (embeds only) what happens, and redirects when the sender asked for it.
 */
export function SignApp({
  launch,
  api,
  first,
  multi,
}: {
  launch: SignLaunch
  api: Api
  first: Promise<SigningSession>
  /** One document of a multi-sign frame: its list announces readiness and never redirects; outcomes go to it. */
  multi?: { onOutcome: (o: Outcome) => void }
}) {
  const [view, setView] = useState<View>({ kind: 'loading' })
  // The whole page is said again in the language the signer picks.
  useLanguage()
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

  // What signing needs, asked for when the recipient acts: the action runs with the proofs the
  // dialog collects. A wrong secret is told inside the dialog, which stays open for another try;
  // any other failure closes it and is the action's own. A direct link's visitor proves its
  // recipient's methods for the address they gave.
  type Proofs = { auth?: ActionProof; access?: AccessProof }
  type Asking = { act: (p: Proofs) => Promise<void>; cancel: () => void } & ({ kind: 'recipient'; info: AuthInfo } | { kind: 'direct'; info: DirectAuthInfo; email: string })
  const [asking, setAsking] = useState<Asking | null>(null)
  const prove = useCallback<Prove>(
    async (act, email) => {
      const direct = launch.direct ? await api.get<DirectAuthInfo>('/auth').catch(() => null) : null
      const info = launch.direct ? null : await loadAuthInfo(api).catch(() => null)
      const needed = direct ? direct.access.required.length > 0 || direct.action.required.length > 0 : !!info?.action.required.length
      if (!needed) return act(undefined).then(() => true)
      return new Promise<boolean>((resolve, reject) => {
        const run = async (proofs: Proofs) => {
          try {
            await act(proofs)
          } catch (e) {
            if (isAuthFailure(e)) throw e
            setAsking(null)
            return reject(e)
          }
          setAsking(null)
          resolve(true)
        }
        const cancel = () => (setAsking(null), resolve(false))
        setAsking(direct ? { kind: 'direct', info: direct, email: email ?? '', act: run, cancel } : { kind: 'recipient', info: info!, act: run, cancel })
      })
    },
    [api, launch],
  )

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
  // link) is told each time the page shows it. A multi-sign list tells of its documents itself.
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

  switch (view.kind) {
    case 'loading':
      return <Loading />
    case 'failure':
      return <FailureScreen failure={view.failure} onRetry={load} />
    case 'auth':
      return <AccessGate api={api} info={view.info} onPassed={load} />
    case 'session':
      return view.session.state === 'READY' ? (
        <>
          <SignDocument
            api={api}
            session={view.session}
            options={launch.options}
            externalId={launch.externalId}
            prove={prove}
            onCompleted={(r) => completed(view.session, r)}
            onRejected={(reason) => rejected(view.session, reason)}
            onStale={load}
          />
          {asking?.kind === 'recipient' && <ActionAuthDialog api={api} info={asking.info} onProof={(auth) => asking.act({ auth })} onClose={asking.cancel} />}
          {asking?.kind === 'direct' && <DirectAuthDialog api={api} info={asking.info} email={asking.email} onProofs={asking.act} onClose={asking.cancel} />}
        </>
      ) : (
        <StateScreen api={api} session={view.session} />
      )
    case 'done':
      return <DoneScreen api={view.api} session={view.session} result={view.result} redirectUrl={view.redirectUrl} />
    case 'rejected':
      return <RejectedScreen session={view.session} reason={view.reason} />
  }
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
