// A team that lists the origins allowed to embed it: Chromium itself refuses its pages in any
// other parent (Content-Security-Policy: frame-ancestors); the authoring page also names its parent
// to the service's session check (test/host/framing.test.ts).
import { afterAll, afterEach, describe, expect } from 'vitest'
import { sendDocument, sig, signing } from './support/sign.js'
import { callback, events, mount, startStack, type Stack } from './support/stack.js'
import { test } from './support/fixtures.js'

let stack: Stack
test.beforeAll(async ({ browser }) => {
  stack = await startStack(browser)
})
afterEach(() => stack.api('POST', '/team/update', { embedOrigins: null }))
afterAll(() => stack?.close())

const parentOrigin = () => new URL(stack.parentUrl).origin

describe('frame-ancestors per team', () => {
  test('listed: the editor and the signing page load in the parent', async () => {
    await stack.api('POST', '/team/update', { embedOrigins: ['https://app.example.com', parentOrigin()] })
    const { page, frame } = await mount(stack, 'EmbedCreateEnvelope', { presignToken: await stack.presign(), type: 'DOCUMENT' })
    const session = page.waitForRequest((r) => r.url().includes('/api/v2/embedding/session'))
    await callback(page, 'onReady')
    // The page names its parent, as the browser reports it, for the service's own check.
    expect(new URL((await session).url()).searchParams.get('parentOrigin')).toBe(parentOrigin())
    await frame.getByRole('heading', { level: 2 }).waitFor()
    await page.close()

    const doc = await sendDocument(stack, { title: 'NDA', recipients: [{ email: 'f@example.com', name: 'F', role: 'SIGNER', fields: [sig(10, 80)] }] })
    const signPage = await mount(stack, 'EmbedSignDocument', { token: doc.recipient('f@example.com').token })
    await signing(signPage.page, signPage.frame).ready()
    await callback(signPage.page, 'onDocumentReady')
    await signPage.page.close()
  })

  test('not listed: the browser refuses both pages; each embed reports NOT_A_SIGNING_SERVICE, never ready', async () => {
    await stack.api('POST', '/team/update', { embedOrigins: ['https://app.example.com'] })
    const doc = await sendDocument(stack, { title: 'NDA', recipients: [{ email: 'g@example.com', name: 'G', role: 'SIGNER', fields: [sig(10, 80)] }] })
    // The timeout runs from the mount: long enough for a busy machine to show Chromium's error
    // page first (before its load the answer would be TIMEOUT). Both embeds wait side by side.
    const [signPage, editor] = await Promise.all([
      mount(stack, 'EmbedSignDocument', { token: doc.recipient('g@example.com').token, timeout: 15_000 }),
      stack.presign().then((presignToken) => mount(stack, 'EmbedCreateEnvelope', { presignToken, type: 'DOCUMENT', timeout: 15_000 })),
    ])
    const [signError, editorError] = await Promise.all([callback(signPage.page, 'onError'), callback(editor.page, 'onError')])
    expect(signError.code).toBe('NOT_A_SIGNING_SERVICE')
    expect((await events(signPage.page)).map((e) => e.name)).not.toContain('onDocumentReady')
    expect(signPage.page.frames().some((f) => f.url().startsWith('chrome-error://'))).toBe(true)
    await signPage.page.close()

    // The editor is refused the same way: Chromium's error page loads in the frame, and a load is no readiness.
    expect(editorError.code).toBe('NOT_A_SIGNING_SERVICE')
    expect(editor.page.frames().some((f) => f.url().startsWith('chrome-error://'))).toBe(true)
    expect(await editor.frame.locator('#root').count()).toBe(0)
    expect((await events(editor.page)).map((e) => e.name)).not.toContain('onReady')
    await editor.page.close()
  })
})
