import { describe, expect, it, vi } from 'vitest'
import { EmbedCreateEnvelope, EmbedUpdateDocumentV1, EmbedUpdateEnvelope } from '../../../src/index.js'
import { FRAME_HOST, mount, OTHER_HOST, token, waitFor } from './harness.js'

const created = (envelopeId: string) => ({ post: { type: 'envelope-created', envelopeId, externalId: null } })

describe('messages are accepted only from this iframe and the origin of host', () => {
  it('ignores a child window of the frame, even from the right origin', async () => {
    const onEnvelopeCreated = vi.fn()
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" onEnvelopeCreated={onEnvelopeCreated} />)
    await m.loaded()
    m.send([{ nested: { type: 'envelope-created', envelopeId: 'envelope_forged', externalId: null }, then: [created('envelope_real')] }])
    await waitFor(() => expect(onEnvelopeCreated).toHaveBeenCalled())
    expect(onEnvelopeCreated.mock.calls).toEqual([[{ envelopeId: 'envelope_real' }]])
  })

  it('ignores its own iframe once it shows another origin', async () => {
    const onEnvelopeCreated = vi.fn()
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" onEnvelopeCreated={onEnvelopeCreated} />)
    await m.loaded()
    // The same window navigates to another origin, posts there, then comes back and posts again.
    const back = `${FRAME_HOST}/embed/v2/authoring/envelope/create?token=${encodeURIComponent(token('back', [created('envelope_real')]))}`
    m.send([{ goto: `${OTHER_HOST}/elsewhere?token=${encodeURIComponent(token('other', [created('envelope_forged'), { goto: back }]))}` }])
    await waitFor(() => expect(onEnvelopeCreated).toHaveBeenCalled())
    expect(m.loads().map((n) => n.data.token?.split('~')[0])).toEqual(['t', 'other', 'back'])
    expect(onEnvelopeCreated.mock.calls).toEqual([[{ envelopeId: 'envelope_real' }]])
  })

  it('ignores messages the parent page posts to itself', async () => {
    const onEnvelopeCreated = vi.fn()
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" onEnvelopeCreated={onEnvelopeCreated} />)
    await m.loaded()
    window.postMessage({ type: 'envelope-created', envelopeId: 'envelope_self', externalId: null }, '*')
    m.send([created('envelope_real')])
    await waitFor(() => expect(onEnvelopeCreated).toHaveBeenCalled())
    await m.settle()
    expect(onEnvelopeCreated.mock.calls).toEqual([[{ envelopeId: 'envelope_real' }]])
  })

  it('keeps two embeds on one page apart', async () => {
    const a = { created: vi.fn(), error: vi.fn() }
    const b = { updated: vi.fn(), error: vi.fn() }
    const ma = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="a" type="DOCUMENT" onEnvelopeCreated={a.created} onError={a.error} />)
    const mb = mount(<EmbedUpdateEnvelope host={FRAME_HOST} presignToken="b" envelopeId="envelope_b" onEnvelopeUpdated={b.updated} onError={b.error} />)
    await Promise.all([ma.loaded(), mb.loaded()])
    ma.send([created('envelope_a'), { post: { type: 'embed-error', code: 'INTERNAL', message: 'from a' } }])
    mb.send([
      { post: { type: 'envelope-updated', envelopeId: 'envelope_b', externalId: null } },
      { post: { type: 'embed-error', code: 'NOT_FOUND', message: 'from b' } },
    ])
    await Promise.all([ma.settle(), mb.settle()])
    expect(a.created.mock.calls).toEqual([[{ envelopeId: 'envelope_a' }]])
    expect(a.error.mock.calls).toEqual([[{ code: 'INTERNAL', message: 'from a' }]])
    expect(b.updated.mock.calls).toEqual([[{ envelopeId: 'envelope_b' }]])
    expect(b.error.mock.calls).toEqual([[{ code: 'NOT_FOUND', message: 'from b' }]])
  })

  it('ignores malformed and unknown messages without throwing', async () => {
    const onDocumentUpdated = vi.fn()
    const onError = vi.fn()
    const onReady = vi.fn()
    const thrown = vi.fn()
    addEventListener('error', thrown)
    const m = mount(<EmbedUpdateDocumentV1 host={FRAME_HOST} presignToken="t" documentId={5} autoHeight onDocumentUpdated={onDocumentUpdated} onError={onError} onReady={onReady} />)
    await m.loaded()
    m.send(
      [
        null, 'document-updated', 42, [], { type: 'document-updated' }, { type: 'document-updated', documentId: '5', externalId: null },
        { type: 'document-updated', documentId: -1 }, { type: 'document-updated', documentId: 5, externalId: 7 },
        { type: 'envelope-updated', envelopeId: 'envelope_x', externalId: null }, { type: 'toString' }, { type: '__proto__' },
        { type: 'embed-error', code: 'X' }, { type: 'embed-resize', height: -1 }, { type: 'embed-resize', height: '10' },
        { type: 'embed-resize', height: 1e9 }, { type: 'something-new', payload: 1 },
      ].map((post) => ({ post })),
    )
    await m.settle()
    m.send([{ post: { type: 'document-updated', documentId: 5, externalId: null } }])
    await waitFor(() => expect(onDocumentUpdated).toHaveBeenCalled())
    removeEventListener('error', thrown)
    expect(onDocumentUpdated.mock.calls).toEqual([[{ documentId: 5 }]])
    expect(onError).not.toHaveBeenCalled()
    expect(thrown).not.toHaveBeenCalled()
    expect(m.iframe().style.height).toBe('')
  })
})

describe('invalid options never reach the iframe', () => {
  it.each(['javascript:alert(document.domain)', 'JavaScript:alert(1)//https://x', 'data:text/html,<script>alert(1)</script>', 'ftp://files.example.com', 'not a url', ''])(
    'host %j: onError INVALID_OPTIONS and no src',
    async (host) => {
      const onError = vi.fn()
      const m = mount(<EmbedCreateEnvelope host={host} presignToken="t" type="DOCUMENT" onError={onError} />)
      await waitFor(() => expect(onError).toHaveBeenCalled())
      expect(onError.mock.calls).toEqual([[{ code: 'INVALID_OPTIONS', message: expect.stringContaining('http(s)') }]])
      expect(m.iframe().hasAttribute('src')).toBe(false)
      expect(m.changes).toEqual({ inserted: 0, src: 0 })
    },
  )

  it('a missing token or id: onError INVALID_OPTIONS and no src', async () => {
    const onError = vi.fn()
    const a = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="" type="DOCUMENT" onError={onError} />)
    const b = mount(<EmbedUpdateEnvelope host={FRAME_HOST} presignToken="t" envelopeId="" onError={onError} />)
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(2))
    expect(onError.mock.calls).toEqual([
      [{ code: 'INVALID_OPTIONS', message: 'presignToken is required' }],
      [{ code: 'INVALID_OPTIONS', message: 'envelopeId is required' }],
    ])
    expect(a.iframe().hasAttribute('src')).toBe(false)
    expect(b.iframe().hasAttribute('src')).toBe(false)
  })

  it('a host fixed later loads the frame once', async () => {
    const onError = vi.fn()
    const m = mount(<EmbedCreateEnvelope host="javascript:void 0" presignToken="t" type="DOCUMENT" onError={onError} />)
    m.render(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" onError={onError} />)
    await m.loaded()
    await m.settle()
    expect(m.loads()).toHaveLength(1)
    expect(onError.mock.calls).toEqual([[{ code: 'INVALID_OPTIONS', message: expect.any(String) }]])
  })

  it('additionalProps cannot replace src, srcDoc or title; other attributes pass through', async () => {
    const m = mount(
      <EmbedCreateEnvelope
        host={FRAME_HOST}
        presignToken="t"
        type="DOCUMENT"
        additionalProps={{ src: 'javascript:alert(1)', srcDoc: '<p>forged</p>', title: 'forged', allow: 'clipboard-write', 'data-testid': 'embed', name: 'authoring' }}
      />,
    )
    const iframe = m.iframe()
    expect(iframe.getAttribute('src')).toMatch(new RegExp(`^${FRAME_HOST}/embed/v2/authoring/envelope/create\\?token=t#`))
    expect(iframe.hasAttribute('srcdoc')).toBe(false)
    expect(iframe.title).toBe('Create document')
    expect(iframe.getAttribute('allow')).toBe('clipboard-write')
    expect(iframe.dataset.testid).toBe('embed')
    expect(iframe.name).toBe('authoring')
    expect((await m.loaded()).path).toBe('/embed/v2/authoring/envelope/create')
  })
})
