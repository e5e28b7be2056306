import { useEffect, useId, useRef, type ReactNode } from 'react'
import { t } from '../i18n/index.js'
import { Icon } from '../page/icons.js'
import { makeRoom, onBandChange, visibleBand } from '../page/viewport.js'

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
    // The dialog sits in the part of the page the user sees (page/screens.css, page/viewport.ts), beside the
    // control that opened it when there is room; when that part is too short for both, the parent
    // scrolls to make room, keeping the control in view.
    dialog.showModal()
    const box = dialog.firstElementChild as HTMLElement
    const body = box.querySelector<HTMLElement>('.dialog-body')!
    // The box's height with all of its content shown (held shorter, the body scrolls).
    const natural = () => box.offsetHeight - body.clientHeight + body.scrollHeight
    let need = natural() + 16
    const anchor = opener && opener !== document.body && opener.isConnected ? opener : null
    const place = () => {
      const band = visibleBand()
      if (!band) return
      const a = anchor?.getBoundingClientRect()
      const end = band.top + band.height
      // Below the control, else above it, else the whole visible part.
      const [from, to] = a && end - a.bottom >= need ? [a.bottom + 4, end] : a && a.top - band.top >= need ? [band.top, a.top - 4] : [band.top, end]
      dialog.style.setProperty('--dialog-top', `${from}px`)
      dialog.style.setProperty('--dialog-height', `${to - from}px`)
    }
    place()
    const stop = onBandChange(place)
    makeRoom(need, anchor)
    // Content that grows once open (the signature dialog's Type tab, an error) is placed anew, so
    // that the band beside the control, sized for the first content, never cuts it off.
    const grown = new MutationObserver(() => {
      const now = natural() + 16
      if (now === need) return
      const more = now > need
      need = now
      place()
      if (more) makeRoom(need, anchor)
    })
    grown.observe(body, { childList: true, subtree: true, characterData: true })
    const first =
      (props.initialFocus && dialog.querySelector<HTMLElement>(props.initialFocus)) ||
      dialog.querySelector<HTMLElement>('.dialog-body input, .dialog-body select, .dialog-body textarea, .dialog-body button, .dialog-body [tabindex="0"]')
    // Never let focus scroll the customer's page: the dialog is already where the user looks.
    first?.focus({ preventScroll: true })
    const cancel = (e: Event) => {
      e.preventDefault()
      onClose.current()
    }
    dialog.addEventListener('cancel', cancel)
    return () => {
      stop()
      grown.disconnect()
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
