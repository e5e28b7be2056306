import { describe, expect, it } from 'vitest'
import {
  buildEmbedUrl, decodeOptions, encodeOptions, parseMessage, parsePresignScope, parseViewportMessage, presignScope, type EmbedOptions,
} from '../../../src/protocol/index.js'

describe('options in the hash', () => {
  it('round-trip through encode/decode, non-ASCII included', () => {
    const options: EmbedOptions = {
      externalId: 'Müller – 東京 – 🚀 – "x" & y',
      type: 'DOCUMENT',
      features: { allowConfigureLanguage: false },
      css: 'body::before { content: "ß→∑" }',
      cssVars: { primary: 'hsl(200 50% 50%)', 'brand-x': '1px' },
      darkModeDisabled: true,
      language: 'ja',
      onlyEditFields: false,
      parentOrigin: 'https://app.customer.example',
    }
    const encoded = encodeOptions(options)
    expect(encoded).toBe(btoa(encodeURIComponent(JSON.stringify(options))))
    expect(decodeOptions(encoded)).toEqual(options)
    expect(decodeOptions('#' + encoded)).toEqual(options)
  })

  it('leave undefined keys out', () => {
    expect(decodeOptions(encodeOptions({ externalId: undefined, css: undefined, language: 'en' }))).toEqual({ language: 'en' })
    expect(decodeOptions('')).toEqual({})
  })

  it('refuse what is not an encoded object', () => {
    expect(() => decodeOptions('%%%')).toThrow()
    expect(() => decodeOptions(btoa(encodeURIComponent('[1]')))).toThrow(TypeError)
    expect(() => decodeOptions(btoa(encodeURIComponent('null')))).toThrow(TypeError)
  })

  it('build the base URL form', () => {
    expect(buildEmbedUrl({ host: 'https://h.example//', route: 'document.edit', id: 42, token: 'a b', options: { language: 'de' } })).toBe(
      `https://h.example/embed/v1/authoring/document/edit/42?token=a%20b#${btoa(encodeURIComponent('{"language":"de"}'))}`,
    )
  })
})

describe('parseMessage', () => {
  it('accepts each message of the protocol', () => {
    const messages = [
      { type: 'envelope-created', envelopeId: 'envelope_1', externalId: null },
      { type: 'envelope-updated', envelopeId: 'envelope_1', externalId: 'x' },
      { type: 'document-created', documentId: 1, externalId: null },
      { type: 'template-created', templateId: 2, externalId: null },
      { type: 'document-updated', documentId: 3, externalId: 'y' },
      { type: 'template-updated', templateId: 4, externalId: null },
      { type: 'embed-ready' },
      { type: 'embed-error', code: 'TOKEN_EXPIRED', message: 'expired' },
      { type: 'embed-resize', height: 900 },
      { type: 'embed-scroll', top: 1200, height: 480 },
    ]
    for (const m of messages) expect(parseMessage(m)).toBe(m)
  })

  it('returns null for anything else, without throwing', () => {
    const bad: unknown[] = [
      null, undefined, 0, 'envelope-created', [], {}, { type: 1 }, { type: 'constructor' }, { type: 'hasOwnProperty' },
      { type: 'envelope-created' }, { type: 'envelope-created', envelopeId: 5 }, { type: 'envelope-created', envelopeId: 'e', externalId: 5 },
      { type: 'document-created', documentId: 1.5 }, { type: 'document-created', documentId: 0 }, { type: 'template-updated', templateId: '4' },
      { type: 'embed-error', code: 'X' }, { type: 'embed-resize', height: -1 }, { type: 'embed-resize', height: NaN }, { type: 'embed-resize', height: 1e7 },
      { type: 'embed-scroll', top: -1, height: 10 }, { type: 'embed-scroll', top: 10 }, { type: 'embed-scroll', top: '10', height: 10 },
    ]
    for (const b of bad) expect(parseMessage(b)).toBeNull()
  })
})

describe('the viewport message (parent to frame)', () => {
  it('carries the parent viewport over the frame, its top negative while the frame starts lower', () => {
    expect(parseViewportMessage({ type: 'embed-viewport', top: -300, height: 844 })).toEqual({ type: 'embed-viewport', top: -300, height: 844 })
    expect(parseViewportMessage({ type: 'embed-viewport', top: 2400, height: 900, extra: 1 })).toEqual({ type: 'embed-viewport', top: 2400, height: 900 })
  })
  it('returns null for anything else', () => {
    for (const b of [null, 'embed-viewport', { type: 'embed-viewport' }, { type: 'embed-viewport', top: 0, height: -1 }, { type: 'embed-viewport', top: NaN, height: 1 }, { type: 'embed-resize', height: 1 }])
      expect(parseViewportMessage(b)).toBeNull()
  })
})

describe('presign scope', () => {
  it('formats and parses the three scopes', () => {
    expect(presignScope({ kind: 'envelopeId', id: 'envelope_abc' })).toBe('envelopeId:envelope_abc')
    expect(parsePresignScope('envelopeId:envelope_abc')).toEqual({ kind: 'envelopeId', id: 'envelope_abc' })
    expect(parsePresignScope('documentId:42')).toEqual({ kind: 'documentId', id: 42 })
    expect(parsePresignScope(presignScope({ kind: 'templateId', id: 7 }))).toEqual({ kind: 'templateId', id: 7 })
  })
  it.each(['', 'envelopeId:', 'envelopeId:abc', 'documentId:0', 'documentId:-1', 'documentId:1.5', 'templateId:x', 'teamId:1'])('rejects %j', (s) => {
    expect(parsePresignScope(s)).toBeNull()
  })
})
