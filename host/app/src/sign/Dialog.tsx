import { useEffect, useId, useRef, type ReactNode } from 'react'
import { t } from '../i18n/index.js'
import { Icon } from '../ui/icons.js'

/**
 * A modal on the native <dialog>: the browser keeps focus inside and makes the page behind
 * inert; Escape closes it; focus goes to `initialFocus` (or the first control) on open and
 * back to whatever had it on close.
 */
export function Dialog(props: {
  title: string
  description?: ReactNode
  onClose: () => void
  children: ReactNode
  footer: ReactNode
  /** A selector inside the dialog to focus first. */
  initialFocus?: string
  wide?: boolean
  testId?: string
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const descId = useId()
  const onClose = useRef(props.onClose)
  onClose.current = props.onClose

  useEffect(() => {
    const dialog = ref.current!
    const opener = document.activeElement as HTMLElement | null
    dialog.showModal()
    const first =
      (props.initialFocus && dialog.querySelector<HTMLElement>(props.initialFocus)) ||
      dialog.querySelector<HTMLElement>('.dialog-body input, .dialog-body select, .dialog-body textarea, .dialog-body button, .dialog-body [tabindex="0"]')
    first?.focus()
    const cancel = (e: Event) => {
      e.preventDefault()
      onClose.current()
    }
    dialog.addEventListener('cancel', cancel)
    return () => {
      dialog.removeEventListener('cancel', cancel)
      dialog.close()
      // The opener may have been replaced while the dialog was open: give focus back if it is still there.
      if (opener?.isConnected) opener.focus({ preventScroll: true })
    }
    // Opening is once per mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  return (
    <dialog
      ref={ref}
      className={'dialog' + (props.wide ? ' dialog-wide' : '')}
      aria-labelledby={titleId}
      aria-describedby={props.description ? descId : undefined}
      data-testid={props.testId}
      // A click on the backdrop (the dialog element itself, outside its box) closes it.
      onMouseDown={(e) => e.target === e.currentTarget && onClose.current()}
    >
      <div className="dialog-box">
        <header className="dialog-head">
          <h2 id={titleId} className="dialog-title">
            {props.title}
          </h2>
          <button type="button" className="btn-icon" aria-label={t('sign.close')} onClick={() => onClose.current()}>
            <Icon name="x" />
          </button>
        </header>
        {props.description && (
          <div id={descId} className="dialog-desc muted">
            {props.description}
          </div>
        )}
        <div className="dialog-body">{props.children}</div>
        <footer className="dialog-foot">{props.footer}</footer>
      </div>
    </dialog>
  )
}
