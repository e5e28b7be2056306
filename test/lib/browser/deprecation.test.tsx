import { afterAll, describe, expect, it, vi } from 'vitest'
import {
  EmbedCreateDocumentV1, EmbedCreateEnvelope, EmbedCreateTemplateV1, EmbedUpdateDocumentV1, EmbedUpdateEnvelope,
  EmbedUpdateTemplateV1,
} from '../../../src/index.js'
import { FRAME_HOST, mount } from './harness.js'

const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
afterAll(() => warn.mockRestore())

describe('deprecated V1 components', () => {
  it('each warns once per page, naming its replacement and the removal date', () => {
    const all = () => (
      <>
        <EmbedCreateDocumentV1 host={FRAME_HOST} presignToken="t" />
        <EmbedCreateDocumentV1 host={FRAME_HOST} presignToken="t" />
        <EmbedCreateTemplateV1 host={FRAME_HOST} presignToken="t" />
        <EmbedUpdateDocumentV1 host={FRAME_HOST} presignToken="t" documentId={1} />
        <EmbedUpdateTemplateV1 host={FRAME_HOST} presignToken="t" templateId={1} />
      </>
    )
    const m = mount(all())
    m.render(<></>)
    m.render(all())
    mount(all())
    expect(warn.mock.calls).toEqual([
      ['envelope-embed: EmbedCreateDocumentV1 is deprecated and will be removed on 1 March 2027; use EmbedCreateEnvelope with type="DOCUMENT" instead.'],
      ['envelope-embed: EmbedCreateTemplateV1 is deprecated and will be removed on 1 March 2027; use EmbedCreateEnvelope with type="TEMPLATE" instead.'],
      ['envelope-embed: EmbedUpdateDocumentV1 is deprecated and will be removed on 1 March 2027; use EmbedUpdateEnvelope instead.'],
      ['envelope-embed: EmbedUpdateTemplateV1 is deprecated and will be removed on 1 March 2027; use EmbedUpdateEnvelope instead.'],
    ])
  })

  it('the envelope components do not warn', () => {
    warn.mockClear()
    mount(
      <>
        <EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" />
        <EmbedUpdateEnvelope host={FRAME_HOST} presignToken="t" envelopeId="envelope_1" />
      </>,
    )
    expect(warn).not.toHaveBeenCalled()
  })
})
