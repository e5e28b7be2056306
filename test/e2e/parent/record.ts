/**
 * The embedding application of the end-to-end tests, whichever library it uses: renders one of
 * its components with the props the test passes to `window.mount`, and records every callback it
 * receives (window.events) and every message that reached the page (window.messages).
 */
import { createElement, type ComponentType } from 'react'
import { createRoot } from 'react-dom/client'

type Recorded = { name: string; arg: unknown; at: number }

declare global {
  interface Window {
    mount: (component: string, props: Record<string, unknown>) => void
    unmount: () => void
    events: Recorded[]
    /** Every message that reached this page, for assertions on the wire itself. */
    messages: { origin: string; data: unknown; at: number }[]
    mountedAt: number
    /** What the mounted component gave its `ref`: its handle of commands. */
    handle: any
  }
}

const CALLBACKS = [
  'onReady', 'onError', 'onEnvelopeCreated', 'onDocumentCreated', 'onTemplateCreated',
  'onEnvelopeUpdated', 'onDocumentUpdated', 'onTemplateUpdated',
  'onDocumentReady', 'onDocumentCompleted', 'onDocumentRejected', 'onDocumentError', 'onFieldSigned', 'onFieldUnsigned', 'onAuthRequired', 'onAuthFailed', 'onAllDocumentsCompleted',
  'onWaitingForTurn', 'onLinkExpired', 'onSignerCompleted',
  'onStepChange', 'onDirtyChange', 'onSaveFailed',
]

export function recordingPage(components: Record<string, unknown>): void {
  const root = createRoot(document.getElementById('root')!)
  window.events = []
  window.messages = []
  addEventListener('message', (e) => window.messages.push({ origin: e.origin, data: e.data, at: performance.now() }))

  window.mount = (component, props) => {
    window.events = []
    window.messages = []
    const callbacks = Object.fromEntries(
      CALLBACKS.map((name) => [name, (arg: unknown) => window.events.push({ name, arg, at: performance.now() })]),
    )
    const Component = components[component] as ComponentType<Record<string, unknown>> | undefined
    if (!Component) throw new Error(`no component ${component}`)
    window.mountedAt = performance.now()
    root.render(createElement(Component, { ...callbacks, ...props, ref: (handle: unknown) => void (window.handle = handle) }))
  }
  window.unmount = () => root.render(null)
}
