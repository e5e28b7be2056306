import { flushSync } from 'react-dom'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EmbedDirectTemplate, EmbedMultiSignDocument, EmbedProvider, EmbedSignDocument, type EmbedSignDocumentProps } from '../../../src/index.js'
import { FRAME_HOST, HANG_HOST, mount, OTHER_HOST, token, type Step, waitFor } from './harness.js'

const encode = (o: object) => btoa(encodeURIComponent(JSON.stringify(o)))
const post = (action: string, data?: unknown): Step => ({ post: data === undefined ? { action } : { action, data } })
const signed = { token: 'tok_ada', documentId: 42, recipientId: 7 }
const completed = (envelopeId?: string) => post('document-completed', envelopeId ? { ...signed, envelopeId } : signed)
const loadEvent = (iframe: HTMLIFrameElement) => new Promise((ok) => iframe.addEventListener('load', ok, { once: true }))
const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })

afterEach(() => {
  vi.useRealTimers()
})

describe('EmbedSignDocument: iframe URL (docs/protocol.md, "The signing pages")', () => {
  it('is {host}/embed/sign/{token}#{options}, without ?token=, and the frame reads the options back', async () => {
    const m = mount(
      <EmbedSignDocument
        host={FRAME_HOST + '/'}
        token="tok en+/=?&#é"
        name="Ada Lovelace – 東京"
        email="ada@example.com"
        lockName
        lockEmail={false}
        allowDocumentRejection
        css=".a::after { content: 'ü→ß' }"
        cssVars={{ primary: '#ff0000', radius: '0.5rem', brandAccent: 'hsl(10 50% 50%)' }}
        darkModeDisabled
        language="de"
      />,
    )
    const options = {
      name: 'Ada Lovelace – 東京',
      email: 'ada@example.com',
      lockName: true,
      lockEmail: false,
      allowDocumentRejection: true,
      css: ".a::after { content: 'ü→ß' }",
      cssVars: { brandAccent: 'hsl(10 50% 50%)', primary: '#ff0000', radius: '0.5rem' },
      darkModeDisabled: true,
      language: 'de',
      parentOrigin: location.origin,
    }
    const src = m.iframe().getAttribute('src')!
    expect(src).toBe(`${FRAME_HOST}/embed/sign/${encodeURIComponent('tok en+/=?&#é')}#${encode(options)}`)
    expect(new URL(src).search).toBe('')
    const note = await m.loaded()
    expect(note.path).toBe(`/embed/sign/${encodeURIComponent('tok en+/=?&#é')}`)
    expect(note.token).toBe('tok en+/=?&#é')
    expect(note.options).toEqual(options)
  })

  it('leaves undefined keys out; takes host and theme from EmbedProvider, never its authoring options', async () => {
    const m = mount(
      <EmbedProvider host={FRAME_HOST} language="fr" externalId="order-1" features={{ allowConfigureLanguage: false }} className="embed">
        <EmbedSignDocument token="t" name={undefined} />
      </EmbedProvider>,
    )
    const note = await m.loaded()
    expect(note.path).toBe('/embed/sign/t')
    expect(note.options).toEqual({ language: 'fr', parentOrigin: location.origin })
    expect(Object.keys(note.options!)).toEqual(['language', 'parentOrigin'])
    expect(m.iframe().className).toBe('embed')
  })

  it('has an accessible name by default, and title overrides it', () => {
    const m = mount(
      <>
        <EmbedSignDocument host={FRAME_HOST} token="t" />
        <EmbedSignDocument host={FRAME_HOST} token="t" title="Sign the NDA" />
      </>,
    )
    expect([...m.container.querySelectorAll('iframe')].map((f) => f.title)).toEqual(['Sign document', 'Sign the NDA'])
  })

  it('additionalProps are iframe attributes (not hash options) and cannot replace src, srcDoc or title', async () => {
    const m = mount(
      <EmbedSignDocument
        host={FRAME_HOST}
        token="t"
        additionalProps={{ src: 'javascript:alert(1)', srcDoc: '<p>forged</p>', title: 'forged', allow: 'clipboard-write', 'data-testid': 'sign', name: 'signing' }}
      />,
    )
    const iframe = m.iframe()
    expect(iframe.getAttribute('src')).toBe(`${FRAME_HOST}/embed/sign/t#${encode({ parentOrigin: location.origin })}`)
    expect(iframe.hasAttribute('srcdoc')).toBe(false)
    expect(iframe.title).toBe('Sign document')
    expect(iframe.getAttribute('allow')).toBe('clipboard-write')
    expect(iframe.dataset.testid).toBe('sign')
    expect(iframe.name).toBe('signing')
    expect((await m.loaded()).options).toEqual({ parentOrigin: location.origin })
  })
})

describe('EmbedSignDocument: invalid options never reach the iframe', () => {
  it('a missing token: onError INVALID_OPTIONS and no src', async () => {
    const onError = vi.fn()
    const a = mount(<EmbedSignDocument host={FRAME_HOST} token="" onError={onError} />)
    const b = mount(<EmbedSignDocument host={FRAME_HOST} {...({} as { token: string })} onError={onError} />)
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(2))
    expect(onError.mock.calls).toEqual([
      [{ code: 'INVALID_OPTIONS', message: 'token is required' }],
      [{ code: 'INVALID_OPTIONS', message: 'token is required' }],
    ])
    expect(a.iframe().hasAttribute('src')).toBe(false)
    expect(b.iframe().hasAttribute('src')).toBe(false)
    expect(a.changes).toEqual({ inserted: 0, src: 0 })
  })

  it('a host that is not http(s): onError INVALID_OPTIONS and no src', async () => {
    const onError = vi.fn()
    const m = mount(<EmbedSignDocument host="javascript:alert(1)" token="t" onError={onError} />)
    await waitFor(() => expect(onError).toHaveBeenCalled())
    expect(onError.mock.calls).toEqual([[{ code: 'INVALID_OPTIONS', message: expect.stringContaining('http(s)') }]])
    expect(m.iframe().hasAttribute('src')).toBe(false)
  })
})

describe('EmbedSignDocument: messages', () => {
  it('document-completed, -rejected and -error call their callbacks with the exact data', async () => {
    const cb = { onDocumentCompleted: vi.fn(), onDocumentRejected: vi.fn(), onDocumentError: vi.fn(), onDocumentReady: vi.fn(), onError: vi.fn() }
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token="tok_ada" {...cb} />)
    await m.loaded()
    m.send([
      completed(),
      completed('envelope_abc'),
      post('document-rejected', { ...signed, reason: 'Wrong amount' }),
      post('document-rejected', { ...signed, reason: '', envelopeId: 'envelope_abc' }),
      post('document-error', 'The document could not be loaded'),
    ])
    await waitFor(() => expect(cb.onDocumentError).toHaveBeenCalled())
    await m.settle()
    expect(cb.onDocumentCompleted.mock.calls).toEqual([[signed], [{ ...signed, envelopeId: 'envelope_abc' }]])
    expect('envelopeId' in cb.onDocumentCompleted.mock.calls[0]![0]).toBe(false)
    expect(cb.onDocumentRejected.mock.calls).toEqual([
      [{ ...signed, reason: 'Wrong amount' }],
      [{ ...signed, reason: '', envelopeId: 'envelope_abc' }],
    ])
    expect(cb.onDocumentError.mock.calls).toEqual([['The document could not be loaded']])
    expect(cb.onDocumentReady).not.toHaveBeenCalled()
    expect(cb.onError).not.toHaveBeenCalled()
  })

  it('embed-error reaches onError, embed-resize sizes the frame with autoHeight', async () => {
    const onError = vi.fn()
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token={token('t', [{ post: { type: 'embed-resize', height: 1234 } }])} autoHeight onError={onError} />)
    await waitFor(() => expect(m.iframe().style.height).toBe('1234px'))
    m.send([{ post: { type: 'embed-resize', height: 640.5 } }, { post: { type: 'embed-error', code: 'INVALID_TOKEN', message: 'This signing link is not valid.' } }])
    await waitFor(() => expect(m.iframe().getBoundingClientRect().height).toBe(640.5))
    await m.settle()
    expect(onError.mock.calls).toEqual([[{ code: 'INVALID_TOKEN', message: 'This signing link is not valid.' }]])
  })

  it('ignores embed-resize without autoHeight', async () => {
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token={token('t', [{ post: { type: 'embed-resize', height: 1234 } }])} />)
    await m.loaded()
    await m.settle()
    expect(m.iframe().style.height).toBe('')
    expect(m.iframe().getBoundingClientRect().height).toBe(800)
  })

  it('ignores malformed {action, data} messages, authoring messages and unknown ones, without throwing', async () => {
    const cb = { onDocumentCompleted: vi.fn(), onDocumentRejected: vi.fn(), onDocumentError: vi.fn(), onDocumentReady: vi.fn(), onError: vi.fn() }
    const thrown = vi.fn()
    addEventListener('error', thrown)
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token="t" autoHeight {...cb} />)
    await m.loaded()
    m.send(
      [
        null, 'document-completed', 42, [], { action: 'document-completed' }, { action: 'document-completed', data: null },
        { action: 'document-completed', data: { ...signed, documentId: '42' } }, { action: 'document-completed', data: { ...signed, recipientId: -1 } },
        { action: 'document-completed', data: { ...signed, token: 7 } }, { action: 'document-completed', data: { ...signed, envelopeId: 5 } },
        { action: 'document-rejected', data: signed }, { action: 'document-rejected', data: { ...signed, reason: null } },
        { action: 'document-error', data: { message: 'x' } }, { action: 'document-error' }, { action: 'toString', data: 'x' },
        { action: '__proto__', data: 'x' }, { action: 'something-new', data: 1 }, { type: 'document-completed', data: signed },
        { type: 'envelope-created', envelopeId: 'envelope_x', externalId: null }, { type: 'document-created', documentId: 1 },
        { type: 'embed-error', code: 'X' }, { type: 'embed-resize', height: -1 }, { type: 'embed-resize', height: '10' },
      ].map((post) => ({ post })),
    )
    await m.settle()
    m.send([completed()])
    await waitFor(() => expect(cb.onDocumentCompleted).toHaveBeenCalled())
    removeEventListener('error', thrown)
    expect(cb.onDocumentCompleted.mock.calls).toEqual([[signed]])
    for (const f of [cb.onDocumentRejected, cb.onDocumentError, cb.onDocumentReady, cb.onError, thrown]) expect(f).not.toHaveBeenCalled()
    expect(m.iframe().style.height).toBe('')
  })

  it('always calls the newest callback props; one added after mount is called, one removed is not', async () => {
    const first = vi.fn()
    const second = vi.fn()
    const onDocumentError = vi.fn()
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token="t" onDocumentCompleted={first} onDocumentError={onDocumentError} />)
    await m.loaded()
    m.render(<EmbedSignDocument host={FRAME_HOST} token="t" onDocumentCompleted={second} />)
    m.send([post('document-error', 'nobody listens'), completed()])
    await waitFor(() => expect(second).toHaveBeenCalled())
    expect(second.mock.calls).toEqual([[signed]])
    expect(first).not.toHaveBeenCalled()
    expect(onDocumentError).not.toHaveBeenCalled()
    expect(m.loads()).toHaveLength(1)
  })
})

describe('EmbedSignDocument: messages are accepted only from this iframe and the origin of host', () => {
  it('ignores a child window of the frame, even from the right origin', async () => {
    const onDocumentCompleted = vi.fn()
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token="t" onDocumentCompleted={onDocumentCompleted} />)
    await m.loaded()
    m.send([{ nested: { action: 'document-completed', data: { ...signed, recipientId: 666 } }, then: [completed()] }])
    await waitFor(() => expect(onDocumentCompleted).toHaveBeenCalled())
    await m.settle()
    expect(onDocumentCompleted.mock.calls).toEqual([[signed]])
  })

  it('ignores its own iframe once it shows another origin', async () => {
    const onDocumentCompleted = vi.fn()
    const onDocumentRejected = vi.fn()
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token="t" onDocumentCompleted={onDocumentCompleted} onDocumentRejected={onDocumentRejected} />)
    await m.loaded()
    // The same window navigates to another origin, posts there, then comes back and posts again.
    const back = `${FRAME_HOST}/embed/sign/${encodeURIComponent(token('back', [completed()]))}`
    const forged = [post('document-rejected', { ...signed, reason: 'forged' }), completed('envelope_forged')]
    m.send([{ goto: `${OTHER_HOST}/embed/sign/${encodeURIComponent(token('other', [...forged, { goto: back }]))}` }])
    await waitFor(() => expect(onDocumentCompleted).toHaveBeenCalled())
    expect(m.loads().map((n) => n.data.token?.split('~')[0])).toEqual(['t', 'other', 'back'])
    expect(onDocumentCompleted.mock.calls).toEqual([[signed]])
    expect(onDocumentRejected).not.toHaveBeenCalled()
  })

  it("ignores another frame on the page, of another origin, even one speaking the signing messages", async () => {
    const onDocumentCompleted = vi.fn()
    const onReady = vi.fn()
    const a = mount(<EmbedSignDocument host={FRAME_HOST} token="a" onDocumentCompleted={onDocumentCompleted} onReady={onReady} />)
    await a.loaded()
    // Another embed's frame, on OTHER_HOST, posts to this same page.
    const b = mount(<EmbedSignDocument host={OTHER_HOST} token={token('b', [completed(), post('document-ready')])} />)
    await b.loaded()
    await b.settle()
    await a.settle()
    expect(onDocumentCompleted).not.toHaveBeenCalled()
    expect(onReady).not.toHaveBeenCalled()
  })

  it('ignores messages the parent page posts to itself', async () => {
    const onDocumentCompleted = vi.fn()
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token="t" onDocumentCompleted={onDocumentCompleted} />)
    await m.loaded()
    window.postMessage({ action: 'document-completed', data: { ...signed, recipientId: 666 } }, '*')
    m.send([completed()])
    await waitFor(() => expect(onDocumentCompleted).toHaveBeenCalled())
    await m.settle()
    expect(onDocumentCompleted.mock.calls).toEqual([[signed]])
  })

  it('keeps two signing embeds on one page apart', async () => {
    const a = vi.fn()
    const b = vi.fn()
    const ma = mount(<EmbedSignDocument host={FRAME_HOST} token="a" onDocumentCompleted={a} />)
    const mb = mount(<EmbedSignDocument host={FRAME_HOST} token="b" onDocumentCompleted={b} />)
    await Promise.all([ma.loaded(), mb.loaded()])
    ma.send([post('document-completed', { ...signed, token: 'a' })])
    mb.send([post('document-completed', { ...signed, token: 'b' })])
    await Promise.all([ma.settle(), mb.settle()])
    expect(a.mock.calls).toEqual([[{ ...signed, token: 'a' }]])
    expect(b.mock.calls).toEqual([[{ ...signed, token: 'b' }]])
  })
})

describe('EmbedSignDocument: onReady and TIMEOUT', () => {
  it('fires onReady once on embed-ready, whatever document-ready adds; onDocumentReady on each document-ready', async () => {
    fakeTimers()
    const onReady = vi.fn()
    const onDocumentReady = vi.fn()
    const ready = { post: { type: 'embed-ready' } }
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token={token('t', [ready, post('document-ready')])} onReady={onReady} onDocumentReady={onDocumentReady} />)
    await loadEvent(m.iframe())
    await m.settle()
    expect(onReady).toHaveBeenCalledTimes(1)
    expect(onDocumentReady.mock.calls).toEqual([[]])
    m.send([ready, post('document-ready')])
    await m.settle()
    vi.advanceTimersByTime(1_000_000)
    expect(onReady).toHaveBeenCalledTimes(1)
    expect(onDocumentReady).toHaveBeenCalledTimes(2)
  })

  it('a host with the base messages only: onReady on document-ready, never on load alone', async () => {
    fakeTimers()
    const onReady = vi.fn()
    const onDocumentReady = vi.fn()
    const onError = vi.fn()
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token="t" timeout={5000} onReady={onReady} onDocumentReady={onDocumentReady} onError={onError} />)
    await loadEvent(m.iframe())
    await m.settle()
    vi.advanceTimersByTime(1_000_000)
    expect(onReady).not.toHaveBeenCalled()
    expect(onError).not.toHaveBeenCalled() // loaded: no TIMEOUT
    m.send([post('document-ready'), post('document-ready')])
    await m.settle()
    expect(onReady).toHaveBeenCalledTimes(1)
    expect(onDocumentReady).toHaveBeenCalledTimes(2)
  })

  it('does not fire onReady when the page reports an error', async () => {
    fakeTimers()
    const onReady = vi.fn()
    const onError = vi.fn()
    const onDocumentError = vi.fn()
    const expired = { post: { type: 'embed-error', code: 'TOKEN_EXPIRED', message: 'This signing link has expired.' } }
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token={token('t', [expired, post('document-error', 'expired')])} onReady={onReady} onError={onError} onDocumentError={onDocumentError} />)
    await loadEvent(m.iframe())
    await m.settle()
    vi.advanceTimersByTime(1_000_000)
    expect(onError.mock.calls).toEqual([[{ code: 'TOKEN_EXPIRED', message: 'This signing link has expired.' }]])
    expect(onDocumentError.mock.calls).toEqual([['expired']])
    expect(onReady).not.toHaveBeenCalled()
  })

  it('a frame that loads but never speaks (as one the browser refused) is NOT_A_SIGNING_SERVICE, never ready', async () => {
    fakeTimers() // driven: a busy machine may take longer than the timeout to load the frame
    const cb = { onReady: vi.fn(), onError: vi.fn(), onDocumentReady: vi.fn() }
    const m = mount(<EmbedSignDocument host={FRAME_HOST + '/silent'} token="t" timeout={1500} {...cb} />)
    await loadEvent(m.iframe())
    expect(cb.onError).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1500)
    expect(cb.onError.mock.calls).toEqual([[{ code: 'NOT_A_SIGNING_SERVICE', message: expect.stringContaining('1500 ms') }]])
    expect(cb.onReady).not.toHaveBeenCalled()
    expect(cb.onDocumentReady).not.toHaveBeenCalled()
  })

  it('onError TIMEOUT when nothing at all arrives in time', () => {
    fakeTimers()
    const onError = vi.fn()
    mount(<EmbedSignDocument host={HANG_HOST} token="t" timeout={5000} onError={onError} />)
    vi.advanceTimersByTime(4999)
    expect(onError).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onError.mock.calls).toEqual([[{ code: 'TIMEOUT', message: expect.stringContaining('5000 ms') }]])
  })
})

describe('EmbedSignDocument: reloading', () => {
  const base = (): EmbedSignDocumentProps => ({
    host: FRAME_HOST,
    token: 'token-1',
    name: 'Ada',
    email: 'ada@example.com',
    lockName: false,
    lockEmail: true,
    allowDocumentRejection: false,
    css: 'body { color: red }',
    cssVars: { primary: '#123456', radius: '4px' },
    darkModeDisabled: false,
    language: 'en',
  })

  it('1,000 re-renders with new but equal props (keys in another order) keep the same frame document', async () => {
    const m = mount(<EmbedSignDocument {...base()} />)
    const first = await m.loaded()
    const iframe = m.iframe()
    for (let i = 0; i < 1000; i++) {
      const { cssVars, ...rest } = base()
      m.render(
        <EmbedSignDocument
          language="en"
          cssVars={{ radius: '4px', primary: '#123456' }}
          {...rest}
          style={{ minHeight: 100 }}
          additionalProps={{ allow: 'clipboard-write' }}
          onDocumentCompleted={() => i}
          onReady={() => i}
        />,
      )
    }
    await m.settle()
    await Promise.resolve() // mutation records
    expect(m.changes).toEqual({ inserted: 0, src: 0 })
    expect(m.iframe()).toBe(iframe)
    expect(m.loads().map((n) => n.data.loadId)).toEqual([first.loadId])
  })

  const changes: [string, Partial<EmbedSignDocumentProps>][] = [
    ['token', { token: 'token-2' }],
    ['host', { host: OTHER_HOST }],
    ['name', { name: 'Ada L.' }],
    ['email', { email: 'ada@example.org' }],
    ['lockName', { lockName: true }],
    ['lockEmail', { lockEmail: false }],
    ['allowDocumentRejection', { allowDocumentRejection: true }],
    ['css', { css: 'body { color: blue }' }],
    ['cssVars', { cssVars: { primary: '#123456', radius: '8px' } }],
    ['darkModeDisabled', { darkModeDisabled: true }],
    ['language', { language: 'fr' }],
  ]
  it.each(changes)('changing %s reloads the frame exactly once', async (_, change) => {
    const onReady = vi.fn()
    const ready = (t: string) => token(t, [{ post: { type: 'embed-ready' } }])
    const m = mount(<EmbedSignDocument {...base()} token={ready('token-1')} onReady={onReady} />)
    const before = await m.loaded()
    await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1))
    const next = { ...base(), ...change }
    m.render(<EmbedSignDocument {...next} token={ready(next.token)} onReady={onReady} />)
    m.render(<EmbedSignDocument {...base()} {...change} token={ready(next.token)} onReady={onReady} />) // and again, equal
    const after = await m.loaded()
    await m.settle()
    await Promise.resolve()
    expect(m.changes).toEqual({ inserted: 1, src: 0 })
    expect(m.loads()).toHaveLength(1)
    expect(after.loadId).not.toBe(before.loadId)
    const { host, token: t, ...options } = next
    expect(after.token?.split('~')[0]).toBe(t)
    expect(after.path?.startsWith('/embed/sign/')).toBe(true)
    expect(after.options).toEqual({ ...options, parentOrigin: location.origin })
    await waitFor(() => expect(onReady).toHaveBeenCalledTimes(2)) // once per load
  })
})

describe('EmbedSignDocument: server rendering and hydration', () => {
  it('hydrates the server HTML without a mismatch, then loads the frame and listens', async () => {
    const onDocumentCompleted = vi.fn()
    const app = (
      <main>
        <EmbedProvider host={FRAME_HOST} language="de">
          <EmbedSignDocument token="secret-recipient-token" name="Ada" className="sign" autoHeight onDocumentCompleted={onDocumentCompleted} />
        </EmbedProvider>
      </main>
    )
    const html = renderToString(app)
    expect(html).not.toContain('src=')
    expect(html).not.toContain('secret-recipient-token')
    expect(html).toContain('title="Sign document"')

    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    try {
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
      expect(iframe.className).toBe('sign')
      const url = new URL(iframe.src)
      expect(url.pathname).toBe('/embed/sign/secret-recipient-token')
      expect(JSON.parse(decodeURIComponent(atob(url.hash.slice(1))))).toEqual({ name: 'Ada', language: 'de', parentOrigin: location.origin })

      await new Promise((ok) => addEventListener('message', function once(e) {
        if (e.source === iframe.contentWindow && e.data?.__frame === 'loaded') ok(removeEventListener('message', once))
      }))
      iframe.contentWindow!.postMessage({ __steps: [completed()] }, '*')
      await waitFor(() => expect(onDocumentCompleted).toHaveBeenCalledWith(signed))
    } finally {
      container.remove()
    }
  })
})

describe('EmbedDirectTemplate: a template direct link on the same frame machine', () => {
  it('is {host}/embed/direct/{token}?externalId=…#{options}, as the deployed library builds it', async () => {
    const m = mount(<EmbedDirectTemplate host={FRAME_HOST + '/'} token="dl tok/en" externalId="crm 7&x" name="Ada" lockName email="ada@example.com" language="fr" />)
    const options = { name: 'Ada', email: 'ada@example.com', lockName: true, language: 'fr', parentOrigin: location.origin }
    const src = m.iframe().getAttribute('src')!
    expect(src).toBe(`${FRAME_HOST}/embed/direct/${encodeURIComponent('dl tok/en')}?externalId=${encodeURIComponent('crm 7&x')}#${encode(options)}`)
    const note = await m.loaded()
    expect(note.path).toBe(`/embed/direct/${encodeURIComponent('dl tok/en')}`)
    expect(new URLSearchParams(note.search).get('externalId')).toBe('crm 7&x')
    expect(note.options).toEqual(options)
    expect(m.iframe().title).toBe('Sign document')
  })

  it('without externalId has no query; without a token it reports INVALID_OPTIONS and has no src', async () => {
    const onError = vi.fn()
    const m = mount(
      <>
        <EmbedDirectTemplate host={FRAME_HOST} token="t" />
        <EmbedDirectTemplate host={FRAME_HOST} token="" onError={onError} />
      </>,
    )
    const [first, second] = m.container.querySelectorAll('iframe')
    expect(new URL(first!.src).search).toBe('')
    expect(second!.hasAttribute('src')).toBe(false)
    await waitFor(() => expect(onError).toHaveBeenCalledWith({ code: 'INVALID_OPTIONS', message: 'token is required' }))
  })

  it('calls onDocumentReady, onFieldSigned, onFieldUnsigned (no argument), onDocumentCompleted and onDocumentError', async () => {
    const cb = { onDocumentReady: vi.fn(), onFieldSigned: vi.fn(), onFieldUnsigned: vi.fn(), onDocumentCompleted: vi.fn(), onDocumentError: vi.fn(), onReady: vi.fn() }
    const m = mount(<EmbedDirectTemplate host={FRAME_HOST} token="dl" {...cb} />)
    await m.loaded()
    m.send([post('document-ready'), post('field-signed'), post('field-signed', { junk: 1 }), post('field-unsigned'), completed('envelope_new'), post('document-error', 'gone')])
    await waitFor(() => expect(cb.onDocumentError).toHaveBeenCalled())
    await m.settle()
    expect(cb.onDocumentReady.mock.calls).toEqual([[]])
    expect(cb.onReady).toHaveBeenCalledTimes(1)
    expect(cb.onFieldSigned.mock.calls).toEqual([[], []])
    expect(cb.onFieldUnsigned.mock.calls).toEqual([[]])
    expect(cb.onDocumentCompleted.mock.calls).toEqual([[{ ...signed, envelopeId: 'envelope_new' }]])
    expect(cb.onDocumentError.mock.calls).toEqual([['gone']])
  })

  it('calls onAuthRequired with the step and onAuthFailed with the code; ill-formed ones are dropped', async () => {
    const cb = { onAuthRequired: vi.fn(), onAuthFailed: vi.fn(), onDocumentError: vi.fn() }
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token="rt" {...cb} />)
    await m.loaded()
    m.send([post('auth-required', 'access'), post('auth-required', { step: 1 }), post('auth-failed', 'AUTH_FAILED'), post('auth-failed'), post('document-error', 'end')])
    await waitFor(() => expect(cb.onDocumentError).toHaveBeenCalled())
    await m.settle()
    expect(cb.onAuthRequired.mock.calls).toEqual([['access']])
    expect(cb.onAuthFailed.mock.calls).toEqual([['AUTH_FAILED']])
  })
})

describe('the signing moments', () => {
  it('document-waiting-for-turn calls onWaitingForTurn and recipient-expired onLinkExpired, without an argument; other data is dropped', async () => {
    const cb = { onWaitingForTurn: vi.fn(), onLinkExpired: vi.fn(), onDocumentError: vi.fn() }
    const m = mount(<EmbedSignDocument host={FRAME_HOST} token="rt" {...cb} />)
    await m.loaded()
    m.send([
      post('document-waiting-for-turn', null), post('document-waiting-for-turn', { who: 1 }), post('document-waiting-for-turn'),
      post('recipient-expired', null), post('recipient-expired', 'x'), post('document-error', 'end'),
    ])
    await waitFor(() => expect(cb.onDocumentError).toHaveBeenCalled())
    await m.settle()
    expect(cb.onWaitingForTurn.mock.calls).toEqual([[]])
    expect(cb.onLinkExpired.mock.calls).toEqual([[]])
  })
})

describe('EmbedMultiSignDocument: one person, several documents', () => {
  const doc = (token: string, action = 'document-completed', reason?: string) => ({ token, documentId: 1, recipientId: 2, action, ...(reason ? { reason } : {}) })

  it('is {host}/embed/v1/multisign?token=a&token=b#{options}; without tokens it reports INVALID_OPTIONS and has no src', async () => {
    const m = mount(<EmbedMultiSignDocument host={FRAME_HOST} tokens={['a b', 'c']} name="Mo" lockName allowDocumentRejection={false} />)
    const note = await m.loaded()
    expect(note.path).toBe('/embed/v1/multisign')
    expect(note.search).toBe('?token=a%20b&token=c')
    expect(note.options).toEqual({ name: 'Mo', lockName: true, allowDocumentRejection: false, parentOrigin: location.origin })
    const onError = vi.fn()
    const none = mount(<EmbedMultiSignDocument host={FRAME_HOST} tokens={[]} onError={onError} />)
    await waitFor(() => expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'INVALID_OPTIONS' })))
    expect(none.iframe().getAttribute('src')).toBeNull()
  })

  it('signer-completed calls onSignerCompleted with the document and the progress; all-documents-completed onAllDocumentsCompleted; ill-formed ones are dropped', async () => {
    const cb = { onSignerCompleted: vi.fn(), onAllDocumentsCompleted: vi.fn(), onDocumentCompleted: vi.fn(), onDocumentError: vi.fn() }
    const m = mount(<EmbedMultiSignDocument host={FRAME_HOST} tokens={['a', 'b']} {...cb} />)
    await m.loaded()
    const first = { ...doc('a'), done: 1, total: 2 }
    const second = { ...doc('b', 'document-rejected', 'No'), done: 2, total: 2 }
    m.send([
      post('document-completed', signed), post('signer-completed', first),
      post('signer-completed', { ...first, done: 0 }), post('signer-completed', { ...first, action: 'signed' }), post('signer-completed', doc('a')),
      post('signer-completed', second),
      post('all-documents-completed', { documents: [doc('a'), { junk: 1 }] }), post('all-documents-completed', { documents: [doc('a'), doc('b', 'document-rejected', 'No')] }),
      post('document-error', 'end'),
    ])
    await waitFor(() => expect(cb.onDocumentError).toHaveBeenCalled())
    await m.settle()
    expect(cb.onDocumentCompleted.mock.calls).toEqual([[signed]])
    expect(cb.onSignerCompleted.mock.calls).toEqual([[first], [second]])
    expect(cb.onAllDocumentsCompleted.mock.calls).toEqual([[{ documents: [doc('a'), doc('b', 'document-rejected', 'No')] }]])
  })
})
