import { describe, expect, it, vi } from 'vitest'
import { EmbedCreateEnvelope, EmbedProvider, EmbedUpdateEnvelope } from '../../../src/index.js'
import { FRAME_HOST, mount, OTHER_HOST, waitFor } from './harness.js'

describe('EmbedProvider', () => {
  it('sets host and shared options for every embed below it; own props win', async () => {
    const m = mount(
      <EmbedProvider host={FRAME_HOST} language="de" darkModeDisabled cssVars={{ primary: 'teal' }} className="embed" title="Signing">
        <EmbedCreateEnvelope presignToken="a" type="DOCUMENT" />
        <EmbedUpdateEnvelope presignToken="b" envelopeId="envelope_1" host={OTHER_HOST} language={undefined} cssVars={{ primary: 'navy' }} title="Edit" />
      </EmbedProvider>,
    )
    const [a, b] = m.container.querySelectorAll('iframe')
    expect(a!.src.startsWith(`${FRAME_HOST}/embed/v2/authoring/envelope/create?token=a#`)).toBe(true)
    expect(b!.src.startsWith(`${OTHER_HOST}/embed/v2/authoring/envelope/edit/envelope_1?token=b#`)).toBe(true)
    const options = (src: string) => JSON.parse(decodeURIComponent(atob(new URL(src).hash.slice(1))))
    expect(options(a!.src)).toEqual({ type: 'DOCUMENT', cssVars: { primary: 'teal' }, darkModeDisabled: true, language: 'de', parentOrigin: location.origin })
    expect(options(b!.src)).toEqual({ cssVars: { primary: 'navy' }, darkModeDisabled: true, language: 'de', parentOrigin: location.origin })
    expect([a!.className, b!.className]).toEqual(['embed', 'embed'])
    expect([a!.title, b!.title]).toEqual(['Signing', 'Edit'])
  })

  it('nested providers refine the outer one, and its callbacks apply unless an embed has its own', async () => {
    const shared = vi.fn()
    const own = vi.fn()
    const m = mount(
      <EmbedProvider host={FRAME_HOST} onError={shared} language="en">
        <EmbedProvider language="fr">
          <EmbedCreateEnvelope presignToken="a" type="DOCUMENT" />
          <EmbedCreateEnvelope presignToken="" type="DOCUMENT" onError={own} />
        </EmbedProvider>
      </EmbedProvider>,
    )
    const first = m.container.querySelector('iframe')!
    expect(first.src.startsWith(FRAME_HOST)).toBe(true)
    expect(JSON.parse(decodeURIComponent(atob(new URL(first.src).hash.slice(1)))).language).toBe('fr')
    first.contentWindow!.postMessage({ __steps: [] }, '*')
    await waitFor(() => expect(own).toHaveBeenCalled())
    expect(own.mock.calls).toEqual([[{ code: 'INVALID_OPTIONS', message: 'presignToken is required' }]])
    expect(shared).not.toHaveBeenCalled()
  })

  it('re-rendering the provider with equal new objects does not reload', async () => {
    const tree = () => (
      <EmbedProvider host={FRAME_HOST} features={{ allowConfigureLanguage: false }} cssVars={{ primary: 'teal' }}>
        <EmbedCreateEnvelope presignToken="a" type="DOCUMENT" />
      </EmbedProvider>
    )
    const m = mount(tree())
    await m.loaded()
    for (let i = 0; i < 100; i++) m.render(tree())
    await m.settle()
    await Promise.resolve()
    expect(m.changes).toEqual({ inserted: 0, src: 0 })
    expect(m.loads()).toHaveLength(1)
  })
})
