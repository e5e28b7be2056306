/**
 * A customer's page on the deployed service's own embed library, `@documenso/embed-react`, used
 * unmodified: renders one of its components with the props the test passes to `window.mount`,
 * and records every callback (same globals as main.tsx, so stack.ts's helpers read both).
 */
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import * as Deployed from '@documenso/embed-react'

const CALLBACKS = [
  'onEnvelopeCreated', 'onEnvelopeUpdated', 'onDocumentCreated', 'onTemplateCreated', 'onDocumentUpdated', 'onTemplateUpdated',
  'onDocumentReady', 'onDocumentCompleted', 'onDocumentRejected', 'onDocumentError',
]

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
  const Component = (Deployed as unknown as Record<string, React.ComponentType<Record<string, unknown>>>)[component]
  if (!Component) throw new Error(`no component ${component}`)
  window.mountedAt = performance.now()
  root.render(createElement(Component, { ...callbacks, ...props }))
}

window.unmount = () => root.render(null)
