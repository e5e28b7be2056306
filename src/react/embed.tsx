// One namespace binding: a minified bundle carries no list of renamed imports.
import * as React from 'react'
// The components' other files use it from here, so a bundle imports it once.
export { React }
import type { ForwardRefExoticComponent, ReactElement, Ref, RefAttributes } from 'react'
import {
  buildEmbedUrl, DEFAULT_HOST, parseMessage, type BaseMessage, type EmbedCommandErrorCode, type EmbedCommandFailure, type EmbedCommandMessage, type EmbedMessage,
  type EmbedOptions, type EmbedProblem, type EmbedRoute,
} from '../protocol/index.js'
import type { EmbedCommonProps, EmbedFrameProps, EmbedSharedProps } from './types.js'

export const EmbedContext = React.createContext<EmbedSharedProps>({})

/** `base` overridden by the keys of `own` that are not undefined. */
export function merge<T extends object>(base: object, own: T): T {
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(own)) if (v !== undefined) out[k] = v
  return out as T
}

/**
 * What sets one kind of embed apart (authoring pages, the signing page): the props it needs,
 * its own hash options, its URL, and how the messages of its base protocol reach the callbacks.
 * Everything else (host check, shared options, guards, extensions, timers, size) is the machine's.
 */
export interface FrameSpec<P> {
  /** Default accessible name of the iframe. */
  title: string
  /** Props that must be set, space-separated names (own props, never from EmbedProvider): a missing one is INVALID_OPTIONS. */
  need: string
  /** The hash options ahead of the shared ones, from the props merged with EmbedProvider's. */
  options: (props: P) => object
  /** The iframe URL for this `host` (an http(s) URL) and the complete hash options. */
  url: (host: string, options: object) => string
  /**
   * A message from this frame that is not an extension (`m` is its parse as one of the authoring
   * messages, or null). Calls the callbacks it maps to on `props`, always the newest ones, and
   * returns true when it tells that the page is ready.
   */
  receive: (props: P, data: unknown, m: EmbedMessage | null) => boolean | void
  /** The base messages announce readiness (signing: document-ready): even on a host declared without the extensions, its load is not. */
  announcesReady?: boolean
  /** The handle's commands, space-separated: each one a method that sends it to the page. */
  commands?: string
}

/** A command the page refused or never answered: `code` says which (`REFUSED` comes with the page's `problems`). */
export class EmbedCommandError extends Error {
  declare readonly code: EmbedCommandErrorCode | (string & {})
  declare readonly problems?: EmbedProblem[]
  constructor(failure: EmbedCommandFailure) {
    super(failure.message)
    Object.assign(this, failure)
  }
}

type Answer = { ok?: boolean; result?: unknown; error?: EmbedCommandFailure }

let ids = 0

/** What sets one authoring component apart: its page, its hash options and the callbacks of its done message. */
export interface EmbedSpec<P> {
  route: EmbedRoute
  /** Default accessible name of the iframe. */
  title: string
  /** The prop of the id an edit route needs. */
  id?: string
  /** Component-specific hash options (`type`, `onlyEditFields`). */
  options?: EmbedOptions
  /** The base message this page posts when the user is done. */
  done: BaseMessage['type']
  /** Calls the callbacks for `done`, always with the newest props. */
  fire: (props: P, event: never) => void
}

// Subscribing during the commit that inserts the iframe means no load event or message can come first.
// On the server layout effects never run; useEffect there only avoids React 18's warning.
const useCommitEffect = typeof window < 'u' ? React.useLayoutEffect : React.useEffect
// A store that never changes: subscribing to it must be stable, its snapshots need not be.
const never = () => () => {}


// Equal objects in any key order encode to the same URL.
const sorted = <T extends object>(o?: T) => o && (Object.fromEntries(Object.entries(o).sort()) as T)

/** `onStepChange` for `step-change`, `onDocumentReady` for `document-ready`. */
export const callbackOf = (name: string) => `on${name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase())}`

/** A component whose `ref` receives handle `H` (React 18's forwardRef, and React 19's ref prop alike). */
export type EmbedComponent<P, H> = ForwardRefExoticComponent<P & RefAttributes<H>>

/** The component of `render`, with its `ref` passed on. */
/* @__NO_SIDE_EFFECTS__ */
export function component<P, H>(render: (props: P, ref: Ref<H>) => ReactElement): EmbedComponent<P, H> {
  return React.forwardRef(render as never) as never
}

/**
 * One session of the frame at one URL: the TIMEOUT timer, its load event and its messages to the
 * newest callbacks, the commands' readiness and answers, auto-height. Returns its end.
 */
function openSession<P extends EmbedFrameProps>(
  el: HTMLIFrameElement,
  origin: string,
  spec: FrameSpec<P>,
  latest: { current: P },
  commands: { current: string[] | null },
  waiting: Set<() => void>,
  answers: Map<number, (a: Answer) => void>,
  setHeight: (height: number) => void,
): () => void {
  const { timeout = 15000, extensions = true } = latest.current
  let ready = false
  // The page's commands, from its embed-ready (that comes before any other readiness).
  let announced: string[] = []
  const onReady = () => {
    if (!ready) latest.current.onReady?.()
    ready = true
    commands.current = announced
    waiting.forEach((send) => send())
    waiting.clear()
  }
  // Nothing from the frame within `timeout`: after its load, a page that is not the service's
  // (a browser error page for a host not reached, another web server, a login wall); before, a hang.
  let loaded: boolean | undefined
  const timer =
    timeout > 0
      ? setTimeout(() => latest.current.onError?.({ code: loaded ? 'NOT_A_SIGNING_SERVICE' : 'TIMEOUT', message: `nothing came from ${origin} in ${timeout} ms` }), timeout)
      : undefined
  // A load says nothing of what the frame holds (browser error pages and other sites load too),
  // except on a host known to speak no extensions: there it ends the wait, and an authoring page's
  // load is its readiness (a signing page announces its own).
  const onLoad = () => {
    loaded = true
    if (extensions) return
    clearTimeout(timer)
    spec.announcesReady || onReady()
  }
  // Auto-height: the frame's own viewport is all of it, so tell it where the parent's viewport
  // lies over it (embed-viewport), once per animation frame after a scroll, resize or message.
  // A frame removed before its animation frame has no window left to post to.
  let raf = 0
  const view = () =>
    latest.current.autoHeight &&
    (raf ||= requestAnimationFrame(() => {
      raf = 0
      el.contentWindow?.postMessage({ type: 'embed-viewport', top: -el.getBoundingClientRect().top, height: innerHeight }, origin)
    }))
  // Anything from this frame ends the wait: the service's pages post embed-loading as they start.
  const onMessage = ({ source, origin: from, data }: MessageEvent) => {
    if (source !== el.contentWindow || from !== origin) return
    clearTimeout(timer)
    const m = parseMessage(data)
    const p = latest.current
    if (m?.type === 'embed-ready') {
      announced = m.commands ?? []
      onReady()
    } else if (m?.type === 'embed-answer') answers.get(m.id)?.(m)
    else if (m?.type === 'embed-event') (p[callbackOf(m.event) as keyof P] as ((data: unknown) => void) | undefined)?.(m.data)
    else if (m?.type === 'embed-error') p.onError?.({ code: m.code, message: m.message })
    else if (m?.type === 'embed-resize') {
      if (p.autoHeight) setHeight(m.height)
    } else if (m?.type === 'embed-scroll') {
      // The band's margins make it the part scrolled into view, through any scrolling ancestor.
      const s = el.style
      s.scrollMargin = `${-m.top}px 0 ${m.top + m.height - el.offsetHeight}px`
      el.scrollIntoView({ block: 'nearest' })
      s.scrollMargin = ''
    } else return void (spec.receive(p, data, m) && onReady())
    view()
  }
  el.addEventListener('load', onLoad)
  addEventListener('message', onMessage)
  addEventListener('scroll', view, true)
  addEventListener('resize', view)
  return () => {
    // Commands wait for the next page; those sent to this one are not answered.
    commands.current = null
    answers.forEach((end) => end({ error: { code: 'NOT_READY', message: 'page replaced' } }))
    clearTimeout(timer)
    el.removeEventListener('load', onLoad)
    removeEventListener('message', onMessage)
    removeEventListener('scroll', view, true)
    removeEventListener('resize', view)
  }
}

/**
 * The one machine behind every component: props -> URL -> iframe -> guarded messages -> newest
 * callbacks, and the handle's commands -> requests with an id -> the page's answers.
 */
export function useFrame<P extends EmbedFrameProps>(own: P, spec: FrameSpec<P>, ref?: Ref<unknown>) {
  const props = merge(React.useContext(EmbedContext), own)
  const { host = DEFAULT_HOST, autoHeight } = props
  // null during server rendering and hydration: the src (which carries it) is set right after.
  const parentOrigin = React.useSyncExternalStore(never, () => location.origin, () => null)
  const latest = React.useRef(props)
  React.useInsertionEffect(() => {
    latest.current = props
  })
  const frame = React.useRef<HTMLIFrameElement>(null)
  const [height, setHeight] = React.useState<number>()
  // Commands: what the ready page answers (null until it is ready), those waiting for it, the answers awaited by id.
  const commands = React.useRef<string[] | null>(null)
  const waiting = React.useRef(new Set<() => void>()).current
  const answers = React.useRef(new Map<number, (a: Answer) => void>()).current
  React.useImperativeHandle(ref, () =>
    Object.fromEntries(
      spec.commands!.split(' ').map((command) => [
        command,
        (...args: unknown[]) =>
          new Promise((resolve, reject) => {
            const id = ++ids
            const { timeout = 15000 } = latest.current
            const end = (a: Answer) => {
              clearTimeout(timer)
              answers.delete(id)
              a.ok ? resolve(a.result) : reject(new EmbedCommandError(a.error!))
            }
            const fail = (code: EmbedCommandErrorCode) => end({ error: { code, message: `${command}: ${code}` } })
            const timer = timeout > 0 ? setTimeout(fail, timeout, 'TIMEOUT') : undefined
            // Sent once the page is ready, unless it timed out meanwhile.
            const send = () =>
              answers.has(id) &&
              (commands.current!.includes(command)
                ? frame.current!.contentWindow!.postMessage({ type: 'embed-command', id, command, args } satisfies EmbedCommandMessage, origin)
                : fail('UNSUPPORTED'))
            answers.set(id, end)
            commands.current ? send() : waiting.add(send)
          }),
      ]),
    ),
  )

  let origin = ''
  try {
    const url = new URL(host)
    if (/^https?:$/.test(url.protocol)) origin = url.origin
  } catch {}
  const missing = spec.need.split(' ').find((name) => !own[name as keyof P])
  const problem = !origin ? `host must be an http(s) URL: ${JSON.stringify(host)}` : missing ? `${missing} is required` : ''
  // A string: equal props give an equal URL, so re-renders never reload the frame.
  const src =
    parentOrigin && !problem
      ? spec.url(host, {
          ...spec.options(props),
          css: props.css,
          cssVars: sorted(props.cssVars),
          darkModeDisabled: props.darkModeDisabled,
          language: props.language,
          parentOrigin,
        })
      : undefined

  React.useEffect(() => {
    if (problem) latest.current.onError?.({ code: 'INVALID_OPTIONS', message: problem })
  }, [problem])

  // One session per URL (the iframe is keyed by it): TIMEOUT timer, load event, messages.
  useCommitEffect(() => {
    // The iframe is rendered with every src, so it is there whenever src is.
    if (src) return openSession(frame.current!, origin, spec, latest, commands, waiting, answers, setHeight)
  }, [src])

  return (
    <iframe
      key={src}
      width="100%"
      height={800}
      {...props.additionalProps}
      ref={frame}
      src={src}
      srcDoc={undefined}
      title={props.title ?? spec.title}
      className={props.className}
      style={{ border: 0, ...props.style, ...(autoHeight && height != null && { height }) }}
    />
  )
}

/** The authoring pages on the machine: presign token in the query, `{type, ...}` messages, a done message each. */
export function useEmbed<P extends EmbedCommonProps>(own: P, spec: EmbedSpec<P>, ref: Ref<unknown>) {
  const idName = spec.id
  const id = idName && (own[idName as keyof P] as string | number)
  return useFrame(own, {
    title: spec.title,
    need: idName ? 'presignToken ' + idName : 'presignToken',
    options: (p) => ({ externalId: p.externalId, ...spec.options, features: sorted(p.features) }),
    url: (host, options) => buildEmbedUrl({ host, route: spec.route, id, token: own.presignToken, options }),
    receive: (p, _, m) => {
      if (m?.type !== spec.done) return
      const { type, externalId, ...rest } = m as BaseMessage
      spec.fire(p, (externalId == null ? rest : { ...rest, externalId }) as never)
    },
    commands: 'save goToStep isDirty reload',
  }, ref)
}
