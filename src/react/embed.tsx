import {
  useContext, useEffect, useInsertionEffect, useLayoutEffect, useRef, useState, useSyncExternalStore,
} from 'react'
import { buildEmbedUrl, DEFAULT_HOST, parseMessage, type BaseMessage, type EmbedOptions, type EmbedRoute } from '../protocol/index.js'
import { EmbedContext, merge } from './provider.js'
import type { EmbedCommonProps } from './types.js'

/** What sets one component apart: its page, its hash options and the callbacks of its done message. */
export interface EmbedSpec<P> {
  route: EmbedRoute
  /** Default accessible name of the iframe. */
  title: string
  /** `[prop name, value]` of the id an edit route needs. */
  id?: [string, string | number | undefined]
  /** Component-specific hash options (`type`, `onlyEditFields`). */
  options?: EmbedOptions
  /** The base message this page posts when the user is done. */
  done: BaseMessage['type']
  /** Calls the callbacks for `done`, always with the newest props. */
  fire: (props: P, event: never) => void
}

// Subscribing during the commit that inserts the iframe means no load event or message can come first.
// On the server layout effects never run; useEffect there only avoids React 18's warning.
const useCommitEffect = typeof window < 'u' ? useLayoutEffect : useEffect
const never = () => () => {}
const clientOrigin = () => location.origin
const serverOrigin = () => null

/**
 * How long after its load event a host that speaks the extensions has to send its first one
 * (its first embed-resize comes with its first render). A host that never does is taken to be
 * one without extensions, and its load is its readiness.
 */
const READY_GRACE = 500

// Equal objects in any key order encode to the same URL.
const sorted = <T extends object>(o?: T) => o && (Object.fromEntries(Object.entries(o).sort()) as T)

/** The one machine behind every component: props -> URL -> iframe -> guarded messages -> newest callbacks. */
export function useEmbed<P extends EmbedCommonProps>(own: P, spec: EmbedSpec<P>) {
  const props = merge(useContext(EmbedContext), own)
  const { host = DEFAULT_HOST, presignToken, autoHeight } = props
  // null during server rendering and hydration: the src (which carries it) is set right after.
  const parentOrigin = useSyncExternalStore(never, clientOrigin, serverOrigin)
  const latest = useRef(props)
  useInsertionEffect(() => {
    latest.current = props
  })
  const frame = useRef<HTMLIFrameElement>(null)
  const [height, setHeight] = useState<number>()

  let origin = ''
  try {
    const url = new URL(host)
    if (/^https?:$/.test(url.protocol)) origin = url.origin
  } catch {}
  const [idName, id] = spec.id ?? []
  const problem = !origin
    ? `host must be an http(s) URL: ${JSON.stringify(host)}`
    : !presignToken
      ? 'presignToken is required'
      : idName && !id
        ? `${idName} is required`
        : ''
  const options: EmbedOptions = {
    externalId: props.externalId,
    ...spec.options,
    features: sorted(props.features),
    css: props.css,
    cssVars: sorted(props.cssVars),
    darkModeDisabled: props.darkModeDisabled,
    language: props.language,
    parentOrigin: parentOrigin ?? undefined,
  }
  // A string: equal props give an equal URL, so re-renders never reload the frame.
  const src = parentOrigin && !problem ? buildEmbedUrl({ host, route: spec.route, id, token: presignToken, options }) : undefined

  useEffect(() => {
    if (problem) latest.current.onError?.({ code: 'INVALID_OPTIONS', message: problem })
  }, [problem])

  // One session per URL (the iframe is keyed by it): TIMEOUT timer, load event, messages.
  useCommitEffect(() => {
    const el = frame.current
    if (!src || !el) return
    const { timeout = 15000 } = latest.current
    let spoke = false // the frame sent an extension message: readiness is its embed-ready
    let ready = false
    let grace: ReturnType<typeof setTimeout> | undefined
    const onReady = () => {
      if (!ready) latest.current.onReady?.()
      ready = true
    }
    const timer =
      timeout > 0
        ? setTimeout(() => latest.current.onError?.({ code: 'TIMEOUT', message: `nothing arrived from ${origin} within ${timeout} ms` }), timeout)
        : undefined
    const onLoad = () => {
      clearTimeout(timer)
      if (!spoke) grace = setTimeout(() => spoke || onReady(), READY_GRACE)
    }
    const onMessage = (event: MessageEvent) => {
      const m = event.source === el.contentWindow && event.origin === origin ? parseMessage(event.data) : null
      if (!m) return
      clearTimeout(timer)
      const p = latest.current
      if (m.type === spec.done) {
        const { type, externalId, ...rest } = m as BaseMessage
        spec.fire(p, (externalId == null ? rest : { ...rest, externalId }) as never)
      } else if (m.type === 'embed-ready') {
        spoke = true
        onReady()
      } else if (m.type === 'embed-error') {
        spoke = true
        p.onError?.({ code: m.code, message: m.message })
      } else if (m.type === 'embed-resize') {
        spoke = true
        if (p.autoHeight) setHeight(m.height)
      }
    }
    el.addEventListener('load', onLoad)
    addEventListener('message', onMessage)
    return () => {
      clearTimeout(timer)
      clearTimeout(grace)
      el.removeEventListener('load', onLoad)
      removeEventListener('message', onMessage)
    }
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
