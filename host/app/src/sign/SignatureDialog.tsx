import { useId } from 'react'
import type { DocumentMeta } from '../../../../src/protocol/index.js'
import { t } from '../i18n/index.js'
import { Dialog } from './Dialog.js'
import type { OutputSize } from './signature.js'
import { DrawPanel, MethodTabs, TypePanel, UploadPanel } from './SignatureMethods.js'
import { useSignatureDraft, type SignatureMethod } from './useSignatureDraft.js'

/** The ways documentMeta allows; all of them if it allows none (an envelope must offer one). */
export function allowedMethods(meta: Pick<DocumentMeta, 'drawSignatureEnabled' | 'typedSignatureEnabled' | 'uploadSignatureEnabled'>): SignatureMethod[] {
  const methods: SignatureMethod[] = []
  if (meta.drawSignatureEnabled !== false) methods.push('draw')
  if (meta.typedSignatureEnabled !== false) methods.push('type')
  if (meta.uploadSignatureEnabled !== false) methods.push('upload')
  return methods.length ? methods : ['draw', 'type', 'upload']
}

/** Draw, type or upload a signature (or initials) and adopt it for the field. */
export function SignatureDialog(props: {
  kind: 'signature' | 'initials'
  methods: SignatureMethod[]
  name: string
  size: OutputSize
  /** The field already has an image: offer to remove it. */
  filled: boolean
  onAdopt: (png: string) => void
  onRemove: () => void
  onClose: () => void
}) {
  const draft = useSignatureDraft(props)
  const { method, ready, busy } = draft
  const ids = useId()
  // One method alone needs no tabs: its panel is then a plain part of the dialog.
  const tabbed = props.methods.length > 1

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
          <button type="button" className="btn btn-primary" onClick={draft.adopt} disabled={!ready || busy} data-testid="adopt-signature">
            {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
            {props.kind === 'initials' ? t('sign.signature.adoptInitials') : t('sign.signature.adopt')}
          </button>
        </>
      }
    >
      {tabbed && <MethodTabs ids={ids} methods={props.methods} method={method} onPick={draft.setMethod} />}
      <div id={`${ids}-panel`} role={tabbed ? 'tabpanel' : undefined} aria-labelledby={tabbed ? `${ids}-tab-${method}` : undefined} className="signature-panel">
        {method === 'draw' && <DrawPanel ids={ids} kind={props.kind} strokes={draft.strokes} onChange={draft.setStrokes} />}
        {method === 'type' && <TypePanel ids={ids} kind={props.kind} typed={draft.typed} fontReady={draft.fontReady} onChange={draft.setTyped} onAdopt={draft.adopt} />}
        {method === 'upload' && <UploadPanel ids={ids} upload={draft.upload} onPick={draft.pick} />}
        <p id={`${ids}-upload-error`} className="field-error" role="alert">
          {draft.error}
        </p>
      </div>
    </Dialog>
  )
}
