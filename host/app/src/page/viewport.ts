/**
 * Auto-height embeds: the frame is as tall as its content, so its own viewport is not what the
 * user sees. The parent (the library) tells the page where its viewport lies over the frame
 * (`embed-viewport`); the page keeps the visible band in CSS custom properties, so that dialogs,
 * notices and the signing bar sit inside it, and asks the parent to scroll (`embed-scroll`) where
 * it would otherwise scroll itself. Without those messages (no auto-height, or not framed) nothing
 * changes: the properties fall back to the page's own viewport and the page scrolls itself.
 */
import { parseViewportMessage } from '../../../../src/protocol/index.js'
import { parentOrigin, post } from './bridge.js'

export interface Band {
  /** The visible part of the page, in CSS px from its top. */
  top: number
  height: number
  /** The parent's viewport height (the band can be shorter when the frame is partly out of view). */
  viewport: number
}

let band: Band | null = null
let last: { top: number; height: number } | null = null
const listeners = new Set<() => void>()

/** The part of the page the user sees when the parent says so (auto-height), else null. */
export function visibleBand(): Band | null {
  return band
}

export function onBandChange(fn: () => void): () => void {
  listeners.add(fn)
  return () => void listeners.delete(fn)
}

function apply() {
  if (!last) return
  const root = document.documentElement
  const page = root.scrollHeight
  const from = Math.min(Math.max(last.top, 0), page)
  const to = Math.max(Math.min(last.top + last.height, page), from)
  band = { top: from, height: to - from, viewport: last.height }
  root.style.setProperty('--view-top', `${from}px`)
  root.style.setProperty('--view-height', `${to - from}px`)
  // From the band's bottom to the page's: where a sticky bottom bar rests.
  root.style.setProperty('--view-bottom', `${page - to}px`)
  root.dataset.viewport = 'parent'
  for (const fn of listeners) fn()
}

/** Starts listening to the parent's viewport messages (once, at start). */
export function watchViewport(): void {
  if (window.parent === window) return
  addEventListener('message', (e) => {
    if (e.source !== window.parent) return
    const origin = parentOrigin()
    if (origin && e.origin !== origin) return
    const m = parseViewportMessage(e.data)
    if (!m) return
    last = { top: m.top, height: m.height }
    apply()
  })
  // The page's own height changes where the band ends.
  new ResizeObserver(apply).observe(document.body)
}

/** Asks the parent to scroll this band of the page (CSS px from its top) into its viewport. */
function askScroll(top: number, height: number) {
  const page = document.documentElement.scrollHeight
  const from = Math.max(0, Math.min(top, page))
  post({ type: 'embed-scroll', top: Math.round(from), height: Math.round(Math.max(0, Math.min(height, page - from))) })
}

/**
 * Brings this element of the page into the user's view: through the parent when it reports its
 * viewport (auto-height), else by scrolling the page itself. `center` puts it in the middle of the
 * view; `nearest` scrolls only when it is not in view already.
 */
export function reveal(el: Element, o: { block?: 'center' | 'nearest'; smooth?: boolean } = {}): void {
  if (!band) {
    el.scrollIntoView({ block: o.block ?? 'nearest', behavior: o.smooth ? 'smooth' : 'auto' })
    return
  }
  const r = el.getBoundingClientRect()
  const top = r.top + window.scrollY
  const margin = 16
  if (o.block === 'center') {
    // A band as tall as most of the viewport, centred on the element: scrolling it into view centres it.
    const want = Math.max(r.height + 2 * margin, band.viewport * 0.8)
    askScroll(top + r.height / 2 - want / 2, want)
    return
  }
  // Sticky bars cover the band's edges: the page's scroll padding (the bar the page always has) and
  // the element's scroll margins say by how much, as they do where the page scrolls itself.
  const style = getComputedStyle(el)
  const pad = getComputedStyle(document.documentElement)
  const above = (parseFloat(pad.scrollPaddingTop) || 0) + (parseFloat(style.scrollMarginTop) || margin)
  const below = (parseFloat(pad.scrollPaddingBottom) || 0) + (parseFloat(style.scrollMarginBottom) || margin)
  if (top - above >= band.top && top + r.height + below <= band.top + band.height) return
  askScroll(top - above, r.height + above + below)
}

/**
 * Makes room for a dialog `height` tall beside `anchor` (the control that opened it): when the
 * visible band has no such room below or above the control, asks the parent to scroll a band
 * holding both into view (the dialog below the control where the page goes on far enough, else
 * above it). Where the parent's viewport is too short for both, the dialog alone.
 */
export function makeRoom(height: number, anchor: Element | null): void {
  if (!band) return
  const page = document.documentElement.scrollHeight
  const a = anchor?.getBoundingClientRect()
  const end = band.top + band.height
  if (!a) {
    if (band.height < height) askScroll(Math.max(0, Math.min(band.top, page - height)), height)
    return
  }
  const top = a.top + window.scrollY
  const bottom = a.bottom + window.scrollY
  if (end - bottom >= height || top - band.top >= height) return
  const both = bottom - top + height + 16
  if (both > band.viewport) return askScroll(Math.max(0, Math.min(top - 8, page - height)), Math.min(height, band.viewport))
  askScroll(page - bottom >= height + 8 ? top - 8 : top - height - 8, both)
}

/**
 * Keeps `--bar-height` (the page's scroll padding, and where the bars below it stick: editor/shell.css, editor/fields.css)
 * equal to the sticky bar's height as it changes (a wrapped title, a larger font). Where the page
 * scrolls itself the browser then keeps what it scrolls to (focus, anchors) clear of the bar. In
 * an auto-height frame the browser counts a focused element under the bar as on screen (or
 * scrolls one from above only to the viewport's edge): such an element is revealed here.
 * Returns the undoing.
 */
export function keepClearOf(bar: HTMLElement): () => void {
  const root = document.documentElement
  const sized = new ResizeObserver(() => root.style.setProperty('--bar-height', `${bar.offsetHeight}px`))
  sized.observe(bar, { box: 'border-box' })
  const focused = (e: FocusEvent) => {
    const el = e.target
    if (!band || !(el instanceof HTMLElement) || bar.contains(el)) return
    if (el.getBoundingClientRect().top + window.scrollY < band.top + bar.offsetHeight) reveal(el)
  }
  document.addEventListener('focusin', focused)
  return () => {
    sized.disconnect()
    document.removeEventListener('focusin', focused)
    root.style.removeProperty('--bar-height')
  }
}

/** Focuses an element without the browser's own scroll (which would move the customer's page), then reveals it. */
export function focusInView(el: HTMLElement | null): void {
  if (!el) return
  el.focus({ preventScroll: true })
  reveal(el)
}
