/**
 * The multi-sign embed (`/embed/v1/multisign?token=a&token=b#{options}`, the deployed library's
 * EmbedMultiSignDocument): one person's documents in a list; each opens in the signing page, and
 * once every one is signed or rejected the parent hears `all-documents-completed`.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { AllDocumentsCompleted } from '../../../../src/protocol/index.js'
import type { SignLaunch } from '../page/boot.js'
import { post } from '../page/bridge.js'
import { t, type MessageKey } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import { FailureScreen, Loading } from './Screens.js'
import { SignApp } from './SignApp.js'
import type { Outcome } from './useSigningOutcome.js'
import { ApiError } from '../page/api.js'
import { embedCode, loadFailure, loadSigningSession, signedData, signingApi, type LoadFailure, type SigningSession } from './session.js'

/** `locked`: the sender asks this recipient to prove who they are first; nothing of it is shown before (its page asks). */
type Doc = { token: string; session: SigningSession | null; failure: LoadFailure | null; outcome: Outcome | null; locked?: boolean }

/** A document's outcome from its state when it was not acted on in this frame. */
function settled(d: Doc, launch: SignLaunch): Outcome | null {
  if (d.outcome) return d.outcome
  const s = d.session
  if (!s) return null
  const data = signedData({ ...launch, token: d.token }, s)
  if (s.recipient.signingStatus === 'SIGNED') return { action: 'document-completed', data }
  if (s.recipient.signingStatus === 'REJECTED') return { action: 'document-rejected', data, ...(s.recipient.rejectionReason ? { reason: s.recipient.rejectionReason } : {}) }
  return null
}

export function MultiSignApp({ launch }: { launch: SignLaunch & { tokens: string[] } }) {
  const [docs, setDocs] = useState<Doc[]>(() => launch.tokens.map((token) => ({ token, session: null, failure: null, outcome: null })))
  const [open, setOpen] = useState<number | null>(null)
  const [loads, setLoads] = useState(0)
  const announced = useRef({ ready: false, all: false })

  const apis = useMemo(() => launch.tokens.map((token) => signingApi(token)), [launch])
  const update = useCallback((i: number, change: Partial<Doc>) => setDocs((list) => list.map((d, j) => (j === i ? { ...d, ...change } : d))), [])

  // Every document's session, at once; again after a document closes (its state changed).
  useEffect(() => {
    apis.forEach((api, i) =>
      loadSigningSession(api).then(
        (session) => update(i, { session, failure: null, locked: false }),
        (e: unknown) => update(i, e instanceof ApiError && e.code === 'AUTH_REQUIRED' ? { locked: true, failure: null } : { failure: loadFailure(e) }),
      ),
    )
  }, [apis, loads, update])

  const loaded = docs.every((d) => d.session || d.failure || d.locked)
  const failed = docs.find((d) => d.failure)?.failure ?? null
  useEffect(() => {
    if (!loaded || announced.current.ready) return
    announced.current.ready = true
    if (failed) {
      const message = t(`sign.error.${failed}` as MessageKey)
      post({ action: 'document-error', data: message })
      post({ type: 'embed-error', code: embedCode(failed), message })
    } else {
      // embed-ready first: it tells the parent the commands this page answers before it counts as ready.
      post({ type: 'embed-ready' })
      post({ action: 'document-ready' })
    }
  }, [loaded, failed])

  const outcomes = docs.map((d) => settled(d, launch))
  const done = outcomes.filter(Boolean).length
  useEffect(() => {
    if (!loaded || failed || done < docs.length || announced.current.all) return
    announced.current.all = true
    const documents = outcomes.map((o) => ({ ...o!.data, action: o!.action, ...(o!.reason !== undefined ? { reason: o!.reason } : {}) }))
    post({ action: 'all-documents-completed', data: { documents } } satisfies AllDocumentsCompleted)
  })

  // Each document signed or rejected here is told at once, with the frame's progress.
  const current = useRef(docs)
  current.current = docs
  const multi = useMemo(
    () => ({
      onOutcome: (o: Outcome) => {
        const list = current.current.map((d) => (d.token === o.data.token ? { ...d, outcome: o } : d))
        setDocs((now) => now.map((d) => (d.token === o.data.token ? { ...d, outcome: o } : d)))
        const done = list.filter((d) => settled(d, launch)).length
        post({ action: 'signer-completed', data: { ...o.data, action: o.action, ...(o.reason !== undefined ? { reason: o.reason } : {}), done, total: list.length } })
      },
    }),
    [launch],
  )

  // One session request per opening of a document (SignApp shows its own loading state meanwhile).
  const first = useMemo(() => (open === null ? null : loadSigningSession(apis[open]!)), [open, apis])
  // Stable while the document is open: a new launch would make SignApp load its session again.
  const docLaunch = useMemo(() => (open === null ? null : { ...launch, token: launch.tokens[open]!, tokens: undefined }), [open, launch])

  if (!loaded) return <Loading />
  if (failed) return <FailureScreen failure={failed} onRetry={() => setLoads((n) => n + 1)} />
  if (open !== null) {
    const doc = docs[open]!
    return (
      <div className="multi-open">
        <nav className="multi-back">
          <button
            type="button"
            className="btn btn-sm"
            data-testid="multi-back"
            onClick={() => {
              setOpen(null)
              setLoads((n) => n + 1)
            }}
          >
            <Icon name="arrowLeft" size={16} />
            {t('sign.multi.back', { done, total: docs.length })}
          </button>
        </nav>
        <SignApp key={doc.token} launch={docLaunch!} api={apis[open]!} first={first!} multi={multi} />
      </div>
    )
  }
  return (
    <main className="center-screen">
      <div className="card card-pad multi-list" data-testid="multi-list">
        <h1 className="result-title">{t('sign.multi.title')}</h1>
        <p className="muted">{done === docs.length ? t('sign.multi.allDone') : t('sign.multi.progress', { done, total: docs.length })}</p>
        <ul>
          {docs.map((d, i) => {
            const outcome = outcomes[i]
            if (!d.session) {
              return (
                <li key={d.token} className="multi-item" data-state="AUTH_REQUIRED">
                  <span className="multi-item-text">
                    <span className="multi-item-title">{t('sign.multi.locked')}</span>
                    <span className="muted small">{t('sign.auth.accessLead')}</span>
                  </span>
                  <button type="button" className="btn btn-sm btn-primary" onClick={() => setOpen(i)}>
                    {t('sign.multi.open')}
                  </button>
                </li>
              )
            }
            const status = outcome ? (outcome.action === 'document-completed' ? t('sign.multi.signed') : t('sign.multi.rejected')) : d.session.state === 'READY' ? t('sign.multi.toSign') : t(`sign.state.${d.session.state}.title` as MessageKey)
            return (
              <li key={d.token} className="multi-item" data-state={outcome ? outcome.action : d.session.state}>
                <span className="multi-item-text">
                  <span className="multi-item-title">{d.session.envelope.title}</span>
                  <span className="muted small">{status}</span>
                </span>
                <button type="button" className={`btn btn-sm ${outcome ? '' : 'btn-primary'}`} onClick={() => setOpen(i)}>
                  {outcome || d.session.state !== 'READY' ? t('sign.multi.view') : t('sign.multi.open')}
                </button>
              </li>
            )
          })}
        </ul>
      </div>
    </main>
  )
}
