// The hash's `features` in both forms (the components' six flat toggles, the deployed envelope components'
// nested groups) as parseOptions checks them and editorFeatures resolves them for the steps.
import { describe, expect, test } from 'vitest'
import { encodeOptions } from '../../src/protocol/index.js'
import { LaunchError, parseOptions } from '../../host/app/src/page/boot.js'
import { editorFeatures } from '../../host/app/src/page/features.js'

const hash = (features: unknown) => '#' + encodeOptions({ features } as never)

describe('parseOptions: features', () => {
  test('nested groups are kept with their known keys; unknown groups and keys are ignored; null groups stay null', () => {
    const parsed = parseOptions(
      hash({
        allowConfigureTimezone: false,
        general: { allowConfigureEnvelopeTitle: false, future: 1 },
        settings: null,
        actions: { allowAttachments: false },
        envelopeItems: { allowUpload: true, allowDelete: null },
        recipients: { allowCCerRole: false },
        somethingNew: { a: 1 },
      }),
    )
    expect(parsed.features).toEqual({
      allowConfigureTimezone: false,
      general: { allowConfigureEnvelopeTitle: false },
      settings: null,
      actions: { allowAttachments: false },
      envelopeItems: { allowUpload: true },
      recipients: { allowCCerRole: false },
    })
    // A null in a group that cannot be null counts as missing.
    expect(parseOptions(hash({ general: null, actions: null })).features).toEqual({})
  })

  test.each([
    ['a nested flag that is no boolean', { settings: { allowConfigureLanguage: 'no' } }],
    ['a group that is no object', { recipients: true }],
    ['a group that is an array', { general: [] }],
    ['a flat toggle that is no boolean', { allowConfigureLanguage: 0 }],
  ])('%s is INVALID_OPTIONS', (_, features) => {
    expect(() => parseOptions(hash(features))).toThrow(LaunchError)
  })
})

describe('editorFeatures', () => {
  test('nothing sent: everything allowed', () => {
    const f = editorFeatures(undefined, { create: false })
    expect(f.title && f.attachments && f.steps.files && f.steps.recipients && f.steps.fields).toBe(true)
    expect(Object.values(f.settings).every(Boolean)).toBe(true)
    expect(Object.values(f.items).every(Boolean)).toBe(true)
    // Choosing how recipients are verified is the one opt-in: it changes what signers must do.
    expect(f.recipients).toEqual({ roles: ['SIGNER', 'APPROVER', 'VIEWER', 'ASSISTANT', 'CC'], signingOrder: true, dictateNextSigner: true, auth: false })
    expect(editorFeatures({ recipients: { allowConfigureAuthOptions: true } }, { create: true }).recipients.auth).toBe(true)
  })

  test('flat and nested toggles of one setting: false in either wins', () => {
    expect(editorFeatures({ allowConfigureLanguage: false, settings: { allowConfigureLanguage: true } }, { create: true }).settings.language).toBe(false)
    expect(editorFeatures({ allowConfigureLanguage: true, settings: { allowConfigureLanguage: false } }, { create: true }).settings.language).toBe(false)
    expect(editorFeatures({ settings: { allowConfigureDistribution: false } }, { create: true }).settings.communication).toBe(false)
    expect(editorFeatures({ allowConfigureCommunication: false }, { create: true }).settings.communication).toBe(false)
    expect(Object.values(editorFeatures({ settings: null }, { create: true }).settings).some(Boolean)).toBe(false)
  })

  test('null groups turn the whole group off', () => {
    const f = editorFeatures({ envelopeItems: null, recipients: null }, { create: false })
    expect(Object.values(f.items).some(Boolean)).toBe(false)
    expect(f.steps.recipients).toBe(false)
  })

  test('the upload and recipient step: hidden on edit routes, kept on create (a new envelope needs a file)', () => {
    const features = { general: { allowUploadAndRecipientStep: false } }
    expect(editorFeatures(features, { create: false }).steps).toEqual({ files: false, recipients: false, fields: true })
    expect(editorFeatures(features, { create: true }).steps).toEqual({ files: true, recipients: true, fields: true })
    expect(editorFeatures({ general: { allowAddFieldsStep: false } }, { create: true }).steps.fields).toBe(false)
  })

  test('roles: the signer always, the others as allowed', () => {
    const f = editorFeatures({ recipients: { allowApproverRole: false, allowViewerRole: false, allowCCerRole: false, allowAssistantRole: false } }, { create: true })
    expect(f.recipients.roles).toEqual(['SIGNER'])
  })
})
