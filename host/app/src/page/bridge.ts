import {
  parseCommandMessage, type AllDocumentsCompleted, type EmbedEvents, type EmbedLoadingMessage, type EmbedMessage, type EmbedProblem, type SignMessage,
} from '../../../../src/protocol/index.js'

/**
 * Everything a page says to its parent goes through here: the authoring pages' `{type, …}`
 * messages and the signing pages' `{action, data}` ones, which also send the `embed-*`
 * extensions. One target origin, one switch, for both kinds of page.
 */
export type OutgoingMessage = EmbedMessage | SignMessage | AllDocumentsCompleted | EmbedLoadingMessage

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
  // Ready says which commands the page answers: those registered by then.
  if ('type' in message && message.type === 'embed-ready') message = { ...message, commands: [...handlers.keys()] }
  window.parent.postMessage(message, target)
}

/** Reports one of the page's moments to the parent (`onStepChange`, `onDirtyChange`, ...). */
export function report<K extends keyof EmbedEvents>(event: K, data: EmbedEvents[K]): void {
  post({ type: 'embed-event', event, data } as OutgoingMessage)
}

// ---- commands from the parent ------------------------------------------------------------------

/** Thrown by a command handler: the parent's promise rejects with this code, message and problems. */
export class CommandRefusal extends Error {
  constructor(
    readonly code: 'REFUSED' | 'NOT_READY',
    message: string,
    readonly problems?: EmbedProblem[],
  ) {
    super(message)
  }
}

type Handler = (...args: any[]) => unknown
const handlers = new Map<string, Handler>()

/**
 * Answers the parent's `command` with `handler` (its return value, or what its promise resolves
 * to; a thrown CommandRefusal is the refusal) until the returned function is called. Register
 * before the page posts embed-ready: ready announces the commands registered then. A command
 * with no handler at the moment it arrives is answered NOT_READY.
 */
export function onCommand(command: string, handler: Handler): () => void {
  handlers.set(command, handler)
  listen()
  return () => void (handlers.get(command) === handler && handlers.delete(command))
}

let listening = false
function listen() {
  if (listening || window.parent === window) return
  listening = true
  addEventListener('message', async (e) => {
    const m = parseCommandMessage(e.data)
    if (!m || e.source !== window.parent || (target !== '*' && e.origin !== target)) return
    const handler = handlers.get(m.command)
    try {
      if (!handler) throw new CommandRefusal('NOT_READY', `${m.command}: not available on this page now`)
      post({ type: 'embed-answer', id: m.id, ok: true, result: await handler(...m.args) })
    } catch (err) {
      const { code = 'REFUSED', message = String(err), problems } = err as Partial<CommandRefusal>
      post({ type: 'embed-answer', id: m.id, ok: false, error: { code, message, ...(problems && { problems }) } })
    }
  })
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
