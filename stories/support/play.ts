import { expect, waitFor } from 'storybook/test'
import { decodeOptions } from '../../src/protocol/index.js'
import { hostUrl } from './demo.js'

/** Long enough for a cold authoring page on a slow machine; the library's own timeout is 15 s. */
export const READY_TIMEOUT = 20_000

/** The embed iframes the story rendered. */
export async function frames(canvasElement: HTMLElement, count = 1): Promise<HTMLIFrameElement[]> {
  return waitFor(() => {
    const found = [...canvasElement.querySelectorAll('iframe')]
    expect(found).toHaveLength(count)
    return found
  })
}

/** Splits an iframe's src into what PROTOCOL.md puts there. */
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
