import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { SigningFieldValue, SigningResult, SignOptions } from '../../../../src/protocol/index.js'
import type { Api } from '../page/api.js'
import { post } from '../page/bridge.js'
import type { Prove } from './auth-info.js'
import { useDocumentControls } from './commands.js'
import { t, tn, type MessageKey } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import { reveal } from '../page/viewport.js'
import { CompleteDialog } from './CompleteDialog.js'
import { ConsentAgreed, ConsentNotice, useConsent, WithdrawDialog } from './ConsentNotice.js'
import { FieldDialog } from './FieldDialog.js'
import { fieldName, FieldOverlay } from './FieldOverlay.js'
import { RejectDialog } from './RejectDialog.js'
import { LanguagePicker } from './LanguagePicker.js'
import { allowedMethods, SignatureDialog } from './SignatureDialog.js'
import { SignItem } from './SignItem.js'
import { outputSize, type OutputSize } from './signature.js'
import {
  canReject,
  hasAction,
  imageKind,
  initialValues,
  isFilled,
  isLocked,
  isSignatureType,
  knownSigner,
  nextField,
  orderFields,
  progressOf,
  signerIdentity,
  type SigningField,
  type SigningSession,
  type Values,
} from './session.js'

type Open =
  | { kind: 'field'; id: number }
  | { kind: 'signature'; id: number; size: OutputSize }
  | { kind: 'complete' }
  | { kind: 'reject' }
  | { kind: 'withdraw' }
  | null

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
  /** Signs or approves with the proof the recipient's authentication asks for (sign/auth-info.ts). */
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
  // Consent to sign electronically comes before the first action: until then the fields stay closed.
  const { consent, agree, error: consentError, busy: consentBusy } = useConsent(api, !!session.direct, action)
  const agreed = consent.status === 'agreed'
  const askConsent = useCallback(() => {
    setNotice({ text: t('consent.needed'), tone: 'error' })
    const button = document.getElementById('consent-agree')
    button?.focus({ preventScroll: true })
    if (button) reveal(button, { block: 'center', smooth: false })
  }, [])

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
      if (!agreed) return askConsent()
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
    [adopted, values, setValue, agreed, askConsent],
  )

  function onAction() {
    if (!agreed) return askConsent()
    const todo = progress.invalid[0]
    if (todo) {
      const count = progress.missing.length
      setNotice({
        text: count ? tn('sign.notice.missing', count) : t('sign.notice.invalid', { field: fieldName(todo) }),
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
        {session.branding?.logoUrl && <img className="sign-logo" src={session.branding.logoUrl} alt={session.branding.name} data-testid="sign-logo" />}
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
        <div className="sign-intro-row">
          <p className={'sign-intro' + (role === 'CC' ? ' sign-intro-note' : '')}>{t(`sign.intro.${role}` as MessageKey)}</p>
          <LanguagePicker />
        </div>
        {action && <ConsentNotice consent={consent} onAgree={agree} error={consentError} busy={consentBusy} />}
        {action && agreed && !session.direct && <ConsentAgreed onWithdraw={() => setOpen({ kind: 'withdraw' })} />}
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
        <CompleteDialog api={api} session={session} values={values} options={options} externalId={props.externalId} consent={consent.status === 'agreed' ? consent.given : undefined} prove={props.prove} onClose={() => setOpen(null)} onCompleted={props.onCompleted} onStale={props.onStale} />
      )}
      {open?.kind === 'withdraw' && <WithdrawDialog api={api} title={envelope.title} onClose={() => setOpen(null)} onRejected={props.onRejected} onStale={props.onStale} />}
      {open?.kind === 'reject' && <RejectDialog api={api} title={envelope.title} onClose={() => setOpen(null)} onRejected={props.onRejected} onStale={props.onStale} />}
    </div>
  )
}
