import { describe, expect, it, vi } from 'vitest'
import { EmbedCreateEnvelope, EmbedUpdateEnvelope, type EmbedUpdateEnvelopeProps } from '../../../src/index.js'
import { FRAME_HOST, mount, OTHER_HOST, waitFor } from './harness.js'

const base = (): EmbedUpdateEnvelopeProps => ({
  host: FRAME_HOST,
  presignToken: 'token-1',
  envelopeId: 'envelope_1',
  externalId: 'ext-1',
  css: 'body { color: red }',
  cssVars: { primary: '#123456', radius: '4px' },
  darkModeDisabled: false,
  language: 'en',
  features: { allowConfigureLanguage: false, allowConfigureTimezone: true },
  onlyEditFields: false,
})

describe('reloading', () => {
  it('1,000 re-renders with new but equal props keep the same frame document', async () => {
    const m = mount(<EmbedUpdateEnvelope {...base()} />)
    const first = await m.loaded()
    const iframe = m.iframe()
    for (let i = 0; i < 1000; i++) {
      const p = base()
      // Fresh objects, keys in another order, fresh callbacks, style and additionalProps.
      m.render(
        <EmbedUpdateEnvelope
          {...p}
          cssVars={{ radius: '4px', primary: '#123456' }}
          features={{ allowConfigureTimezone: true, allowConfigureLanguage: false }}
          style={{ minHeight: 100 }}
          additionalProps={{ allow: 'clipboard-write' }}
          onEnvelopeUpdated={() => i}
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

  const changes: [string, Partial<EmbedUpdateEnvelopeProps>][] = [
    ['presignToken', { presignToken: 'token-2' }],
    ['host', { host: OTHER_HOST }],
    ['envelopeId', { envelopeId: 'envelope_2' }],
    ['externalId', { externalId: 'ext-2' }],
    ['css', { css: 'body { color: blue }' }],
    ['cssVars', { cssVars: { primary: '#123456', radius: '8px' } }],
    ['darkModeDisabled', { darkModeDisabled: true }],
    ['language', { language: 'fr' }],
    ['features', { features: { allowConfigureLanguage: true, allowConfigureTimezone: true } }],
    ['onlyEditFields', { onlyEditFields: true }],
  ]
  it.each(changes)('changing %s reloads the frame exactly once', async (_, change) => {
    const onReady = vi.fn()
    // The scripted frame speaks no extensions: its load is its readiness once declared so.
    const m = mount(<EmbedUpdateEnvelope {...base()} extensions={false} onReady={onReady} />)
    const before = await m.loaded()
    await waitFor(() => expect(onReady).toHaveBeenCalledTimes(1)) // the first document has fully loaded
    const next = { ...base(), ...change }
    m.render(<EmbedUpdateEnvelope {...next} extensions={false} onReady={onReady} />)
    m.render(<EmbedUpdateEnvelope {...base()} {...change} extensions={false} onReady={onReady} />) // and again, equal
    const after = await m.loaded()
    await m.settle()
    await Promise.resolve()
    expect(m.changes).toEqual({ inserted: 1, src: 0 })
    expect(m.loads()).toHaveLength(1) // the new iframe loaded one document
    expect(after.loadId).not.toBe(before.loadId)
    const { host, presignToken, envelopeId, ...options } = next
    expect(after.token).toBe(presignToken)
    expect(after.path).toBe(`/embed/v2/authoring/envelope/edit/${envelopeId}`)
    expect(after.options).toEqual({ ...options, parentOrigin: location.origin })
    await waitFor(() => expect(onReady).toHaveBeenCalledTimes(2)) // once per load
  })

  it('changing only a callback, className, style or title does not reload', async () => {
    const m = mount(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" />)
    await m.loaded()
    m.render(<EmbedCreateEnvelope host={FRAME_HOST} presignToken="t" type="DOCUMENT" className="wide" style={{ height: 300 }} title="Contract" onReady={() => {}} />)
    await m.settle()
    await Promise.resolve()
    expect(m.changes).toEqual({ inserted: 0, src: 0 })
    expect(m.loads()).toHaveLength(1)
    expect(m.iframe().className).toBe('wide')
    expect(m.iframe().title).toBe('Contract')
  })
})
