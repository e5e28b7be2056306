import { describe, expect, it } from 'vitest'
import { EmbedCreateEnvelope, EmbedUpdateEnvelope, type EmbedFeatures, type EnvelopeEditorFeatures } from '../../../src/index.js'
import { FRAME_HOST, mount, token } from './harness.js'

// The nested form the deployed service's envelope components send, typed, beside the flat toggles.
const nested: EnvelopeEditorFeatures = {
  general: { allowConfigureEnvelopeTitle: false, allowUploadAndRecipientStep: true },
  settings: { allowConfigureLanguage: false, allowConfigureDistribution: false },
  actions: { allowAttachments: false },
  envelopeItems: null,
  recipients: { allowCCerRole: false, allowConfigureSigningOrder: false },
}

describe('features: the six flat toggles and the nested groups', () => {
  it('passes both forms through the hash unchanged', async () => {
    const features: EmbedFeatures = { allowConfigureTimezone: false, ...nested }
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken={token('a')} type="DOCUMENT" features={features} />)
    const note = await m.loaded()
    expect(note.options!.features).toEqual(features)
  })

  it('is typed: a nullable group takes null, a flag only a boolean', async () => {
    const m = mount(<EmbedUpdateEnvelope host={FRAME_HOST} presignToken={token('b')} envelopeId="envelope_1" features={{ settings: null, recipients: null }} />)
    expect((await m.loaded()).options!.features).toEqual({ recipients: null, settings: null })
    // @ts-expect-error a flag is a boolean
    const wrong: EmbedFeatures = { settings: { allowConfigureLanguage: 'no' } }
    // @ts-expect-error actions cannot be null
    const notNullable: EmbedFeatures = { actions: null }
    expect([wrong, notNullable]).toHaveLength(2)
  })
})
