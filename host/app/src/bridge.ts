import type { AllDocumentsCompleted, EmbedMessage, SignMessage } from '../../../src/protocol/index.js'

/**
 * Everything a page says to its parent goes through here: the authoring pages' `{type, …}`
 * messages and the signing pages' `{action, data}` ones, which also send the `embed-*`
 * extensions. One target origin, one switch, for both kinds of page.
 */
export type OutgoingMessage = EmbedMessage | SignMessage | AllDocumentsCompleted

let target = '*'
let enabled = true

/** Posts to the embedding page's exact origin once the options name it. */
export function setParentOrigin(origin: string | undefined): void {
  target = origin ?? '*'
}

/**
 * Pages that are not embeds (the standalone signing page) say nothing, even when someone
 * frames them: their messages carry the recipient's token.
 */
export function setPosting(on: boolean): void {
  enabled = on
}

/** The embedding page's origin when the options name it. */
export function parentOrigin(): string | null {
  return target === '*' ? null : target
}

export function post(message: OutgoingMessage): void {
  if (!enabled || window.parent === window) return
  window.parent.postMessage(message, target)
}

/**
 * Reports the content height whenever it changes, for auto-height embeds. The body has no
 * minimum height, so its box is exactly the content and the frame can shrink as well as grow.
 */
export function watchHeight(el: HTMLElement = document.body): () => void {
  let last = -1
  const report = () => {
    const height = Math.ceil(el.getBoundingClientRect().height)
    // Zero is the moment before the first render, never a real content height.
    if (height === last || height === 0) return
    last = height
    post({ type: 'embed-resize', height })
  }
  const observer = new ResizeObserver(report)
  observer.observe(el)
  return () => observer.disconnect()
}

/** The origin of the page that frames this one, as the browser reports it; null when not framed or unknown. */
export function framingOrigin(): string | null {
  if (window.parent === window) return null
  let origin = location.ancestorOrigins?.[0] ?? null
  if (!origin && document.referrer) {
    try {
      origin = new URL(document.referrer).origin
    } catch {
      origin = null
    }
  }
  return origin && /^https?:\/\//.test(origin) ? origin : null
}
