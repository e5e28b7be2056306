import type { ReactElement } from 'react'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { afterEach, expect, inject, vi } from 'vitest'

export const FRAME_HOST = inject('frameHost')
export const OTHER_HOST = inject('otherHost')
/** Accepts the connection and never answers. */
export const HANG_HOST = `${FRAME_HOST}/hang`
/** Serves the scripted page but never finishes it: it can post, yet never fires load. */
export const PARTIAL_HOST = `${FRAME_HOST}/partial`

/**
 * vi.waitFor with room for a busy machine (its default gives up after 1 s): a frame's load or
 * message arrives when the browser gets to it. Nothing here waits for something not to happen.
 */
export const waitFor = <T,>(fn: () => T | Promise<T>, o: { timeout?: number; interval?: number } = {}) =>
  vi.waitFor(fn, { timeout: 10_000, interval: 20, ...o })

export type Step = { post: unknown } | { goto: string } | { nested: unknown; then?: Step[] }

/** A presign token for the scripted frame: `name`, plus steps it runs while it loads. */
export const token = (name: string, steps?: Step[]) => (steps ? `${name}~${JSON.stringify(steps)}` : name)

export interface FrameNote {
  __frame: 'loaded' | 'pong'
  loadId?: number
  path?: string
  search?: string
  token?: string
  options?: Record<string, unknown> | null
}

// Every note the scripted frames post, with the window it came from.
const notes: { source: MessageEventSource | null; data: FrameNote }[] = []
addEventListener('message', (e) => {
  if (e.data && typeof e.data === 'object' && '__frame' in e.data) notes.push({ source: e.source, data: e.data })
})

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

/** Renders into a fresh container and records every iframe inserted and every src set in it after that. */
export function mount(element: ReactElement) {
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  const changes = { inserted: 0, src: 0 }
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') changes.src++
      for (const n of r.addedNodes) if (n instanceof HTMLIFrameElement) changes.inserted++
    }
  })
  observer.observe(container, { childList: true, subtree: true, attributes: true, attributeFilter: ['src'] })
  flushSync(() => root.render(element))
  observer.takeRecords() // the first render is not a change
  const iframe = () => container.querySelector('iframe')!
  const loads = () => notes.filter((n) => n.data.__frame === 'loaded' && n.source === iframe().contentWindow)
  const mounted = {
    container,
    changes,
    iframe,
    render: (next: ReactElement) => flushSync(() => root.render(next)),
    /** The notes of every document loaded in this container's current iframe. */
    loads,
    /** Waits for the current iframe's document number `n` (1-based) and returns its note. */
    loaded: async (n = 1) => {
      await waitFor(() => expect(loads().length).toBeGreaterThanOrEqual(n))
      return loads()[n - 1]!.data
    },
    /** Runs steps in the current frame. */
    send: (steps: Step[]) => iframe().contentWindow!.postMessage({ __steps: steps }, '*'),
    /**
     * Waits until everything the frame posted before now has been delivered: the frame answers
     * a ping, and messages from one window arrive in order.
     */
    settle: async () => {
      const id = Math.random()
      mounted.send([{ post: { __frame: 'pong', loadId: id } }])
      await waitFor(() => expect(notes.some((n) => n.data.__frame === 'pong' && n.data.loadId === id)).toBe(true))
    },
  }
  cleanups.push(() => {
    observer.disconnect()
    root.unmount()
    container.remove()
  })
  return mounted
}
