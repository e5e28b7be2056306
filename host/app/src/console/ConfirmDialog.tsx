import { useId, useRef, type ReactNode } from 'react'
import { ct } from './i18n/index.js'
import { useModal } from './modal.js'

/**
 * Asks before a change that matters (a role, leaving the team, a deletion): a modal on the native <dialog>,
 * so the browser keeps focus inside, makes the page behind inert and closes it with Escape. Its
 * title names it and its text describes it to screen readers; focus starts on the safe choice
 * (Cancel) for a destructive change, else on the confirming one, and goes back to whatever had it.
 */
export function ConfirmDialog(props: {
  title: string
  children: ReactNode
  confirmLabel: string
  /** The safe choice's words when "Cancel" would be ambiguous (cancelling a document). */
  cancelLabel?: string
  onConfirm: () => void
  onCancel: () => void
  danger?: boolean
  busy?: boolean
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)
  const confirmRef = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  const textId = useId()
  useModal(ref, props.onCancel, () => (props.danger ? cancelRef : confirmRef).current)

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onMouseDown={(e) => e.target === e.currentTarget && props.onCancel()}
    >
      <div className="dialog-box">
        <header className="dialog-head">
          <h2 id={titleId} className="dialog-title">
            {props.title}
          </h2>
        </header>
        <div id={textId} className="dialog-body">
          {props.children}
        </div>
        <footer className="dialog-foot">
          <button ref={cancelRef} className="btn btn-secondary" type="button" onClick={() => props.onCancel()}>
            {props.cancelLabel ?? ct('shell.cancel')}
          </button>
          <button ref={confirmRef} className={props.danger ? 'btn btn-danger' : 'btn btn-primary'} type="button" disabled={props.busy} onClick={props.onConfirm}>
            {props.confirmLabel}
          </button>
        </footer>
      </div>
    </dialog>
  )
}
