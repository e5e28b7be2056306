/**
 * envelope-embed/testing: drive the components in your own unit tests (Vitest or Jest, jsdom or
 * happy-dom, Testing Library), with no service running. Render a component as your app does, then
 * play the service's side of the wire: the frame's messages reach the component exactly as the
 * service's would (from the iframe's window, with the `host` origin), typed from the same
 * protocol definitions the components and the service use.
 *
 * ```tsx
 * render(<EmbedCreateEnvelope host="https://sign.example.com" presignToken="t" type="DOCUMENT" onEnvelopeCreated={created} />)
 * const frame = embedFrame()
 * frame.ready()
 * frame.envelopeCreated('envelope_1')
 * expect(created).toHaveBeenCalledWith({ envelopeId: 'envelope_1' })
 * ```
 */
import * as React from 'react'
import type {
  AllDocumentsCompleted,
  EmbedCommandMessage,
  EmbedErrorCode,
  EmbedEvents,
  EmbedMessage,
  EmbedProblem,
  RejectedData,
  SignedData,
  SignerCompleted,
  SignMessage,
} from '../protocol/index.js'

export type { EmbedMessage, SignMessage, AllDocumentsCompleted, SignedData, RejectedData, EmbedErrorCode, EmbedEvents, EmbedProblem, SignerCompleted }

/** The commands each kind of page announces in its `embed-ready`, as the service's pages do. */
export const PAGE_COMMANDS = {
  authoring: ['save', 'goToStep', 'isDirty', 'reload'],
  signing: ['nextField', 'setZoom', 'download'],
}

/** A command the component sent to the frame, not answered yet. */
export type SentCommand = Pick<EmbedCommandMessage, 'id' | 'command' | 'args'>

/** Anything the service's pages post to the embedding page. */
export type FrameMessage = EmbedMessage | SignMessage | AllDocumentsCompleted

export interface EmbedFrame {
  /** The iframe element the component rendered. */
  element: HTMLIFrameElement
  /** Its address, and what the component put in it. */
  url: URL
  /** The `host` origin messages come from. */
  origin: string
  /** The page's path, e.g. `/embed/v2/authoring/envelope/create`. */
  path: string
  /** The presign token (authoring pages) or recipient token (signing pages). */
  token: string | null
  /** The options in the hash (externalId, features, css, language, parentOrigin, name, …). */
  options: Record<string, unknown>
  /** Posts any message as the frame: the component's guards and callbacks see it as the service's. */
  post(message: FrameMessage | Record<string, unknown>): void
  /** The frame's load event: readiness only for a component with `extensions={false}` (a service without the extensions); otherwise a load and silence is `NOT_A_SIGNING_SERVICE` after `timeout`. */
  load(): void
  /**
   * `embed-ready` (authoring), or `embed-ready` and `document-ready` (signing), announcing
   * `commands` (default: every command of this kind of page, `PAGE_COMMANDS`; `[]` plays a host
   * that predates them, so the handle's methods reject with `UNSUPPORTED`).
   */
  ready(commands?: string[]): void
  /** The commands the component sent (`ref.current.save()` …) that no `answer`/`refuse` has answered yet, oldest first. */
  commands: SentCommand[]
  /** Answers the oldest unanswered `command` with `result`: its promise resolves with it. Throws when none was sent. */
  answer(command: string, result?: unknown): void
  /**
   * Refuses the oldest unanswered `command`: its promise rejects with an `EmbedCommandError` of
   * `code` (`REFUSED` by default, `NOT_READY`...) and `problems`. Throws when none was sent.
   */
  refuse(command: string, problems?: EmbedProblem[], code?: string, message?: string): void
  /** A moment of the page: `event('step-change', 'fields')` calls `onStepChange('fields')`, and so on. */
  event<K extends keyof EmbedEvents>(event: K, data: EmbedEvents[K]): void
  /** `embed-error`: the session cannot go on. Signing pages also send `document-error`. */
  error(code: EmbedErrorCode | (string & {}), message?: string): void
  /** `embed-resize`: the content height, for `autoHeight`. */
  resize(height: number): void
  /** `envelope-created` with the options' externalId, as the create page sends it. */
  envelopeCreated(envelopeId: string): void
  /** `envelope-updated` with the options' externalId. */
  envelopeUpdated(envelopeId: string): void
  /** The V1 pages' done messages (`document-created`, `template-updated`, …). */
  legacy(type: 'document-created' | 'template-created' | 'document-updated' | 'template-updated', id: number): void
  /** `field-signed` / `field-unsigned`, as the signing page sends them. */
  fieldSigned(): void
  fieldUnsigned(): void
  /** `auth-required`: the recipient is asked to prove who they are (`access` before the document, `action` to act). */
  authRequired(step: 'access' | 'action'): void
  /** `auth-failed` with the service's code (`AUTH_FAILED`, `CODE_EXPIRED`, `TOO_MANY_ATTEMPTS`...). */
  authFailed(code: string): void
  /** `document-completed`: the recipient signed; defaults fill what is not given. */
  completed(data?: Partial<SignedData>): void
  /** `document-rejected` with the reason. */
  rejected(reason: string, data?: Partial<SignedData>): void
  /** `document-waiting-for-turn`: sequential signing, someone before this recipient has still to act (`onWaitingForTurn`). */
  waitingForTurn(): void
  /** `recipient-expired`: the recipient's link passed its deadline (`onLinkExpired`). */
  linkExpired(): void
  /**
   * Multi-sign: `signer-completed` for one document (`onSignerCompleted`), `done` of `total` now
   * signed or rejected; defaults fill what is not given (`document-completed`, 1 of 1).
   */
  signerCompleted(data?: Partial<SignerCompleted['data']>): void
}

/** The commands sent to each frame and not answered yet (shared by every embedFrame() of it). */
const sent = new WeakMap<HTMLIFrameElement, SentCommand[]>()

/**
 * The frame of a rendered component: `target` is the iframe, an element that holds it (your
 * render's container), or nothing for the only iframe in the document.
 */
export function embedFrame(target?: Element | Document | null): EmbedFrame {
  const scope = target ?? document
  const element = scope instanceof HTMLIFrameElement ? scope : scope.querySelector('iframe')
  if (!element) throw new Error('envelope-embed/testing: no iframe rendered (is the component mounted, with its required props?)')
  const src = element.getAttribute('src')
  if (!src) throw new Error('envelope-embed/testing: the iframe has no src yet (the component renders it after mounting, and not at all with invalid options)')
  const url = new URL(src)
  // The hash as the protocol encodes it (encodeOptions), read here so that this entry shares no
  // code with the browser one.
  const options = (url.hash.length > 1 ? JSON.parse(decodeURIComponent(atob(url.hash.slice(1)))) : {}) as Record<string, unknown>
  const path = url.pathname
  const token = url.searchParams.get('token') ?? (/^\/embed\/(?:sign|direct)\/([^/]+)$/.exec(path)?.[1] ? decodeURIComponent(/^\/embed\/(?:sign|direct)\/([^/]+)$/.exec(path)![1]!) : null)
  const signing = /^\/embed\/(sign|direct)\/|^\/embed\/v1\/multisign/.test(path)
  const externalId = typeof options.externalId === 'string' ? options.externalId : (url.searchParams.get('externalId') ?? null)

  const post = (data: FrameMessage | Record<string, unknown>) => {
    if (!element.isConnected) throw new Error('envelope-embed/testing: the iframe is no longer in the document')
    // The iframe's window as the browser gives it: jsdom makes one; happy-dom, which loads no
    // frame, has none (null), and then the component compares null with null, just as well.
    const send = () => void window.dispatchEvent(new MessageEvent('message', { data, origin: url.origin, source: element.contentWindow }))
    // Inside React's act() (React 18.3 and newer, development builds), so the callbacks' state
    // updates are rendered when this returns, as Testing Library's own events are.
    const act = (React as { act?: (cb: () => void) => void }).act
    if (act) {
      const was = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT
      ;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
      try {
        return act(send)
      } catch (e) {
        if (!/production/i.test(String(e))) throw e
      } finally {
        ;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = was
      }
    }
    send()
  }
  // The component posts its commands to the iframe's window: catch them there. happy-dom makes no
  // window for a frame, so the frame gets a stand-in (messages then come from it, as from a window).
  let commands = sent.get(element)
  if (!commands) {
    const list: SentCommand[] = (commands = [])
    sent.set(element, list)
    const catcher = (data: unknown) => {
      const m = data as EmbedCommandMessage
      if (m?.type === 'embed-command') list.push({ id: m.id, command: m.command, args: m.args })
    }
    const win = element.contentWindow
    if (win) {
      const original = win.postMessage.bind(win)
      win.postMessage = ((data: unknown, ...rest: [string]) => (catcher(data), original(data, ...rest))) as Window['postMessage']
    } else Object.defineProperty(element, 'contentWindow', { configurable: true, value: { postMessage: catcher } })
  }
  const pending = commands
  const take = (command: string) => {
    const i = pending.findIndex((c) => c.command === command)
    if (i < 0) throw new Error(`envelope-embed/testing: no ${command} command to answer (waiting: ${pending.map((c) => c.command).join(', ') || 'none'}; the component sends one once the frame is ready)`)
    return pending.splice(i, 1)[0]!.id
  }

  const signed = (data: Partial<SignedData> = {}): SignedData => ({ token: token ?? 'token', documentId: 1, recipientId: 1, ...data })

  return {
    element,
    url,
    origin: url.origin,
    path,
    token,
    options,
    post,
    load: () => void element.dispatchEvent(new Event('load')),
    ready(announced = PAGE_COMMANDS[signing ? 'signing' : 'authoring']) {
      post({ type: 'embed-ready', commands: announced })
      if (signing) post({ action: 'document-ready' })
    },
    commands,
    answer: (command, result) => post({ type: 'embed-answer', id: take(command), ok: true, result }),
    refuse: (command, problems, code = 'REFUSED', message = `${command} refused`) =>
      post({ type: 'embed-answer', id: take(command), ok: false, error: { code, message, ...(problems && { problems }) } }),
    event: (event, data) => post({ type: 'embed-event', event, data } as FrameMessage),
    error(code, message = String(code)) {
      if (signing) post({ action: 'document-error', data: message })
      post({ type: 'embed-error', code, message })
    },
    resize: (height) => post({ type: 'embed-resize', height }),
    envelopeCreated: (envelopeId) => post({ type: 'envelope-created', envelopeId, externalId }),
    envelopeUpdated: (envelopeId) => post({ type: 'envelope-updated', envelopeId, externalId }),
    legacy(type, id) {
      const key = type.startsWith('document') ? 'documentId' : 'templateId'
      post({ type, [key]: id, externalId })
    },
    fieldSigned: () => post({ action: 'field-signed' }),
    fieldUnsigned: () => post({ action: 'field-unsigned' }),
    authRequired: (step) => post({ action: 'auth-required', data: step }),
    authFailed: (code) => post({ action: 'auth-failed', data: code }),
    completed: (data) => post({ action: 'document-completed', data: signed(data) }),
    rejected: (reason, data) => post({ action: 'document-rejected', data: { ...signed(data), reason } }),
    waitingForTurn: () => post({ action: 'document-waiting-for-turn', data: null }),
    linkExpired: () => post({ action: 'recipient-expired', data: null }),
    signerCompleted: (data = {}) => post({ action: 'signer-completed', data: { action: 'document-completed', done: 1, total: 1, ...signed(data), ...data } }),
  }
}
