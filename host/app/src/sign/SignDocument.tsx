import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react'
import type { SigningFieldValue, SigningResult, SignOptions } from '../../../../src/protocol/index.js'
import { ApiError, type Api } from '../api.js'
import { post } from '../bridge.js'
import { announceFailure, type Prove } from './AuthSteps.js'
import { useDocumentControls } from './commands.js'
import { t, tn, type MessageKey } from '../i18n/index.js'
import { openPdf, type PDFDocumentProxy } from '../pdf/pdf.js'
import { Icon } from '../ui/icons.js'
import { usePageCanvas } from '../ui/usePdf.js'
import { reveal } from '../viewport.js'
import { Dialog } from './Dialog.js'
import { FieldDialog } from './FieldDialog.js'
import { fieldName, FieldOverlay } from './FieldOverlay.js'
import { allowedMethods, SignatureDialog } from './SignatureDialog.js'
import { outputSize, type OutputSize } from './signature.js'
import {
  canReject,
  completeRequest,
  downloadItem,
  hasAction,
  imageKind,
  initialValues,
  isFilled,
  isLocked,
  isSignatureType,
  nextField,
  orderFields,
  progressOf,
  signerIdentity,
  validEmail,
  type SigningField,
  type SigningSession,
  type Values,
} from './session.js'

type Item = SigningSession['envelope']['items'][number]

type Open =
  | { kind: 'field'; id: number }
  | { kind: 'signature'; id: number; size: OutputSize }
  | { kind: 'complete' }
  | { kind: 'reject' }
  | null

/** Codes that mean the session changed under the page: show its new state. */
const STALE = new Set(['INVALID_STATUS_TRANSITION', 'NOT_YOUR_TURN', 'ALREADY_COMPLETED', 'ALREADY_SIGNED', 'COMPLETED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'NOT_SENT', 'CONFLICT'])

/** The READY screen: the document with the recipient's fields, the guide and the action. */
export function SignDocument(props: {
  api: Api
  session: SigningSession
  options: SignOptions
  /** A direct link embed's external id for the document it makes. */
  externalId?: string | undefined
  onCompleted: (result: SigningResult) => void
  onRejected: (reason: string) => void
  /** The state changed on the service (someone else acted): load it again. */
  onStale: () => void
  /** Signs or approves with the proof the recipient's authentication asks for (sign/AuthSteps.tsx). */
  prove?: Prove
}) {
  const { api, session, options } = props
  const { envelope, recipient } = session
  const role = recipient.role
  const ordered = useMemo(() => orderFields(session.fields, envelope.items), [session.fields, envelope.items])
  const [values, setValues] = useState<Values>(() => initialValues(session, options))
  const [open, setOpen] = useState<Open>(null)
  const [currentId, setCurrentId] = useState<number | null>(null)
  const [adopted, setAdopted] = useState<{ signature?: string; initials?: string }>({})
  const [notice, setNotice] = useState<{ text: string; tone: 'info' | 'error' } | null>(null)
  // Zoom of the pages (a phone shows an A4 page's text at a few pixels): 100% fits the width.
  const [zoom, setZoom] = useState(1)
  const refs = useRef(new Map<number, HTMLElement>())
  const progress = useMemo(() => progressOf(ordered, values), [ordered, values])
  const who = signerIdentity(session, options)
  const rejectable = canReject(session, options)
  const action = hasAction(role)
  const methods = allowedMethods(envelope.documentMeta)
  const sortedItems = useMemo(() => [...envelope.items].sort((a, b) => a.order - b.order), [envelope.items])

  const setValue = useCallback((id: number, value: SigningFieldValue | undefined) => {
    setValues((v) => ({ ...v, [id]: value }))
  }, [])

  // The parent hears each field that gets or loses a value (field-signed, field-unsigned).
  const filled = useRef<Set<number> | null>(null)
  useEffect(() => {
    const now = new Set(session.fields.filter((f) => f.type !== 'DATE' && isFilled(f, values[f.id])).map((f) => f.id))
    const before = filled.current
    filled.current = now
    if (!before) return
    for (const id of now) if (!before.has(id)) post({ action: 'field-signed' })
    for (const id of before) if (!now.has(id)) post({ action: 'field-unsigned' })
  }, [values, session.fields])

  const goTo = useCallback((f: SigningField) => {
    setCurrentId(f.id)
    const el = refs.current.get(f.id)
    if (!el) return
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches
    el.focus({ preventScroll: true })
    reveal(el, { block: 'center', smooth })
  }, [])

  const openField = useCallback(
    (f: SigningField) => {
      setCurrentId(f.id)
      setNotice(null)
      if (isSignatureType(f)) {
        const kind = imageKind(f)
        const reuse = adopted[kind]
        if (reuse && !isFilled(f, values[f.id])) {
          // One click: the signature adopted for an earlier field signs this one too.
          setValue(f.id, reuse)
          setNotice({ text: t(kind === 'initials' ? 'sign.notice.initialsAdded' : 'sign.notice.signatureAdded'), tone: 'info' })
          return
        }
        const rect = refs.current.get(f.id)?.getBoundingClientRect()
        setOpen({ kind: 'signature', id: f.id, size: outputSize(f.width, rect && rect.height ? rect.width / rect.height : 3) })
      } else setOpen({ kind: 'field', id: f.id })
    },
    [adopted, values, setValue],
  )

  function onAction() {
    const todo = progress.invalid[0]
    if (todo) {
      const count = progress.missing.length
      setNotice({
        text: count ? t(count === 1 ? 'sign.notice.missing.one' : 'sign.notice.missing.other', { count }) : t('sign.notice.invalid', { field: fieldName(todo) }),
        tone: 'error',
      })
      goTo(nextField(ordered, progress, null) ?? todo)
      return
    }
    setNotice(null)
    setOpen({ kind: 'complete' })
  }

  const openFieldObj = open && (open.kind === 'field' || open.kind === 'signature') ? ordered.find((f) => f.id === open.id) : undefined
  const remaining = progress.required.length - progress.done
  const next = nextField(ordered, progress, currentId)

  // The parent's nextField and setZoom commands do what the page's own buttons do.
  useDocumentControls({
    nextField: () => next && (goTo(next), { id: next.id, type: next.type, label: fieldName(next), page: next.page }),
    setZoom,
  })

  return (
    <div className="sign" data-testid="sign-document" data-role={role}>
      <header className="sign-top">
        <div className="sign-top-text">
          <h1 className="sign-title">{envelope.title}</h1>
          <p className="muted small sign-who">
            {session.direct && !(who.name && who.email) ? t('sign.direct.intro') : t(`sign.as.${role}` as MessageKey, { name: who.name || who.email, email: who.email })}
          </p>
        </div>
        <div className="sign-top-actions">
          <div className="zoom" role="group" aria-label={t('sign.zoomLevel', { percent: Math.round(zoom * 100) })}>
            <button type="button" className="btn btn-sm btn-icon-only" aria-label={t('sign.zoomOut')} disabled={zoom <= 1} onClick={() => setZoom((z) => Math.max(1, z - 0.5))}>
              −
            </button>
            <span className="zoom-level" aria-hidden="true">
              {Math.round(zoom * 100)}%
            </span>
            <button type="button" className="btn btn-sm btn-icon-only" aria-label={t('sign.zoomIn')} disabled={zoom >= 3} onClick={() => setZoom((z) => Math.min(3, z + 0.5))}>
              +
            </button>
          </div>
          {rejectable && (
            <button type="button" className="btn btn-sm btn-danger-outline" onClick={() => setOpen({ kind: 'reject' })} data-testid="reject">
              {t('sign.reject.button')}
            </button>
          )}
        </div>
      </header>

      <main className="sign-main" style={{ ['--zoom' as string]: zoom }} data-zoomed={zoom > 1 || undefined}>
        <p className={'sign-intro' + (role === 'CC' ? ' sign-intro-note' : '')}>{t(`sign.intro.${role}` as MessageKey)}</p>
        {sortedItems.map((item) => (
          <SignItem key={item.id} api={api} item={item} multiple={sortedItems.length > 1}>
            {(page) =>
              ordered
                .filter((f) => f.envelopeItemId === item.id && f.page === page)
                .map((f) => (
                  <FieldOverlay
                    key={f.id}
                    ref={(el) => void (el ? refs.current.set(f.id, el) : refs.current.delete(f.id))}
                    field={f}
                    value={values[f.id]}
                    filled={isFilled(f, values[f.id])}
                    invalid={progress.invalid.includes(f)}
                    locked={!action || isLocked(f, session, options)}
                    current={currentId === f.id}
                    onOpen={openField}
                  />
                ))
            }
          </SignItem>
        ))}
      </main>

      {action && (
        <footer className="sign-bar" data-testid="sign-bar">
          <div className="sign-bar-inner">
            {progress.required.length > 0 && (
              <div className="sign-progress">
                <p className="sign-progress-text" aria-live="polite" data-testid="progress">
                  {remaining === 0 ? t('sign.progress.done') : t('sign.progress', { done: progress.done, total: progress.required.length })}
                </p>
                <div className="progress-track" aria-hidden="true">
                  <span className="progress-fill" style={{ width: `${(progress.done / progress.required.length) * 100}%` }} />
                </div>
              </div>
            )}
            <div className="sign-bar-actions">
              {next && (
                <button type="button" className="btn" onClick={() => goTo(next)} data-testid="next-field">
                  {t('sign.nextField')}
                  <Icon name="arrowDown" />
                </button>
              )}
              {/* Until every required field is filled it says how many remain, and leads to the next one. */}
              <button
                type="button"
                className="btn btn-primary"
                onClick={onAction}
                data-testid="complete"
                data-pending={remaining > 0 || undefined}
                aria-describedby="sign-notice"
              >
                {t(`sign.action.${role}` as MessageKey)}
                {remaining > 0 && (
                  <span className="count-badge" aria-hidden="true">
                    {tn('sign.remaining', remaining)}
                  </span>
                )}
              </button>
            </div>
          </div>
          {/* What only confirms (a signature added) is for screen readers; what asks for action is for everyone. */}
          <p id="sign-notice" className={'sign-notice' + (notice?.tone === 'error' ? ' text-error' : ' sr-only')} role={notice?.tone === 'error' ? 'alert' : 'status'} data-testid="notice">
            {notice?.text}
          </p>
        </footer>
      )}

      {open?.kind === 'field' && openFieldObj && (
        <FieldDialog
          field={openFieldObj}
          value={values[openFieldObj.id]}
          onClose={() => setOpen(null)}
          onSave={(v) => {
            setValue(openFieldObj.id, v)
            setOpen(null)
          }}
        />
      )}
      {open?.kind === 'signature' && openFieldObj && (
        <SignatureDialog
          kind={imageKind(openFieldObj)}
          methods={methods}
          name={knownSigner(session, values, options).name}
          size={open.size}
          filled={isFilled(openFieldObj, values[openFieldObj.id])}
          onClose={() => setOpen(null)}
          onRemove={() => {
            setValue(openFieldObj.id, undefined)
            setOpen(null)
          }}
          onAdopt={(png) => {
            setValue(openFieldObj.id, png)
            setAdopted((a) => ({ ...a, [imageKind(openFieldObj)]: png }))
            setNotice({ text: t(imageKind(openFieldObj) === 'initials' ? 'sign.notice.initialsAdded' : 'sign.notice.signatureAdded'), tone: 'info' })
            setOpen(null)
          }}
        />
      )}
      {open?.kind === 'complete' && (
        <CompleteDialog api={api} session={session} values={values} options={options} externalId={props.externalId} prove={props.prove} onClose={() => setOpen(null)} onCompleted={props.onCompleted} onStale={props.onStale} />
      )}
      {open?.kind === 'reject' && <RejectDialog api={api} title={envelope.title} onClose={() => setOpen(null)} onRejected={props.onRejected} onStale={props.onStale} />}
    </div>
  )
}

// ---- the PDF ---------------------------------------------------------------------------------

function usePdfDoc(api: Api, item: Item) {
  const [state, setState] = useState<{ doc: PDFDocumentProxy | null; failed: boolean }>({ doc: null, failed: false })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    setState({ doc: null, failed: false })
    openPdf(`sign:${item.id}`, () => api.download(`/item/${encodeURIComponent(item.id)}`)).then(
      (doc) => live && setState({ doc, failed: false }),
      () => live && setState({ doc: null, failed: true }),
    )
    return () => {
      live = false
    }
  }, [api, item.id, attempt])
  return { ...state, retry: () => setAttempt((n) => n + 1) }
}

/** One file of the envelope: its title, and all its pages with the fields on them. */
function SignItem(props: { api: Api; item: Item; multiple: boolean; children: (page: number) => ReactNode }) {
  const { doc, failed, retry } = usePdfDoc(props.api, props.item)
  const pages = doc?.numPages ?? Math.max(props.item.pageCount, 1)
  const [busy, setBusy] = useState(false)
  const headingId = useId()
  return (
    <section className="item-pages sign-item" aria-labelledby={headingId}>
      <div className="sign-item-head">
        <h2 id={headingId} className="item-title">
          <Icon name="file" />
          <span className="sign-item-name">{props.item.title}</span>
        </h2>
        <button
          type="button"
          className="btn btn-sm"
          disabled={busy}
          onClick={() => {
            setBusy(true)
            downloadItem(props.api, props.item, 'original')
              .catch(() => {})
              .finally(() => setBusy(false))
          }}
          aria-label={t('sign.downloadOriginal', { title: props.item.title })}
        >
          <Icon name="arrowDown" />
          <span className="hide-narrow">{t('sign.download')}</span>
        </button>
      </div>
      {failed && (
        <div className="sign-inline-error" role="alert">
          <span>{t('sign.pdfFailed')}</span>
          <button type="button" className="btn btn-sm" onClick={retry}>
            {t('sign.retry')}
          </button>
        </div>
      )}
      {Array.from({ length: pages }, (_, i) => (
        <SignPage key={i} doc={doc} title={props.item.title} page={i + 1} total={pages} showTitle={props.multiple}>
          {props.children(i + 1)}
        </SignPage>
      ))}
    </section>
  )
}

function SignPage(props: { doc: PDFDocumentProxy | null; title: string; page: number; total: number; showTitle: boolean; children: ReactNode }) {
  const { canvasRef, aspect, rendered } = usePageCanvas(props.doc, props.page)
  return (
    <div className="page sign-page" data-page={props.page} style={{ aspectRatio: aspect ?? 0.7071 }} role="group" aria-label={t('fields.page', { page: props.page, total: props.total, title: props.title })}>
      <canvas ref={canvasRef} aria-hidden="true" />
      {!rendered && (
        <span className="page-loading" aria-hidden="true">
          <span className="spinner" />
        </span>
      )}
      {props.children}
      <span className="page-number" aria-hidden="true">
        {props.page} / {props.total}
      </span>
    </div>
  )
}

// ---- completing and rejecting ------------------------------------------------------------------

function apiMessage(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 0) return t('sign.error.NETWORK')
    const detail = e.issues.map((i) => i.message).filter(Boolean)
    return detail.length ? `${e.message} (${detail.join('; ')})` : e.message
  }
  return t('sign.error.INTERNAL')
}

function CompleteDialog(props: {
  api: Api
  session: SigningSession
  values: Values
  options: SignOptions
  externalId?: string | undefined
  prove?: Prove | undefined
  onClose: () => void
  onCompleted: (r: SigningResult) => void
  onStale: () => void
}) {
  const { session } = props
  const role = session.recipient.role
  const [next, setNext] = useState(session.nextSigner ? { name: session.nextSigner.name, email: session.nextSigner.email } : null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [emailError, setEmailError] = useState(false)
  // A direct link's visitor says who they are: the document is made out to them.
  const [signer, setSigner] = useState(() => (session.direct ? knownSigner(session, props.values, props.options) : null))
  const [signerError, setSignerError] = useState<'name' | 'email' | null>(null)
  const ids = useId()

  async function submit() {
    if (busy) return
    if (signer && (!signer.name.trim() || !validEmail(signer.email))) {
      const which = signer.name.trim() ? 'email' : 'name'
      setSignerError(which)
      document.getElementById(`${ids}-signer-${which}`)?.focus()
      return
    }
    if (next && !validEmail(next.email)) {
      setEmailError(true)
      document.getElementById(`${ids}-next-email`)?.focus()
      return
    }
    setBusy(true)
    setError(null)
    try {
      const request = completeRequest(session, props.values, next ?? undefined)
      const body = signer ? { ...request, signer: { name: signer.name.trim(), email: signer.email.trim() }, ...(props.externalId ? { externalId: props.externalId } : {}) } : request
      // A wrong password or code is told in the dialog that asked for it, which stays open.
      const act = async (proofs: object | undefined) => props.onCompleted(await props.api.post<SigningResult>('/complete', { ...body, ...proofs }))
      if (!(await (props.prove ? props.prove(act, signer?.email.trim()) : act(undefined).then(() => true)))) setBusy(false)
    } catch (e) {
      setBusy(false)
      if (e instanceof ApiError && STALE.has(e.code)) return props.onStale()
      announceFailure(e)
      setError(t('sign.error.completeFailed', { message: apiMessage(e) }))
    }
  }

  return (
    <Dialog
      title={t(`sign.confirm.title.${role}` as MessageKey)}
      description={t(`sign.confirm.body.${role}` as MessageKey, { title: session.envelope.title })}
      onClose={() => !busy && props.onClose()}
      testId="complete-dialog"
      initialFocus={next || signer ? undefined : '[data-testid="confirm-complete"]'}
      footer={
        <>
          <button type="button" className="btn" onClick={props.onClose} disabled={busy}>
            {t('sign.cancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={submit} disabled={busy} data-testid="confirm-complete">
            {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
            {t(`sign.action.${role}` as MessageKey)}
          </button>
        </>
      }
    >
      {signer && (
        <fieldset className="next-signer stack-sm" data-testid="direct-signer">
          <legend className="label">{t('sign.direct.you')}</legend>
          <p className="muted small">{t('sign.direct.help')}</p>
          {(['name', 'email'] as const).map((key) => (
            <div className="form-field" key={key}>
              <label className="label-sm" htmlFor={`${ids}-signer-${key}`}>
                {t(key === 'name' ? 'recipients.name' : 'recipients.email')}
              </label>
              <input
                id={`${ids}-signer-${key}`}
                className="input"
                type={key === 'email' ? 'email' : 'text'}
                autoComplete={key}
                value={signer[key]}
                readOnly={key === 'name' ? signer.lockName : signer.lockEmail}
                aria-invalid={signerError === key || undefined}
                aria-describedby={`${ids}-signer-${key}-error`}
                onChange={(e) => {
                  setSigner({ ...signer, [key]: e.target.value })
                  setSignerError(null)
                }}
              />
              <p id={`${ids}-signer-${key}-error`} className="field-error">
                {signerError === key ? t(key === 'email' ? 'recipients.invalidEmail' : 'sign.invalid.required') : ''}
              </p>
            </div>
          ))}
        </fieldset>
      )}
      {next && (
        <fieldset className="next-signer stack-sm" data-testid="next-signer">
          <legend className="label">{t('sign.nextSigner.title')}</legend>
          <p className="muted small">{t('sign.nextSigner.help')}</p>
          <div className="form-field">
            <label className="label-sm" htmlFor={`${ids}-next-name`}>
              {t('recipients.name')}
            </label>
            <input id={`${ids}-next-name`} className="input" value={next.name} autoComplete="off" onChange={(e) => setNext({ ...next, name: e.target.value })} />
          </div>
          <div className="form-field">
            <label className="label-sm" htmlFor={`${ids}-next-email`}>
              {t('recipients.email')}
            </label>
            <input
              id={`${ids}-next-email`}
              className="input"
              type="email"
              autoComplete="off"
              value={next.email}
              aria-invalid={emailError || undefined}
              aria-describedby={`${ids}-next-error`}
              onChange={(e) => {
                setNext({ ...next, email: e.target.value })
                setEmailError(false)
              }}
            />
            <p id={`${ids}-next-error`} className="field-error">
              {emailError ? t('recipients.invalidEmail') : ''}
            </p>
          </div>
        </fieldset>
      )}
      <p className="field-error" role="alert" data-testid="complete-error">
        {error}
      </p>
    </Dialog>
  )
}

const REASON_MAX = 500

function RejectDialog(props: {
  api: Api
  title: string
  onClose: () => void
  onRejected: (reason: string) => void
  onStale: () => void
}) {
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [missing, setMissing] = useState(false)
  const ids = useId()

  async function submit() {
    const text = reason.trim()
    if (!text) {
      setMissing(true)
      document.getElementById(`${ids}-reason`)?.focus()
      return
    }
    setBusy(true)
    setError(null)
    try {
      // Declining needs no action proof: the access check the page passed is enough.
      await props.api.post('/reject', { reason: text })
      props.onRejected(text)
    } catch (e) {
      setBusy(false)
      if (e instanceof ApiError && STALE.has(e.code)) return props.onStale()
      announceFailure(e)
      setError(t('sign.error.rejectFailed', { message: apiMessage(e) }))
    }
  }

  return (
    <Dialog
      title={t('sign.reject.title')}
      description={t('sign.reject.body', { title: props.title })}
      onClose={() => !busy && props.onClose()}
      testId="reject-dialog"
      footer={
        <>
          <button type="button" className="btn" onClick={props.onClose} disabled={busy}>
            {t('sign.cancel')}
          </button>
          <button type="button" className="btn btn-danger" onClick={submit} disabled={busy} data-testid="confirm-reject">
            {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
            {t('sign.reject.confirm')}
          </button>
        </>
      }
    >
      <div className="form-field">
        <label className="label" htmlFor={`${ids}-reason`}>
          {t('sign.reject.reason')} <span className="required-mark">{t('sign.field.requiredMark')}</span>
        </label>
        <textarea
          id={`${ids}-reason`}
          className="input"
          rows={4}
          maxLength={REASON_MAX}
          value={reason}
          required
          aria-invalid={missing || undefined}
          aria-describedby={`${ids}-count ${ids}-missing`}
          onChange={(e) => {
            setReason(e.target.value)
            setMissing(false)
          }}
        />
        <div className="reason-meta">
          <p id={`${ids}-missing`} className="field-error">
            {missing ? t('sign.reject.reasonMissing') : ''}
          </p>
          <span id={`${ids}-count`} className="muted small">
            {t('sign.reject.count', { count: reason.length, max: REASON_MAX })}
          </span>
        </div>
      </div>
      <p className="field-error" role="alert">
        {error}
      </p>
    </Dialog>
  )
}

/** Who signs, as far as the page knows: the recipient's (or the embed's) name and e-mail, else what they typed in NAME and EMAIL fields. */
function knownSigner(session: SigningSession, values: Values, options: SignOptions) {
  const who = signerIdentity(session, options)
  const typed = (type: string) => {
    const f = session.fields.find((x) => x.type === type && typeof values[x.id] === 'string')
    return f ? String(values[f.id]).trim() : ''
  }
  return { name: who.name || typed('NAME'), email: who.email || typed('EMAIL'), lockName: who.lockName, lockEmail: who.lockEmail }
}
