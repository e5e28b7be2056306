import { flushSync } from 'react-dom'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EmbedCreateEnvelope, EmbedProvider, EmbedUpdateDocumentV1 } from '../../../src/index.js'
import { FRAME_HOST, waitFor } from './harness.js'

const containers: HTMLElement[] = []
afterEach(() => {
  for (const c of containers.splice(0)) c.remove()
})

describe('server rendering and hydration', () => {
  it('hydrates the server HTML without a mismatch, then loads the frame and listens', async () => {
    const onEnvelopeCreated = vi.fn()
    const app = (
      <main>
        <h1>Contracts</h1>
        <EmbedProvider host={FRAME_HOST} language="de">
          <EmbedCreateEnvelope presignToken="secret-token" type="DOCUMENT" className="embed" onEnvelopeCreated={onEnvelopeCreated} />
          <EmbedUpdateDocumentV1 presignToken="t" documentId={3} autoHeight />
        </EmbedProvider>
      </main>
    )
    const html = renderToString(app)
    // The server knows no parent origin, so it renders the frame without src (and without the token).
    expect(html).not.toContain('src=')
    expect(html).not.toContain('secret-token')
    expect(html).toContain('title="Create document"')

    const container = document.createElement('div')
    containers.push(container)
    container.innerHTML = html
    document.body.append(container)
    const serverFrame = container.querySelector('iframe')
    const error = vi.spyOn(console, 'error')
    const recoverable = vi.fn()
    flushSync(() => {
      hydrateRoot(container, app, { onRecoverableError: recoverable })
    })
    const iframe = container.querySelector('iframe')!
    await waitFor(() => expect(iframe.getAttribute('src')).toMatch(/^http/))
    expect(error).not.toHaveBeenCalled()
    expect(recoverable).not.toHaveBeenCalled()
    error.mockRestore()
    expect(serverFrame).not.toBe(iframe) // the frame first loads on the client, with parentOrigin
    const options = JSON.parse(decodeURIComponent(atob(new URL(iframe.src).hash.slice(1))))
    expect(options).toEqual({ type: 'DOCUMENT', language: 'de', parentOrigin: location.origin })

    // It is live: the frame's message reaches the callback.
    await new Promise((ok) => addEventListener('message', function once(e) {
      if (e.source === iframe.contentWindow && e.data?.__frame === 'loaded') ok(removeEventListener('message', once))
    }))
    iframe.contentWindow!.postMessage({ __steps: [{ post: { type: 'envelope-created', envelopeId: 'envelope_1', externalId: null } }] }, '*')
    await waitFor(() => expect(onEnvelopeCreated).toHaveBeenCalledWith({ envelopeId: 'envelope_1' }))
  })

  it('the hydration check sees a real mismatch', () => {
    // Guards the test above: a server/client difference in an attribute is reported.
    const container = document.createElement('div')
    containers.push(container)
    container.innerHTML = renderToString(<iframe title="server" />)
    document.body.append(container)
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    flushSync(() => {
      hydrateRoot(container, <iframe title="client" />)
    })
    expect(error).toHaveBeenCalled()
    error.mockRestore()
  })
})
