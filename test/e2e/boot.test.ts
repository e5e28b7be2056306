// What the authoring page reads from its own URL, before it talks to anyone.
import { describe, expect, test } from 'vitest'
import { encodeOptions } from '../../src/protocol/index.js'
import { LaunchError, matchRoute, parseOptions, readLaunch } from '../../host/app/src/boot.js'

describe('routes', () => {
  test('each of the six pages, with its id', () => {
    expect(matchRoute('/embed/v2/authoring/envelope/create')).toEqual({ route: 'envelope.create', id: null })
    expect(matchRoute('/embed/v2/authoring/envelope/edit/envelope_abc')).toEqual({ route: 'envelope.edit', id: 'envelope_abc' })
    expect(matchRoute('/embed/v1/authoring/document/create/')).toEqual({ route: 'document.create', id: null })
    expect(matchRoute('/embed/v1/authoring/template/create')).toEqual({ route: 'template.create', id: null })
    expect(matchRoute('/embed/v1/authoring/document/edit/42')).toEqual({ route: 'document.edit', id: '42' })
    expect(matchRoute('/embed/v1/authoring/template/edit/7')).toEqual({ route: 'template.edit', id: '7' })
    expect(matchRoute('/embed/v1/authoring/template/edit/')).toBeNull()
    expect(matchRoute('/embed/v3/authoring/envelope/create')).toBeNull()
  })
})

describe('options', () => {
  test('round trip with the library encoding; unknown keys are ignored', () => {
    const hash = '#' + btoa(encodeURIComponent(JSON.stringify({ externalId: 'x', type: 'TEMPLATE', future: { a: 1 }, features: { allowConfigureTimezone: false, other: 1 } })))
    expect(parseOptions(hash)).toEqual({ externalId: 'x', type: 'TEMPLATE', features: { allowConfigureTimezone: false } })
    const all = {
      externalId: 'e', css: 'a{}', language: 'de', darkModeDisabled: true, onlyEditFields: false,
      cssVars: { primary: '#f00', customBrand: '1px' }, parentOrigin: 'https://app.example.com',
    }
    expect(parseOptions(encodeOptions(all))).toEqual(all)
    expect(parseOptions('')).toEqual({})
  })

  test.each([
    ['not base64 at all', '#%%%'],
    ['an array', '#' + encodeOptions([] as never)],
    ['a wrong type', '#' + encodeOptions({ darkModeDisabled: 'yes' } as never)],
    ['an unknown envelope type', '#' + encodeOptions({ type: 'LETTER' } as never)],
    ['a parentOrigin that is not an origin', '#' + encodeOptions({ parentOrigin: 'https://app.example.com/path' })],
    ['a cssVars key that is no property name', '#' + encodeOptions({ cssVars: { 'a;b': 'red' } })],
  ])('%s is INVALID_OPTIONS', (_, hash) => {
    expect(() => parseOptions(hash)).toThrow(LaunchError)
    try {
      parseOptions(hash)
    } catch (e) {
      expect((e as LaunchError).code).toBe('INVALID_OPTIONS')
    }
  })
})

describe('the token leaves the address bar at once', () => {
  test('replaceState keeps the path, other query keys and the hash', () => {
    const calls: string[] = []
    const loc = { pathname: '/embed/v2/authoring/envelope/create', search: '?token=secret&x=1', hash: '#abc' } as Location
    const history = { state: null, replaceState: (_s: unknown, _t: string, url: string) => calls.push(url) } as unknown as History
    expect(() => readLaunch(loc, history)).toThrow(LaunchError) // '#abc' is no encoded options object
    expect(calls).toEqual(['/embed/v2/authoring/envelope/create?x=1#abc'])
    const ok = { ...loc, search: '?token=secret', hash: '#' + encodeOptions({ language: 'fr' }) } as Location
    calls.length = 0
    expect(readLaunch(ok, history)).toMatchObject({ route: 'envelope.create', token: 'secret', options: { language: 'fr' } })
    expect(calls).toEqual(['/embed/v2/authoring/envelope/create' + ok.hash])
  })
})
