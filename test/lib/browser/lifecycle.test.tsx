import { afterEach, describe, expect, it, vi } from 'vitest'
import { EmbedCreateEnvelope, EmbedUpdateDocumentV1, EmbedUpdateEnvelope } from '../../../src/index.js'
import { FRAME_HOST, HANG_HOST, mount, PARTIAL_HOST, token, waitFor } from './harness.js'

const loadEvent = (iframe: HTMLIFrameElement) => new Promise((ok) => iframe.addEventListener('load', ok, { once: true }))

afterEach(() => {
  vi.useRealTimers()
})

const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })

describe('onReady', () => {
  it('fires once, on load, for a host declared to send no extensions, whatever it sends after', async () => {
    fakeTimers()
    const onReady = vi.fn()
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" extensions={false} onReady={onReady} />)
    await loadEvent(m.iframe())
    expect(onReady).toHaveBeenCalledTimes(1)
    m.send([{ post: { type: 'envelope-created', envelopeId: 'envelope_1', externalId: null } }])
    await m.settle()
    vi.advanceTimersByTime(1_000_000)
    expect(onReady).toHaveBeenCalledTimes(1)
  })

  it('never fires on a load alone: a frame that loads and says nothing is NOT_A_SIGNING_SERVICE after timeout', async () => {
    // The clock is driven: a busy machine may take longer than the timeout to load the frame.
    fakeTimers()
    const onReady = vi.fn()
    const onError = vi.fn()
    const m = mount(<EmbedCreateEnvelope host={`${FRAME_HOST}/silent`} presignToken="t" type="DOCUMENT" timeout={1500} onReady={onReady} onError={onError} />)
    await loadEvent(m.iframe())
    expect(onError).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1500)
    expect(onError.mock.calls).toEqual([[{ code: 'NOT_A_SIGNING_SERVICE', message: expect.stringContaining('1500 ms') }]])
    expect(onReady).not.toHaveBeenCalled()
  })

  it('fires once on embed-ready sent before load, however often it comes', async () => {
    fakeTimers()
    const onReady = vi.fn()
    const ready = { post: { type: 'embed-ready' } }
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken={token('t', [ready, ready])} type="DOCUMENT" onReady={onReady} />)
    await loadEvent(m.iframe())
    await m.settle()
    expect(onReady).toHaveBeenCalledTimes(1) // no grace needed
    m.send([ready])
    await m.settle()
    vi.advanceTimersByTime(1_000_000)
    expect(onReady).toHaveBeenCalledTimes(1)
  })

  it.each([
    ['before', true],
    ['after', false],
  ])('waits for embed-ready once the host has spoken an extension %s load', async (_, early) => {
    fakeTimers()
    const onReady = vi.fn()
    const resize = { post: { type: 'embed-resize', height: 500 } }
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken={token('t', early ? [resize] : [])} type="DOCUMENT" onReady={onReady} />)
    await loadEvent(m.iframe())
    if (!early) m.send([resize])
    await m.settle()
    vi.advanceTimersByTime(1_000_000)
    expect(onReady).not.toHaveBeenCalled()
    m.send([{ post: { type: 'embed-ready' } }, { post: { type: 'embed-ready' } }])
    await m.settle()
    expect(onReady).toHaveBeenCalledTimes(1)
  })

  it.each([
    ['before', true],
    ['after', false],
  ])('does not fire when the host reports an error %s load', async (_, early) => {
    fakeTimers()
    const onReady = vi.fn()
    const onError = vi.fn()
    const expired = { post: { type: 'embed-error', code: 'TOKEN_EXPIRED', message: 'The presign token has expired.' } }
    const m = mount(
      <EmbedUpdateEnvelope host={FRAME_HOST} presignToken={token('expired', early ? [expired] : [])} envelopeId="envelope_1" onReady={onReady} onError={onError} />,
    )
    await loadEvent(m.iframe())
    if (!early) m.send([expired])
    await m.settle()
    vi.advanceTimersByTime(1_000_000)
    expect(onError.mock.calls).toEqual([[{ code: 'TOKEN_EXPIRED', message: 'The presign token has expired.' }]])
    expect(onReady).not.toHaveBeenCalled()
  })

  it('fires again for each new document the frame loads', async () => {
    const onReady = vi.fn()
    const ready = [{ post: { type: 'embed-ready' } }]
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken={token('a', ready)} type="DOCUMENT" onReady={onReady} />)
    await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1))
    m.render(<EmbedCreateEnvelope host={FRAME_HOST} presignToken={token('b', ready)} type="DOCUMENT" onReady={onReady} />)
    await waitFor(() => expect(onReady).toHaveBeenCalledTimes(2))
    await m.settle()
    expect(onReady).toHaveBeenCalledTimes(2)
  })
})

describe('onError TIMEOUT', () => {
  it('fires when nothing at all arrives in time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const onError = vi.fn()
    mount(<EmbedCreateEnvelope host={HANG_HOST} presignToken="t" type="DOCUMENT" timeout={5000} onError={onError} />)
    vi.advanceTimersByTime(4999)
    expect(onError).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onError.mock.calls).toEqual([[{ code: 'TIMEOUT', message: expect.stringContaining('5000 ms') }]])
  })

  it('uses 15 s by default, and 0 turns it off', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const byDefault = vi.fn()
    const off = vi.fn()
    mount(<EmbedCreateEnvelope host={HANG_HOST} presignToken="t" type="DOCUMENT" onError={byDefault} />)
    mount(<EmbedCreateEnvelope host={HANG_HOST} presignToken="t" type="DOCUMENT" timeout={0} onError={off} />)
    vi.advanceTimersByTime(14_999)
    expect(byDefault).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(byDefault).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1_000_000)
    expect(off).not.toHaveBeenCalled()
  })

  it('never fires after a host declared to send no extensions has loaded', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const onError = vi.fn()
    const onReady = vi.fn()
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" timeout={5000} extensions={false} onReady={onReady} onError={onError} />)
    await loadEvent(m.iframe())
    vi.advanceTimersByTime(1_000_000)
    expect(onReady).toHaveBeenCalledTimes(1)
    expect(onError).not.toHaveBeenCalled()
  })

  it('never fires after a message arrived, even with no load event, and restarts for a new URL', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const onError = vi.fn()
    const onReady = vi.fn()
    const resize = token('t', [{ post: { type: 'embed-resize', height: 10 } }])
    const m = mount(<EmbedCreateEnvelope host={PARTIAL_HOST} presignToken={resize} type="DOCUMENT" timeout={5000} onError={onError} onReady={onReady} />)
    await m.loaded()
    await m.settle()
    vi.advanceTimersByTime(1_000_000)
    expect(onError).not.toHaveBeenCalled()
    expect(onReady).not.toHaveBeenCalled()
    m.render(<EmbedCreateEnvelope host={HANG_HOST} presignToken="t" type="DOCUMENT" timeout={5000} onError={onError} />)
    vi.advanceTimersByTime(5000)
    expect(onError.mock.calls).toEqual([[{ code: 'TIMEOUT', message: expect.any(String) }]])
  })
})

describe('autoHeight and size', () => {
  it('follows embed-resize with autoHeight', async () => {
    const m = mount(<EmbedUpdateDocumentV1 host={FRAME_HOST} presignToken={token('t', [{ post: { type: 'embed-resize', height: 1234 } }])} documentId={1} autoHeight />)
    await waitFor(() => expect(m.iframe().style.height).toBe('1234px'))
    m.send([{ post: { type: 'embed-resize', height: 640.5 } }])
    await waitFor(() => expect(m.iframe().getBoundingClientRect().height).toBe(640.5))
  })

  it('ignores embed-resize without autoHeight', async () => {
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken={token('t', [{ post: { type: 'embed-resize', height: 1234 } }])} type="DOCUMENT" />)
    await m.loaded()
    await m.settle()
    expect(m.iframe().style.height).toBe('')
    expect(m.iframe().getBoundingClientRect().height).toBe(800)
  })

  it('is 100% wide and 800px high without border by default, and classes can size it', async () => {
    const style = document.createElement('style')
    style.textContent = '.embed-test-size { height: 333px; width: 50% }'
    document.head.append(style)
    const m = mount(
      <div style={{ width: 600 }}>
        <EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" />
        <EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" className="embed-test-size" />
      </div>,
    )
    const [plain, sized] = m.container.querySelectorAll('iframe')
    expect(plain!.getBoundingClientRect()).toMatchObject({ width: 600, height: 800 })
    expect(getComputedStyle(plain!).borderTopWidth).toBe('0px')
    expect(sized!.getBoundingClientRect()).toMatchObject({ width: 300, height: 333 })
    style.remove()
  })
})

describe('title', () => {
  it('has an accessible name by default, and title overrides it', () => {
    const m = mount(
      <>
        <EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" />
        <EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="TEMPLATE" />
        <EmbedUpdateEnvelope host={FRAME_HOST} presignToken="t" envelopeId="envelope_1" title="Edit the NDA" />
      </>,
    )
    expect([...m.container.querySelectorAll('iframe')].map((f) => f.title)).toEqual(['Create document', 'Create template', 'Edit the NDA'])
  })
})
