import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { SigningResult } from '../../../../src/protocol/index.js'
import { ApiError, type Api } from '../page/api.js'
import { language, t, type MessageKey } from '../i18n/index.js'
import { Icon, type IconName } from '../page/icons.js'
import { downloadItem, type LoadFailure, type SigningSession } from './session.js'

type Tone = 'success' | 'error' | 'info' | 'wait'

/** A screen with one message: its heading takes focus, so a screen reader reads it at once. */
export function Screen(props: { tone: Tone; icon: IconName; title: string; children?: ReactNode; testId: string; state?: string }) {
  const heading = useRef<HTMLHeadingElement>(null)
  // Only when this document has focus already: an embed must not pull focus out of its parent's page.
  useEffect(() => void (document.hasFocus() && heading.current?.focus({ preventScroll: true })), [])
  return (
    <main className="center-screen">
      <div className="result card sign-screen" data-testid={props.testId} data-state={props.state}>
        <span className={`result-icon result-${props.tone}`}>
          <Icon name={props.icon} size={28} />
        </span>
        <h1 className="result-title" ref={heading} tabIndex={-1}>
          {props.title}
        </h1>
        {props.children}
      </div>
    </main>
  )
}

export function Loading() {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{t('sign.loading')}</span>
    </div>
  )
}

export function FailureScreen({ failure, onRetry }: { failure: LoadFailure; onRetry?: () => void }) {
  const retry = failure === 'NETWORK' || failure === 'INTERNAL'
  return (
    <Screen tone="error" icon="alert" title={t(`sign.error.${failure}.title` as MessageKey)} testId="sign-error" state={failure}>
      <p role="alert">{t(`sign.error.${failure}` as MessageKey)}</p>
      {retry && onRetry && (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          {t('sign.retry')}
        </button>
      )}
    </Screen>
  )
}

/** Every state but READY has its own screen; a document purged at the end of its retention, whatever its state, says that. */
export function StateScreen({ api, session }: { api: Api; session: SigningSession }) {
  const title = session.envelope.title
  if (session.envelope.purgedAt) return <PurgedScreen title={title} at={session.envelope.purgedAt} />
  switch (session.state) {
    case 'NOT_YOUR_TURN':
      return (
        <Screen tone="wait" icon="users" title={t('sign.state.NOT_YOUR_TURN.title')} testId="sign-state" state={session.state}>
          <p>{t('sign.state.NOT_YOUR_TURN', { title })}</p>
          {session.waitingFor.length > 0 && (
            <div className="waiting">
              <p className="label">{t('sign.state.waitingFor')}</p>
              <ul className="waiting-list">
                {session.waitingFor.map((w, i) => (
                  <li key={i}>
                    <span className="waiting-name">{w.name || w.email}</span>
                    {w.name && <span className="muted small">{w.email}</span>}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </Screen>
      )
    case 'ALREADY_COMPLETED':
      return (
        <Screen tone="success" icon="check" title={t('sign.state.ALREADY_COMPLETED.title')} testId="sign-state" state={session.state}>
          <p>{t(`sign.state.ALREADY_COMPLETED.${session.recipient.role}` as MessageKey, { title })}</p>
          <p className="muted">{t('sign.state.othersPending')}</p>
        </Screen>
      )
    case 'COMPLETED':
      return (
        <Screen tone="success" icon="check" title={t('sign.state.COMPLETED.title')} testId="sign-state" state={session.state}>
          <p>{t('sign.state.COMPLETED', { title })}</p>
          <SealedDownloads api={api} items={session.envelope.items} />
        </Screen>
      )
    case 'REJECTED': {
      const mine = session.recipient.signingStatus === 'REJECTED'
      return (
        <Screen tone="error" icon="x" title={t('sign.state.REJECTED.title')} testId="sign-state" state={session.state}>
          <p>{mine ? t('sign.state.REJECTED.mine', { title }) : t('sign.state.REJECTED', { title })}</p>
          {mine && session.recipient.rejectionReason && <Reason text={session.recipient.rejectionReason} />}
        </Screen>
      )
    }
    case 'CANCELLED':
    case 'EXPIRED':
    case 'NOT_SENT':
      return (
        <Screen tone={session.state === 'NOT_SENT' ? 'wait' : 'error'} icon={session.state === 'NOT_SENT' ? 'file' : 'alert'} title={t(`sign.state.${session.state}.title`)} testId="sign-state" state={session.state}>
          <p>{t(`sign.state.${session.state}`, { title })}</p>
        </Screen>
      )
    default:
      // A state this page does not know yet: say something true rather than nothing.
      return <FailureScreen failure="INTERNAL" />
  }
}

/** Its files were deleted at the end of its team's retention: nothing to open or download, ever again. */
export function PurgedScreen({ title, at }: { title: string; at: string }) {
  const when = new Date(at).toLocaleDateString(language(), { dateStyle: 'long' })
  return (
    <Screen tone="info" icon="trash" title={t('sign.state.PURGED.title')} testId="sign-state" state="PURGED">
      <p>{t('sign.state.PURGED', { title, when })}</p>
    </Screen>
  )
}

function Reason({ text }: { text: string }) {
  return (
    <figure className="reason">
      <figcaption className="label-sm">{t('sign.reasonLabel')}</figcaption>
      <blockquote>{text}</blockquote>
    </figure>
  )
}

/**
 * After this recipient acted: what happened, what happens next, and the document: the signed copy
 * once the service has sealed it (sealing may finish a moment after the last signature: the page
 * asks until it is there), or a copy of the original while others still have to act.
 */
export function DoneScreen(props: { api: Api; session: SigningSession; result: SigningResult; redirectUrl: string | null }) {
  const { session, result } = props
  const title = session.envelope.title
  const complete = result.status === 'COMPLETED'
  return (
    <Screen tone="success" icon="check" title={t(`sign.done.${session.recipient.role}` as MessageKey, { title })} testId="sign-done" state={result.status}>
      {complete ? (
        <>
          <p>{t('sign.done.complete')}</p>
          <Next text={t('sign.next.complete')} />
          <SealedDownloads api={props.api} items={session.envelope.items} />
        </>
      ) : (
        <>
          <p className="muted">{t('sign.done.pending')}</p>
          <Next text={t('sign.next.pending')} />
          <OriginalDownloads api={props.api} items={session.envelope.items} />
        </>
      )}
      {props.redirectUrl && <Redirecting url={props.redirectUrl} />}
    </Screen>
  )
}

function Next({ text }: { text: string }) {
  return (
    <section className="next-steps" aria-labelledby="next-steps-title">
      <h2 id="next-steps-title" className="label">
        {t('sign.next.title')}
      </h2>
      <p>{text}</p>
    </section>
  )
}

/** The signed files once the first one answers (the service seals them together); until then, a notice. */
function SealedDownloads({ api, items }: { api: Api; items: Item[] }) {
  const sealed = useSealed(api, items)
  if (sealed === 'purged') return <p className="muted">{t('sign.state.PURGED.title')}</p>
  if (!sealed)
    return (
      <p className="muted sealing" role="status" data-testid="sealing">
        <span className="spinner spinner-sm" aria-hidden="true" /> {t('sign.sealing')}
      </p>
    )
  return <Downloads api={api} items={items} />
}

/** Asks for the first file's signed version until it answers (every 1.5 s, for up to 3 minutes), or says the files are gone for good. */
function useSealed(api: Api, items: Item[]): boolean | 'purged' {
  const [sealed, setSealed] = useState<boolean | 'purged'>(false)
  const first = [...items].sort((a, b) => a.order - b.order)[0]
  useEffect(() => {
    if (!first) return
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const attempt = (n: number) =>
      api.download(`/item/${encodeURIComponent(first.id)}?version=signed`).then(
        () => live && setSealed(true),
        (e: unknown) => {
          if (e instanceof ApiError && e.code === 'DOCUMENT_PURGED') return void (live && setSealed('purged'))
          if (live && n < 120) timer = setTimeout(() => void attempt(n + 1), 1500)
        },
      )
    void attempt(0)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [api, first])
  return sealed
}

/** While others still act: the original, as it was sent. */
function OriginalDownloads({ api, items }: { api: Api; items: Item[] }) {
  const [busy, setBusy] = useState(false)
  const sorted = [...items].sort((a, b) => a.order - b.order)
  return (
    <div className="downloads">
      <ul className="download-list">
        {sorted.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className="btn download-button"
              disabled={busy}
              onClick={() => {
                setBusy(true)
                downloadItem(api, item, 'original')
                  .catch(() => {})
                  .finally(() => setBusy(false))
              }}
              // The name holds the words shown (a name must contain the visible text) and the file's title.
              aria-label={t('sign.downloadCopyOf', { title: item.title })}
            >
              <Icon name="arrowDown" />
              <span className="download-name">{sorted.length > 1 ? item.title : t('sign.downloadCopy')}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

export function RejectedScreen({ session, reason }: { session: SigningSession; reason: string }) {
  return (
    <Screen tone="error" icon="x" title={t('sign.rejected.title', { title: session.envelope.title })} testId="sign-rejected" state="REJECTED">
      <p>{t('sign.rejected.body')}</p>
      <Reason text={reason} />
    </Screen>
  )
}

function Redirecting({ url }: { url: string }) {
  return (
    <p className="muted small" role="status" data-testid="redirecting">
      {t('sign.redirecting')}{' '}
      <a href={url} target="_self" rel="noreferrer">
        {t('sign.redirectNow')}
      </a>
    </p>
  )
}

type Item = SigningSession['envelope']['items'][number]

/** One button per file: the sealed PDF, fetched with the token and saved under the item's title. */
export function Downloads({ api, items }: { api: Api; items: Item[] }) {
  const [busy, setBusy] = useState<string | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const sorted = [...items].sort((a, b) => a.order - b.order)
  return (
    <div className="downloads" data-testid="downloads">
      <ul className="download-list">
        {sorted.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className="btn btn-primary download-button"
              disabled={busy !== null}
              // As above: 'Download signed PDF “title”' holds both what one and several files show.
              aria-label={t('sign.downloadSigned', { title: item.title })}
              onClick={() => {
                setBusy(item.id)
                setFailed(null)
                downloadItem(api, item, 'signed')
                  .catch(() => setFailed(item.title))
                  .finally(() => setBusy(null))
              }}
            >
              {busy === item.id ? <span className="spinner spinner-sm" aria-hidden="true" /> : <Icon name="arrowDown" />}
              <span className="download-name">{sorted.length > 1 ? item.title : t('sign.downloadSignedShort')}</span>
            </button>
          </li>
        ))}
      </ul>
      <p className="field-error" role="alert">
        {failed ? t('sign.downloadFailed', { title: failed }) : ''}
      </p>
    </div>
  )
}
