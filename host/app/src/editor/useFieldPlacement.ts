import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent } from 'react'
import { makeField, updateField, type Draft, type DraftRecipient } from './draft/model.js'
import { t } from '../i18n/index.js'
import type { FieldType } from '../page/types.js'
import type { PageHandlers } from './PdfPage.js'
import type { SetDraft } from './steps.js'
import { reveal, visibleBand } from '../page/viewport.js'

export type PageRef = { itemKey: string; page: number }

/** Where the tools stick above the page and the inspector is a sheet below it (fields.css). */
const NARROW = '(max-width: 639px)'

/**
 * Brings a field into the part of the view that neither the sticky bars nor the inspector's sheet
 * cover: the page's scroll padding clears the top bar, the field's margin the tools stuck below it.
 */
function revealBetweenBars(field: HTMLElement) {
  const tools = document.querySelector<HTMLElement>('.tools')
  const sheet = document.querySelector<HTMLElement>('.inspector:not(.inspector-empty)')
  const viewTop = visibleBand()?.top ?? 0
  const toolsEnd = tools ? parseFloat(getComputedStyle(tools).top) - viewTop + tools.offsetHeight : 0
  const padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0
  field.style.scrollMarginTop = `${Math.max(toolsEnd - padding, 0) + 8}px`
  field.style.scrollMarginBottom = `${(sheet?.offsetHeight ?? 0) + 8}px`
  reveal(field)
}

/**
 * Placing, selecting and changing fields on the pages: the type armed in the palette, the selected
 * field, the page being worked on, the handlers the pages call, and dragging a type onto a page.
 */
export function useFieldPlacement(o: { draft: Draft; setDraft: SetDraft; announce: (text: string) => void; recipient: DraftRecipient | null }) {
  const { draft, setDraft, announce, recipient } = o
  const [armed, setArmed] = useState<FieldType | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  const [current, setCurrent] = useState<PageRef | null>(null)
  const [focusField, setFocusField] = useState<string | null>(null)
  const [ghost, setGhost] = useState<{ type: FieldType; x: number; y: number } | null>(null)
  const suppressClick = useRef(false)

  const currentPage = current && draft.items.some((i) => i.key === current.itemKey) ? current : draft.items[0] ? { itemKey: draft.items[0].key, page: 1 } : null

  // Latest values for the stable handlers below.
  const latest = useRef({ recipient, armed, draft })
  latest.current = { recipient, armed, draft }

  const place = useCallback(
    (type: FieldType, at: PageRef, cx: number, cy: number, focus: boolean) => {
      const r = latest.current.recipient
      if (!r) return
      const field = makeField({ type, itemKey: at.itemKey, recipientKey: r.key, page: at.page, cx, cy })
      setDraft((d) => ({ ...d, fields: [...d.fields, field] }))
      setSelected(field.key)
      setArmed(null)
      setCurrent(at)
      setFocusField(focus ? field.key : null)
      announce(t('fields.added', { type: t(`field.${type}`), page: at.page }))
    },
    [setDraft, announce],
  )

  const handlers: PageHandlers = useMemo(
    () => ({
      onPlace: (itemKey, page, cx, cy) => {
        const type = latest.current.armed
        if (!type) return false
        place(type, { itemKey, page }, cx, cy, true)
        return true
      },
      onCurrent: (itemKey, page) => setCurrent({ itemKey, page }),
      onSelect: (key) => setSelected(key),
      onChange: (key, patch) => {
        setDraft((d) => updateField(d, key, patch))
        // A field that changed page is mounted anew there: keep the focus on it.
        if (patch.page !== undefined || patch.itemKey !== undefined) setFocusField(key)
      },
      onDelete: (key) => {
        setDraft((d) => ({ ...d, fields: d.fields.filter((f) => f.key !== key) }))
        setSelected(null)
        announce(t('fields.deleted'))
      },
    }),
    [place, setDraft, announce],
  )

  // On a phone the inspector opens as a sheet at the bottom: the field it edits stays in view above it.
  useEffect(() => {
    if (!selected || !matchMedia(NARROW).matches) return
    const field = document.querySelector<HTMLElement>('.field-box[data-selected]')
    if (field) revealBetweenBars(field)
  }, [selected])

  useEffect(() => {
    if (!armed) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setArmed(null)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [armed])

  /** Dragging a type from the palette onto a page places it where it is dropped. */
  function startDrag(e: ReactPointerEvent, type: FieldType) {
    if (e.button !== 0 || !recipient) return
    const sx = e.clientX
    const sy = e.clientY
    let dragging = false
    const move = (ev: PointerEvent) => {
      if (!dragging && Math.hypot(ev.clientX - sx, ev.clientY - sy) < 6) return
      dragging = true
      ev.preventDefault()
      setGhost({ type, x: ev.clientX, y: ev.clientY })
    }
    const up = (ev: PointerEvent) => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
      if (!dragging) return
      setGhost(null)
      suppressClick.current = true
      setTimeout(() => (suppressClick.current = false))
      const page = document.elementFromPoint(ev.clientX, ev.clientY)?.closest<HTMLElement>('[data-page]')
      if (!page) return
      const r = page.getBoundingClientRect()
      place(type, { itemKey: page.dataset.item!, page: Number(page.dataset.page) }, ((ev.clientX - r.left) / r.width) * 100, ((ev.clientY - r.top) / r.height) * 100, true)
    }
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
  }

  function onTypeClick(e: ReactMouseEvent, type: FieldType) {
    if (suppressClick.current) return
    if (e.detail === 0 && currentPage) {
      // Keyboard: add to the current page straight away, staggered so fields do not stack.
      const count = draft.fields.filter((f) => f.itemKey === currentPage.itemKey && f.page === currentPage.page).length
      place(type, currentPage, 50, 15 + ((count * 9) % 72), true)
    } else {
      setArmed((a) => (a === type ? null : type))
    }
  }

  return { armed, selected, setSelected, focusField, ghost, currentPage, handlers, startDrag, onTypeClick }
}
