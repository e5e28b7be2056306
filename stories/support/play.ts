import { expect, waitFor } from 'storybook/test'
import { decodeOptions } from '../../src/protocol/index.js'
import { hostUrl } from './demo.js'

/** A safety net, long enough for a cold page on a machine busy with other work (the stories run beside the other tests). */
export const READY_TIMEOUT = 60_000

/** The embed iframes the story rendered. */
export async function frames(canvasElement: HTMLElement, count = 1): Promise<HTMLIFrameElement[]> {
  return waitFor(() => {
    const found = [...canvasElement.querySelectorAll('iframe')]
    expect(found).toHaveLength(count)
    return found
  })
}

/** Splits an iframe's src into what docs/protocol.md puts there. */
export function embedUrl(iframe: HTMLIFrameElement) {
  const url = new URL(iframe.src)
  return { origin: url.origin, path: url.pathname, token: url.searchParams.get('token'), options: decodeOptions(url.hash) }
}

/** The iframe points at `path` on the demo host, with the token in the query. */
export async function expectRoute(iframe: HTMLIFrameElement, path: string) {
  const url = embedUrl(iframe)
  await expect(url.origin).toBe(new URL(hostUrl).origin)
  await expect(url.path).toBe(path)
  await expect(url.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
  return url
}

type Spy = { mock: { calls: unknown[][] } }

/** Waits until the authoring page reported `embed-ready`, and checks nothing failed. */
export async function expectReady(args: { onReady?: unknown; onError?: unknown }) {
  await waitFor(() => expect(args.onReady).toHaveBeenCalled(), { timeout: READY_TIMEOUT })
  await expect(args.onError).not.toHaveBeenCalled()
}

export const calls = (spy: unknown) => (spy as Spy).mock.calls

/** The signing iframe points at `/embed/sign/{token}` (or a direct link's `/embed/direct/{token}`) on the demo host: the token in the path, never in the query. */
export async function expectSignRoute(iframe: HTMLIFrameElement, token: string, page: 'sign' | 'direct' = 'sign') {
  const url = embedUrl(iframe)
  await expect(url.origin).toBe(new URL(hostUrl).origin)
  await expect(url.path).toBe(`/embed/${page}/${encodeURIComponent(token)}`)
  await expect(url.token).toBeNull()
  return url
}

/** Waits until the signing page reported `document-ready` (and with it `onReady`), and checks nothing failed. */
export async function expectDocumentReady(args: { onDocumentReady?: unknown; onReady?: unknown; onError?: unknown; onDocumentError?: unknown }) {
  await waitFor(() => expect(args.onDocumentReady).toHaveBeenCalled(), { timeout: READY_TIMEOUT })
  await expect(args.onReady).toHaveBeenCalledTimes(1)
  await expect(args.onError).not.toHaveBeenCalled()
  await expect(args.onDocumentError).not.toHaveBeenCalled()
}

/** How long a webhook may take from the service to the delivery panel (queue, POST, the panel's next poll): a safety net for a busy machine. */
export const DELIVERY_TIMEOUT = 60_000

/** Waits until the delivery panel lists `event` for the envelope: the service delivered it and the demo backend verified it. */
export async function expectDelivered(canvasElement: HTMLElement, envelopeId: string, event = 'DOCUMENT_SENT') {
  const selector = `[aria-label="Webhook events"] li[data-event="${event}"][data-envelope-id="${envelopeId}"]`
  return waitFor(
    () => {
      const found = canvasElement.querySelector(selector)
      expect(found, `${event} for ${envelopeId} in the delivery panel`).not.toBeNull()
      return found!
    },
    { timeout: DELIVERY_TIMEOUT, interval: 200 },
  )
}
