import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import type { DocumentMeta } from '../../../../src/protocol/index.js'
import { t } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import { Dialog } from './Dialog.js'
import { PAD_LINE, SignaturePad } from './SignaturePad.js'
import { imageToPng, loadSignatureFont, strokesToPng, typedToPng, UPLOAD_TYPES, type OutputSize, type Stroke } from './signature.js'

type Method = 'draw' | 'type' | 'upload'

/** The ways documentMeta allows; all of them if it allows none (an envelope must offer one). */
export function allowedMethods(meta: Pick<DocumentMeta, 'drawSignatureEnabled' | 'typedSignatureEnabled' | 'uploadSignatureEnabled'>): Method[] {
  const methods: Method[] = []
  if (meta.drawSignatureEnabled !== false) methods.push('draw')
  if (meta.typedSignatureEnabled !== false) methods.push('type')
  if (meta.uploadSignatureEnabled !== false) methods.push('upload')
  return methods.length ? methods : ['draw', 'type', 'upload']
}

export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('')
    .slice(0, 3)

/** Draw, type or upload a signature (or initials) and adopt it for the field. */
export function SignatureDialog(props: {
  kind: 'signature' | 'initials'
  methods: Method[]
  name: string
  size: OutputSize
  /** The field already has an image: offer to remove it. */
  filled: boolean
  onAdopt: (png: string) => void
  onRemove: () => void
  onClose: () => void
}) {
  const [method, setMethod] = useState<Method>(props.methods[0]!)
  const [strokes, setStrokes] = useState<Stroke[]>([])
  const [typed, setTyped] = useState(props.kind === 'initials' ? initialsOf(props.name) : props.name)
  const [upload, setUpload] = useState<{ url: string; file: File } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [fontReady, setFontReady] = useState(false)
  const ids = useId()
  const tabs = useRef<(HTMLButtonElement | null)[]>([])

  useEffect(() => {
    loadSignatureFont().then(
      () => setFontReady(true),
      () => setFontReady(true),
    )
  }, [])
  useEffect(() => () => void (upload && URL.revokeObjectURL(upload.url)), [upload])

  const ready = method === 'draw' ? strokes.length > 0 : method === 'type' ? typed.trim() !== '' : upload !== null

  async function adopt() {
    if (!ready || busy) return
    setBusy(true)
    setError(null)
    try {
      const png =
        method === 'draw' ? strokesToPng(strokes, PAD_LINE, props.size) : method === 'type' ? await typedToPng(typed.trim(), props.size) : await imageToPng(upload!.file, props.size)
      props.onAdopt(png)
    } catch {
      setError(t('sign.signature.uploadUnreadable'))
      setBusy(false)
    }
  }

  function pick(file: File | undefined) {
    setError(null)
    if (!file) return
    if (!UPLOAD_TYPES.includes(file.type)) {
      setError(t('sign.signature.uploadType'))
      return
    }
    setUpload({ url: URL.createObjectURL(file), file })
  }

  function onTabKey(e: KeyboardEvent, i: number) {
    const n = props.methods.length
    const to = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1
    if (to < 0) return
    e.preventDefault()
    setMethod(props.methods[to]!)
    tabs.current[to]?.focus()
  }

  const title = props.kind === 'initials' ? t('sign.signature.titleInitials') : t('sign.signature.title')
  return (
    <Dialog
      title={title}
      onClose={props.onClose}
      wide
      testId="signature-dialog"
      initialFocus={`[role="tab"][aria-selected="true"]`}
      footer={
        <>
          {props.filled && (
            <button type="button" className="btn btn-danger-outline dialog-foot-start" onClick={props.onRemove}>
              {t('sign.signature.remove')}
            </button>
          )}
          <button type="button" className="btn" onClick={props.onClose}>
            {t('sign.cancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={adopt} disabled={!ready || busy} data-testid="adopt-signature">
            {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
            {props.kind === 'initials' ? t('sign.signature.adoptInitials') : t('sign.signature.adopt')}
          </button>
        </>
      }
    >
      {props.methods.length > 1 && (
        <div className="tabs" role="tablist" aria-label={t('sign.signature.methods')}>
          {props.methods.map((m, i) => (
            <button
              key={m}
              ref={(el) => void (tabs.current[i] = el)}
              type="button"
              role="tab"
              id={`${ids}-tab-${m}`}
              aria-selected={method === m}
              aria-controls={`${ids}-panel`}
              tabIndex={method === m ? 0 : -1}
              className="tab"
              onClick={() => setMethod(m)}
              onKeyDown={(e) => onTabKey(e, i)}
            >
              {t(`sign.signature.${m}`)}
            </button>
          ))}
        </div>
      )}
      <div id={`${ids}-panel`} role={props.methods.length > 1 ? 'tabpanel' : undefined} aria-labelledby={props.methods.length > 1 ? `${ids}-tab-${method}` : undefined} className="signature-panel">
        {method === 'draw' && (
          <>
            <div className="signature-surface">
              <SignaturePad strokes={strokes} onChange={setStrokes} label={t('sign.signature.padLabel')} describedBy={`${ids}-draw-help`} />
              <span className="signature-line" aria-hidden="true" />
              {strokes.length === 0 && (
                <span className="signature-placeholder" aria-hidden="true">
                  {props.kind === 'initials' ? t('sign.signature.drawHereInitials') : t('sign.signature.drawHere')}
                </span>
              )}
            </div>
            <div className="signature-tools">
              <p id={`${ids}-draw-help`} className="muted small">
                {t('sign.signature.drawHelp')}
              </p>
              <button type="button" className="btn btn-sm" onClick={() => setStrokes([])} disabled={strokes.length === 0}>
                {t('sign.signature.clear')}
              </button>
            </div>
          </>
        )}
        {method === 'type' && (
          <>
            <label className="label" htmlFor={`${ids}-typed`}>
              {props.kind === 'initials' ? t('sign.signature.typeInitials') : t('sign.signature.typeName')}
            </label>
            <input
              id={`${ids}-typed`}
              className="input"
              value={typed}
              maxLength={props.kind === 'initials' ? 8 : 80}
              autoComplete={props.kind === 'initials' ? 'off' : 'name'}
              onChange={(e) => setTyped(e.target.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return
                // Else the Enter goes on to the field button that gets focus back, and opens this again.
                e.preventDefault()
                void adopt()
              }}
            />
            <div className="signature-surface signature-typed" data-font-ready={fontReady || undefined} aria-hidden="true">
              <span>{typed.trim() || '\u00a0'}</span>
              <span className="signature-line" />
            </div>
          </>
        )}
        {method === 'upload' && (
          <>
            <label className="dropzone signature-upload">
              <span className="dropzone-icon" aria-hidden="true">
                <Icon name="upload" size={22} />
              </span>
              <span className="dropzone-title">{t('sign.signature.uploadChoose')}</span>
              <span className="muted small">{t('sign.signature.uploadHint')}</span>
              <input
                type="file"
                className="sr-only"
                accept={UPLOAD_TYPES.join(',')}
                aria-describedby={`${ids}-upload-error`}
                onChange={(e) => pick(e.target.files?.[0])}
              />
            </label>
            {upload && (
              <div className="signature-surface signature-preview">
                <img src={upload.url} alt={t('sign.signature.uploadPreview')} />
              </div>
            )}
          </>
        )}
        <p id={`${ids}-upload-error`} className="field-error" role="alert">
          {error}
        </p>
      </div>
    </Dialog>
  )
}
