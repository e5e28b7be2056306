import { useEffect, useRef, type RefObject } from 'react'

/**
 * Shows `ref`'s <dialog> as a modal while the component is mounted: the browser keeps focus inside
 * and makes the page behind inert; Escape calls `onClose` (the latest one given) instead of
 * closing on its own, so the owner decides; on unmount focus goes back to what had it before.
 * `focus`, when given, is the element focus starts on.
 */
export function useModal(ref: RefObject<HTMLDialogElement | null>, onClose: () => void, focus?: () => HTMLElement | null | undefined): void {
  const close = useRef(onClose)
  close.current = onClose
  useEffect(() => {
    const dialog = ref.current!
    const opener = document.activeElement as HTMLElement | null
    dialog.showModal()
    focus?.()?.focus()
    const cancel = (e: Event) => {
      e.preventDefault()
      close.current()
    }
    dialog.addEventListener('cancel', cancel)
    return () => {
      dialog.removeEventListener('cancel', cancel)
      dialog.close()
      if (opener?.isConnected) opener.focus()
    }
    // Opening is once per mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
}
