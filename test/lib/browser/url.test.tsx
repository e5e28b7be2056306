import { describe, expect, it } from 'vitest'
import {
  EmbedCreateDocumentV1, EmbedCreateEnvelope, EmbedCreateTemplateV1, EmbedUpdateDocumentV1, EmbedUpdateEnvelope,
  EmbedUpdateTemplateV1,
} from '../../../src/index.js'
import { FRAME_HOST, mount, token } from './harness.js'

const encode = (o: object) => btoa(encodeURIComponent(JSON.stringify(o)))

describe('iframe URL (docs/protocol.md)', () => {
  it('is {host}{path}?token={token}#{btoa(encodeURIComponent(JSON.stringify(options)))} and the frame reads the options back', async () => {
    const externalId = 'Bestellung 42 – Müller, 東京 🚀 "quoted" & <tags> ?#%'
    const m = mount(
      <EmbedCreateEnvelope
        host={FRAME_HOST + '/'}
        presignToken="tok en+/=?&#é"
        type="TEMPLATE"
        externalId={externalId}
        features={{ allowConfigureLanguage: false, allowConfigureCommunication: true }}
        css=".a::after { content: 'ü→ß' }"
        cssVars={{ primary: '#ff0000', radius: '0.5rem', brandAccent: 'hsl(10 50% 50%)' }}
        darkModeDisabled
        language="de"
      />,
    )
    const options = {
      externalId,
      type: 'TEMPLATE',
      features: { allowConfigureCommunication: true, allowConfigureLanguage: false },
      css: ".a::after { content: 'ü→ß' }",
      cssVars: { brandAccent: 'hsl(10 50% 50%)', primary: '#ff0000', radius: '0.5rem' },
      darkModeDisabled: true,
      language: 'de',
      parentOrigin: location.origin,
    }
    expect(m.iframe().getAttribute('src')).toBe(
      `${FRAME_HOST}/embed/v2/authoring/envelope/create?token=${encodeURIComponent('tok en+/=?&#é')}#${encode(options)}`,
    )
    const note = await m.loaded()
    expect(note.token).toBe('tok en+/=?&#é')
    expect(note.options).toEqual(options)
  })

  it('leaves undefined keys out', async () => {
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" externalId={undefined} css={undefined} />)
    const note = await m.loaded()
    expect(note.options).toEqual({ type: 'DOCUMENT', parentOrigin: location.origin })
    expect(Object.keys(note.options!)).toEqual(['type', 'parentOrigin'])
  })

  it.each([
    ['EmbedCreateEnvelope', <EmbedCreateEnvelope host={FRAME_HOST} presignToken={token('a')} type="DOCUMENT" />, '/embed/v2/authoring/envelope/create', { type: 'DOCUMENT' }],
    ['EmbedUpdateEnvelope', <EmbedUpdateEnvelope host={FRAME_HOST} presignToken={token('a')} envelopeId="envelope_ab12" onlyEditFields />, '/embed/v2/authoring/envelope/edit/envelope_ab12', { onlyEditFields: true }],
    ['EmbedCreateDocumentV1', <EmbedCreateDocumentV1 host={FRAME_HOST} presignToken={token('a')} />, '/embed/v1/authoring/document/create', {}],
    ['EmbedCreateTemplateV1', <EmbedCreateTemplateV1 host={FRAME_HOST} presignToken={token('a')} />, '/embed/v1/authoring/template/create', {}],
    ['EmbedUpdateDocumentV1', <EmbedUpdateDocumentV1 host={FRAME_HOST} presignToken={token('a')} documentId={42} onlyEditFields={false} />, '/embed/v1/authoring/document/edit/42', { onlyEditFields: false }],
    ['EmbedUpdateTemplateV1', <EmbedUpdateTemplateV1 host={FRAME_HOST} presignToken={token('a')} templateId={7} />, '/embed/v1/authoring/template/edit/7', {}],
  ])('%s loads its page with its own options', async (_, element, path, own) => {
    const m = mount(element)
    const note = await m.loaded()
    expect(note.path).toBe(path)
    expect(note.options).toEqual({ ...own, parentOrigin: location.origin })
  })

  it('encodes an envelope id into its path segment', () => {
    const m = mount(<EmbedUpdateEnvelope host={FRAME_HOST} presignToken="t" envelopeId="envelope_1/../x?y" />)
    expect(new URL(m.iframe().src).pathname).toBe('/embed/v2/authoring/envelope/edit/envelope_1%2F..%2Fx%3Fy')
  })
})
