/**
 * The parts of the signature dialog (SignatureDialog.tsx): the tabs that choose a method, and the
 * panel of each method. `ids` is the dialog's own id prefix, so the tabs, the panel and the help
 * and error texts name each other.
 */
import { useRef, type KeyboardEvent } from 'react'
import { t } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import { SignaturePad } from './SignaturePad.js'
import { UPLOAD_TYPES, type Stroke } from './signature.js'
import type { SignatureMethod } from './useSignatureDraft.js'

type Kind = 'signature' | 'initials'

/** The methods as tabs: the arrows, Home and End move between them (one tab stop for all). */
export function MethodTabs({ ids, methods, method, onPick }: { ids: string; methods: SignatureMethod[]; method: SignatureMethod; onPick: (m: SignatureMethod) => void }) {
  const tabs = useRef<(HTMLButtonElement | null)[]>([])

  function onTabKey(e: KeyboardEvent, i: number) {
    const n = methods.length
    const to = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1
    if (to < 0) return
    e.preventDefault()
    onPick(methods[to]!)
    tabs.current[to]?.focus()
  }

  return (
    <div className="tabs" role="tablist" aria-label={t('sign.signature.methods')}>
      {methods.map((m, i) => (
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
          onClick={() => onPick(m)}
          onKeyDown={(e) => onTabKey(e, i)}
        >
          {t(`sign.signature.${m}`)}
        </button>
      ))}
    </div>
  )
}

/** Drawing on the pad, with the line to sign on and the way to start again. */
export function DrawPanel({ ids, kind, strokes, onChange }: { ids: string; kind: Kind; strokes: Stroke[]; onChange: (strokes: Stroke[]) => void }) {
  return (
    <>
      <div className="signature-surface">
        <SignaturePad strokes={strokes} onChange={onChange} label={t('sign.signature.padLabel')} describedBy={`${ids}-draw-help`} />
        <span className="signature-line" aria-hidden="true" />
        {strokes.length === 0 && (
          <span className="signature-placeholder" aria-hidden="true">
            {kind === 'initials' ? t('sign.signature.drawHereInitials') : t('sign.signature.drawHere')}
          </span>
        )}
      </div>
      <div className="signature-tools">
        <p id={`${ids}-draw-help`} className="muted small">
          {t('sign.signature.drawHelp')}
        </p>
        <button type="button" className="btn btn-sm" onClick={() => onChange([])} disabled={strokes.length === 0}>
          {t('sign.signature.clear')}
        </button>
      </div>
    </>
  )
}

/** The name (or initials) typed, shown in the signature font as it will look; Enter adopts it. */
export function TypePanel(props: { ids: string; kind: Kind; typed: string; fontReady: boolean; onChange: (typed: string) => void; onAdopt: () => Promise<void> }) {
  const { ids, kind, typed } = props
  return (
    <>
      <label className="label" htmlFor={`${ids}-typed`}>
        {kind === 'initials' ? t('sign.signature.typeInitials') : t('sign.signature.typeName')}
      </label>
      <input
        id={`${ids}-typed`}
        className="input"
        value={typed}
        maxLength={kind === 'initials' ? 8 : 80}
        autoComplete={kind === 'initials' ? 'off' : 'name'}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return
          // Else the Enter goes on to the field button that gets focus back, and opens this again.
          e.preventDefault()
          void props.onAdopt()
        }}
      />
      <div className="signature-surface signature-typed" data-font-ready={props.fontReady || undefined} aria-hidden="true">
        <span>{typed.trim() || '\u00a0'}</span>
        <span className="signature-line" />
      </div>
    </>
  )
}

/** A picture of a signature to choose, with its preview; a wrong type is told in the dialog's error line. */
export function UploadPanel({ ids, upload, onPick }: { ids: string; upload: { url: string } | null; onPick: (file: File | undefined) => void }) {
  return (
    <>
      <label className="dropzone signature-upload">
        <span className="dropzone-icon" aria-hidden="true">
          <Icon name="upload" size={22} />
        </span>
        <span className="dropzone-title">{t('sign.signature.uploadChoose')}</span>
        <span className="muted small">{t('sign.signature.uploadHint')}</span>
        <input type="file" className="sr-only" accept={UPLOAD_TYPES.join(',')} aria-describedby={`${ids}-upload-error`} onChange={(e) => onPick(e.target.files?.[0])} />
      </label>
      {upload && (
        <div className="signature-surface signature-preview">
          <img src={upload.url} alt={t('sign.signature.uploadPreview')} />
        </div>
      )}
    </>
  )
}
