// onReady means the frame holds a page of the signing service, and nothing else does: Chromium
// fires `load` for its own error page (a host not reached) and for any other site's page (a 404,
// another web server, a login wall), so a load alone never counts. Each such frame gives onError
// NOT_A_SIGNING_SERVICE after `timeout`; a token the service refuses gives the service's own code;
// a host declared to speak no extensions (the deployed service's authoring pages) is ready on load.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect } from 'vitest'
import { callback, events, mount, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
let other: Server
/** A web server that is not a signing service: a 404 page for every path. */
let otherUrl: string
/** A port on which nothing listens. */
let deadUrl: string

test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
  other = createServer((_, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>'))
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
  const probe = createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`
  await new Promise((r) => probe.close(r))
})
afterAll(async () => {
  await stack?.close()
  other?.close()
})

const names = async (page: Parameters<typeof events>[0]) => (await events(page)).map((e) => e.name)

/** The wait for a silent frame: short, since nothing is coming (a page that does answer is never given one this short). */
const SILENT_WAIT = 3000

describe('onReady only from a page of the service', () => {
  test('our host: the editor is ready, and its page said so as it started (embed-loading)', async () => {
    const { page } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT' })
    await callback(page, 'onReady')
    const loading = await page.evaluate(() => window.messages.find((m) => (m.data as { type?: string })?.type === 'embed-loading'))
    expect(loading?.origin).toBe(stack.host.url)
    expect(await names(page)).not.toContain('onError')
    await page.close()
  })

  for (const [what, host] of [
    ['a host not reached (nothing listens on the port)', () => deadUrl],
    ['another web server (a 404 page)', () => otherUrl],
  ] as const) {
    for (const component of ['EmbedCreateEnvelope', 'EmbedSignDocument'] as const) {
      test(`${what}: ${component} gives NOT_A_SIGNING_SERVICE, never onReady`, async () => {
        const props = component === 'EmbedSignDocument' ? { token: 'recipient-token' } : { presignToken: 'presign-token', type: 'DOCUMENT' }
        const { page } = await mount(stack, component, { ...props, host: host(), timeout: SILENT_WAIT })
        const error = await callback(page, 'onError')
        expect(error.code).toBe('NOT_A_SIGNING_SERVICE')
        expect(error.message).toContain(host())
        expect(await names(page)).toEqual(['onError'])
        await page.close()
      })
    }
  }

  test('a token the service refuses: its own code (INVALID_TOKEN), never onReady', async () => {
    const { page } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: 'not-a-token', type: 'DOCUMENT' })
    expect((await callback(page, 'onError')).code).toBe('INVALID_TOKEN')
    expect(await names(page)).toEqual(['onError'])
    await page.close()
  })

  test('a host declared to speak no extensions (extensions: false): its authoring page is ready on load, as the deployed service needs', async () => {
    const { page } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: 'presign-token', type: 'DOCUMENT', host: otherUrl, extensions: false, timeout: SILENT_WAIT })
    await callback(page, 'onReady')
    // That no error follows later is held by the library's own tests, on a driven clock.
    expect(await names(page)).toEqual(['onReady'])
    await page.close()
  })
})
