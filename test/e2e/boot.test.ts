// What the authoring page reads from its own URL, before it talks to anyone.
import { describe, expect, test } from 'vitest'
import { encodeOptions } from '../../src/protocol/index.js'
import { LaunchError, matchRoute, matchSignRoute, parseOptions, parseSignOptions, readLaunch, readSignLaunch } from '../../host/app/src/page/boot.js'

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

// ---- the signing pages ------------------------------------------------------------------------

describe('signing routes', () => {
  test('the standalone link and the embed, with the token decoded', () => {
    expect(matchSignRoute('/sign/VZuY9B41IEfiTU6-TFl0KkvB2Js5MY0A')).toEqual({ embedded: false, direct: false, token: 'VZuY9B41IEfiTU6-TFl0KkvB2Js5MY0A' })
    expect(matchSignRoute('/embed/sign/abc_123')).toEqual({ embedded: true, direct: false, token: 'abc_123' })
    expect(matchSignRoute('/sign/abc/')).toEqual({ embedded: false, direct: false, token: 'abc' })
    expect(matchSignRoute('/embed/sign/a%2Fb%20c')).toEqual({ embedded: true, direct: false, token: 'a/b c' })
  })

  test.each([
    ['no token', '/sign/'],
    ['no token (embed)', '/embed/sign'],
    ['more after the token', '/sign/abc/def'],
    ['a token that does not decode', '/sign/%E0%A4%A'],
    ['another prefix', '/x/sign/abc'],
    ['an authoring page', '/embed/v2/authoring/envelope/create'],
    ['the authoring edit page', '/embed/v2/authoring/envelope/edit/envelope_abc'],
  ])('%s is not a signing page', (_, path) => {
    expect(matchSignRoute(path)).toBeNull()
  })

  test('the authoring routes do not take a signing path', () => {
    expect(matchRoute('/sign/abc')).toBeNull()
    expect(matchRoute('/embed/sign/abc')).toBeNull()
  })
})

describe('signing launch and options', () => {
  const all = {
    name: 'Emil Embedded', email: 'emil@example.com', lockName: true, lockEmail: false, allowDocumentRejection: false,
    css: '.sign-title{color:red}', cssVars: { primary: '#0f766e', radius: '0.9rem' }, darkModeDisabled: true, language: 'fr',
    parentOrigin: 'http://localhost:5173',
  }

  test('every SignOptions key round-trips with the library encoding', () => {
    expect(parseSignOptions(encodeOptions(all))).toEqual(all)
    expect(parseSignOptions('#' + encodeOptions(all))).toEqual(all)
    expect(parseSignOptions('')).toEqual({})
  })

  test('unknown keys, authoring-only keys and nulls are left out; cssVars numbers become strings', () => {
    const raw = { name: 'A', future: 1, externalId: 'x', type: 'DOCUMENT', features: { allowConfigureLanguage: false }, onlyEditFields: true, email: null, lockName: null, cssVars: { radius: 4 } }
    expect(parseSignOptions(encodeOptions(raw as never))).toEqual({ name: 'A', cssVars: { radius: '4' } })
  })

  test.each([
    ['not base64 at all', '#%%%'],
    ['an array', encodeOptions([] as never)],
    ['lockName as a string', encodeOptions({ lockName: 'yes' } as never)],
    ['allowDocumentRejection as a string', encodeOptions({ allowDocumentRejection: 'false' } as never)],
    ['a numeric name', encodeOptions({ name: 42 } as never)],
    ['an object e-mail', encodeOptions({ email: { a: 1 } } as never)],
    ['a parentOrigin with a path', encodeOptions({ parentOrigin: 'https://app.example.com/sign' })],
    ['cssVars as an array', encodeOptions({ cssVars: ['red'] } as never)],
    ['a cssVars key that is no property name', encodeOptions({ cssVars: { 'a;b': 'red' } })],
  ])('%s is INVALID_OPTIONS', (_, hash) => {
    let error: unknown
    try {
      parseSignOptions(hash)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(LaunchError)
    expect((error as LaunchError).code).toBe('INVALID_OPTIONS')
  })

  test('the embed reads its hash; the standalone page ignores whatever hash it has', () => {
    const hash = '#' + encodeOptions({ name: 'Emil', lockName: true, parentOrigin: 'https://app.example.com' } as never)
    expect(readSignLaunch({ pathname: '/embed/sign/tok', search: '', hash })).toEqual({
      embedded: true, direct: false, token: 'tok', options: { name: 'Emil', lockName: true, parentOrigin: 'https://app.example.com' },
    })
    expect(readSignLaunch({ pathname: '/sign/tok', search: '', hash })).toEqual({ embedded: false, direct: false, token: 'tok', options: {} })
    // Even a hash the embed would refuse: a link from an e-mail must open.
    expect(readSignLaunch({ pathname: '/sign/tok', search: '', hash: '#%%%' })).toEqual({ embedded: false, direct: false, token: 'tok', options: {} })
    expect(readSignLaunch({ pathname: '/embed/sign/tok', search: '', hash: '' })).toEqual({ embedded: true, direct: false, token: 'tok', options: {} })
  })

  test("a template's direct link: /d/{token} and /embed/direct/{token}, the embed with its ?externalId", () => {
    expect(matchSignRoute('/d/abc_123')).toEqual({ embedded: false, direct: true, token: 'abc_123' })
    expect(matchSignRoute('/embed/direct/a%2Fb')).toEqual({ embedded: true, direct: true, token: 'a/b' })
    const hash = '#' + encodeOptions({ email: 'ada@example.com', lockEmail: true } as never)
    expect(readSignLaunch({ pathname: '/embed/direct/tok', search: '?externalId=crm%207', hash })).toEqual({
      embedded: true, direct: true, token: 'tok', externalId: 'crm 7', options: { email: 'ada@example.com', lockEmail: true },
    })
    // The shared link reads neither options nor an external id.
    expect(readSignLaunch({ pathname: '/d/tok', search: '?externalId=x', hash })).toEqual({ embedded: false, direct: true, token: 'tok', options: {} })
  })

  test('the multi-sign embed: its tokens from the query (repeats dropped), 1 to 50 of them', () => {
    const hash = '#' + encodeOptions({ name: 'Mo', lockName: true } as never)
    expect(readSignLaunch({ pathname: '/embed/v1/multisign', search: '?token=a&token=b%2Fc&token=a', hash })).toEqual({
      embedded: true, direct: false, token: 'a', tokens: ['a', 'b/c'], options: { name: 'Mo', lockName: true },
    })
    const code = (search: string) => {
      try {
        readSignLaunch({ pathname: '/embed/v1/multisign', search, hash: '' })
      } catch (e) {
        return (e as LaunchError).code
      }
    }
    expect(code('')).toBe('NOT_FOUND')
    expect(code('?' + Array.from({ length: 51 }, (_, i) => `token=t${i}`).join('&'))).toBe('NOT_FOUND')
  })

  test('a bad embed hash is INVALID_OPTIONS; a path that is no signing page is NOT_FOUND', () => {
    const code = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return e instanceof LaunchError ? e.code : String(e)
      }
      return 'no error'
    }
    expect(code(() => readSignLaunch({ pathname: '/embed/sign/tok', search: '', hash: '#' + encodeOptions({ lockEmail: 1 } as never) }))).toBe('INVALID_OPTIONS')
    expect(code(() => readSignLaunch({ pathname: '/sign/', search: '', hash: '' }))).toBe('NOT_FOUND')
    expect(code(() => readSignLaunch({ pathname: '/embed/v2/authoring/envelope/create', search: '', hash: '' }))).toBe('NOT_FOUND')
  })
})
