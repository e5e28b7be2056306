import { describe, expect, it, vi } from 'vitest'
import {
  EmbedCreateDocumentV1, EmbedCreateEnvelope, EmbedCreateTemplateV1, EmbedUpdateDocumentV1, EmbedUpdateEnvelope,
  EmbedUpdateTemplateV1,
} from '../../../src/index.js'
import { FRAME_HOST, mount, waitFor } from './harness.js'

describe('callbacks', () => {
  it('always calls the newest callback props', async () => {
    const first = vi.fn()
    const second = vi.fn()
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" onEnvelopeCreated={first} />)
    await m.loaded()
    m.render(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" onEnvelopeCreated={second} />)
    m.send([{ post: { type: 'envelope-created', envelopeId: 'envelope_1', externalId: 'order-7' } }])
    await waitFor(() => expect(second).toHaveBeenCalled())
    expect(second.mock.calls).toEqual([[{ envelopeId: 'envelope_1', externalId: 'order-7' }]])
    expect(first).not.toHaveBeenCalled()
    expect(m.loads()).toHaveLength(1)
  })

  it('a callback added after mount is called; one removed is not', async () => {
    const onError = vi.fn()
    const onEnvelopeUpdated = vi.fn()
    const m = mount(<EmbedUpdateEnvelope host={FRAME_HOST} presignToken="t" envelopeId="envelope_1" onError={onError} />)
    await m.loaded()
    m.render(<EmbedUpdateEnvelope host={FRAME_HOST} presignToken="t" envelopeId="envelope_1" onEnvelopeUpdated={onEnvelopeUpdated} />)
    m.send([
      { post: { type: 'embed-error', code: 'INTERNAL', message: 'nobody listens' } },
      { post: { type: 'envelope-updated', envelopeId: 'envelope_1', externalId: null } },
    ])
    await waitFor(() => expect(onEnvelopeUpdated).toHaveBeenCalled())
    expect(onEnvelopeUpdated.mock.calls).toEqual([[{ envelopeId: 'envelope_1' }]])
    expect(onError).not.toHaveBeenCalled()
  })

  it.each(['DOCUMENT', 'TEMPLATE'] as const)('EmbedCreateEnvelope type %s fires onEnvelopeCreated and its type callback only', async (type) => {
    const cb = { onEnvelopeCreated: vi.fn(), onDocumentCreated: vi.fn(), onTemplateCreated: vi.fn() }
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type={type} externalId="x-1" {...cb} />)
    await m.loaded()
    m.send([{ post: { type: 'envelope-created', envelopeId: 'envelope_9', externalId: 'x-1' } }])
    await waitFor(() => expect(cb.onEnvelopeCreated).toHaveBeenCalled())
    const event = { envelopeId: 'envelope_9', externalId: 'x-1' }
    expect(cb.onEnvelopeCreated.mock.calls).toEqual([[event]])
    expect((type === 'DOCUMENT' ? cb.onDocumentCreated : cb.onTemplateCreated).mock.calls).toEqual([[event]])
    expect((type === 'DOCUMENT' ? cb.onTemplateCreated : cb.onDocumentCreated)).not.toHaveBeenCalled()
  })

  it('carries externalId only where it was supplied', async () => {
    const onEnvelopeCreated = vi.fn()
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" onEnvelopeCreated={onEnvelopeCreated} />)
    await m.loaded()
    m.send([
      { post: { type: 'envelope-created', envelopeId: 'envelope_1', externalId: null } },
      { post: { type: 'envelope-created', envelopeId: 'envelope_2' } },
      { post: { type: 'envelope-created', envelopeId: 'envelope_3', externalId: '' } },
    ])
    await waitFor(() => expect(onEnvelopeCreated).toHaveBeenCalledTimes(3))
    expect(onEnvelopeCreated.mock.calls.map(([e]) => e)).toEqual([{ envelopeId: 'envelope_1' }, { envelopeId: 'envelope_2' }, { envelopeId: 'envelope_3', externalId: '' }])
    expect('externalId' in onEnvelopeCreated.mock.calls[0]![0]).toBe(false)
  })

  it.each([
    ['EmbedCreateDocumentV1', (cb: () => void) => <EmbedCreateDocumentV1 host={FRAME_HOST} presignToken="t" onDocumentCreated={cb} />, { type: 'document-created', documentId: 42 }, { documentId: 42 }],
    ['EmbedCreateTemplateV1', (cb: () => void) => <EmbedCreateTemplateV1 host={FRAME_HOST} presignToken="t" onTemplateCreated={cb} />, { type: 'template-created', templateId: 7 }, { templateId: 7 }],
    ['EmbedUpdateDocumentV1', (cb: () => void) => <EmbedUpdateDocumentV1 host={FRAME_HOST} presignToken="t" documentId={42} onDocumentUpdated={cb} />, { type: 'document-updated', documentId: 42 }, { documentId: 42 }],
    ['EmbedUpdateTemplateV1', (cb: () => void) => <EmbedUpdateTemplateV1 host={FRAME_HOST} presignToken="t" templateId={7} onTemplateUpdated={cb} />, { type: 'template-updated', templateId: 7 }, { templateId: 7 }],
    ['EmbedUpdateEnvelope', (cb: () => void) => <EmbedUpdateEnvelope host={FRAME_HOST} presignToken="t" envelopeId="envelope_1" onEnvelopeUpdated={cb} />, { type: 'envelope-updated', envelopeId: 'envelope_1' }, { envelopeId: 'envelope_1' }],
  ])('%s calls its callback for its own message only', async (_, element, message, event) => {
    const cb = vi.fn()
    const m = mount(element(cb))
    await m.loaded()
    // Every other component's done message first: none of them is this one's.
    const others = [
      { type: 'envelope-created', envelopeId: 'envelope_x' }, { type: 'envelope-updated', envelopeId: 'envelope_x' },
      { type: 'document-created', documentId: 1 }, { type: 'template-created', templateId: 1 },
      { type: 'document-updated', documentId: 1 }, { type: 'template-updated', templateId: 1 },
    ].filter((o) => o.type !== message.type)
    m.send([...others, { ...message, externalId: 'ext' }].map((post) => ({ post: { externalId: null, ...post } })))
    await waitFor(() => expect(cb).toHaveBeenCalled())
    await m.settle()
    expect(cb.mock.calls).toEqual([[{ ...event, externalId: 'ext' }]])
  })
})
